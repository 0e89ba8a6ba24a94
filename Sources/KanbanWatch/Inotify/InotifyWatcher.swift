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
        runner = WatchRunner(directory: store.directory, options: options, handlers: WatchHandlers(onEvent: onEvent, onNotice: onNotice))
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

        let initial = engine.indexBoard(reportingState: context.options.reportsInitialState) { column in
            source?.watchColumn(column)
        }
        context.markReady()
        context.deliver(initial)

        var leftover = initial.leftover
        if let watching = source {
            if watching.exhaustion == nil {
                switch InotifyLoop(context: context, source: watching).run(engine: &engine, initial: leftover) {
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
        PollingLoop(context: context).run(engine: &engine, initial: leftover)
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

/// The inotify watcher's thread: `poll(2)` on the inotify descriptor and the wake socket; hints gathered
/// until the board has been quiet for the settle window (or the maximum delay passed), then a round.
struct InotifyLoop {
    let context: WatchRunner.Context
    let source: InotifySource

    enum Ending {
        /// Asked to stop, or the board directory went away.
        case stopped
        /// inotify ran out of resources; carry on by polling with this work pending.
        case fallBack(PendingWork)
    }

    func run(engine: inout WatchEngine, initial: PendingWork) -> Ending {
        let options = context.options
        var state = State(pending: initial)

        while true {
            var due: ContinuousClock.Instant?
            if !state.pending.isEmpty {
                var next = min(state.lastHint + options.settle, (state.firstHint ?? .now) + options.maximumDelay)
                if let notBefore = state.notBefore, next < notBefore { next = notBefore }
                due = next
            }
            let timeout = due.map { WatchTiming.milliseconds($0 - .now) } ?? -1
            switch SystemCalls.waitReadable([context.thread.wakeDescriptor, source.descriptor], timeoutMilliseconds: timeout) {
            case .failure:
                return .fallBack(state.pending)
            case .success(let readiness):
                if readiness.readable[0] { return .stopped }
                if readiness.readable[1], let ending = drain(into: &state) { return ending }
            }

            guard let due, ContinuousClock.now >= due, !state.pending.isEmpty else { continue }
            // Whether git holds its lock, asked before the last events are read: if it no longer does, every
            // file it wrote has an event in the queue by now, and the drain below takes them in.
            let gitWasBusy = engine.git.isBusy
            let beforeDrain = state.lastHint
            if let ending = drain(into: &state) { return ending }
            let now = ContinuousClock.now
            let isForced = now >= (state.firstHint ?? now) + options.maximumDelay
            if state.lastHint != beforeDrain && !isForced { continue }  // more came in: wait for quiet again
            let isQuiet = now - state.lastHint >= options.settle
            let work = state.pending
            state.pending = PendingWork()
            state.writing = state.writing.filter { now - $0.value < options.maximumDelay }
            let writing = state.writing
            let round = engine.run(work, isQuiet: isQuiet, gitWasBusy: gitWasBusy, now: now,
                                   isBeingWritten: { writing[$0] != nil }) { column in
                source.watchColumn(column)
            }
            source.forgetColumns(notIn: engine.index.columns)
            context.deliver(round)
            if round.isRootLost { return .stopped }
            state.overflowNoticed = false
            state.pending.formUnion(round.leftover)
            if state.pending.isEmpty {
                state.firstHint = nil
                state.notBefore = nil
            } else {
                state.firstHint = now
                state.notBefore = now + options.settle
            }
            if source.exhaustion != nil { return .fallBack(state.pending) }
        }
    }

    /// What the loop keeps between wake-ups.
    private struct State {
        var pending: PendingWork
        /// Paths open for writing (`IN_MODIFY` seen, `IN_CLOSE_WRITE` not yet), since when.
        var writing: [String: ContinuousClock.Instant] = [:]
        var firstHint: ContinuousClock.Instant?
        var lastHint = ContinuousClock.now
        var notBefore: ContinuousClock.Instant?
        var overflowNoticed = false

        init(pending: PendingWork) {
            self.pending = pending
            firstHint = pending.isEmpty ? nil : .now
        }
    }

    /// Reads every waiting event into `state`; an ending when the watcher must stop or fall back.
    private func drain(into state: inout State) -> Ending? {
        let now = ContinuousClock.now
        switch source.readEvents() {
        case .failure:
            return .fallBack(state.pending)
        case .success(let events):
            var isRelevant = false
            for event in events {
                let meaning = source.interpret(event, into: &state.pending, writing: &state.writing, now: now)
                if meaning.isRootLost {
                    context.deliver(WatchEngine.Round(events: [WatchEvent(.rootLost, path: context.directory,
                                                                           message: "the board directory was removed or moved")]))
                    return .stopped
                }
                if meaning.isOverflow && !state.overflowNoticed {
                    state.overflowNoticed = true
                    context.notify(WatchNotice(.rescanned, "the inotify queue overflowed; rescanning the board"))
                }
                isRelevant = isRelevant || meaning.isRelevant
            }
            if isRelevant {
                state.lastHint = now
                if state.firstHint == nil { state.firstHint = now }
            }
        }
        return source.exhaustion != nil ? .fallBack(state.pending) : nil
    }
}
#endif
