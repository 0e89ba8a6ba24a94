import KanbanCore
import KanbanGit

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
        ],
        exitStatuses: [
            ExitStatusHelp(.success, "The board is committed and in sync with its upstream."),
            ExitStatusHelp(.failure, "A step failed (no repository, no remote or upstream, no identity, a hook, a lock, a timeout, a refused push); the reason was written to standard error and nothing was lost."),
            ExitStatusHelp(conflictStatus, "Your changes and the upstream's conflict in files outside the board; nothing was changed, the files are listed."),
            ExitStatusHelp(.usage, "The command line was wrong."),
        ])

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let provider = try context.syncProvider()
        let status = try provider.status()
        switch status.availability {
        case .gitNotInstalled:
            throw SyncError(.gitNotInstalled, "git is not installed", hint: "Install git, or point KANBAN_GIT at the git program.")
        case .notARepository:
            throw SyncError(.notARepository, "the board is not in a git repository",
                            hint: "The board works without git. To share it: 'git init', 'git remote add origin URL', commit, 'git push -u origin main'.")
        case .ready:
            break
        }
        // (During a rebase HEAD is detached too; committing below reports the rebase, which is what to fix.)
        if status.isDetached && status.operationInProgress == nil {
            throw SyncError(.detachedHead, "HEAD is detached: not on any branch", hint: "Switch to the board's branch ('git switch main'), then sync.")
        }
        var committed: CommitResult?
        do throws(SyncError) {
            if status.operationInProgress == .merge, let finished = try provider.finishMerge() {
                var stoppedOn = finished.cards.isEmpty ? [] : [finished.cards.count == 1 ? "1 card" : "\(finished.cards.count) cards"]
                if finished.isBoardFileMerged { stoppedOn.insert("board.md", at: 0) }
                context.say(stoppedOn.isEmpty ? "finished the git merge in progress"
                            : "finished the git merge that stopped on \(stoppedOn.joined(separator: " and ")), merging card by card")
                context.noteCommit(finished.commit)
                report(finished.resolutions, context: context)
                if let commit = finished.resolutionCommit { context.noteCommit(commit) }
            }
            committed = try provider.commitPendingChanges()
            if let committed { context.noteCommit(committed) }
            if status.remotes.isEmpty && status.upstream == nil {
                throw SyncError(.noRemote, "the repository has no remote to sync with",
                                hint: "Add one and push once:\n  git remote add origin URL\n  git push -u origin \(status.branch ?? "main")")
            }
            let pulled = try provider.pull()
            report(pulled, context: context, upstream: status.upstream ?? "the upstream")
            if arguments.flag("no-push") {
                return .success
            }
            let pushed = try provider.push()
            for pull in pushed.pulls { report(pull, context: context, upstream: pushed.upstream) }
            context.say(pushed.pushed == 0 ? "nothing to push: \(pushed.upstream) has every commit"
                        : "pushed \(commits(pushed.pushed)) to \(pushed.upstream)")
            return .success
        } catch {
            var failure = error
            if let committed {
                // The sync's own commit was a change: what stopped it left everything else as it was.
                failure.message = failure.message.replacingOccurrences(of: "; nothing was changed", with: "; nothing was pulled or pushed")
                let note = "Your board changes are committed locally (\(committed.shortCommit)); 'kanban sync' picks up from there."
                failure.hint = failure.hint.map { $0 + "\n" + note } ?? note
            }
            context.report(failure)
            return failure.code == .conflict ? conflictStatus : .failure
        }
    }

    private static func report(_ pull: PullResult, context: CommandContext, upstream: String) {
        switch pull.kind {
        case .upToDate:
            context.say("up to date with \(upstream)")
        case .noUpstreamBranch:
            context.say("\(upstream) does not exist yet; the push creates it")
        case .fastForward:
            context.say("pulled \(commits(pull.incoming)) from \(upstream)")
        case .merged:
            context.say("pulled \(commits(pull.incoming)) from \(upstream) and merged \(pull.incoming == 1 ? "it" : "them") with your \(pull.replayed == 1 ? "commit" : commits(pull.replayed))")
        }
        report(pull.resolutions, context: context)
        if let commit = pull.resolutionCommit { context.noteCommit(commit) }
        if pull.isStashKept {
            context.errorOutput.writeLine("\(context.errorStylist.apply(.bold + .yellow, to: "warning")): your uncommitted changes outside the board conflict with the incoming commits; they are kept in 'git stash list' (get them back with 'git stash pop')")
        }
    }

    /// A line per card a rule decided about; a warning for each a person has to look at.
    private static func report(_ resolutions: [CardResolution], context: CommandContext) {
        let board = try? context.store().loadBoard()
        for resolution in resolutions {
            let line = GitSyncProvider.describe(resolution, board: board)
            if resolution.kind == .keptText {
                // A person has to look at this card: said where it is seen even with --quiet.
                context.errorOutput.writeLine("\(context.errorStylist.apply(.bold + .yellow, to: "warning")): \(line) (\(resolution.keptPath))")
            } else {
                context.say(line)
            }
        }
    }

    private static func commits(_ count: Int) -> String {
        count == 1 ? "1 commit" : "\(count) commits"
    }
}
