import Foundation

extension BoardStore {
    /// How a scan uses the board's index (nil when the board has none): the index as it is now, and `decide` for
    /// the cards taken from it.
    func indexing<Extra, Item>(_ decide: @escaping @Sendable (Card) -> CardScan<Extra, Item>.IndexedDecision<Extra>)
        -> CardScan<Extra, Item>.Indexing? {
        guard let indexFile else { return nil }
        let startedAt = FileStamp.now()
        return CardScan<Extra, Item>.Indexing(index: indexFile.read(), startedAt: startedAt, decide: decide)
    }
}
