import KanbanCore

/// `kanban sync [--no-push]`: commit the board's pending changes, pull, push.
enum SyncCommand: KanbanCommand {
    static let conflictStatus = ExitCode(rawValue: 2)

    static let spec = CommandSpec(
        name: "sync",
        abstract: "Commit the board's changes, pull other people's, push yours.",
        discussion: """
            1. Commits every uncommitted change of the board (cards and board.md, never other files) as one commit \
            describing them. 2. Fetches the upstream and fast-forwards, or rebases your commits onto it (other \
            uncommitted work is stashed for the rebase and put back). 3. Pushes, never by force; when the upstream \
            moved on meanwhile, pulls and tries again.

            A card two people moved to different columns ends up in one: where the version with the later \
            'modified' time put it; on a tie, the column further along the board. Any other conflict stops the \
            sync with everything as it was before it (your commits, your files) and lists the cards concerned. \
            Set up 'kanban git-setup' so that two edits of one card merge key by key instead of conflicting.

            Remote calls give up after KANBAN_GIT_TIMEOUT seconds (default 60). git is $KANBAN_GIT, else git on PATH.
            """,
        options: [
            .flag("no-push", help: "Commit and pull, but do not push."),
        ],
        exitStatuses: [
            ExitStatusHelp(.success, "The board is committed and in sync with its upstream."),
            ExitStatusHelp(.failure, "A step failed (no repository, no remote or upstream, no identity, a hook, a lock, a timeout, a refused push); the reason was written to standard error and nothing was lost."),
            ExitStatusHelp(conflictStatus, "Your changes conflict with the upstream's; nothing was changed, the cards are listed."),
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
        case .rebased:
            context.say("pulled \(commits(pull.incoming)) from \(upstream) and put your \(pull.replayed == 1 ? "commit" : commits(pull.replayed)) on top")
        }
        for resolution in pull.resolutions {
            if resolution.removedPaths.isEmpty {
                context.say("merged both sides' changes to \(resolution.slug) key by key")
            } else {
                context.say("kept \(resolution.slug) once, in \(resolution.keptPath) (it was moved to two places)")
            }
        }
        if let commit = pull.resolutionCommit { context.noteCommit(commit) }
        if pull.isStashKept {
            context.errorOutput.writeLine("\(context.errorStylist.apply(.bold + .yellow, to: "warning")): your uncommitted changes outside the board conflict with the incoming commits; they are kept in 'git stash list' (get them back with 'git stash pop')")
        }
    }

    private static func commits(_ count: Int) -> String {
        count == 1 ? "1 commit" : "\(count) commits"
    }
}
