import Foundation

/// `stress`: many processes change one board at once, some committing, while `kanban watch` runs; then checks that
/// nothing was lost, duplicated or corrupted, and that the commits agree with the working tree.
enum StressHarness {
    static let command = HarnessCommand(name: "stress", help: help, run: run)

    static let help = """
        usage: kanban-harness stress [--kanban PATH] [--processes P] [--operations M] [--seed S] [--poll [SECONDS]] [--keep]

        Makes a board in a git repository, starts 'kanban watch --json --initial' on it, and runs P workers at once
        (threads, each running kanban commands one after another), each doing M random changes: add, set title,
        labels or body, move to a column, reorder, archive, unarchive, delete, about a third with --commit, half of
        them on cards other workers touch too. Then waits until the watcher has printed nothing for 3 s (or three
        polling intervals, if longer; at most 60 s or ten times that), stops it with SIGTERM, runs
        'kanban doctor --fix', and checks: the board index agrees with the files (list as JSON and as text and two searches print what
        they print with KANBAN_INDEX=off, before the fix; and, with inotify, while the watcher's board monitor still
        answers); no card lost; no
        card twice and none that should not exist; kanban doctor reports no errors; no temporary file or journal
        left; every printed commit is in the history and
        git fsck is clean; HEAD holds every card whose last change was committed as the working tree does, and
        nothing the working tree lacks unless an uncommitted change removed it; the watcher stayed up, printed
        only JSON lines, fell quiet and exited 0; and its events, applied in order, add up to the board as the
        workers left it: every card file with its title, and nothing else.

          --processes P     workers (default 8)
          --operations M    changes per worker (default 200)
          --seed S          the random seed (default: from the clock; printed, so a run can be replayed)
          --poll [SECONDS]  the watcher polls every SECONDS (default 0.2) instead of using inotify
                            ('kanban watch --poll SECONDS')
          --keep            keep the work directory (it is always kept when a check fails)

        Exit status: 0 every check held, 1 a check failed, 2 cannot run, 77 git is not installed.
        """

    static func run(_ options: HarnessOptions) throws -> HarnessStatus {
        guard let git = findProgram("git") else {
            print("kanban-harness stress: git is not installed; skipped")
            return .skipped
        }
        let kanban = try options.kanbanBinary()
        let processes = try options.integer("processes", default: 8)
        let operations = try options.integer("operations", default: 200)
        guard processes > 0, operations > 0 else { throw HarnessError(message: "--processes and --operations must be at least 1") }
        let seed = UInt64(try options.integer("seed", default: Int(Date().timeIntervalSince1970 * 1000) % 1_000_000_000))
        let pollInterval = try pollInterval(options)
        let work = try makeWorkDirectory("stress")
        let runner = StressRunner(kanban: kanban, git: git, work: work, processes: processes, operations: operations, seed: seed)
        let watching = pollInterval.map { "kanban watch polling every \($0) s" } ?? "kanban watch on inotify"
        print("stress: \(processes) processes x \(operations) operations, seed \(seed), \(watching), in \(work)")

        let started = Date()
        try runner.makeBoard()
        let watch = try StressWatch(kanban: kanban, board: runner.board, environment: runner.environment, pollInterval: pollInterval)
        guard watch.waitForLines(StressRunner.seedCards.count, timeout: 60) else {
            let outcome = watch.stop()
            throw HarnessError(message: "kanban watch did not report the board's cards within 60 s: \(outcome)")
        }
        let log = runner.runWorkers()
        let workSeconds = Date().timeIntervalSince(started)
        // The watcher's events are compared with the board as the workers left it: let it report the last changes
        // before it is stopped, and before doctor --fix changes anything.
        // A polling watcher may take a pass to see the last change and another to see the board quiet.
        let quietTime = max(3, 3 * (pollInterval ?? 0))
        let quiet = watch.waitUntilQuiet(for: quietTime, timeout: max(60, 10 * quietTime))
        let wasRunning = watch.isRunning
        // While the watcher still runs, its board monitor answers: a list that trusts it must read as the files do.
        let monitored = try runner.checkWithMonitor(isWatching: wasRunning && pollInterval == nil)
        let watched = StressWatchReport(wasRunning: wasRunning, quietSeconds: quiet.seconds, isQuiet: quiet.isQuiet, outcome: watch.stop())
        try log.map(\.logLine).joined(separator: "\n").appending("\n").write(toFile: work + "/operations.log", atomically: false, encoding: .utf8)
        try watched.outcome.output.write(toFile: work + "/watch.jsonl", atomically: false, encoding: .utf8)
        let checks = try runner.check(log, watch: watched) + (monitored.map { [$0] } ?? [])
        let problems = checks.flatMap { check in check.problems.map { "[\(check.name)] \($0)" } }
        try problems.joined(separator: "\n").appending("\n").write(toFile: work + "/problems.txt", atomically: false, encoding: .utf8)

        summarize(log, seconds: workSeconds)
        let failed = checks.filter { !$0.problems.isEmpty }
        print("  checks:")
        for check in checks {
            print("    \(check.problems.isEmpty ? "ok  " : "FAIL") \(check.name)\(check.note.isEmpty ? "" : " (\(check.note))")")
            for problem in check.problems.prefix(10) {
                print("         " + problem.replacingOccurrences(of: "\n", with: "\n         "))
            }
            if check.problems.count > 10 { print("         ... and \(check.problems.count - 10) more") }
        }
        let seconds = Int(Date().timeIntervalSince(started).rounded())
        if failed.isEmpty {
            print("stress: every check held (\(seconds) s)")
            if !options.flag("keep") { BoardFiles.remove(work) }
            return .passed
        }
        print("stress: \(failed.count) of \(checks.count) checks failed (\(seconds) s); replay with --seed \(seed); every problem: \(work)/problems.txt; operations: \(work)/operations.log; the watcher's events: \(work)/watch.jsonl")
        return .failed
    }

    /// `--poll [SECONDS]`: nil when not given (inotify), 0.2 s when given without a value.
    private static func pollInterval(_ options: HarnessOptions) throws -> Double? {
        if let text = options.string("poll") {
            guard let seconds = Double(text), seconds > 0, seconds.isFinite else {
                throw HarnessError(message: "--poll takes a number of seconds greater than 0 (got '\(text)')")
            }
            return seconds
        }
        return options.flag("poll") ? 0.2 : nil
    }

    /// Operations run, what they did, and why the others failed.
    private static func summarize(_ log: [StressOperation], seconds: Double) {
        let changed = log.filter(\.effect.madeChange)
        let committed = log.filter { $0.commit != nil }
        print("  operations: \(log.count) run in \(Int(seconds.rounded())) s; \(changed.count) changed the board, \(committed.count) of them with a commit")
        var reasons: [String: Int] = [:]
        var unexpected: [StressOperation] = []
        for operation in log {
            switch operation.effect {
            case .changed: break
            case .changedNotCommitted(let reason): reasons["changed but not committed: " + reason, default: 0] += 1
            case .refused(let reason): reasons[reason, default: 0] += 1
            case .unexpected(let reason):
                reasons["UNEXPECTED: " + StressOperation.reason(reason), default: 0] += 1
                unexpected.append(operation)
            }
        }
        if !reasons.isEmpty {
            print("  failed operations by reason:")
            for (reason, count) in reasons.sorted(by: { $0.value > $1.value }) { print("    \(String(count).padding(toLength: 5, withPad: " ", startingAt: 0)) \(reason)") }
        }
        for operation in unexpected.prefix(10) {
            print("    UNEXPECTED " + operation.logLine)
            print("      stdout: " + operation.output.split(separator: "\n").prefix(6).joined(separator: "\n              "))
            print("      stderr: " + operation.errorOutput.split(separator: "\n").prefix(6).joined(separator: "\n              "))
        }
    }
}
