import Foundation

/// `crash`: kills each mutating command at every system call that changes the disk (strace fault injection), runs
/// the next command, and checks that the board holds every card exactly once, as it was before the command or as
/// it is after it, with nothing left for a person to clean up.
enum CrashHarness {
    static let command = HarnessCommand(name: "crash", help: help, run: run)

    static let help = """
        usage: kanban-harness crash [--kanban PATH] [--scenarios a,b,...] [--limit N] [--jobs N] [--keep]

        Kills kanban (with strace -e inject=SYSCALL:signal=SIGKILL:when=N) at each call of kanban's main thread that
        changes the disk (write, rename*, link*, unlink*, mkdir*, rmdir, fsync, fdatasync, fchmod, ftruncate, ...),
        each from a fresh copy of the scenario's board; in a git repository also at each such call of the git
        processes kanban runs (kanban is killed with them). Then runs the next command (in turn: list --all --json,
        doctor --fix, a kanban add) and checks:
          1. every card (by created time and title) is in exactly one file;
          2. the board is as before the command or as after it (then the next command), apart from timestamps;
          3. no .kanban-tmp file and no .kanban-journal is left;
          4. kanban doctor reports no errors;
          5. nothing outside the board changed;
          and that the next command said it settled the change it found, and in a repository that HEAD has the
          whole commit or none, agrees with the working tree, git status and git fsck work, and a later
          'kanban move ... --commit' succeeds.

          --scenarios a,b    only these (default: all): \(CrashScenario.all.map(\.name).joined(separator: ", "))
          --limit N          at most N kill points per scenario, spread evenly (default 0: all)
          --jobs N           kill points run at once (default 2)
          --keep             keep the sandbox of each failed kill point (the path is printed)

        Exit status: 0 every check held, 1 a check failed, 2 cannot run, 77 strace is not installed.
        """

    static func run(_ options: HarnessOptions) throws -> HarnessStatus {
        guard let strace = findProgram("strace") else {
            print("kanban-harness crash: strace is not installed; skipped")
            return .skipped
        }
        let kanban = try options.kanbanBinary()
        let git = findProgram("git")
        var scenarios = CrashScenario.all
        if let names = options.string("scenarios") {
            let wanted = names.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            for name in wanted where !scenarios.contains(where: { $0.name == name }) {
                throw HarnessError(message: "no scenario '\(name)'; the scenarios are \(CrashScenario.all.map(\.name).joined(separator: ", "))")
            }
            scenarios = scenarios.filter { wanted.contains($0.name) }
        }
        if git == nil {
            let skipped = scenarios.filter(\.isInRepository).map(\.name)
            if !skipped.isEmpty { print("crash: git is not installed; skipping \(skipped.joined(separator: ", "))") }
            scenarios.removeAll(where: \.isInRepository)
        }
        let work = try makeWorkDirectory("crash")
        let keep = options.flag("keep")
        let runner = CrashRunner(kanban: kanban, strace: strace, git: git, work: work, limit: try options.integer("limit", default: 0),
                                 jobs: try options.integer("jobs", default: 2), keep: keep)

        let started = Date()
        var total = 0
        var failures: [CrashFailure] = []
        var unplanned: [String] = []
        for scenario in scenarios {
            let plan: CrashPlan
            do {
                plan = try runner.plan(scenario)
            } catch {
                let message = (error as? HarnessError)?.message ?? "\(error)"
                print("  \(scenario.name.padding(toLength: 14, withPad: " ", startingAt: 0)) cannot run: \(message)")
                unplanned.append(scenario.name)
                continue
            }
            let results = runner.run(plan)
            let failed = results.flatMap(\.failures)
            total += results.count
            failures += failed
            let points = Set(failed.map(\.point)).count
            var line = "  \(scenario.name.padding(toLength: 14, withPad: " ", startingAt: 0)) \(results.count) interruption points, \(points) failed"
            let settled = results.filter(\.leftJournal).count
            let notReached = results.filter { !$0.wasKilled }.count
            line += " (\(settled) left a journal to settle\(notReached > 0 ? ", \(notReached) finished before the kill point" : ""))"
            if !failed.isEmpty {
                let byCheck = Dictionary(grouping: failed, by: \.check).map { "\($0.key): \($0.value.count)" }.sorted()
                line += "; " + byCheck.joined(separator: ", ")
            }
            print(line + "   \(scenario.commandLine)")
            fflush(nil)
        }

        report(failures)
        let seconds = Int(Date().timeIntervalSince(started).rounded())
        let failedPoints = Set(failures.map { "\($0.scenario) \($0.point)" }).count
        let byCheck = Dictionary(grouping: failures, by: \.check).map { "\($0.key) \($0.value.count)" }.sorted()
        print("crash: \(total) interruption points in \(scenarios.count - unplanned.count) scenarios, \(failedPoints) failures"
              + (byCheck.isEmpty ? "" : " (failed checks: \(byCheck.joined(separator: ", ")))") + " (\(seconds) s)")
        if !keep || failures.isEmpty {
            BoardFiles.remove(work)
        } else {
            print("crash: sandboxes of failed kill points kept under \(work)")
        }
        if !unplanned.isEmpty { print("crash: could not run \(unplanned.joined(separator: ", "))") }
        return !failures.isEmpty ? .failed : unplanned.isEmpty ? .passed : .cannotRun
    }

    /// Prints each failure: in full (with the board's files and how to replay it) for the first of each scenario
    /// and check, in one line for the rest.
    private static func report(_ failures: [CrashFailure]) {
        guard !failures.isEmpty else { return }
        print("\nFailures:")
        var shown: Set<String> = []
        var brief: [String: Int] = [:]
        for failure in failures {
            let key = failure.scenario + " " + failure.check
            if shown.insert(key).inserted {
                print("""

                    FAIL \(failure.scenario), killed at \(failure.point), next command: \(failure.next.rawValue)
                      check: \(failure.check)
                      \(failure.detail.replacingOccurrences(of: "\n", with: "\n      "))
                      replay: \(failure.reproduction)
                      board files after the next command:
                    \(failure.listing)
                    """ + (failure.keptAt.map { "\n      kept: \($0)" } ?? ""))
            } else if brief[key, default: 0] < 8 {
                brief[key, default: 0] += 1
                print("FAIL \(failure.scenario), killed at \(failure.point), next: \(failure.next.rawValue): \(failure.check)")
            }
        }
        print("")
    }
}
