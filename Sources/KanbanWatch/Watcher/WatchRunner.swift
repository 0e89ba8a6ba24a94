import Dispatch
import KanbanCore
import Synchronization

/// The life cycle both watchers share: start the thread, wait until the board is indexed, stop, wait.
final class WatchRunner: Sendable {
    let directory: String
    let options: WatchOptions
    let handlers: WatchHandlers
    /// The board's store, whose index the watcher starts from.
    let store: BoardStore

    private struct Life {
        var thread: WatchThread?
        var isStarted = false
        /// Descriptors the watcher's thread holds besides the wake pair (the inotify descriptor), for tests.
        var descriptors: Set<Int32> = []
    }

    private let life = Mutex(Life())

    init(store: BoardStore, options: WatchOptions, handlers: WatchHandlers) {
        self.store = store
        directory = store.directory
        self.options = options
        self.handlers = handlers
    }

    /// What the watcher's body works with on its thread.
    struct Context: Sendable {
        let runner: WatchRunner
        let thread: WatchThread
        fileprivate let ready: ReadySignal

        var options: WatchOptions { runner.options }
        var directory: String { runner.directory }

        /// What the board's index holds, for indexing the board at start.
        func indexSeed() -> CardFileReader.IndexSeed {
            let (entries, builtAt) = runner.store.trustedIndexEntries()
            return CardFileReader.IndexSeed(entries: entries, builtAt: builtAt)
        }

        /// Tells ``WatchRunner/start(name:_:)`` that the board is indexed and watching has begun.
        func markReady() { ready.signal(nil) }

        /// Tells ``WatchRunner/start(name:_:)`` that the watcher could not start.
        func fail(_ error: KanbanError) { ready.signal(error) }

        /// Hands notices and then events to the handlers, in order.
        func deliver(_ round: WatchEngine.Round) {
            for notice in round.notices { runner.handlers.onNotice(notice) }
            for event in round.events { runner.handlers.onEvent(event) }
        }

        func notify(_ notice: WatchNotice) { runner.handlers.onNotice(notice) }

        /// Records a descriptor the thread opened (and forgets it when closed), so tests can check for leaks.
        func track(_ descriptor: Int32, isOpen: Bool) {
            runner.life.withLock { life in
                if isOpen { life.descriptors.insert(descriptor) } else { life.descriptors.remove(descriptor) }
            }
        }
    }

    /// Starts `body` on the watcher's thread and waits until it calls ``Context/markReady()`` or
    /// ``Context/fail(_:)`` (or returns).
    func start(name: String, _ body: @escaping @Sendable (Context) -> Void) throws(KanbanError) {
        let thread = try WatchThread()
        life.withLock { life in
            precondition(!life.isStarted, "a watcher can be started only once")
            life.isStarted = true
            life.thread = thread
        }
        let ready = ReadySignal()
        let context = Context(runner: self, thread: thread, ready: ready)
        thread.start(name: name) {
            body(context)
            ready.signal(nil)
        }
        if let error = ready.wait() {
            thread.join()
            throw error
        }
    }

    func stop() {
        guard let thread = life.withLock({ $0.thread }) else { return }
        thread.requestStop()
        if !thread.isCurrent { thread.join() }
    }

    func waitUntilStopped() {
        guard let thread = life.withLock({ $0.thread }) else { return }
        if !thread.isCurrent { thread.join() }
    }

    /// Every descriptor the watcher holds open right now (empty once stopped).
    var openDescriptors: [Int32] {
        let (thread, descriptors) = life.withLock { ($0.thread, $0.descriptors) }
        return Array(descriptors) + (thread?.openDescriptors ?? [])
    }
}

/// A one-shot signal carrying the outcome of starting.
private final class ReadySignal: Sendable {
    private let outcome = Mutex<(isSet: Bool, error: KanbanError?)>((false, nil))
    private let semaphore = DispatchSemaphore(value: 0)

    func signal(_ error: KanbanError?) {
        let isFirst = outcome.withLock { outcome -> Bool in
            guard !outcome.isSet else { return false }
            outcome = (true, error)
            return true
        }
        if isFirst { semaphore.signal() }
    }

    func wait() -> KanbanError? {
        semaphore.wait()
        return outcome.withLock { $0.error }
    }
}
