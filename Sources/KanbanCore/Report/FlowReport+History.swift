extension FlowReport {
    /// The slugs of `cards` (the board as it is now) that no history has: cards not committed yet.
    public static func slugsNotInHistory(_ cards: [Card], histories: [CardHistory]) -> [String] {
        slugsNotInHistory(slugs: cards.map(\.slug), histories: histories)
    }

    /// The slugs of `slugs` (the board's cards now) that no history has.
    public static func slugsNotInHistory(slugs: [String], histories: [CardHistory]) -> [String] {
        let known = Set(histories.map(\.slug))
        return slugs.filter { !known.contains($0) }.sorted()
    }
}
