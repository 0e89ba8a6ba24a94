import KanbanCore

/// Polling as a hint source: every ``WatchOptions/pollInterval`` a pass compares each card file's stamp with the
/// index; when a pass finds changes, the settling loop asks again each settle window, and the source compares the
/// stamps of what changed with what it saw a window before, until two agree (quiet) or the maximum delay passes.
/// Before the round, one more pass takes in everything that differs from the index.
final class PollingSource: HintSource {
    private let scanner: PollingScanner
    private let options: WatchOptions
    private var lastPass: ContinuousClock.Instant
    /// What the pending work concerned when last looked at, while the loop waits for quiet.
    private var previous: [String: FileStamp]?

    /// A polling source for the board at `root`; its first pass is due an interval from now.
    init(root: String, options: WatchOptions) {
        scanner = PollingScanner(root: root)
        self.options = options
        lastPass = .now
    }

    /// No descriptor: the source looks for itself.
    var descriptor: Int32 { -1 }

    func nextLook() -> ContinuousClock.Instant? {
        lastPass + options.pollInterval
    }

    func takeHints(into pending: inout PendingWork, index: BoardIndex, now: ContinuousClock.Instant) -> HintIntake {
        if pending.isEmpty {
            lastPass = now
            let work = scanner.pass(index)
            guard !work.isEmpty else { return HintIntake() }
            pending.formUnion(work)
            previous = scanner.snapshot(of: pending, index: index)
            return HintIntake(isRelevant: true)
        }
        // Waiting for the changes to settle: two snapshots a settle window apart must agree.
        let current = scanner.snapshot(of: pending, index: index)
        guard let previous else {
            self.previous = current
            return HintIntake(isRelevant: true)
        }
        self.previous = current
        guard current != previous else { return HintIntake() }
        for (path, stamp) in current where previous[path] != stamp && path != "cards" {
            pending.paths.insert(path)
        }
        for path in previous.keys where current[path] == nil && path != "cards" {
            pending.paths.insert(path)
        }
        if current["cards"] != previous["cards"] { pending.listsColumns = true }
        return HintIntake(isRelevant: true)
    }

    func isBeingWritten(_ path: String) -> Bool { false }
    func prepareColumn(_ name: String) {}

    func roundWillStart(_ work: inout PendingWork, index: BoardIndex, now: ContinuousClock.Instant, options: WatchOptions) {
        // The snapshots looked only where changes were seen. Before a round decides anything (a deletion or a
        // creation may be half of a move whose other half is elsewhere), take in everything that differs from the
        // index. The loop asked whether git is at work before this, so that if it is not, everything it wrote is
        // on disk for the pass to see.
        work.formUnion(scanner.pass(index))
    }

    func roundDidEnd(columns: Set<String>) {
        previous = nil
    }

    var isExhausted: Bool { false }
}
