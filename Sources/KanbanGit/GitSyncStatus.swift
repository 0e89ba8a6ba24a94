import KanbanCore

/// Where a board stands with its git repository: whether it can sync at all, the branch and its upstream, and the
/// card changes not committed yet. ``GitSyncProvider/state()`` gives the part any provider has (``SyncState``).
public struct GitSyncStatus: Sendable, Hashable {
    /// Whether the board can sync.
    public enum Availability: String, Sendable, Hashable {
        /// The board is in a git working tree and git runs.
        case ready
        /// The board is not inside a git working tree (it works without git; it just does not sync).
        case notARepository = "not-a-repository"
        /// No git program was found.
        case gitNotInstalled = "git-not-installed"
    }

    /// A multi-step git operation someone started and has not finished.
    public enum Operation: String, Sendable, Hashable {
        /// `git rebase` (or `git am`) stopped part way.
        case rebase
        /// `git merge` stopped on a conflict.
        case merge
        /// `git cherry-pick` stopped on a conflict.
        case cherryPick = "cherry-pick"
        /// `git revert` stopped on a conflict.
        case revert
    }

    /// Whether the board can sync.
    public var availability: Availability
    /// The current branch; nil when `HEAD` is detached (or there is no repository).
    public var branch: String?
    /// Whether `HEAD` is detached.
    public var isDetached: Bool
    /// Whether the branch has no commit yet.
    public var isUnborn: Bool
    /// The upstream branch, such as `origin/main`, when one is set.
    public var upstream: String?
    /// The repository's remotes, by name.
    public var remotes: [String]
    /// Commits on the branch that the upstream does not have (as of the last fetch).
    public var ahead: Int
    /// Commits on the upstream that the branch does not have (as of the last fetch).
    public var behind: Int
    /// A rebase, merge, cherry-pick or revert in progress.
    public var operationInProgress: Operation?
    /// The cards changed since the last commit, added, moved, edited, archived, ...
    public var changes: [CardEvent]
    /// Whether `board.md` changed since the last commit.
    public var boardFileChanged: Bool
    /// Board files with unresolved merge conflicts, relative to the board.
    public var conflictedPaths: [String]
    /// Other files of the repository with unresolved merge conflicts, relative to its top directory; known while an
    /// operation is in progress.
    public var conflictedPathsOutsideBoard: [String]
    /// The board directory relative to the repository's top directory (empty when the board is the top).
    public var boardPrefix: String

    /// Creates a status.
    public init(availability: Availability, branch: String? = nil, isDetached: Bool = false, isUnborn: Bool = false,
                upstream: String? = nil, remotes: [String] = [], ahead: Int = 0, behind: Int = 0,
                operationInProgress: Operation? = nil, changes: [CardEvent] = [], boardFileChanged: Bool = false,
                conflictedPaths: [String] = [], conflictedPathsOutsideBoard: [String] = [], boardPrefix: String = "") {
        self.availability = availability
        self.branch = branch
        self.isDetached = isDetached
        self.isUnborn = isUnborn
        self.upstream = upstream
        self.remotes = remotes
        self.ahead = ahead
        self.behind = behind
        self.operationInProgress = operationInProgress
        self.changes = changes
        self.boardFileChanged = boardFileChanged
        self.conflictedPaths = conflictedPaths
        self.conflictedPathsOutsideBoard = conflictedPathsOutsideBoard
        self.boardPrefix = boardPrefix
    }

    /// Whether the board has changes that are not committed.
    public var hasUncommittedChanges: Bool {
        !changes.isEmpty || boardFileChanged || !conflictedPaths.isEmpty
    }

    /// Whether everything is committed and nothing is in progress.
    public var isClean: Bool {
        availability == .ready && !hasUncommittedChanges && operationInProgress == nil
    }

    /// What stands in the way of `sync`, most fundamental first: no git, no repository, an operation in progress,
    /// a detached `HEAD`, no remote, no upstream.
    public var problems: [SyncError.Code] {
        switch availability {
        case .gitNotInstalled: return [.gitNotInstalled]
        case .notARepository: return [.notARepository]
        case .ready: break
        }
        var problems: [SyncError.Code] = []
        if operationInProgress != nil { problems.append(.operationInProgress) }
        if isDetached { problems.append(.detachedHead) }
        if remotes.isEmpty {
            problems.append(.noRemote)
        } else if upstream == nil && !isDetached {
            problems.append(.noUpstream)
        }
        return problems
    }
}
