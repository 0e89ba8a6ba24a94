import KanbanCore
import KanbanGit
import KanbanServer

/// `kanban status [--json]`: the board's git state, with uncommitted changes as cards.
enum StatusCommand: KanbanCommand {
    static let spec = CommandSpec(
        name: "status",
        abstract: "Show the board's git state and its uncommitted card changes.",
        discussion: """
            Says whether the board is in a git repository, the branch and its upstream (commits ahead and behind, \
            as of the last fetch), an operation in progress, and the cards changed since the last commit: added, \
            moved, reordered, edited, archived, unarchived, deleted. Cards a merge left for a person to tidy are \
            named: text kept from an edit made at the same time, another card kept inside one, git conflict \
            markers ('kanban doctor' shows the same). A board outside git works; it just does not sync.

            --json prints {"state", "branch", "detached", "upstream", "remotes", "ahead", "behind", "operation", \
            "clean", "boardChanged", "changes": [{"kind", "slug", "title", "column", "from", "path", "previousPath", \
            "fields"}], "conflicts", "problems", "toTidy": [{"path", "line", "code", "message"}], "board": {"directory", \
            "reason", "explanation"}}; "state" is "ready", "not-a-repository" or "git-not-installed"; "reason" is \
            "option", "environment", "found" or "main-worktree" (in a linked git worktree, whose own copy of the \
            board is not used: "worktree" and "ownBoard" say which).
            """,
        options: [CommonOptions.json])

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let provider = try context.syncProvider()
        let status = try provider.status()
        let board = try? provider.store.loadBoard()
        let toTidy = StatusJSON.cardsToTidy(provider.store)
        if arguments.flag("json") {
            context.printJSON(StatusJSON.json(status, toTidy: toTidy, location: context.boardLocation))
            return .success
        }
        let stylist = context.stylist
        if let location = context.boardLocation {
            context.print("Board \(stylist.apply(.bold, to: location.directory)) (\(location.explanation))")
        }
        switch status.availability {
        case .gitNotInstalled:
            context.print("git is not installed: the board works, but cannot sync (set KANBAN_GIT to the git program).")
            return .success
        case .notARepository:
            context.print("The board is not in a git repository: it works, but does not sync.")
            return .success
        case .ready:
            break
        }
        var place = status.branch.map { "On branch \(stylist.apply(.bold, to: $0))" } ?? "HEAD is detached"
        if status.isUnborn { place += ", no commits yet" }
        if let upstream = status.upstream {
            place += ", tracking \(upstream)"
            var counts: [String] = []
            if status.ahead > 0 { counts.append("\(status.ahead) ahead") }
            if status.behind > 0 { counts.append("\(status.behind) behind") }
            place += counts.isEmpty ? " (up to date as of the last fetch)" : ": " + counts.joined(separator: ", ")
        }
        context.print(place)
        if !status.boardPrefix.isEmpty { context.print("Board folder in the repository: \(status.boardPrefix)/") }
        if let operation = status.operationInProgress {
            context.print(stylist.apply(.bold + .red, to: "A git \(operation.rawValue) is in progress") + ": " + advice(operation, status: status))
        }
        for problem in status.problems where problem != .operationInProgress {
            context.print(stylist.apply(.yellow, to: advice(problem, status: status)))
        }
        if !status.conflictedPaths.isEmpty {
            context.print(status.operationInProgress == .merge ? "Cards git could not merge:" : "Unresolved conflicts:")
            for path in status.conflictedPaths { context.print("  " + stylist.apply(.red, to: path)) }
        }
        if !status.conflictedPathsOutsideBoard.isEmpty {
            context.print("Unresolved conflicts outside the board (relative to the repository):")
            for path in status.conflictedPathsOutsideBoard { context.print("  " + stylist.apply(.red, to: path)) }
        }
        if !toTidy.isEmpty {
            context.print("Cards a merge left to tidy by hand:")
            for finding in toTidy {
                context.print("  " + stylist.apply(.yellow, to: finding.location.description) + "  " + finding.message)
            }
        }
        guard status.hasUncommittedChanges else {
            context.print("Nothing to commit: the board is as the last commit has it.")
            return .success
        }
        guard !status.changes.isEmpty || status.boardFileChanged else { return .success }
        context.print(status.operationInProgress.map { "Board changes not committed yet (the \($0.rawValue)'s and yours):" } ?? "Uncommitted board changes:")
        let width = status.changes.map(\.kind.rawValue.count).max() ?? 0
        for event in status.changes {
            let kind = stylist.apply(color(event.kind), to: event.kind.rawValue.padded(toWidth: width))
            context.print("  \(kind)  \(event.slug)  \(describe(event, board: board))")
        }
        if status.boardFileChanged { context.print("  board.md changed (title, columns or labels)") }
        if status.operationInProgress == nil {
            context.print("Commit them with 'kanban sync' (or 'kanban sync --no-push').")
        }
        return .success
    }

    /// `"Fix login bug": To Do → Done`.
    static func describe(_ event: CardEvent, board: Board?) -> String {
        func name(_ id: String) -> String { board?.columnName(id) ?? id }
        let title = "\"\(event.title)\""
        switch event.kind {
        case .added: return "\(title) in \(name(event.column))"
        case .moved: return "\(title): \(name(event.previousColumn ?? "")) → \(name(event.column))"
        case .reordered: return "\(title) in \(name(event.column))"
        case .edited: return title + (event.changedFields.isEmpty ? "" : " (\(event.changedFields.joined(separator: ", ")))")
        case .archived: return "\(title) from \(name(event.column))"
        case .unarchived: return "\(title) to \(name(event.column))"
        case .deleted: return "\(title) from \(name(event.column))"
        }
    }

    private static func color(_ kind: CardEvent.Kind) -> TextStyle {
        switch kind {
        case .added, .unarchived: return .green
        case .deleted: return .red
        case .moved, .reordered: return .cyan
        case .edited, .archived: return .yellow
        }
    }

    /// What to do about an operation in progress: what `kanban sync` does with a stopped merge, else git's way out.
    private static func advice(_ operation: GitSyncStatus.Operation, status: GitSyncStatus) -> String {
        guard operation == .merge else {
            return "finish it ('git \(operation.rawValue) --continue') or abort it ('git \(operation.rawValue) --abort'), then 'kanban sync'."
        }
        if !status.conflictedPathsOutsideBoard.isEmpty {
            return "resolve the files outside the board and 'git add' them; then 'kanban sync' merges the cards card by card and finishes the merge (or give it up with 'git merge --abort')."
        }
        if !status.conflictedPaths.isEmpty {
            return "'kanban sync' merges the cards git stopped on, card by card, and finishes the merge (or give it up with 'git merge --abort')."
        }
        return "'kanban sync' finishes it (or give it up with 'git merge --abort')."
    }

    /// What a problem means for syncing, and how to fix it.
    private static func advice(_ problem: SyncError.Code, status: GitSyncStatus) -> String {
        switch problem {
        case .detachedHead: return "HEAD is detached: switch to a branch ('git switch main') to sync."
        case .noRemote: return "No remote: add one with 'git remote add origin URL' to sync."
        case .noUpstream:
            return "No upstream branch: push once with 'git push -u \(status.remotes.first ?? "origin") \(status.branch ?? "main")' to sync."
        default: return problem.rawValue
        }
    }
}
