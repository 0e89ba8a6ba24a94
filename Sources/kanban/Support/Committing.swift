import Foundation
import KanbanCore
import KanbanGit

extension CommandContext {
    // MARK: Git

    /// How git is run: `$KANBAN_GIT`, else `git` on `PATH`, with this process's environment; `KANBAN_GIT_TIMEOUT`
    /// (seconds) limits calls that talk to a remote (60 by default); `KANBAN_HISTORY_CACHE=off` makes the report read
    /// the whole history every time.
    /// - Throws: ``CommandFailure`` naming `KANBAN_GIT_TIMEOUT` when it is not a number of seconds.
    func gitConfiguration() throws -> GitConfiguration {
        var configuration = GitConfiguration(executable: GitConfiguration.locate(in: environment), environment: environment)
        if let timeout = try seconds(fromVariable: "KANBAN_GIT_TIMEOUT") { configuration.networkTimeout = timeout }
        configuration.usesHistoryCache = !isTurnedOff("KANBAN_HISTORY_CACHE")
        return configuration
    }

    /// The policy `--commit` and `KANBAN_COMMIT` ask for (`autocommit:` in board.md decides when they do not).
    var commitPolicy: CommitPolicy {
        CommitPolicy(commitFlag: arguments.declaredOptions["commit"] != nil && arguments.flag("commit"), environment: environment)
    }

    /// Changes each card `references` names, in order, with `change` (which also says what it did), then commits
    /// the changes together when asked. Every name is found in `scope` before any card changes, so a typo in the
    /// third name changes nothing.
    func changeCards(_ references: [String], in scope: CardScope, _ change: (BoardStore, String) throws -> BoardChange) throws {
        let store = try store()
        let paths = try references.map { try store.path(of: cardReference($0), in: scope) }
        var changes: [BoardChange] = []
        for path in paths { changes.append(try change(store, path)) }
        try commit(changes)
    }

    /// Commits what `changes` wrote and removed as one commit, when committing is asked for (the session's
    /// ``CommitPolicy``), and prints `committed <hash> <subject>`.
    /// - Parameter message: The message; when nil, one describing the card changes (`Move "X" from To Do to Done`).
    /// - Throws: A ``SyncError`` saying the change was made but not committed, when committing was asked for and failed.
    func commit(_ changes: [BoardChange], message: CommitMessage? = nil) throws {
        note(try session().commit(changes, message: message))
    }

    /// Commits `paths` (relative to the board) with `message`, when committing is asked for; see ``commit(_:message:)``.
    func commit(paths: [String], message: CommitMessage?) throws {
        note(try session().commit(paths: paths, message: message))
    }

    /// Prints what a commit did: `committed <hash> <subject>`, or the warning of a board outside git.
    func note(_ outcome: CommitOutcome) {
        switch outcome {
        case .notCommitted:
            break
        case .committed(let result):
            noteCommit(result)
        case .notInRepository(let warning):
            if !isQuiet {
                errorOutput.writeLine("\(errorStylist.apply(.bold + .yellow, to: "warning")): \(warning)")
            }
        }
    }

    /// ``commit(_:message:)`` for one change.
    func commit(_ change: BoardChange, message: CommitMessage? = nil) throws {
        try commit([change], message: message)
    }

    /// `committed 1a2b3c4 Move "X" from To Do to Done`, on standard output (standard error after `--json`).
    func noteCommit(_ result: CommitResult) {
        let line = "committed \(stylist.apply(.yellow, to: result.shortCommit)) \(result.message.subject)"
        if arguments.declaredOptions["json"] != nil && arguments.flag("json") {
            if !isQuiet { errorOutput.writeLine("committed \(result.shortCommit) \(result.message.subject)") }
        } else {
            say(line)
        }
    }

    /// A sync error: `error: message`, then each conflict, git's or a hook's words indented, and the hint.
    func report(_ error: SyncError) {
        reportFailure(error.message)
        for line in error.detailLines { errorOutput.writeLine(line) }
    }
}
