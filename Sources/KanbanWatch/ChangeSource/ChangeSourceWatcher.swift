import KanbanCore

/// A watcher that learns of changes from a ``ChangeSource`` an app supplies (FSEvents, `NSFilePresenter`, an iCloud
/// query, a test that reports by hand) and turns them into card events with the same engine as the inotify watcher:
/// hints gathered until the board has been quiet for ``WatchOptions/settle`` (or ``WatchOptions/maximumDelay``
/// passed), then re-read and compared with the index.
///
/// Make one with ``BoardWatchers/make(for:source:options:onNotice:onEvent:)``.
public final class ChangeSourceWatcher: BoardWatcher {
    private let runner: WatchRunner
    private let source: any ChangeSource

    /// The board directory, absolute, with links resolved.
    public var directory: String { runner.directory }

    /// A watcher for `store`'s board fed by `source`, not yet started.
    /// - Parameters:
    ///   - store: The board.
    ///   - source: What tells the watcher where to look; started and stopped with the watcher.
    ///   - options: Timing and initial state (``WatchOptions/pollInterval`` does not apply).
    ///   - onNotice: Called with notices, such as links not followed.
    ///   - onEvent: Called with each event, on the watcher's thread.
    public init(store: BoardStore, source: any ChangeSource, options: WatchOptions = WatchOptions(),
                onNotice: @escaping @Sendable (WatchNotice) -> Void = { _ in },
                onEvent: @escaping @Sendable (WatchEvent) -> Void) {
        runner = WatchRunner(store: store, options: options, handlers: WatchHandlers(onEvent: onEvent, onNotice: onNotice))
        self.source = source
    }

    /// Starts the source, indexes the board and starts watching; see ``BoardWatcher/start()``.
    /// - Throws: What the source's ``ChangeSource/start(watching:reportingTo:)`` throws, or
    ///   ``KanbanError/Code/fileSystem`` when the watcher's thread cannot be set up.
    public func start() throws(KanbanError) {
        let source = self.source
        try runner.start(name: "kanban-watch-source") { context in
            let hints: ReportedHints
            do throws(KanbanError) {
                hints = try ReportedHints()
            } catch {
                context.fail(error)
                return
            }
            context.track(hints.descriptor, isOpen: true)
            defer {
                hints.close()
                context.track(hints.descriptor, isOpen: false)
            }
            do throws(KanbanError) {
                try source.start(watching: context.directory, reportingTo: ChangeReporter(directory: context.directory, hints: hints))
            } catch {
                context.fail(error)
                return
            }
            defer { source.stop() }
            var engine = WatchEngine(root: context.directory, options: context.options)
            let initial = engine.indexBoard(reportingState: context.options.reportsInitialState, seed: context.indexSeed(), prepareColumn: { _ in })
            context.markReady()
            context.deliver(initial)
            // Reported hints never fail, so the loop ends only when the watcher stops or the board goes away.
            _ = SettlingLoop(context: context, source: hints).run(engine: &engine, initial: initial.leftover)
        }
    }

    /// Stops watching and the source; see ``BoardWatcher/stop()``.
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
