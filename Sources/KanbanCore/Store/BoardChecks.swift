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
        var firstByCollisionKey: [String: Card] = [:]
        var firstByFileKey: [String: Card] = [:]
        for card in snapshot.cards {
            // Names a case-insensitive disk (macOS's, Windows') cannot tell apart: in one directory the checkout
            // breaks there; in two, a move of one card beside the other would.
            let slash = card.path.utf8.lastIndex(of: UInt8(ascii: "/")).map { card.path.utf8.index(after: $0) } ?? card.path.startIndex
            let fileKey = String(card.path[..<slash]) + Slug.collisionKey(String(card.path[slash...]))
            if let other = firstByFileKey[fileKey] {
                diagnostics.append(Diagnostic(.error, .slugCaseCollision, at: SourceLocation(path: card.path, line: 1, column: 1),
                                              "file name differs from \(other.path) only in case or accents; a case-insensitive disk (macOS, Windows) cannot hold both; rename one of the files"))
            } else {
                firstByFileKey[fileKey] = card
            }
            let collisionKey = Slug.collisionKey(card.slug)
            if let other = firstByCollisionKey[collisionKey] {
                if other.slug != card.slug, !card.isArchived, !other.isArchived, other.column != card.column {
                    diagnostics.append(Diagnostic(.warning, .slugCaseCollision, at: SourceLocation(path: card.path, line: 1, column: 1),
                                                  "slug '\(card.slug)' differs from \(other.path)'s only in case or accents; on a case-insensitive disk the two cannot share a column"))
                }
            } else {
                firstByCollisionKey[collisionKey] = card
            }
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
        diagnostics += dependencies(snapshot, firstBySlug: firstBySlug)
        return diagnostics.sorted { lhs, rhs in
            if lhs.location.path != rhs.location.path { return lhs.location.path.utf8Precedes(rhs.location.path) }
            return (lhs.location.line ?? 0) < (rhs.location.line ?? 0)
        }
    }

    /// Dependencies that can never be met: slugs on the board nowhere, and cycles.
    static func dependencies(_ snapshot: BoardSnapshot, firstBySlug: [String: Card]) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        let active = snapshot.cards.filter { !$0.isArchived }
        for card in active {
            for slug in card.dependencies where firstBySlug[slug] == nil {
                diagnostics.append(Diagnostic(.warning, .unknownDependency, at: SourceLocation(path: card.path, line: 1, column: 1),
                    "depends on '\(slug)', which is not on the board (deleted, or renamed by hand), so the card is never ready; 'kanban depend \(card.slug) --remove \(slug)' drops it"))
            }
        }
        guard active.contains(where: { !$0.dependencies.isEmpty }) else { return diagnostics }
        // Cycles do not depend on the board's flow; any flow will do to build the queue.
        let flow = WorkFlow(unchecked: snapshot.board)
        for cycle in WorkQueue(flow: flow, cards: active, archivedSlugs: []).cycles() {
            guard let first = firstBySlug[cycle[0]] else { continue }
            diagnostics.append(Diagnostic(.warning, .dependencyCycle, at: SourceLocation(path: first.path, line: 1, column: 1),
                "cards wait for each other in a cycle, so none is ever ready: \((cycle + [cycle[0]]).joined(separator: " → ")); 'kanban depend CARD --remove SLUG' breaks it"))
        }
        return diagnostics
    }

    /// What `board.md` holds that SimpleKanban reads otherwise than kanban or a YAML reader: values the readers
    /// disagree on, and labels without a colour (which the app drops).
    static func boardFile(_ file: BoardFile) -> [Diagnostic] {
        var diagnostics = file.document.appReadings.compactMap { reading in
            AppDialect.disagreement(reading).map {
                Diagnostic(.warning, .readsDifferently, at: SourceLocation(path: BoardFile.path, line: reading.line, column: reading.column), $0)
            }
        }
        // On a case-insensitive disk (macOS's, Windows') two such columns are one directory, and each shows the
        // other's cards.
        var firstByFolded: [String: Column] = [:]
        for column in file.board.columns {
            guard let other = firstByFolded[column.id.lowercased()] else {
                firstByFolded[column.id.lowercased()] = column
                continue
            }
            let place = file.location(ofItem: column.id, in: "columns")
            diagnostics.append(Diagnostic(.error, .columnCaseCollision, at: SourceLocation(path: BoardFile.path, line: place?.line, column: place?.column),
                                          "column id '\(column.id)' differs from '\(other.id)' only in case; a case-insensitive disk (macOS, Windows) holds the two in one directory; move the cards of one into the other and remove it"))
        }
        for item in file.document.value(forKey: "columns")?.list ?? [] {
            guard let id = item["id"]?.string, let value = item[Column.wipLimitKey], Column.wipLimit(from: value.string ?? "") == nil else { continue }
            let place = file.location(ofItem: id, in: "columns")
            let shown = value.string.map { "'\($0)'" } ?? "a list or map"
            diagnostics.append(Diagnostic(.warning, .invalidWIPLimit, at: SourceLocation(path: BoardFile.path, line: place?.line, column: place?.column),
                                          "column '\(id)' has wip-limit \(shown), which is no whole number from 1 to 100000, so it has no limit; set one with 'kanban column limit \(id) N'"))
        }
        for label in file.board.labels where label.color == nil {
            let line = file.line(ofItem: label.id, in: "labels")
            diagnostics.append(Diagnostic(.warning, .labelWithoutColor, at: SourceLocation(path: BoardFile.path, line: line, column: line == nil ? nil : 1),
                                          "label '\(label.id)' has no colour; SimpleKanban drops it and removes it from board.md when it saves; add one with 'kanban label rename \(label.id) --colour #rrggbb'"))
        }
        return diagnostics
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
