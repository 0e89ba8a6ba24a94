#if os(Linux)

extension InotifySource: HintSource {
    func nextLook() -> ContinuousClock.Instant? { nil }

    func takeHints(into pending: inout PendingWork, index: BoardIndex, now: ContinuousClock.Instant) -> HintIntake {
        var intake = HintIntake()
        switch readEvents() {
        case .failure:
            intake.hasFailed = true
        case .success(let events):
            for event in events {
                let meaning = interpret(event, into: &pending, writing: &writing, now: now)
                if meaning.isRootLost {
                    intake.isRootLost = true
                    return intake
                }
                if meaning.isOverflow && !overflowNoticed {
                    overflowNoticed = true
                    intake.notices.append(WatchNotice(.rescanned, "the inotify queue overflowed; rescanning the board"))
                }
                intake.isRelevant = intake.isRelevant || meaning.isRelevant
            }
        }
        return intake
    }

    func isBeingWritten(_ path: String) -> Bool {
        writing[path] != nil
    }

    func prepareColumn(_ name: String) {
        watchColumn(name)
    }

    func roundWillStart(_ work: inout PendingWork, index: BoardIndex, now: ContinuousClock.Instant, options: WatchOptions) {
        // A writer that never closed (or whose close was missed) holds a path back for the maximum delay at most.
        writing = writing.filter { now - $0.value < options.maximumDelay }
    }

    func roundDidEnd(columns: Set<String>) {
        forgetColumns(notIn: columns)
        overflowNoticed = false
    }

    var isExhausted: Bool { exhaustion != nil }
}
#endif
