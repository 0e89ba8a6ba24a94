import KanbanCore
import Synchronization

/// The hints a ``ChangeSource`` reported and the watcher's thread has not taken yet, and the socket pair that wakes
/// that thread when the first of them arrives.
final class ReportedHints: HintSource, Sendable {
    /// Readable while hints wait.
    let descriptor: Int32

    private struct State {
        var pending = PendingWork()
        /// Whether a wake-up byte is on its way and not yet drained.
        var isSignalled = false
        var isOpen = true
        var writer: Int32
    }

    private let state: Mutex<State>

    init() throws(KanbanError) {
        switch SystemCalls.wakePair() {
        case .success(let pair):
            descriptor = pair.reader
            state = Mutex(State(writer: pair.writer))
        case .failure(let error):
            throw KanbanError(.fileSystem, "cannot start watching: \(error)")
        }
    }

    /// Adds `work` to what waits, from any thread; ignored once closed.
    func report(_ work: PendingWork) {
        guard !work.isEmpty else { return }
        state.withLock { state in
            guard state.isOpen else { return }
            state.pending.formUnion(work)
            if !state.isSignalled {
                state.isSignalled = true
                SystemCalls.wake(state.writer)
            }
        }
    }

    func nextLook() -> ContinuousClock.Instant? { nil }

    func takeHints(into pending: inout PendingWork, index: BoardIndex, now: ContinuousClock.Instant) -> HintIntake {
        // Drained before the hints are taken: a report in between wakes the loop again rather than being missed.
        SystemCalls.drain(descriptor)
        let work = state.withLock { state -> PendingWork in
            state.isSignalled = false
            defer { state.pending = PendingWork() }
            return state.pending
        }
        pending.formUnion(work)
        return HintIntake(isRelevant: !work.isEmpty)
    }

    func isBeingWritten(_ path: String) -> Bool { false }
    func prepareColumn(_ name: String) {}
    func roundWillStart(_ work: inout PendingWork, index: BoardIndex, now: ContinuousClock.Instant, options: WatchOptions) {}
    func roundDidEnd(columns: Set<String>) {}
    var isExhausted: Bool { false }

    /// Closes both descriptors; later reports are ignored.
    func close() {
        state.withLock { state in
            guard state.isOpen else { return }
            state.isOpen = false
            SystemCalls.closeDescriptor(state.writer)
            SystemCalls.closeDescriptor(descriptor)
        }
    }

    deinit {
        close()
    }
}
