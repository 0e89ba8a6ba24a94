import KanbanCore
import Synchronization

extension GitSyncProvider {
    /// What one change learns of the repository and keeps until its commit: where the repository is (and whether an
    /// operation is under way), and whether HEAD is on a branch. A change takes milliseconds; a person who starts a
    /// rebase in those is told by git at the commit.
    final class ChangeCache: Sendable {
        /// The caches of the changes the current thread or task is making, by board directory.
        @TaskLocal static var current: [String: ChangeCache] = [:]

        let repository = Mutex<Repository?>(nil)
        let isOnBranch = Mutex(false)
    }

    /// Forgets what the change learnt of the repository: a step that changes it (finishing a merge) asks again.
    func forgetRepository() {
        guard let cache = ChangeCache.current[store.directory] else { return }
        cache.repository.withLock { $0 = nil }
        cache.isOnBranch.withLock { $0 = false }
    }

    /// Runs `body` (one change and its commit) asking git where the repository is and whether HEAD is on a branch
    /// once, not at each step. Nested calls share the outer one.
    public func duringChange<T>(_ body: () throws -> T) throws -> T {
        if ChangeCache.current[store.directory] != nil { return try body() }
        var caches = ChangeCache.current
        caches[store.directory] = ChangeCache()
        return try ChangeCache.$current.withValue(caches) { try body() }
    }
}
