import Foundation
import KanbanCore
import KanbanSubprocess

/// Syncs a board through the git repository it lives in, by running the `git` command (never a library).
///
/// The board may be the repository's top directory or any folder inside a bigger repository. Commits record only
/// the board's own files (`board.md`, `cards/<column>/*.md`, `archive/*.md`) given as paths to `git commit`, so a
/// person's other staged or unstaged work is never committed. Every git call runs with the safe setup ``Git``
/// describes: no prompts, no editor, a time limit that kills its process group.
///
/// ```swift
/// let git = GitConfiguration(executable: GitConfiguration.locate(in: environment), environment: environment)
/// let sync = GitSyncProvider(store: store, configuration: git)
/// let change = try store.moveCard("fix-login", to: "done")
/// try sync.commit(change, message: CommitMessage(describing: [change], board: store.loadBoard())!)
/// ```
public final class GitSyncProvider: SyncProvider {
    /// The board.
    public let store: BoardStore
    /// How git is run.
    public let configuration: GitConfiguration
    /// git, run in the board directory: paths given to it are relative to the board.
    let git: Git

    /// Creates a provider for the board in `store`.
    public init(store: BoardStore, configuration: GitConfiguration) {
        self.store = store
        self.configuration = configuration
        git = Git(configuration: configuration, directory: store.directory)
    }

    // MARK: Status

    /// Where the board stands with its repository. A board outside any repository, or a machine without git, is
    /// a status (``GitSyncStatus/availability``), not an error.
    /// - Throws: ``SyncError`` when git fails in an unexpected way (a repository git refuses to open, say).
    public func status() throws(SyncError) -> GitSyncStatus {
        let repository: Repository
        do {
            guard let found = try self.repository() else { return GitSyncStatus(availability: .notARepository) }
            repository = found
        } catch let error where error.code == .gitNotInstalled {
            return GitSyncStatus(availability: .gitNotInstalled)
        }
        let report = try boardStatus()
        let remotes = try git.check(["remote"], readOnly: true).lines
        let pending = pendingChanges(report, repository: repository)
        let conflicted = report.entries.filter(\.isConflicted).compactMap { repository.boardRelative($0.path) }
        let outside = repository.operation == nil ? [] : try unmergedPaths(repository).filter { path in
            repository.boardRelative(path).flatMap { BoardPath($0) } == nil
        }
        return GitSyncStatus(
            availability: .ready, branch: report.branch, isDetached: report.isDetached, isUnborn: report.isUnborn,
            upstream: report.upstream, remotes: remotes, ahead: report.ahead ?? 0, behind: report.behind ?? 0,
            operationInProgress: repository.operation, changes: pending.events, boardFileChanged: pending.boardFileChanged,
            conflictedPaths: conflicted, conflictedPathsOutsideBoard: outside, boardPrefix: String(repository.prefix.dropLast(repository.prefix.isEmpty ? 0 : 1)))
    }

    /// The paths of the whole repository with unresolved merge conflicts, relative to its top directory.
    func unmergedPaths(_ repository: Repository) throws(SyncError) -> [String] {
        let top = Git(configuration: configuration, directory: repository.topLevel)
        var paths: [String] = []
        for record in try top.check(["ls-files", "--unmerged", "-z"], readOnly: true).records {
            guard let tab = record.firstIndex(of: "\t") else { continue }
            let path = String(record[record.index(after: tab)...])
            if paths.last != path { paths.append(path) }
        }
        return paths
    }

    /// `git status` of the board directory only.
    func boardStatus() throws(SyncError) -> GitStatusReport {
        let output = try git.check(["status", "--porcelain=v2", "-z", "--branch", "--untracked-files=all", "--find-renames", "--", "."],
                                   readOnly: true)
        return GitStatusReport(records: output.records)
    }

    /// The card events and `board.md` change behind a status report.
    func pendingChanges(_ report: GitStatusReport, repository: Repository) -> PendingChanges {
        let changes = report.entries.filter { !$0.isConflicted }.compactMap { entry -> PendingChanges.Change? in
            guard let path = repository.boardRelative(entry.path) else { return nil }
            return PendingChanges.Change(path: path, isInHead: entry.isInHead, isInWorkingTree: entry.isInWorkingTree)
        }
        return PendingChanges(changes, directory: store.directory) { path in
            guard let output = try? self.git.run(["show", "HEAD:./" + path], readOnly: true), output.succeeded else { return nil }
            return output.output
        }
    }

    // MARK: The repository

    /// What git says about the repository the board is in.
    struct Repository: Sendable {
        /// The git directory, absolute (a linked worktree's own one).
        var gitDirectory: String
        /// The working tree's top directory, absolute.
        var topLevel: String
        /// The board directory relative to the top, with a final `/`, or empty when the board is the top.
        var prefix: String
        /// An operation someone started and has not finished.
        var operation: GitSyncStatus.Operation?

        /// A path relative to the top made relative to the board; nil when it is outside the board.
        func boardRelative(_ path: String) -> String? {
            guard path.hasPrefix(prefix) else { return nil }
            return String(path.dropFirst(prefix.count))
        }
    }

    /// Whether git is in the middle of a rebase in the repository `directory` is in (for the merge driver, which
    /// must tell the local side from the upstream's).
    package static func isRebasing(in directory: String, configuration: GitConfiguration) -> Bool {
        let git = Git(configuration: configuration, directory: directory)
        for name in ["rebase-merge", "rebase-apply"] {
            if let output = try? git.run(["rev-parse", "--path-format=absolute", "--git-path", name], readOnly: true), output.succeeded,
               FileSystem.exists(output.text.trimmingCharacters(in: .whitespacesAndNewlines)) {
                return true
            }
        }
        return false
    }

    /// The repository the board is in, or nil when it is in none; kept for the length of a change
    /// (``duringChange(_:)``).
    func repository() throws(SyncError) -> Repository? {
        guard let cache = ChangeCache.current[store.directory] else { return try findRepository() }
        if let known = cache.repository.withLock({ $0 }) { return known }
        let found = try findRepository()
        cache.repository.withLock { $0 = found }
        return found
    }

    private func findRepository() throws(SyncError) -> Repository? {
        let output = try git.run(["rev-parse", "--absolute-git-dir", "--show-toplevel", "--show-prefix"], readOnly: true)
        guard output.succeeded else {
            let said = output.said
            if said.contains("not a git repository") { return nil }
            if said.contains("dubious ownership") {
                throw SyncError(.gitFailed, "git refuses to work in a repository owned by someone else",
                                hint: "If you trust it, run the 'git config --global --add safe.directory ...' command git suggests.",
                                output: said)
            }
            throw git.failure(["rev-parse"], output)
        }
        let lines = output.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard lines.count >= 2 else { return nil }  // inside a bare repository or a .git directory
        let gitDirectory = lines[0]
        var operation: GitSyncStatus.Operation?
        if FileSystem.exists(gitDirectory + "/rebase-merge") || FileSystem.exists(gitDirectory + "/rebase-apply") {
            operation = .rebase
        } else if FileSystem.exists(gitDirectory + "/MERGE_HEAD") {
            operation = .merge
        } else if FileSystem.exists(gitDirectory + "/CHERRY_PICK_HEAD") {
            operation = .cherryPick
        } else if FileSystem.exists(gitDirectory + "/REVERT_HEAD") {
            operation = .revert
        }
        return Repository(gitDirectory: gitDirectory, topLevel: lines[1], prefix: lines.count > 2 ? lines[2] : "", operation: operation)
    }

    /// The repository, or the error that says why there is none or why it cannot take a change now.
    func requireRepository(allowingDetached: Bool) throws(SyncError) -> Repository {
        guard let repository = try repository() else {
            throw SyncError(.notARepository, "the board is not in a git repository",
                            hint: "The board works without git. To share it, run 'git init' in the board's directory (or a parent), then 'git remote add origin URL'.")
        }
        if let operation = repository.operation {
            throw SyncError(.operationInProgress, "a git \(operation.rawValue) is in progress in this repository",
                            hint: "Finish it ('git \(operation.rawValue) --continue') or abort it ('git \(operation.rawValue) --abort'), then try again.")
        }
        if !allowingDetached {
            let cache = ChangeCache.current[store.directory]
            if cache?.isOnBranch.withLock({ $0 }) == true { return repository }
            let head = try git.run(["symbolic-ref", "--quiet", "HEAD"], readOnly: true)
            if head.succeeded {
                cache?.isOnBranch.withLock { $0 = true }
            } else {
                throw SyncError(.detachedHead, "HEAD is detached: not on any branch",
                                hint: "Switch to the board's branch ('git switch main'), then try again.")
            }
        }
        return repository
    }

    /// Throws ``SyncError/Code/missingIdentity`` unless git knows who commits (`user.name` and `user.email` in
    /// git's configuration, or `GIT_AUTHOR_*`/`GIT_COMMITTER_*` variables). Guessed identities (`root@host`) are
    /// refused: a team's history should not fill up with them.
    func requireIdentity() throws(SyncError) {
        for identity in ["GIT_AUTHOR_IDENT", "GIT_COMMITTER_IDENT"] {
            let output = try git.run(["-c", "user.useConfigOnly=true", "var", identity], readOnly: true)
            guard output.succeeded else {
                throw SyncError(.missingIdentity, "git does not know who you are: user.name and user.email are not set",
                                hint: """
                                    Tell git your name and email, then try again:
                                      git config --global user.name "Your Name"
                                      git config --global user.email "you@example.com"
                                    (Leave out --global to set them for this repository only.)
                                    """)
            }
        }
    }
}
