import Foundation
import KanbanCore
import KanbanGit

/// What became of a change's commit.
enum CommitOutcome {
    /// Committing was not asked for, or there was nothing to commit.
    case notCommitted
    /// The change was committed.
    case committed(CommitResult)
    /// `autocommit: true` on a board outside git: the change stands, uncommitted, with this warning.
    case notInRepository(String)
}

/// Why a command's change is committed.
enum CommitRequest: Equatable {
    /// `--commit` or `KANBAN_COMMIT=1`: not being able to commit is an error.
    case asked
    /// `autocommit: true` in board.md: a board outside git just is not committed (with a warning).
    case boardSetting
}

extension CommandContext {
    // MARK: Git

    /// How git is run: `$KANBAN_GIT`, else `git` on `PATH`, with this process's environment; `KANBAN_GIT_TIMEOUT`
    /// (seconds) limits calls that talk to a remote (60 by default).
    /// - Throws: ``CommandFailure`` naming `KANBAN_GIT_TIMEOUT` when it is not a number of seconds.
    func gitConfiguration() throws -> GitConfiguration {
        var configuration = GitConfiguration(executable: GitConfiguration.locate(in: environment), environment: environment)
        if let timeout = try seconds(fromVariable: "KANBAN_GIT_TIMEOUT") { configuration.networkTimeout = timeout }
        return configuration
    }

    /// The git sync provider for the board.
    func syncProvider() throws -> GitSyncProvider {
        GitSyncProvider(store: try store(), configuration: try gitConfiguration())
    }

    /// Throws the reason a commit asked for cannot be made (no repository, a detached HEAD, a git operation under
    /// way), before anything is changed; a board outside git with `autocommit: true` is fine (it warns later).
    func requireCommitPossible(_ request: CommitRequest) throws {
        do {
            try syncProvider().requireCommitPossible()
        } catch let error as SyncError where request == .boardSetting && (error.code == .notARepository || error.code == .gitNotInstalled) {
            return
        } catch var error as SyncError {
            error.hint = (error.hint.map { $0 + "\n" } ?? "") + "Nothing was changed."
            throw error
        }
    }

    /// Whether this command's change is to be committed: `--commit`, else `KANBAN_COMMIT` (`1`/`true`/`yes` on,
    /// `0`/`false`/`no` off), else `autocommit: true` in board.md.
    func commitRequest(board: Board?) -> CommitRequest? {
        if arguments.declaredOptions["commit"] != nil && arguments.flag("commit") { return .asked }
        switch environment["KANBAN_COMMIT"]?.lowercased() {
        case "1", "true", "yes", "on": return .asked
        case "0", "false", "no", "off": return nil
        default: break
        }
        let setting = board?.fields.first { $0.key == "autocommit" }?.value.string?.lowercased()
        return ["true", "yes", "on"].contains(setting ?? "") ? .boardSetting : nil
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

    /// Runs `change` the way every command that changes the board runs: when its change is to be committed, the
    /// board's lock is held from the change to the commit (so that commands running at the same moment commit one
    /// after the other, each exactly what it wrote), and a change that cannot be committed (a detached HEAD, a
    /// rebase under way) is refused before it is made.
    func withCommitLock<T>(_ change: () throws -> T) throws -> T {
        guard let request = commitRequest(board: try? store().loadBoard()) else { return try change() }
        try requireCommitPossible(request)
        return try store().withExclusiveAccess(change)
    }

    /// Commits what `changes` wrote and removed as one commit, when committing is asked for (see
    /// ``commitRequest(board:)``), and prints `committed <hash> <subject>`.
    /// - Parameter message: The message; when nil, one describing the card changes (`Move "X" from To Do to Done`).
    /// - Throws: A ``SyncError`` saying the change was made but not committed, when committing was asked for and failed.
    func commit(_ changes: [BoardChange], message: CommitMessage? = nil) throws {
        note(try commitIfAsked(changes, message: message))
    }

    /// Commits `paths` (relative to the board) with `message`, when committing is asked for; see ``commit(_:message:)``.
    func commit(paths: [String], message: CommitMessage?) throws {
        note(try commitIfAsked(paths: paths, message: message))
    }

    /// What ``commit(_:message:)`` does, without printing: the outcome is for the caller to show (`kanban tui`
    /// shows it in its status line).
    func commitIfAsked(_ changes: [BoardChange], message: CommitMessage? = nil) throws -> CommitOutcome {
        // A delete's time is noted for the commit that records it, now or at the next sync (a merge keeps a card
        // someone changed after it was deleted).
        let deleted = changes.compactMap { $0.card == nil ? $0.previous?.slug : nil }
        if !deleted.isEmpty { (try? syncProvider())?.recordDeletions(of: deleted) }
        var seen: Set<String> = []
        let paths = changes.flatMap(\.paths).filter { seen.insert($0).inserted }
        guard !paths.isEmpty else { return .notCommitted }
        let board = try? store().loadBoard()
        return try commitIfAsked(paths: paths, message: message ?? CommitMessage(describing: changes, board: board))
    }

    /// What ``commit(paths:message:)`` does, without printing.
    func commitIfAsked(paths: [String], message: CommitMessage?) throws -> CommitOutcome {
        guard !paths.isEmpty, let message else { return .notCommitted }
        let board = try? store().loadBoard()
        guard let request = commitRequest(board: board) else { return .notCommitted }
        do {
            guard let result = try syncProvider().commit(paths: paths, message: message) else { return .notCommitted }
            return .committed(result)
        } catch let error as SyncError {
            if request == .boardSetting && (error.code == .notARepository || error.code == .gitNotInstalled) {
                return .notInRepository("board.md sets 'autocommit: true' but \(error.message); the change was not committed")
            }
            var failure = error
            let note = "The change itself was made; 'kanban sync' commits it later."
            failure.hint = failure.hint.map { $0 + "\n" + note } ?? note
            throw failure
        }
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

    /// A sync error: `error: message`, git's or a hook's words indented, then the hint and any conflicts.
    func report(_ error: SyncError) {
        reportFailure(error.message)
        for conflict in error.conflicts {
            let card = conflict.slug.map { slug in " (" + (conflict.title.map { "\"\($0)\", " } ?? "") + slug + ")" } ?? ""
            errorOutput.writeLine("  conflict: \(conflict.path)\(card)")
        }
        if let output = error.output {
            for line in output.split(separator: "\n", omittingEmptySubsequences: false) {
                errorOutput.writeLine("  | " + line)
            }
        }
        if let hint = error.hint {
            for line in hint.split(separator: "\n", omittingEmptySubsequences: false) {
                errorOutput.writeLine("  " + line)
            }
        }
    }
}

extension CommitMessage {
    /// A board-level change: `Add column "In Review"`, with a trailer naming what by id.
    static func board(_ subject: String, _ key: String, _ id: String) -> CommitMessage {
        CommitMessage(subject: subject, trailers: [CommitTrailer(key, id)])
    }
}
