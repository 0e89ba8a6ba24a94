extension FlowReport {
    /// The slugs of `cards` (the board as it is now) that no history has: cards not committed yet.
    public static func slugsNotInHistory(_ cards: [Card], histories: [CardHistory]) -> [String] {
        let known = Set(histories.map(\.slug))
        return cards.map(\.slug).filter { !known.contains($0) }.sorted()
    }
}
