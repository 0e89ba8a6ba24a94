import KanbanCore
import KanbanGit
import KanbanServer

/// `kanban sync [--no-push]`: commit the board's pending changes, pull, push.
enum SyncCommand: KanbanCommand {
    static let conflictStatus = ExitCode(rawValue: 2)

    static let spec = CommandSpec(
        name: "sync",
        abstract: "Commit the board's changes, pull other people's, push yours.",
        discussion: """
            1. Commits every uncommitted change of the board (cards and board.md, never other files) as one commit \
            describing them. 2. Fetches the upstream and fast-forwards, or merges it card by card in a merge commit \
            (other uncommitted work is put aside for the merge and put back). 3. Pushes, never by force; when \
            someone pushed meanwhile, fetches, merges and tries again (up to 10 times, waiting a little longer each \
            time). A 'git merge' (or plain 'git pull') that stopped on cards is finished first: those cards are \
            merged by the rules below and the merge committed; conflicts outside the board must be resolved and \
            added before.

            The merge never stops on a card. A key one side changed takes that change; a key both changed takes the \
            later 'modified' (labels merge as sets); a card moved to two places goes where the later change put it; \
            a card deleted on one side stays deleted unless the other side changed it after the delete; two cards \
            added under one name both stay, the one created later taking a name made from its creation time. Where both sides \
            changed the same lines of a body, the later version's lines stay in place and the other side's are kept \
            in a marked section at the end of the card: the sync succeeds with a warning, and 'kanban status' and \
            'kanban doctor' name the card until someone tidies it. The same rules give the same board on every \
            clone, whoever syncs first (FORMAT.md, "Sync"). Only a conflict in files outside the board stops the \
            sync, with everything as it was before it. 'kanban git-setup' makes plain 'git pull' and 'git merge' \
            merge cards the same way, as far as git lets a merge driver decide.

            Remote calls give up after KANBAN_GIT_TIMEOUT seconds (default 60). git is $KANBAN_GIT, else git on PATH.
            """,
        options: [
            .flag("no-push", help: "Commit and pull, but do not push."),
            .flag("json", help: "Print what the sync did as JSON on standard output: {\"ok\", \"steps\", \"messages\", \"error\"}, each step with \"step\" (finished-merge, committed, pulled, pushed). The exit status is the same."),
        ],
        exitStatuses: [
            ExitStatusHelp(.success, "The board is committed and in sync with its upstream."),
            ExitStatusHelp(.failure, "A step failed (no repository, no remote or upstream, no identity, a hook, a lock, a timeout, a refused push); the reason was written to standard error and nothing was lost."),
            ExitStatusHelp(conflictStatus, "Your changes and the upstream's conflict in files outside the board; nothing was changed, the files are listed."),
            ExitStatusHelp(.usage, "The command line was wrong."),
        ])

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let session = try context.session()
        let board = try? session.store.loadBoard()
        let isJSON = arguments.flag("json")
        var steps: [SyncStep] = []
        do throws(SyncError) {
            _ = try session.sync(pushing: !arguments.flag("no-push")) { step in
                steps.append(step)
                if !isJSON { for line in step.lines(board: board) { show(line, context: context) } }
            }
            if isJSON { context.printJSON(SyncJSON.json(steps: steps, board: board)) }
            return .success
        } catch {
            if isJSON { context.printJSON(SyncJSON.json(steps: steps, error: error, board: board)) }
            context.report(error)
            return error.code == .conflict ? conflictStatus : .failure
        }
    }

    /// A line of the sync's account: a commit as every command notes one, a warning on standard error (seen even
    /// with --quiet: a person has to look at it).
    static func show(_ line: SyncLine, context: CommandContext) {
        switch line {
        case .said(let text):
            context.say(text)
        case .committed(let result):
            context.noteCommit(result)
        case .warning(let text):
            context.errorOutput.writeLine("\(context.errorStylist.apply(.bold + .yellow, to: "warning")): \(text)")
        }
    }
}
