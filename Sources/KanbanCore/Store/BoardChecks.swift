/// The board-level checks: what ``BoardStore/check()`` reports.
enum BoardChecks {
    static func run(_ snapshot: BoardSnapshot) -> [Diagnostic] {
        var diagnostics = snapshot.diagnostics + snapshot.findings
        let board = snapshot.board
        let declaredColumns = Set(board.columns.map(\.id))
        for id in snapshot.columnIDs where !declaredColumns.contains(id) {
            diagnostics.append(Diagnostic(.warning, .undeclaredColumn, at: SourceLocation(path: "cards/\(id)/"),
                                          "directory is not a column declared in board.md; add it with 'kanban column add \(id)' or move its cards"))
        }
        var firstBySlug: [String: Card] = [:]
        var firstByPosition: [String: Card] = [:]
        for card in snapshot.cards {
            if let other = firstBySlug[card.slug] {
                let severity: Diagnostic.Severity = card.isArchived || other.isArchived ? .warning : .error
                if !(card.isArchived && other.isArchived) {
                    diagnostics.append(Diagnostic(severity, .duplicateSlug, at: SourceLocation(path: card.path, line: 1, column: 1),
                                                  "slug '\(card.slug)' is also used by \(other.path)"))
                }
            } else {
                firstBySlug[card.slug] = card
            }
            if !card.isArchived, let position = card.position {
                let key = card.column + "\u{0}" + position
                if let other = firstByPosition[key] {
                    diagnostics.append(Diagnostic(.warning, .duplicatePosition, at: SourceLocation(path: card.path, line: 1, column: 1),
                                                  "position '\(position)' is also used by \(other.path); ties are ordered by slug"))
                } else {
                    firstByPosition[key] = card
                }
            }
        }
        return diagnostics.sorted { lhs, rhs in
            if lhs.location.path != rhs.location.path { return lhs.location.path.utf8Precedes(rhs.location.path) }
            return (lhs.location.line ?? 0) < (rhs.location.line ?? 0)
        }
    }
}
