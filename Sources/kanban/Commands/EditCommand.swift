import Foundation
import KanbanCore
import KanbanServer

/// `kanban edit CARD`.
enum EditCommand: KanbanCommand {
    static let spec = CommandSpec(
        name: "edit",
        abstract: "Open a card in your editor.",
        discussion: """
            Runs $VISUAL, else $EDITOR, else vi, on the card's file. Afterwards the card is read back and any \
            problem is reported as path:line:column; your text is never thrown away. With --commit (or \
            KANBAN_COMMIT=1, or 'autocommit: true' in board.md) a card that changed and reads back cleanly is \
            committed, as 'Edit "Title" (body)'. A card that changed gets the time of the edit as its 'modified'.
            """,
        arguments: [.required("card", help: "A slug, a unique slug prefix or a path.")])

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let store = try context.store()
        // A card that does not parse can be opened too: the editor is how it gets fixed.
        return try edit(path: store.path(of: context.cardReference(arguments.argument("card") ?? ""), in: .all),
                        store: store, context: context)
    }

    /// Opens `card` in the editor and checks the file afterwards; `add --edit` commits the new card itself.
    static func edit(_ card: Card, store: BoardStore, context: CommandContext) throws -> ExitCode {
        try edit(path: card.path, store: store, context: context, commits: false)
    }

    /// Opens the card file at `path` (relative to the board) in the editor and checks it afterwards.
    /// - Parameter commits: Whether to commit the edit when committing is asked for.
    static func edit(path cardPath: String, store: BoardStore, context: CommandContext, commits: Bool = true) throws -> ExitCode {
        switch try editAndCheck(path: cardPath, store: store, context: context, commits: commits) {
        case .unreadable(let error):
            context.report(error)
            context.errorOutput.writeLine("  The file is kept as you wrote it; run 'kanban edit \(cardPath)' to fix it.")
            return .failure
        case .removed:
            context.reportFailure(removedMessage(cardPath))
            return .failure
        case .unchanged:
            return .success
        case .changed(_, let outcome):
            context.note(outcome)
            return .success
        }
    }

    /// What became of an edit.
    enum Outcome {
        /// The file is as it was.
        case unchanged
        /// The file changed and reads back as this card; with the commit's outcome.
        case changed(Card, CommitOutcome)
        /// The file no longer parses; it is kept as the editor left it.
        case unreadable(KanbanError)
        /// The editor deleted the file: the card is gone.
        case removed
    }

    /// What to say when the editor deleted the card file at `path`.
    static func removedMessage(_ path: String) -> String {
        "the editor deleted '\(path)'; the card is gone"
    }

    /// Runs the editor on the card file at `path` (relative to the board), reads the card back and, when it
    /// changed and reads back cleanly and `commits`, commits it when committing is asked for. Prints nothing.
    /// - Throws: ``CommandFailure`` when the editor cannot be started or fails; what committing throws.
    static func editAndCheck(path cardPath: String, store: BoardStore, context: CommandContext, commits: Bool = true) throws -> Outcome {
        let bytesBefore = try? store.contents(atPath: cardPath)
        let before = try? store.card(cardPath, in: .all)
        let editor = [context.environment["VISUAL"], context.environment["EDITOR"]]
            .compactMap { $0 }.first { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? "vi"
        let path = store.directory + "/" + cardPath
        context.output.flush()
        // The editor may carry arguments (`code --wait`), so the shell splits it; the path is passed separately.
        switch SystemCalls.runShell("\(editor) \"$1\"", arguments: [path]) {
        case .failure(let failure):
            throw CommandFailure(message: "cannot start the editor '\(editor)': \(String(cString: strerror(failure.code)))")
        case .success(127):
            throw CommandFailure(message: "cannot run the editor '\(editor)': command not found; set VISUAL or EDITOR")
        case .success(let status) where status != 0:
            throw CommandFailure(message: "the editor '\(editor)' exited with status \(status); the card is as the editor left it")
        case .success:
            break
        }
        var status = stat()
        guard lstat(path, &status) == 0 || errno != ENOENT else { return .removed }
        var after: Card
        do {
            after = try store.card(cardPath, in: .all)
        } catch {
            return .unreadable(error)
        }
        guard (try? store.contents(atPath: cardPath)) != bytesBefore else { return .unchanged }
        // Like every command that changes a card, the edit sets `modified`: the sync rules judge which change is later by it.
        after = try store.markModified(cardPath).card ?? after
        guard commits else { return .changed(after, .notCommitted) }
        // A card that did not read before the edit has no previous version to compare with.
        let event = before.flatMap { CardEvent(BoardChange(card: after, previous: $0, writtenPaths: [cardPath])) }
            ?? CardEvent(kind: .edited, slug: after.slug, title: after.title, column: after.column, path: cardPath)
        return .changed(after, try context.session().commit(paths: [cardPath], message: CommitMessage(event, board: try? store.loadBoard())))
    }
}
