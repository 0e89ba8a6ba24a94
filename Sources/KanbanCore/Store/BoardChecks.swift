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

    /// What interrupted commands left: temporary files of writes that never finished, and a record of a change that
    /// could not be settled. (A record that could be settled was, when the board was loaded.)
    static func leftovers(in root: BoardRoot, board: Board, columnIDs: [String]) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for path in temporaryFiles(in: root, columnIDs: columnIDs) {
            diagnostics.append(Diagnostic(.warning, .temporaryFile, at: SourceLocation(path: path),
                                          "temporary file left by an interrupted write; 'kanban doctor --fix' removes it"))
        }
        for name in [BoardJournal.name, BoardJournal.damagedName] where root.directory.kind(of: name) != nil {
            diagnostics.append(Diagnostic(.error, .interruptedChange, at: SourceLocation(path: name),
                                          "a change was interrupted and its record could not be settled; check the cards it names, then remove the file"))
        }
        return diagnostics
    }

    /// Removes the temporary files ``leftovers(in:board:columnIDs:)`` reports, and the empty directories of columns
    /// `board.md` no longer declares (what a `column remove` stopped after its change leaves). The caller holds the
    /// board's lock, so no write of this or another process is using them.
    static func removeLeftovers(in root: BoardRoot, board: Board, columnIDs: [String]) -> [Repair] {
        var repairs = temporaryFiles(in: root, columnIDs: columnIDs).compactMap { path in
            (try? root.remove(path)).map { Repair(code: .temporaryFile, path: path, summary: "removed a temporary file left by an interrupted write") }
        }
        let declared = Set(board.columns.map(\.id))
        for id in columnIDs where !declared.contains(id) {
            guard let entries = try? root.entries(of: "cards/" + id), entries.isEmpty,
                  (try? root.kind(of: "cards/" + id)) == .directory else { continue }
            root.removeDirectoryIfEmpty("cards/" + id)
            if (try? root.kind(of: "cards/" + id)) == nil {
                repairs.append(Repair(code: .undeclaredColumn, path: "cards/\(id)/", summary: "removed the empty directory of a column board.md does not declare"))
            }
        }
        return repairs
    }

    /// The board paths of temporary files (`.<name>.kanban-tmp`, and the `.<name>.<pid>.<n>.kanban-tmp` of earlier
    /// versions) in the board directory, the column directories and the archive.
    static func temporaryFiles(in root: BoardRoot, columnIDs: [String]) -> [String] {
        var paths: [String] = []
        for directory in [""] + columnIDs.map({ "cards/" + $0 }) + ["archive"] {
            guard let entries = try? root.entries(of: directory) else { continue }
            for entry in entries where entry.name.hasPrefix(".") && entry.name.hasSuffix(".kanban-tmp") && entry.kind == .file {
                paths.append(directory.isEmpty ? entry.name : directory + "/" + entry.name)
            }
        }
        return paths.sorted { $0.utf8Precedes($1) }
    }
}
