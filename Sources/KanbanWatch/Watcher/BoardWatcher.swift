import KanbanCore

/// Something that watches a board directory and reports each change to it as ``WatchEvent``s.
///
/// A watcher owns a thread and descriptors from ``start()`` to ``stop()``. Events and notices are handed to
/// the closures given when it was made, one at a time, on the watcher's thread, in the order they happened
/// (within one settled batch: `board.md`, added columns, card events by path, removed columns). A handler
/// that blocks holds up the watcher, though nothing is lost: the kernel queues what happens meanwhile, and
/// an overflowing queue is recovered by a rescan.
///
/// ```swift
/// let watcher = try BoardWatchers.make(for: store) { event in
///     print(event)
/// }
/// try watcher.start()
/// // ...
/// watcher.stop()
/// ```
public protocol BoardWatcher: AnyObject, Sendable {
    /// The board directory, absolute, with links resolved.
    var directory: String { get }

    /// Indexes the board and starts watching; returns once every change made after it returned is sure to
    /// be reported. With ``WatchOptions/reportsInitialState`` the current cards are reported first, as
    /// `created` events.
    /// - Throws: ``KanbanError/Code/fileSystem`` when the board cannot be read or the watcher's thread and
    ///   descriptors cannot be set up; calling it a second time is a programmer error.
    func start() throws(KanbanError)

    /// Stops watching and returns once the watcher's thread has ended and its descriptors are closed.
    /// Events of a batch being delivered are finished first; changes not yet settled are dropped.
    /// Safe to call more than once, from any thread, including from inside an event handler (it then
    /// returns at once and the thread ends after the handler returns).
    func stop()

    /// Blocks until the watcher has stopped, by ``stop()`` or after reporting ``WatchEvent/Kind/rootLost``.
    func waitUntilStopped()
}

/// How a watcher behaves: timing, and whether it reports the board as it is when it starts.
public struct WatchOptions: Sendable, Hashable {
    /// How long the board must be quiet after a change before the watcher re-reads what changed.
    /// Saves by editors and `git checkout` are bursts of raw events; waiting for the burst to end is what
    /// turns them into one event per card.
    public var settle: Duration
    /// The longest the watcher waits for quiet while changes keep coming before it reports what it can.
    /// Moves and deletions still wait for quiet (or this long again), so a burst is never reported half-way.
    public var maximumDelay: Duration
    /// Time between passes of a polling watcher.
    public var pollInterval: Duration
    /// Whether ``BoardWatcher/start()`` first reports every card (and every file that cannot be parsed) as
    /// `created` (or `invalid`) events.
    public var reportsInitialState: Bool

    /// Creates options.
    /// - Parameters:
    ///   - settle: Quiet time before changes are read: 50 ms by default.
    ///   - maximumDelay: Longest wait for quiet: 1 s by default, and never less than four settle windows.
    ///   - pollInterval: Time between polling passes: 1 s by default.
    ///   - reportsInitialState: Report the current cards as `created` when starting.
    public init(settle: Duration = .milliseconds(50), maximumDelay: Duration = .seconds(1),
                pollInterval: Duration = .seconds(1), reportsInitialState: Bool = false) {
        self.settle = max(settle, .zero)
        self.maximumDelay = max(maximumDelay, settle * 4)
        self.pollInterval = max(pollInterval, .milliseconds(10))
        self.reportsInitialState = reportsInitialState
    }

    /// How long after its last write a card file that is empty or does not parse is taken to be still being
    /// written: editors that truncate and then write, and `git`, which creates and then writes, would
    /// otherwise show an empty or broken card for a moment.
    var suspectFileHold: Duration { max(settle * 4, .milliseconds(250)) }
}

/// Makes the right watcher for the platform.
public enum BoardWatchers {
    /// Which mechanism a watcher uses to notice changes.
    public enum Mechanism: Sendable, Hashable {
        /// inotify on Linux, falling back to polling when inotify is out of resources; polling elsewhere (on macOS
        /// and iOS, give FSEvents or `NSFilePresenter` as a ``ChangeSource`` to
        /// ``BoardWatchers/make(for:source:options:onNotice:onEvent:)`` instead).
        case automatic
        /// Polling only: every ``WatchOptions/pollInterval``, compare each file's stamp with the index.
        case polling
    }

    /// A watcher for `store`'s board, not yet started.
    /// - Parameters:
    ///   - store: The board.
    ///   - mechanism: inotify (with fallback) or polling.
    ///   - options: Timing and initial state.
    ///   - onNotice: Called with notices (fallback to polling, links not followed, unreadable files).
    ///   - onEvent: Called with each event, on the watcher's thread.
    public static func make(for store: BoardStore, mechanism: Mechanism = .automatic, options: WatchOptions = WatchOptions(),
                            onNotice: @escaping @Sendable (WatchNotice) -> Void = { _ in },
                            onEvent: @escaping @Sendable (WatchEvent) -> Void) -> any BoardWatcher {
        switch mechanism {
        case .automatic:
            #if os(Linux)
            return InotifyWatcher(store: store, options: options, onNotice: onNotice, onEvent: onEvent)
            #else
            // No inotify here (InotifyWatcher exists on Linux only); an app that wants FSEvents gives a ChangeSource.
            return PollingWatcher(store: store, options: options, onNotice: onNotice, onEvent: onEvent)
            #endif
        case .polling:
            return PollingWatcher(store: store, options: options, onNotice: onNotice, onEvent: onEvent)
        }
    }

    /// A watcher for `store`'s board that learns of changes from `source` (FSEvents, `NSFilePresenter`, ...), not
    /// yet started; see ``ChangeSource``.
    /// - Parameters:
    ///   - store: The board.
    ///   - source: What tells the watcher where to look; started and stopped with the watcher.
    ///   - options: Timing and initial state.
    ///   - onNotice: Called with notices (links not followed, unreadable files).
    ///   - onEvent: Called with each event, on the watcher's thread.
    public static func make(for store: BoardStore, source: any ChangeSource, options: WatchOptions = WatchOptions(),
                            onNotice: @escaping @Sendable (WatchNotice) -> Void = { _ in },
                            onEvent: @escaping @Sendable (WatchEvent) -> Void) -> any BoardWatcher {
        ChangeSourceWatcher(store: store, source: source, options: options, onNotice: onNotice, onEvent: onEvent)
    }
}

/// Where a watcher delivers what it finds.
struct WatchHandlers: Sendable {
    var onEvent: @Sendable (WatchEvent) -> Void
    var onNotice: @Sendable (WatchNotice) -> Void
}
