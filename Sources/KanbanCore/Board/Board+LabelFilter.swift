extension Board {
    /// Checks the label ids a filter asks for (`kanban list --label`, `kanban board --label`): each must be a label
    /// of the board, one `board.md` declares or one a card of `cards` carries (a label only cards carry can be asked
    /// for; `kanban doctor` reports it).
    /// - Throws: ``KanbanError/Code/labelNotFound`` for the first that is neither, with the declared ids as candidates,
    ///   as an unknown column is refused.
    package func requireFilterLabels(_ ids: [String], carriedBy cards: [Card]) throws(KanbanError) {
        let unknown = ids.filter { label(withID: $0) == nil }
        guard !unknown.isEmpty else { return }
        var carried: Set<String> = []
        for card in cards { carried.formUnion(card.labels) }
        if let id = unknown.first(where: { !carried.contains($0) }) {
            throw labelNotFound(id)
        }
    }

    /// The error for a label the board has not: its declared ids are the candidates.
    package func labelNotFound(_ id: String) -> KanbanError {
        KanbanError(.labelNotFound, "no label '\(id)' on this board", candidates: labels.map(\.id))
    }
}
