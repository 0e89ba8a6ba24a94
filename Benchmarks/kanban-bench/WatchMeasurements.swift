#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import KanbanCore
import KanbanWatch
import Synchronization

/// The three watcher measurements, each on a board generated for it under `root`.
struct WatchMeasurements {
    let root: String
    let options: WatchBenchmarkOptions

    static let latencyCards = 1_000
    static let checkoutTargetSeconds = 2.0
    static let pollTargetSeconds = 0.3
    static let latencyMarginMilliseconds = 5.0

    // MARK: Latency

    /// Edits one card at a time and times, from the edited file's close to delivery, the watcher's `modified`
    /// event and `inotifywait`'s line for the same file.
    func latency() throws {
        let directory = root + "/latency"
        progress("latency: generating \(Self.latencyCards) cards")
        let board = GeneratedBoard(directory: directory, cardCount: Self.latencyCards)
        try board.write()
        let cards = (0..<board.cardCount).filter { !board.isArchived($0) }.map { board.card($0) }
        guard let column = cards.first?.column else { throw BenchmarkError("the generated board has no active card") }
        let editable = cards.filter { $0.column == column }

        let arrivals = ArrivalLog()
        let store = try openStore(directory)
        let settle = options.settleMilliseconds
        let watcher = BoardWatchers.make(for: store, options: WatchOptions(settle: .milliseconds(settle))) { event in
            if event.kind == .modified, let slug = event.slug { arrivals.record(slug) }
        }
        try start(watcher)
        defer { watcher.stop() }
        let baseline = try Inotifywait.start(watching: directory + "/cards/" + column)
        defer { baseline?.stop() }

        progress("latency: \(options.edits) edits, one at a time")
        var watcherTimes: [Double] = []
        var baselineTimes: [Double] = []
        for edit in 0..<options.edits {
            let card = editable[edit % editable.count]
            let path = directory + "/" + card.path
            let seenBefore = arrivals.count(of: card.slug)
            let baselineBefore = baseline?.arrivals.count(of: path) ?? 0
            try POSIX.writeFile(path, card.bytes + Array("\nEdit \(edit).\n".utf8))
            let written = ContinuousClock.now
            guard let delivered = arrivals.wait(for: card.slug, beyond: seenBefore, timeout: .seconds(10)) else {
                throw BenchmarkError("latency: no event for edit \(edit) of \(card.path) within 10 s")
            }
            watcherTimes.append(Self.milliseconds(delivered - written))
            if let baseline {
                if let seen = baseline.arrivals.wait(for: path, beyond: baselineBefore, timeout: .seconds(10)) {
                    // inotifywait can print the close before close() has returned to the writer: count that as 0.
                    baselineTimes.append(max(0, Self.milliseconds(seen - written)))
                }
            }
        }
        let watched = LatencySample(milliseconds: watcherTimes)
        let reference = LatencySample(milliseconds: baselineTimes)
        print("")
        print("Event latency, write → event delivered (\(options.edits) edits, settle \(settle) ms):")
        print("  kanban watch (inotify)   median \(formatMilliseconds(watched.median))   p99 \(formatMilliseconds(watched.p99))")
        if baseline != nil {
            print("  inotifywait              median \(formatMilliseconds(reference.median))   p99 \(formatMilliseconds(reference.p99))")
            let allowed = reference.median + Double(settle) + Self.latencyMarginMilliseconds
            print("  target: median ≤ inotifywait's + settle + 5 ms = \(formatMilliseconds(allowed))   \(verdict(watched.median <= allowed))")
        } else {
            print("  inotifywait              skipped (not installed)")
            print("  target: median ≤ inotifywait's + settle + 5 ms   not judged without the baseline")
        }
    }

    // MARK: git checkout

    /// A board of `checkoutFiles` cards in git, every card changed between two commits: the time from
    /// `git checkout` exiting to the watcher's last event.
    func checkout() throws {
        guard Inotifywait.which("git") != nil else {
            print("\ngit checkout: skipped (git is not on PATH)")
            return
        }
        let directory = root + "/checkout"
        let count = options.checkoutFiles
        progress("checkout: generating \(count) cards and two commits")
        let board = GeneratedBoard(directory: directory, cardCount: count)
        try board.write()
        try git(directory, "init", "-q")
        try git(directory, "add", "-A")
        try git(directory, "commit", "-q", "-m", "before")
        for index in 0..<count {
            let card = board.card(index)
            try POSIX.writeFile(directory + "/" + card.path, card.bytes + Array("\nChanged on the branch.\n".utf8))
        }
        try git(directory, "add", "-A")
        try git(directory, "commit", "-q", "-m", "after")
        try git(directory, "branch", "-q", "after")
        try git(directory, "checkout", "-q", "HEAD~1")

        print("")
        print("git checkout of \(count) changed card files:")
        let runs: [(mechanism: BoardWatchers.Mechanism, label: String, revision: String)] = [
            (.automatic, "inotify", "after"), (.polling, "polling every 1 s", "HEAD~1"),
        ]
        for (mechanism, label, revision) in runs {
            let log = EventLog()
            let store = try openStore(directory)
            let watcher = BoardWatchers.make(for: store, mechanism: mechanism, options: WatchOptions(settle: .milliseconds(options.settleMilliseconds))) { event in
                log.record(event)
            }
            let started = ContinuousClock.now
            try start(watcher)
            let startup = ContinuousClock.now - started
            let checkoutStarted = ContinuousClock.now
            try git(directory, "checkout", "-q", revision)
            let exited = ContinuousClock.now
            guard log.wait(until: count, timeout: .seconds(120)) else {
                watcher.stop()
                throw BenchmarkError("checkout (\(label)): only \(log.count) of \(count) events within 120 s")
            }
            // Anything beyond the true set would show up within a few settle windows.
            Thread.sleep(forTimeInterval: 1)
            watcher.stop()
            let last = log.last ?? exited
            let seconds = Self.seconds(last - exited)
            let kinds = log.kinds.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.value) \($0.key.rawValue)" }.joined(separator: ", ")
            print("  \(label): start on \(count) cards \(String(format: "%.2f s", Self.seconds(startup))); git ran "
                  + "\(String(format: "%.2f s", Self.seconds(exited - checkoutStarted))); events: \(kinds)")
            if mechanism == .automatic {
                print("    exit → last event \(String(format: "%.2f s", seconds))   target ≤ 2 s   \(verdict(seconds <= Self.checkoutTargetSeconds && log.count == count))")
            } else {
                print("    exit → last event \(String(format: "%.2f s", seconds))   (no target: includes up to one poll interval)")
            }
        }
    }

    private func git(_ directory: String, _ arguments: String...) throws {
        let command = ["git", "-C", directory, "-c", "user.name=kanban-bench", "-c", "user.email=bench@example.invalid",
                       "-c", "core.autocrlf=false", "-c", "gc.auto=0", "-c", "commit.gpgsign=false"] + arguments
        let result = try ChildProcess.run(command, keepsOutput: false)
        guard result.succeeded else { throw BenchmarkError("\(command.joined(separator: " ")) \(result.statusDescription)") }
    }

    // MARK: Polling pass

    /// The processor time of one polling pass (list every directory, `fstatat` every card, compare with the
    /// index) over `pollCards` cards.
    func pollingPass() throws {
        let directory = root + "/poll"
        let count = options.pollCards
        progress("poll: generating \(count) cards")
        try GeneratedBoard(directory: directory, cardCount: count).write()
        // Files younger than the racy window (2 s) are read again by every pass, as they should be; wait it out
        // so the pass measured is the steady one.
        Thread.sleep(forTimeInterval: 2.5)
        let store = try openStore(directory)
        progress("poll: indexing")
        let indexStart = ContinuousClock.now
        let probe = PollingPassProbe(store: store)
        let indexing = ContinuousClock.now - indexStart
        _ = probe.pass()  // warm-up
        var processor: [Double] = []
        var wall: [Double] = []
        var found = 0
        for _ in 0..<5 {
            let cpuBefore = Self.threadProcessorSeconds()
            let wallBefore = ContinuousClock.now
            found = max(found, probe.pass())
            wall.append(Self.seconds(ContinuousClock.now - wallBefore))
            processor.append(Self.threadProcessorSeconds() - cpuBefore)
        }
        let medianProcessor = processor.sorted()[processor.count / 2]
        let medianWall = wall.sorted()[wall.count / 2]
        print("")
        print("Polling pass over \(probe.cardCount) card files (indexing them took \(String(format: "%.2f s", Self.seconds(indexing)))):")
        print("  processor time median \(String(format: "%.3f s", medianProcessor)) (wall \(String(format: "%.3f s", medianWall)), 5 passes, "
              + "\(found) changes found)   target ≤ 0.3 s   \(verdict(medianProcessor <= Self.pollTargetSeconds && found == 0))")
    }

    // MARK: Helpers

    private func openStore(_ directory: String) throws -> BoardStore {
        do {
            return try BoardStore(directory: directory)
        } catch {
            throw BenchmarkError("cannot open the generated board: \(error)")
        }
    }

    private func start(_ watcher: any BoardWatcher) throws {
        do {
            try watcher.start()
        } catch {
            throw BenchmarkError("the watcher did not start: \(error)")
        }
    }

    private func progress(_ text: String) {
        POSIX.printError("kanban-bench watch: \(text)\n")
    }

    static func milliseconds(_ duration: Duration) -> Double {
        seconds(duration) * 1000
    }

    static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    static func threadProcessorSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}

/// When each key (a slug, a path) was seen, in order, for waiting on the n-th sighting.
final class ArrivalLog: Sendable {
    private let state = Mutex<[String: [ContinuousClock.Instant]]>([:])

    func record(_ key: String) {
        let now = ContinuousClock.now
        state.withLock { $0[key, default: []].append(now) }
    }

    func count(of key: String) -> Int {
        state.withLock { $0[key]?.count ?? 0 }
    }

    /// The instant of the sighting after the first `count`, waiting up to `timeout` for it.
    func wait(for key: String, beyond count: Int, timeout: Duration) -> ContinuousClock.Instant? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let instant = state.withLock({ $0[key].flatMap { $0.count > count ? $0[count] : nil } }) { return instant }
            usleep(200)
        }
        return nil
    }
}

/// Every event a watcher delivered: how many, of which kinds, and when the last came.
final class EventLog: Sendable {
    private let state = Mutex<(count: Int, last: ContinuousClock.Instant?, kinds: [WatchEvent.Kind: Int])>((0, nil, [:]))

    func record(_ event: WatchEvent) {
        let now = ContinuousClock.now
        state.withLock { state in
            state.count += 1
            state.last = now
            state.kinds[event.kind, default: 0] += 1
        }
    }

    var count: Int { state.withLock { $0.count } }
    var last: ContinuousClock.Instant? { state.withLock { $0.last } }
    var kinds: [WatchEvent.Kind: Int] { state.withLock { $0.kinds } }

    func wait(until count: Int, timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if self.count >= count { return true }
            usleep(1_000)
        }
        return self.count >= count
    }
}

/// `inotifywait -m` on one directory, as the baseline: each `close_write` line is timed as it is read.
final class Inotifywait {
    private let process: Process
    let arrivals = ArrivalLog()

    private init(process: Process) {
        self.process = process
    }

    /// Starts the baseline, installing inotify-tools first when it is missing and this is root with apt-get;
    /// nil (with a message) when it cannot be had.
    static func start(watching directory: String) throws -> Inotifywait? {
        var executable = which("inotifywait")
        if executable == nil, getuid() == 0, let aptGet = which("apt-get") {
            POSIX.printError("kanban-bench watch: inotifywait is not installed; running apt-get install -y inotify-tools\n")
            _ = try? ChildProcess.run([aptGet, "install", "-y", "-q", "inotify-tools"], keepsOutput: false)
            executable = which("inotifywait")
        }
        guard let executable else {
            POSIX.printError("kanban-bench watch: inotifywait is not on PATH (install inotify-tools); the baseline is skipped\n")
            return nil
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["-m", "-e", "close_write", "--format", "%w%f", directory]
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        let baseline = Inotifywait(process: process)
        let ready = DispatchSemaphore(value: 0)
        try process.run()
        let arrivals = baseline.arrivals
        let outputHandle = output.fileHandleForReading, errorHandle = errors.fileHandleForReading
        Thread {
            var pending: [UInt8] = []
            let handle = outputHandle
            while true {
                let data = handle.availableData
                if data.isEmpty { break }
                pending += data
                while let newline = pending.firstIndex(of: 0x0A) {
                    arrivals.record(String(decoding: pending[..<newline], as: UTF8.self))
                    pending.removeSubrange(...newline)
                }
            }
        }.start()
        Thread {
            // "Watches established." on standard error says inotifywait is ready.
            var text = ""
            let handle = errorHandle
            while true {
                let data = handle.availableData
                if data.isEmpty { break }
                text += String(decoding: data, as: UTF8.self)
                if text.contains("Watches established") { ready.signal() }
            }
        }.start()
        guard ready.wait(timeout: .now() + 10) == .success else {
            baseline.stop()
            POSIX.printError("kanban-bench watch: inotifywait did not start; the baseline is skipped\n")
            return nil
        }
        return baseline
    }

    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    /// The program's path on `PATH`, if there.
    static func which(_ name: String) -> String? {
        let path = POSIX.environmentValue("PATH") ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }
}
