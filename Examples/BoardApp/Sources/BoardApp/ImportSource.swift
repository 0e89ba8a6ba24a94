import KanbanCore
import KanbanWatch
import Synchronization

/// A change source: it reports the files this app writes itself outside the store (an import, a download from a
/// sync service). A Mac app would report FSEvents or `NSFilePresenter` callbacks the same way, and an iPad app the
/// results of an `NSMetadataQuery`: only "this path may have changed"; the watcher's engine works out what did.
final class ImportSource: ChangeSource {
    private let reporter = Mutex<ChangeReporter?>(nil)

    func start(watching directory: String, reportingTo reporter: ChangeReporter) throws(KanbanError) {
        self.reporter.withLock { $0 = reporter }
    }

    func stop() {
        reporter.withLock { $0 = nil }
    }

    /// Tells the watcher that the app wrote `path` (absolute, or relative to the board).
    func didWrite(_ path: String) {
        reporter.withLock { $0 }?.pathMayHaveChanged(path)
    }
}
