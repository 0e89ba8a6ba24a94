/// The polling watcher's thread: a pass every poll interval; when a pass finds changes, snapshots of what
/// changed a settle window apart until they agree (quiet) or the maximum delay passes; then a round.
struct PollingLoop {
    let context: WatchRunner.Context
    let scanner: PollingScanner

    init(context: WatchRunner.Context) {
        self.context = context
        scanner = PollingScanner(root: context.directory)
    }

    /// Runs until the watcher is asked to stop or the board directory goes away.
    /// - Parameter initial: Work to do at once (everything, after falling back from inotify).
    func run(engine: inout WatchEngine, initial: PendingWork = PendingWork()) {
        let options = context.options
        var pending = initial
        var due = ContinuousClock.now + (pending.isEmpty ? options.pollInterval : .zero)
        var lastPass = ContinuousClock.now
        while true {
            guard sleep(until: due) else { return }
            if pending.isEmpty {
                lastPass = .now
                pending = scanner.pass(engine.index)
                if pending.isEmpty {
                    due = lastPass + options.pollInterval
                    continue
                }
            }
            // Wait for the changes to settle: two snapshots a settle window apart must agree.
            let started = ContinuousClock.now
            var previous = scanner.snapshot(of: pending, index: engine.index)
            var isQuiet = false
            while true {
                guard sleep(until: .now + options.settle) else { return }
                let current = scanner.snapshot(of: pending, index: engine.index)
                if current == previous {
                    isQuiet = true
                    break
                }
                for (path, stamp) in current where previous[path] != stamp && path != "cards" {
                    pending.paths.insert(path)
                }
                for path in previous.keys where current[path] == nil && path != "cards" {
                    pending.paths.insert(path)
                }
                if current["cards"] != previous["cards"] { pending.listsColumns = true }
                previous = current
                if ContinuousClock.now - started >= options.maximumDelay { break }
            }
            // The snapshots above looked only where changes were seen. Before a round decides anything (a deletion
            // or a creation may be half of a move whose other half is elsewhere), take in everything that differs
            // from the index: one more pass, after asking whether git is at work, so that if it is not, everything
            // it wrote is on disk for the pass to see.
            let gitWasBusy = engine.git.isBusy
            pending.formUnion(scanner.pass(engine.index))
            let now = ContinuousClock.now
            let round = engine.run(pending, isQuiet: isQuiet, gitWasBusy: gitWasBusy, now: now, isBeingWritten: { _ in false },
                                   prepareColumn: { _ in })
            context.deliver(round)
            if round.isRootLost { return }
            pending = round.leftover
            due = pending.isEmpty ? max(lastPass + options.pollInterval, now) : now + options.settle
        }
    }

    /// Sleeps until `instant`; false when the watcher was asked to stop meanwhile.
    private func sleep(until instant: ContinuousClock.Instant) -> Bool {
        while true {
            let remaining = instant - .now
            let timeout = remaining <= .zero ? 0 : WatchTiming.milliseconds(remaining)
            switch SystemCalls.waitReadable([context.thread.wakeDescriptor], timeoutMilliseconds: timeout) {
            case .success(let readiness):
                if readiness.readable[0] { return false }
            case .failure:
                return !context.thread.isStopRequested
            }
            if ContinuousClock.now >= instant { return true }
        }
    }
}

enum WatchTiming {
    /// `duration` in whole milliseconds for `poll(2)`, rounded up so a wait never ends early, and capped.
    static func milliseconds(_ duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        let total = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: max(0, min(total, 24 * 3600 * 1000)))
    }

    /// `1 s`, `2.5 s`, `500 ms`.
    static func describe(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        if milliseconds < 1000 { return "\(milliseconds) ms" }
        if milliseconds % 1000 == 0 { return "\(milliseconds / 1000) s" }
        return "\(Double(milliseconds) / 1000) s"
    }
}
