import KanbanCore
import KanbanWatch

/// What a change made from `kanban tui` did, for ``TUIState/apply(_:)``.
struct ChangeResult: Sendable {
    /// What the store changed (also when committing it failed afterwards).
    var changes: [BoardChange] = []
    /// The line for the status bar.
    var message: String
    /// Whether the message reports a failure.
    var isError = false
    /// How to undo the change, when it changed something.
    var undo: UndoEntry?
    /// The path of the card to select afterwards.
    var selecting: String?
    /// Other cards the change rewrote (neighbours re-keyed to make room), read back.
    var neighbours: [Card] = []
}

/// Makes the changes asked for from the keyboard, and their undoing, with the store calls the commands use, and
/// commits each as they do: when committing is asked for (`--commit`, `KANBAN_COMMIT=1`, `autocommit: true`), one
/// commit per change, with the usual message, holding the board's lock from the change to the commit.
struct ChangeRunner {
    let context: CommandContext
    let store: BoardStore

    /// Makes `edit` on `board` (which gives a moved or archived card's neighbours, for undoing).
    func perform(_ edit: BoardEdit, on board: LiveBoard) -> ChangeResult {
        let columns = board.board
        return run { step in
            switch edit {
            case .move(let card, let column, let placement):
                let place = Self.place(of: card, on: board)
                let change = try step.record(store.moveCard(card.path, to: column, placement: placement))
                guard let moved = change.card else { return }
                step.selecting = moved.path
                if moved.column != card.column {
                    step.message = "moved \(moved.slug): \(columns.columnName(card.column)) → \(columns.columnName(moved.column))"
                } else if change.writtenPaths.isEmpty {
                    step.message = "\(moved.slug) is already there"
                    return
                } else {
                    step.message = "moved \(moved.slug) within \(columns.columnName(moved.column))"
                }
                step.undo = .moved(path: moved.path, title: card.title, column: card.column, place: place)
                if let excess = change.overLimit { step.message += " (warning: \(excess.message))" }
            case .create(let title, let column, let placement):
                let change = try step.record(store.createCard(title: title, in: column, placement: placement))
                guard let card = change.card else { return }
                step.message = "added \(card.path)" + (change.overLimit.map { " (warning: \($0.message))" } ?? "")
                step.selecting = card.path
                step.undo = .created(path: card.path, title: card.title)
            case .retitle(let card, let title):
                let change = try step.record(store.updateCard(card.path, CardUpdate(title: title)))
                step.message = "retitled \(card.slug)"
                step.selecting = change.card?.path
                if !change.writtenPaths.isEmpty { step.undo = .retitled(path: card.path, title: card.title) }
            case .setLabel(let card, let label, let isOn):
                let update = isOn ? CardUpdate(addedLabels: [label]) : CardUpdate(removedLabels: [label])
                let change = try step.record(store.updateCard(card.path, update))
                step.message = "\(isOn ? "labelled" : "unlabelled") \(card.slug): \(label)"
                step.selecting = change.card?.path
                if !change.writtenPaths.isEmpty {
                    step.undo = .labelled(path: card.path, title: card.title, label: label, isAdded: isOn)
                }
            case .archive(let card):
                let place = Self.place(of: card, on: board)
                let change = try step.record(store.archiveCard(card.path))
                guard let archived = change.card else { return }
                step.message = "archived \(card.slug) → \(archived.path)"
                step.undo = .archived(archivePath: archived.path, title: card.title, column: card.column, place: place)
            case .delete(let card):
                // Read and removed under one hold of the lock, so that undo writes back exactly what was deleted.
                let bytes = try store.withExclusiveAccess { () throws -> [UInt8] in
                    let bytes = try store.contents(atPath: card.path)
                    try step.record(store.deleteCard(card.path))
                    return bytes
                }
                step.message = "deleted \(card.slug) (\(card.path))"
                step.undo = .deleted(bytes: bytes, slug: card.slug, title: card.title, column: card.column)
            }
        }
    }

    /// Undoes `entry` with the inverse change, made and committed like any other.
    func undo(_ entry: UndoEntry) -> ChangeResult {
        var result = run { step in
            switch entry {
            case .moved(let path, _, let column, let place):
                let change = try moveBack(path, to: column, place: place)
                step.record(change)
                step.selecting = change.card?.path
            case .created(let path, _):
                step.record(try store.deleteCard(path))
            case .retitled(let path, let title):
                step.selecting = try step.record(store.updateCard(path, CardUpdate(title: title))).card?.path
            case .labelled(let path, _, let label, let isAdded):
                let update = isAdded ? CardUpdate(removedLabels: [label]) : CardUpdate(addedLabels: [label])
                step.selecting = try step.record(store.updateCard(path, update)).card?.path
            case .archived(let archivePath, _, let column, let place):
                let unarchived = try step.record(store.unarchiveCard(archivePath, to: column))
                guard let card = unarchived.card else { return }
                step.selecting = card.path
                step.record(try moveBack(card.path, to: nil, place: place))
            case .deleted(let bytes, let slug, _, let column):
                step.selecting = try step.record(store.restoreCard(bytes, slug: slug, in: column)).card?.path
            }
            step.message = "undid \(entry.summary)"
        }
        result.undo = nil
        return result
    }

    // MARK: Running a change

    /// What a change did so far: filled in as it goes, so that a failure part-way still reports what was made.
    private struct Step {
        var changes: [BoardChange] = []
        var message = ""
        var undo: UndoEntry?
        var selecting: String?

        @discardableResult
        mutating func record(_ change: BoardChange) -> BoardChange {
            changes.append(change)
            return change
        }
    }

    /// Runs `body` and commits what it changed, as one commit, when committing is asked for.
    private func run(_ body: (inout Step) throws -> Void) -> ChangeResult {
        var step = Step()
        do {
            let session = try context.session()
            let outcome = try session.withChange { () throws -> CommitOutcome in
                try body(&step)
                guard !step.changes.isEmpty else { return .notCommitted }
                return try session.commit([Self.combined(step.changes)])
            }
            var message = step.message
            let neighbours = rekeyedNeighbours(of: step.changes)
            switch outcome {
            case .notCommitted: break
            case .committed(let result): message += " · committed \(result.shortCommit)"
            case .notInRepository(let warning): message += " · warning: \(warning)"
            }
            return ChangeResult(changes: step.changes, message: message, undo: step.undo, selecting: step.selecting,
                                neighbours: neighbours)
        } catch {
            return ChangeResult(changes: step.changes, message: Self.describe(error), isError: true,
                                undo: step.undo, selecting: step.selecting)
        }
    }

    /// The cards `changes` rewrote besides their own card (neighbours re-keyed to make room), read back.
    private func rekeyedNeighbours(of changes: [BoardChange]) -> [Card] {
        let own = Set(changes.compactMap { $0.card?.path })
        let paths = changes.flatMap(\.writtenPaths).filter { !own.contains($0) && $0.hasPrefix("cards/") }
        return Set(paths).sorted().compactMap { try? store.card($0) }
    }

    /// The changes one action made to one card, as one change, so that it is described (and committed) as one:
    /// an unarchive and the move that puts the card back in its place are one `Unarchive "X" to To Do`.
    static func combined(_ changes: [BoardChange]) -> BoardChange {
        guard let first = changes.first, changes.count > 1 else { return changes.first ?? BoardChange(card: nil, previous: nil, writtenPaths: []) }
        var written: [String] = []
        var removed: [String] = []
        for change in changes {
            for path in change.writtenPaths where !written.contains(path) { written.append(path) }
            removed.removeAll { change.writtenPaths.contains($0) }
            written.removeAll { change.removedPaths.contains($0) }
            for path in change.removedPaths where !removed.contains(path) { removed.append(path) }
        }
        return BoardChange(card: changes.last?.card, previous: first.previous, writtenPaths: written, removedPaths: removed)
    }

    /// Moves the card at `path` (to `column`, when given) next to the cards it was between, or as near as the board
    /// now allows.
    private func moveBack(_ path: String, to column: String?, place: UndoEntry.Place) throws -> BoardChange {
        var lastError = KanbanError(.cardNotFound, "no card at '\(path)'")
        for placement in place.placements {
            let attempt = Result { () throws(KanbanError) -> BoardChange in try store.moveCard(path, to: column, placement: placement) }
            switch attempt {
            case .success(let change):
                return change
            case .failure(let error):
                // The neighbour is gone (or it is the card itself that is): try the next place.
                guard error.code == .cardNotFound || error.code == .ambiguousCard else { throw error }
                lastError = error
            }
        }
        throw lastError
    }

    /// Where `card` is in its column: the paths of the cards just above and below it.
    static func place(of card: Card, on board: LiveBoard) -> UndoEntry.Place {
        guard let (column, index) = board.location(ofPath: card.path) else { return UndoEntry.Place() }
        let cards = board.columns[column].cards
        return UndoEntry.Place(above: index > 0 ? cards[index - 1].path : nil,
                               below: index + 1 < cards.count ? cards[index + 1].path : nil)
    }

    /// One line for the status bar.
    static func describe(_ error: Error) -> String {
        switch error {
        case let error as KanbanError:
            return error.location.map { "\($0): \(error.message)" } ?? error.message
        case let error as SyncError:
            return error.message + (error.hint.map { " (" + $0.split(separator: "\n").joined(separator: " ") + ")" } ?? "")
        case let error as CommandFailure:
            return error.message
        default:
            return "\(error)"
        }
    }
}
