extension FlowReport {
    /// The slugs of `slugs` (the board's cards now) that no history has: cards not committed yet.
    public static func slugsNotInHistory(slugs: [String], histories: [CardHistory]) -> [String] {
        let known = Set(histories.map(\.slug))
        return slugs.filter { !known.contains($0) }.sorted()
    }

    /// The slugs of the board's cards now (those with all of `labels`) that no history has: cards not committed yet.
    /// Without labels the cards' file names say which there are, and no card is read.
    public static func slugsNotInHistory(of store: BoardStore, labels: [String], histories: [CardHistory]) -> [String] {
        let slugs = labels.isEmpty ? ((try? store.slugs(in: .all)) ?? [])
            : ((try? store.load(.all).cards) ?? []).filter { card in labels.allSatisfy(card.labels.contains) }.map(\.slug)
        return slugsNotInHistory(slugs: slugs, histories: histories)
    }
}
