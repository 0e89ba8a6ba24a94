import Dispatch
import Foundation
import KanbanCore
import KanbanGit

/// `kanban watch --commit [--sync SECONDS]`: commits external edits once a burst of them is over, and keeps the
/// branch in step with its upstream.
///
/// Everything runs on one serial queue, so a commit, a pull and a push never overlap. A pull brings changes that
/// are already committed, so the events it causes find nothing pending and make no commit: no empty or
/// duplicate commits.
final class WatchCommitter: @unchecked Sendable {
    // @unchecked: every mutable property is touched only on `queue`.
    private let queue = DispatchQueue(label: "kanban.watch.commit")
    private let provider: GitSyncProvider
    private let quietPeriod: DispatchTimeInterval
    private let syncInterval: DispatchTimeInterval?
    private let report: @Sendable (String, Bool) -> Void
    private var pending: DispatchWorkItem?
    private var timer: DispatchSourceTimer?

    /// - Parameters:
    ///   - quietPeriod: How long after the last event to commit.
    ///   - syncInterval: How often to pull and push when nothing is pending; nil for never.
    ///   - report: Prints a line; the flag says whether it is an error.
    init(provider: GitSyncProvider, quietPeriod: DispatchTimeInterval, syncInterval: DispatchTimeInterval?,
         report: @escaping @Sendable (String, Bool) -> Void) {
        self.provider = provider
        self.quietPeriod = quietPeriod
        self.syncInterval = syncInterval
        self.report = report
    }

    func start() {
        guard let syncInterval else { return }
        queue.async {
            let timer = DispatchSource.makeTimerSource(queue: self.queue)
            timer.schedule(deadline: .now() + syncInterval, repeating: syncInterval)
            timer.setEventHandler { [weak self] in self?.synchronise() }
            timer.resume()
            self.timer = timer
        }
    }

    /// An event arrived: commit once the board has been quiet for the quiet period.
    func noteEvent() {
        queue.async {
            self.pending?.cancel()
            let item = DispatchWorkItem { [weak self] in self?.commitPending() }
            self.pending = item
            self.queue.asyncAfter(deadline: .now() + self.quietPeriod, execute: item)
        }
    }

    /// Commits what is still pending and stops the timer; called when the watcher stops.
    func finish() {
        queue.sync {
            timer?.cancel()
            timer = nil
            if let pending, !pending.isCancelled {
                pending.cancel()
                commitPending()
            }
            pending = nil
        }
    }

    private func commitPending() {
        pending = nil
        do {
            if let result = try provider.commitPendingChanges() {
                report("committed \(result.shortCommit) \(result.message.subject)", false)
            }
        } catch {
            report("could not commit the board changes: \(error.message)" + (error.hint.map { " (\($0))" } ?? ""), true)
        }
    }

    /// Pulls and pushes when nothing is waiting to be committed.
    private func synchronise() {
        guard pending == nil else { return }
        do {
            let status = try provider.status()
            guard status.isClean, status.upstream != nil else { return }
            let pulled = try provider.pull()
            if pulled.kind != .upToDate { report("pulled from \(status.upstream ?? "the upstream")", false) }
            let after = try provider.status()
            if after.ahead > 0 {
                let pushed = try provider.push()
                report("pushed \(pushed.pushed) commit\(pushed.pushed == 1 ? "" : "s") to \(pushed.upstream)", false)
            }
        } catch {
            report("sync failed: \(error.message)" + (error.hint.map { " (\($0))" } ?? "") + "; will try again", true)
        }
    }
}
