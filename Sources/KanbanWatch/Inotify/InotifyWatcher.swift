#if os(Linux)
import Foundation
import Glibc
import KanbanCore

/// A watcher that learns of changes from inotify: watches on the board directory, `cards/`, every column
/// directory (new ones as they appear) and `archive/`, read by a dedicated thread blocked in `poll(2)`.
///
/// Raw events are only hints. After the board has been quiet for ``WatchOptions/settle`` the watcher re-reads
/// what they point at and compares it with its index, so that an editor's save is one `modified`. When the
/// kernel's queue overflows it rescans and compares everything. When inotify runs out of instances or watches
/// (`EMFILE`, `ENFILE`, `ENOSPC`), it says so through the notice handler and carries on by polling, from the
/// same index, so nothing is lost.
public final class InotifyWatcher: BoardWatcher {
    private let runner: WatchRunner
    private let faults: InotifyFaults

    /// The board directory, absolute, with links resolved.
    public var directory: String { runner.directory }

    /// An inotify watcher for `store`'s board, not yet started.
    /// - Parameters:
    ///   - store: The board.
    ///   - options: Timing and initial state; ``WatchOptions/pollInterval`` applies after a fallback to polling.
    ///   - onNotice: Called with notices, such as falling back to polling.
    ///   - onEvent: Called with each event, on the watcher's thread.
    public convenience init(store: BoardStore, options: WatchOptions = WatchOptions(),
                            onNotice: @escaping @Sendable (WatchNotice) -> Void = { _ in },
                            onEvent: @escaping @Sendable (WatchEvent) -> Void) {
        self.init(store: store, options: options, faults: InotifyFaults(), onNotice: onNotice, onEvent: onEvent)
    }

    init(store: BoardStore, options: WatchOptions, faults: InotifyFaults,
         onNotice: @escaping @Sendable (WatchNotice) -> Void, onEvent: @escaping @Sendable (WatchEvent) -> Void) {
        runner = WatchRunner(store: store, options: options, handlers: WatchHandlers(onEvent: onEvent, onNotice: onNotice))
        self.faults = faults
    }

    /// Indexes the board and starts watching; see ``BoardWatcher/start()``.
    public func start() throws(KanbanError) {
        let faults = self.faults
        try runner.start(name: "kanban-watch") { context in
            Self.run(context, faults: faults)
        }
    }

    /// Stops watching; see ``BoardWatcher/stop()``.
    public func stop() {
        runner.stop()
    }

    /// Blocks until the watcher has stopped; see ``BoardWatcher/waitUntilStopped()``.
    public func waitUntilStopped() {
        runner.waitUntilStopped()
    }

    /// Descriptors held open right now, for tests that check `stop()` leaks nothing.
    var openDescriptors: [Int32] { runner.openDescriptors }

    // MARK: The watcher's thread

    private static func run(_ context: WatchRunner.Context, faults: InotifyFaults) {
        var engine = WatchEngine(root: context.directory, options: context.options)
        var source: InotifySource?
        switch InotifySource.open(root: context.directory, faults: faults) {
        case .success(let opened):
            context.track(opened.descriptor, isOpen: true)
            if opened.watchBoard() {
                source = opened
            } else {
                context.notify(fallbackNotice(opened.exhaustion, options: context.options))
                close(opened, context: context)
            }
        case .failure(let error):
            context.notify(fallbackNotice(error, options: context.options))
        }

        let initial = engine.indexBoard(reportingState: context.options.reportsInitialState, seed: context.indexSeed()) { column in
            source?.watchColumn(column)
        }
        context.markReady()
        context.deliver(initial)

        var leftover = initial.leftover
        if let watching = source {
            if watching.exhaustion == nil {
                switch SettlingLoop(context: context, source: watching).run(engine: &engine, initial: leftover) {
                case .stopped:
                    close(watching, context: context)
                    return
                case .fallBack(let pending):
                    leftover = pending
                }
            }
            context.notify(fallbackNotice(watching.exhaustion, options: context.options))
            close(watching, context: context)
            leftover.formUnion(.all)
        }
        let polling = PollingSource(root: context.directory, options: context.options)
        _ = SettlingLoop(context: context, source: polling).run(engine: &engine, initial: leftover)
    }

    private static func close(_ source: InotifySource, context: WatchRunner.Context) {
        source.close()
        context.track(source.descriptor, isOpen: false)
    }

    private static func fallbackNotice(_ error: SystemCallError?, options: WatchOptions) -> WatchNotice {
        let reason: String
        switch error?.code {
        case EMFILE?: reason = "the limit of inotify instances is reached (fs.inotify.max_user_instances)"
        case ENFILE?: reason = "the system is out of file descriptors"
        case ENOSPC?: reason = "the limit of inotify watches is reached (fs.inotify.max_user_watches)"
        case ENOMEM?: reason = "the kernel is out of memory for inotify"
        case let code?: reason = String(cString: strerror(code))
        case nil: reason = "the board directory cannot be watched"
        }
        return WatchNotice(.fallingBackToPolling,
                           "inotify is unavailable: \(reason); watching by polling every \(WatchTiming.describe(options.pollInterval))")
    }
}
#endif
