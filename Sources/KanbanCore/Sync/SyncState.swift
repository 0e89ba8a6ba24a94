/// Where a board stands with its provider, in terms every provider has: the changes not recorded yet, the recorded
/// changes waiting to go out or come in, and what stands in the way of syncing.
///
/// A provider says more in its own type (git's branch, upstream and a rebase in progress are in `KanbanGit`'s
/// `GitSyncStatus`).
public struct SyncState: Sendable, Hashable {
    /// The cards changed since the last recorded change: added, moved, edited, archived, ...
    public var changes: [CardEvent]
    /// Whether `board.md` changed since the last recorded change.
    public var boardFileChanged: Bool
    /// Board files the provider could not merge and left for a person, relative to the board.
    public var conflictedPaths: [String]
    /// Recorded local changes the other side does not have yet; nil when the provider cannot tell.
    public var outgoing: Int?
    /// Changes on the other side the board does not have yet (as far as the provider knows); nil when it cannot tell.
    public var incoming: Int?
    /// What stands in the way of syncing, most fundamental first; empty when the board can sync.
    public var problems: [SyncError.Code]

    /// Creates a state.
    public init(changes: [CardEvent] = [], boardFileChanged: Bool = false, conflictedPaths: [String] = [], outgoing: Int? = nil,
                incoming: Int? = nil, problems: [SyncError.Code] = []) {
        self.changes = changes
        self.boardFileChanged = boardFileChanged
        self.conflictedPaths = conflictedPaths
        self.outgoing = outgoing
        self.incoming = incoming
        self.problems = problems
    }

    /// Whether the board has changes that are not recorded.
    public var hasUnrecordedChanges: Bool {
        !changes.isEmpty || boardFileChanged || !conflictedPaths.isEmpty
    }

    /// Whether the board can sync.
    public var canSync: Bool { problems.isEmpty }
}
