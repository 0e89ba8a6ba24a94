import KanbanCore

/// A watcher that works everywhere: every ``WatchOptions/pollInterval`` it lists the board's directories and
/// compares each card file's inode, size, mtime and ctime (nanoseconds, `!=`) with its index, then re-reads
/// what differs once it has settled.
///
/// It costs one `fstatat` per card per pass and sees changes up to one interval late; prefer
/// ``BoardWatchers/make(for:mechanism:options:onNotice:onEvent:)``, which uses inotify where it can.
public final class PollingWatcher: BoardWatcher {
    private let runner: WatchRunner

    /// The board directory, absolute, with links resolved.
    public var directory: String { runner.directory }

    /// A polling watcher for `store`'s board, not yet started.
    /// - Parameters:
    ///   - store: The board.
    ///   - options: Timing (``WatchOptions/pollInterval`` above all) and initial state.
    ///   - onNotice: Called with notices.
    ///   - onEvent: Called with each event, on the watcher's thread.
    public init(store: BoardStore, options: WatchOptions = WatchOptions(),
                onNotice: @escaping @Sendable (WatchNotice) -> Void = { _ in },
                onEvent: @escaping @Sendable (WatchEvent) -> Void) {
        runner = WatchRunner(store: store, options: options, handlers: WatchHandlers(onEvent: onEvent, onNotice: onNotice))
    }

    /// Indexes the board and starts polling; see ``BoardWatcher/start()``.
    public func start() throws(KanbanError) {
        try runner.start(name: "kanban-watch-poll") { context in
            var engine = WatchEngine(root: context.directory, options: context.options)
            let initial = engine.indexBoard(reportingState: context.options.reportsInitialState, seed: context.indexSeed(), prepareColumn: { _ in })
            context.markReady()
            context.deliver(initial)
            let source = PollingSource(root: context.directory, options: context.options)
            _ = SettlingLoop(context: context, source: source).run(engine: &engine, initial: initial.leftover)
        }
    }

    /// Stops polling; see ``BoardWatcher/stop()``.
    public func stop() {
        runner.stop()
    }

    /// Blocks until the watcher has stopped; see ``BoardWatcher/waitUntilStopped()``.
    public func waitUntilStopped() {
        runner.waitUntilStopped()
    }

    /// Descriptors held open right now, for tests that check `stop()` leaks nothing.
    var openDescriptors: [Int32] { runner.openDescriptors }
}
