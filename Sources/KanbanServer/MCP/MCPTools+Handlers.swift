import Foundation
import KanbanCore
import KanbanGit

extension MCPTools {
    // MARK: Running store calls

    /// Runs a reading store call on the board, turning its errors into the tool's.
    func read<T>(_ body: (BoardStore) throws -> T) throws(MCPToolError) -> T {
        let store = try board.require()
        do {
            return try body(store)
        } catch {
            throw Self.toolError(error)
        }
    }

    /// Makes a change as the command line makes it: when it is to be committed (`--commit`, `KANBAN_COMMIT=1` or
    /// `autocommit: true`), the board's lock is held from the change to its commit, and a change that cannot be
    /// committed is refused before it is made. Returns what `body` returns, and the commit as JSON when one was made.
    func change<T>(_ body: (BoardStore) throws -> (T, BoardChange)) throws(MCPToolError) -> (T, [String: JSON]) {
        let session = try board.requireSession()
        let store = session.store
        do {
            return try session.withChange {
                let (value, change) = try body(store)
                var extra: [String: JSON] = [:]
                // Neighbours whose position keys had to change to make room: the agent is told it touched them.
                let others = change.writtenPaths.filter { $0 != change.card?.path && $0 != change.previous?.path && $0.hasPrefix("cards/") }
                if !others.isEmpty { extra["rekeyed"] = .array(others.map(JSON.string)) }
                // A column put over its WIP limit: the agent is told, to pick other work next time.
                if let excess = change.overLimit { extra["overLimit"] = .string(excess.message) }
                extra.merge(Self.commitMembers(try session.commit([change]))) { first, _ in first }
                return (value, extra)
            }
        } catch {
            throw Self.toolError(error)
        }
    }

    /// What a change's commit adds to its result: `committed` (`{"commit", "message"}`), or the `warning` of a
    /// board outside git; nothing when it was not committed.
    static func commitMembers(_ outcome: CommitOutcome) -> [String: JSON] {
        switch outcome {
        case .notCommitted: [:]
        case .committed(let result):
            ["committed": .object(["commit": .string(result.shortCommit), "message": .string(result.message.subject)])]
        case .notInRepository(let warning): ["warning": .string(warning)]
        }
    }

    static func toolError(_ error: any Error) -> MCPToolError {
        switch error {
        case let error as MCPToolError: return error
        case let error as KanbanError: return MCPToolError(error)
        case let error as SyncError: return MCPToolError(error.message + (error.hint.map { " (\($0.replacingOccurrences(of: "\n", with: " ")))" } ?? ""))
        default: return MCPToolError("\(error)")
        }
    }

    /// A card as an agent names it: a slug, a prefix, or a path relative to the board (never to the directory the
    /// server was started in, which the agent knows nothing of).
    private func reference(_ text: String) -> String { text }

    private func placement(_ arguments: MCPArguments) throws(MCPToolError) -> Placement? {
        switch try arguments.placement() {
        case .before(let card): .before(reference(card))
        case .after(let card): .after(reference(card))
        case let other: other
        }
    }

    /// The card at `path` with its body, read under one look at the file.
    private func fullCard(_ store: BoardStore, _ path: String) throws -> JSON {
        let card = try store.card(path, in: .all)
        return JSON(card: card, includeBody: true, body: try store.body(of: card))
    }

    private func merged(_ members: [String: JSON], _ extra: [String: JSON]) -> JSON {
        .object(members.merging(extra) { first, _ in first })
    }

    // MARK: Reading

    /// The boards served (several), each with its title and number of cards, or why it does not read now.
    func boardList() -> JSON {
        .object(["boards": .array(named.map { entry in
            var members: [String: JSON] = ["name": .string(entry.name), "directory": .string(entry.board.store?.directory ?? "")]
            do {
                let snapshot = try entry.board.require().load()
                members["title"] = .string(snapshot.board.title)
                members["cards"] = .number(String(snapshot.cards.count))
            } catch {
                members["error"] = .string(Self.toolError(error).message)
            }
            return .object(members)
        })])
    }

    func boardOverview() throws(MCPToolError) -> JSON {
        try read { store in
            let snapshot = try store.load()
            let archived = try store.load(.archived)
            let board = snapshot.board
            let columns: [JSON] = snapshot.columnIDs.map { id in
                let column = board.column(withID: id)
                return .object(["id": .string(id), "name": .string(column?.name ?? id), "collapsed": .bool(column?.isCollapsed ?? false),
                                "count": .number(String(snapshot.cards(inColumn: id).count)),
                                "limit": column?.wipLimit.map { .number(String($0)) } ?? .null])
            }
            let unreadable = (snapshot.diagnostics + archived.diagnostics).filter { $0.severity == .error }
            return .object([
                "title": .string(board.title),
                "directory": .string(store.directory),
                "columns": .array(columns),
                "labels": .array(board.labels.map { label in
                    .object(["id": .string(label.id), "name": .string(label.name), "color": label.color.map(JSON.string) ?? .null])
                }),
                "archived": .number(String(archived.cards.count)),
                "unreadable": .array(unreadable.map { .string("\($0.location): \($0.message)") }),
            ])
        }
    }

    func listCards(_ arguments: MCPArguments) throws(MCPToolError) -> JSON {
        let column = try arguments.string("column")
        let labels = try arguments.strings("labels") ?? []
        let archived = try arguments.bool("archived")
        return try read { store in
            let board = try store.loadBoard()
            if let column, board.column(withID: column) == nil {
                throw KanbanError(.columnNotFound, "no column '\(column)' on this board", candidates: board.columns.map(\.id))
            }
            let snapshot = try store.load(archived ? .archived : .active, columns: column.map { [$0] })
            let cards = snapshot.cards.filter { card in labels.allSatisfy(card.labels.contains) }
            return .object(["cards": .array(cards.map { JSON(card: $0) }), "count": .number(String(cards.count))])
        }
    }

    func searchCards(_ arguments: MCPArguments) throws(MCPToolError) -> JSON {
        let text = try arguments.requiredString("query")
        let archived = try arguments.bool("archived")
        return try read { store in
            let (hits, _) = try store.search(try CardQuery(parsing: text), in: archived ? .all : .active)
            let cards: [JSON] = hits.map { hit in
                guard case .object(var members) = JSON(card: hit.card) else { return .null }
                members["match"] = .object(["line": .string(hit.match.line),
                                            "lineNumber": hit.match.lineNumber.map { .number(String($0)) } ?? .null])
                return .object(members)
            }
            return .object(["cards": .array(cards), "count": .number(String(cards.count))])
        }
    }

    func showCard(_ arguments: MCPArguments) throws(MCPToolError) -> JSON {
        let card = reference(try arguments.requiredString("card"))
        return try read { store in try fullCard(store, store.path(of: card, in: .all)) }
    }

    func boardStatus() throws(MCPToolError) -> JSON {
        let store = try board.require()
        do {
            guard let provider = board.git else { return .null }
            return StatusJSON.json(try provider.status(), toTidy: StatusJSON.cardsToTidy(store))
        } catch let error as SyncError {
            return .object(["state": .string("not-a-repository"), "message": .string(error.message)])
        } catch {
            throw Self.toolError(error)
        }
    }

    // MARK: Changing

    func addCard(_ arguments: MCPArguments) throws(MCPToolError) -> JSON {
        let title = try arguments.requiredString("title")
        let column = try arguments.string("column")
        let labels = try arguments.strings("labels") ?? []
        let body = try arguments.string("body")
        let placement = try placement(arguments)
        let (card, extra) = try change { store in
            let change = try store.createCard(title: title, in: column, labels: labels, body: body, placement: placement ?? .bottom)
            return (try fullCard(store, change.card?.path ?? title), change)
        }
        return merged(["card": card], extra)
    }

    func updateCard(_ arguments: MCPArguments) throws(MCPToolError) -> JSON {
        let card = reference(try arguments.requiredString("card"))
        var update = CardUpdate()
        update.title = try arguments.string("title")
        update.labels = try arguments.strings("labels")
        update.addedLabels = try arguments.strings("add_labels") ?? []
        update.removedLabels = try arguments.strings("remove_labels") ?? []
        update.body = try arguments.string("body")
        let fields = try arguments.fields("fields")
        update.fields = fields.set.map { YAMLMapEntry(key: $0.0, value: .string($0.1)) }
        update.removedFields = fields.removed
        let dependencies = try arguments.strings("depends_on")
        if update.isEmpty && dependencies == nil {
            throw MCPToolError("nothing to change: give title, add_labels, remove_labels, labels, body, fields or depends_on")
        }
        let (result, extra) = try change { store in
            var change = update.isEmpty ? nil : try store.updateCard(card, update, in: .all)
            if let dependencies {
                // The list given replaces the card's: what it lacks is removed, what is new is added (and checked).
                let current = try store.card(change?.card?.path ?? card, in: .active)
                let dropped = current.dependencies.filter { !dependencies.contains($0) }
                let setting = try store.setDependencies(of: current.path, adding: dependencies, removing: dropped)
                if change == nil || !setting.writtenPaths.isEmpty { change = setting }
            }
            guard let change else { throw MCPToolError("nothing to change") }
            return (try fullCard(store, change.card?.path ?? card), change)
        }
        return merged(["card": result], extra)
    }

    func moveCard(_ arguments: MCPArguments) throws(MCPToolError) -> JSON {
        let card = reference(try arguments.requiredString("card"))
        let column = try arguments.string("column")
        let placement = try placement(arguments)
        guard column != nil || placement != nil else {
            throw MCPToolError("give the column to move it to, or a place: top, bottom, before or after")
        }
        let (moved, extra) = try change { store in
            let change = try store.moveCard(card, to: column, placement: placement)
            let moved = try store.card(change.card?.path ?? card, in: .active)
            return ((moved, change.previous?.column), change)
        }
        var members: [String: JSON] = ["card": JSON(card: moved.0)]
        if let from = moved.1 { members["from"] = .string(from) }
        return merged(members, extra)
    }

    func archiveCard(_ arguments: MCPArguments) throws(MCPToolError) -> JSON {
        let card = reference(try arguments.requiredString("card"))
        let (archived, extra) = try change { store in
            let change = try store.archiveCard(card)
            return (try store.card(change.card?.path ?? card, in: .archived), change)
        }
        return merged(["card": JSON(card: archived)], extra)
    }

    func unarchiveCard(_ arguments: MCPArguments) throws(MCPToolError) -> JSON {
        let card = reference(try arguments.requiredString("card"))
        let column = try arguments.string("column")
        let (restored, extra) = try change { store in
            let change = try store.unarchiveCard(card, to: column)
            return (try store.card(change.card?.path ?? card, in: .active), change)
        }
        return merged(["card": JSON(card: restored)], extra)
    }

    func deleteCard(_ arguments: MCPArguments) throws(MCPToolError) -> JSON {
        let card = reference(try arguments.requiredString("card"))
        let (deleted, extra) = try change { store in
            let found = try store.card(card, in: .active)
            let change = try store.deleteCard(found.path, in: .active)
            return ((found.slug, found.path), change)
        }
        return merged(["deleted": .string(deleted.0), "path": .string(deleted.1)], extra)
    }

    /// What `kanban sync` does, as a library call: its lines as messages; a failure as the tool's error, with the
    /// steps done before it.
    func sync(_ arguments: MCPArguments) throws(MCPToolError) -> JSON {
        let session = try board.requireSession()
        let noPush = try arguments.bool("no_push")
        let board = try? session.store.loadBoard()
        var steps: [SyncStep] = []
        do throws(SyncError) {
            _ = try session.sync(pushing: !noPush) { steps.append($0) }
        } catch {
            let lines = steps.flatMap { $0.lines(board: board) }.map(\.text) + error.lines
            throw MCPToolError((["kanban sync failed:"] + lines).joined(separator: "\n"))
        }
        return SyncJSON.json(steps: steps, board: board)
    }
}
