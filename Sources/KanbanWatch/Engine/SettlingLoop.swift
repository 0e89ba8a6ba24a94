/// A watcher's thread, whatever its source (inotify, polling, or an app's ``ChangeSource``): `poll(2)` on the
/// source's descriptor (if it has one) and the wake socket; hints gathered until the board has been quiet for the
/// settle window (or the maximum delay passed), then a round of the engine.
struct SettlingLoop<Source: HintSource> {
    let context: WatchRunner.Context
    let source: Source

    enum Ending {
        /// Asked to stop, or the board directory went away.
        case stopped
        /// The source can no longer tell of changes; carry on by polling with this work pending.
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
            let look = state.pending.isEmpty ? source.nextLook() : nil
            let wakeUp = [due, look].compactMap { $0 }.min()
            let timeout = wakeUp.map { WatchTiming.milliseconds($0 - .now) } ?? -1
            switch SystemCalls.waitReadable([context.thread.wakeDescriptor, source.descriptor], timeoutMilliseconds: timeout) {
            case .failure:
                return .fallBack(state.pending)
            case .success(let readiness):
                if readiness.readable[0] { return .stopped }
                if readiness.readable[1], let ending = drain(into: &state, index: engine.index) { return ending }
            }
            if let look, state.pending.isEmpty, ContinuousClock.now >= look {
                if let ending = drain(into: &state, index: engine.index) { return ending }
                continue
            }

            guard let due, ContinuousClock.now >= due, !state.pending.isEmpty else { continue }
            // Whether git holds its lock, asked before the last hints are taken: if it no longer does, every
            // file it wrote has been hinted at by now (inotify has the events queued), and the drain takes them in.
            let gitWasBusy = engine.git.isBusy
            let beforeDrain = state.lastHint
            if let ending = drain(into: &state, index: engine.index) { return ending }
            let now = ContinuousClock.now
            let isForced = now >= (state.firstHint ?? now) + options.maximumDelay
            if state.lastHint != beforeDrain && !isForced { continue }  // more came in: wait for quiet again
            let isQuiet = now - state.lastHint >= options.settle
            var work = state.pending
            state.pending = PendingWork()
            source.roundWillStart(&work, index: engine.index, now: now, options: options)
            let source = self.source
            let round = engine.run(work, isQuiet: isQuiet, gitWasBusy: gitWasBusy, now: now,
                                   isBeingWritten: { source.isBeingWritten($0) }) { column in
                source.prepareColumn(column)
            }
            source.roundDidEnd(columns: engine.index.columns)
            context.deliver(round)
            if round.isRootLost { return .stopped }
            state.pending.formUnion(round.leftover)
            if state.pending.isEmpty {
                state.firstHint = nil
                state.notBefore = nil
            } else {
                state.firstHint = now
                state.notBefore = now + options.settle
            }
            if source.isExhausted { return .fallBack(state.pending) }
        }
    }

    /// What the loop keeps between wake-ups.
    private struct State {
        var pending: PendingWork
        var firstHint: ContinuousClock.Instant?
        var lastHint = ContinuousClock.now
        var notBefore: ContinuousClock.Instant?

        init(pending: PendingWork) {
            self.pending = pending
            firstHint = pending.isEmpty ? nil : .now
        }
    }

    /// Takes every waiting hint into `state`; an ending when the watcher must stop or fall back.
    private func drain(into state: inout State, index: BoardIndex) -> Ending? {
        let now = ContinuousClock.now
        let intake = source.takeHints(into: &state.pending, index: index, now: now)
        for notice in intake.notices { context.notify(notice) }
        if intake.isRootLost {
            context.deliver(WatchEngine.Round(events: [WatchEvent(.rootLost, path: context.directory,
                                                                   message: "the board directory was removed or moved")]))
            return .stopped
        }
        if intake.hasFailed { return .fallBack(state.pending) }
        if intake.isRelevant {
            state.lastHint = now
            if state.firstHint == nil { state.firstHint = now }
        }
        return source.isExhausted ? .fallBack(state.pending) : nil
    }
}
