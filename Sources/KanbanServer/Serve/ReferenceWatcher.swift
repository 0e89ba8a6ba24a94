import Foundation
import KanbanGit
import Synchronization

/// Looks at the repository's reference files every `interval` and calls `changed` when they moved: a `git fetch`
/// in a terminal or a push from another window changes what the page's git status says, though no card changed.
package final class ReferenceWatcher: Sendable {
    private let condition = NSCondition()
    private let isStopped = Mutex(false)

    /// Starts looking on a thread of its own.
    package init(_ files: GitSyncProvider.ReferenceFiles, interval: TimeInterval = 1, changed: @escaping @Sendable () -> Void) {
        Thread { [self] in
            var last = files.stamp()
            while true {
                condition.lock()
                if !isStopped.withLock({ $0 }) { _ = condition.wait(until: Date().addingTimeInterval(interval)) }
                condition.unlock()
                if isStopped.withLock({ $0 }) { return }
                let now = files.stamp()
                if now != last {
                    last = now
                    changed()
                }
            }
        }.start()
    }

    /// Stops looking (the thread returns at once).
    package func stop() {
        isStopped.withLock { $0 = true }
        condition.lock()
        condition.broadcast()
        condition.unlock()
    }
}
