import Dispatch
import Foundation
import KanbanCore
import Synchronization

/// The thread a watcher runs on, and the socket pair that wakes it from `poll(2)` when it must stop.
///
/// All of a watcher's mutable state (its index, its inotify descriptor) lives on this thread and nowhere
/// else, so nothing of it needs a lock. The lock here guards only the life cycle: whether the thread has
/// started, been asked to stop, or ended, and the wake descriptors, which are closed by whichever side
/// comes last so that a late ``requestStop()`` never writes to a reused descriptor number.
final class WatchThread: Sendable {
    private struct State {
        var isStarted = false
        var isStopRequested = false
        var isFinished = false
        var threadIdentity: UInt?
        var wakeReader: Int32
        var wakeWriter: Int32
    }

    private let state: Mutex<State>
    private let finished = DispatchSemaphore(value: 0)
    /// The descriptor the thread polls to learn that it must stop.
    let wakeDescriptor: Int32

    init() throws(KanbanError) {
        switch SystemCalls.wakePair() {
        case .success(let pair):
            state = Mutex(State(wakeReader: pair.reader, wakeWriter: pair.writer))
            wakeDescriptor = pair.reader
        case .failure(let error):
            throw KanbanError(.fileSystem, "cannot start watching: \(error)")
        }
    }

    /// Runs `body` on a new thread. `body` returns when it sees the wake descriptor readable (or decides to
    /// end on its own, after the board went away).
    func start(name: String, _ body: @escaping @Sendable () -> Void) {
        let canStart = state.withLock { state -> Bool in
            precondition(!state.isStarted, "a watcher can be started only once")
            state.isStarted = true
            return !state.isStopRequested
        }
        guard canStart else {
            finish()
            return
        }
        let thread = Thread { [self] in
            state.withLock { $0.threadIdentity = SystemCalls.currentThread() }
            body()
            finish()
        }
        thread.name = name
        thread.start()
    }

    /// Whether the caller is the watcher's own thread.
    var isCurrent: Bool {
        let current = SystemCalls.currentThread()
        return state.withLock { $0.threadIdentity == current }
    }

    /// Asks the thread to end; returns at once.
    func requestStop() {
        state.withLock { state in
            guard !state.isStopRequested else { return }
            state.isStopRequested = true
            if !state.isFinished { SystemCalls.wake(state.wakeWriter) }
        }
    }

    /// Whether ``requestStop()`` was called.
    var isStopRequested: Bool { state.withLock { $0.isStopRequested } }

    /// Blocks until the thread has ended (at once if it never started).
    func join() {
        let hasThread = state.withLock { $0.isStarted }
        guard hasThread else { return }
        finished.wait()
        finished.signal()  // let every other waiter through too
    }

    private func finish() {
        state.withLock { state in
            state.isFinished = true
            SystemCalls.closeDescriptor(state.wakeReader)
            SystemCalls.closeDescriptor(state.wakeWriter)
            state.wakeReader = -1
            state.wakeWriter = -1
        }
        finished.signal()
    }

    /// The wake descriptors, while open (for tests that check nothing leaks).
    var openDescriptors: [Int32] {
        state.withLock { state in [state.wakeReader, state.wakeWriter].filter { $0 >= 0 } }
    }

    deinit {
        state.withLock { state in
            if state.wakeReader >= 0 { SystemCalls.closeDescriptor(state.wakeReader) }
            if state.wakeWriter >= 0 { SystemCalls.closeDescriptor(state.wakeWriter) }
        }
    }
}
