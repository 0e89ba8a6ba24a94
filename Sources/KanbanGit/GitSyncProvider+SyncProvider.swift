import KanbanCore

extension GitSyncProvider {
    /// The provider-neutral part of ``status()``: the uncommitted card changes, commits ahead and behind the upstream
    /// (as of the last fetch), and what stands in the way of `sync`.
    public func state() throws(SyncError) -> SyncState {
        let status = try status()
        let isReady = status.availability == .ready
        return SyncState(changes: status.changes, boardFileChanged: status.boardFileChanged, conflictedPaths: status.conflictedPaths,
                         outgoing: isReady && status.upstream != nil ? status.ahead : nil,
                         incoming: isReady && status.upstream != nil ? status.behind : nil, problems: status.problems)
    }
}
