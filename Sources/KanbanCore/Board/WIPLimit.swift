/// A column over its WIP limit: how many cards it holds against the most it should.
public struct WIPLimitExcess: Sendable, Hashable {
    /// The column's id.
    public var column: String
    /// The cards in it (after the change that put it over).
    public var count: Int
    /// Its limit.
    public var limit: Int

    /// Creates an excess.
    public init(column: String, count: Int, limit: Int) {
        self.column = column
        self.count = count
        self.limit = limit
    }

    /// `column 'in-progress' holds 5 cards, over its WIP limit of 4`: the warning every surface shows.
    public var message: String {
        "column '\(column)' holds \(count) card\(count == 1 ? "" : "s"), over its WIP limit of \(limit)"
    }
}

extension Board {
    /// Each column over its limit with `counts` (cards by column id), in board order.
    public func columnsOverLimit(counts: [String: Int]) -> [WIPLimitExcess] {
        columns.compactMap { column in
            guard let limit = column.wipLimit, let count = counts[column.id], count > limit else { return nil }
            return WIPLimitExcess(column: column.id, count: count, limit: limit)
        }
    }
}

extension BoardStore {
    /// What adding one card to `column` does to its WIP limit: nil when the column has no limit or room for it;
    /// else the excess, or a thrown ``KanbanError/Code/overLimit`` when `strict` (or board.md's `wip-limits:
    /// strict`) refuses it. Called under the board lock, before anything is written.
    func limitCheck(adding column: String, board: Board, strict: Bool, root: BoardRoot) throws(KanbanError) -> WIPLimitExcess? {
        guard let limit = board.column(withID: column)?.wipLimit else { return nil }
        let count = try listCardFiles(.active, columns: [column], board: board, in: root).files.count + 1
        guard count > limit else { return nil }
        let excess = WIPLimitExcess(column: column, count: count, limit: limit)
        if strict || board.refusesOverLimit {
            let why = board.refusesOverLimit ? "board.md sets wip-limits: strict" : "limits are strict"
            throw KanbanError(.overLimit, "column '\(column)' is at its WIP limit of \(limit) (\(why)); finish or move a card out of it first")
        }
        return excess
    }
}
