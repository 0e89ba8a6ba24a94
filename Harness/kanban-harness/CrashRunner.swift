#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Synchronization

/// What runs after an interrupted command, before the board is judged.
enum CrashNextCommand: String, Sendable, CaseIterable {
    /// `kanban list --all --json`: a read, which settles an interrupted change when no one holds the lock.
    case list
    /// `kanban doctor --fix`.
    case doctorFix = "doctor --fix"
    /// A change of its own (``CrashScenario/probe``): settles the interrupted change first.
    case probe = "add (a change)"
    /// For `init`: the same `init` again (and `doctor --fix` when it rightly refuses a board it had finished).
    case initAgain = "init again"

    var arguments: [String] {
        switch self {
        case .list: ["list", "--all", "--json"]
        case .doctorFix: ["doctor", "--fix"]
        case .probe: CrashScenario.probe
        case .initAgain: []
        }
    }

    /// The next commands of a scenario, taken in turn from one kill point to the next.
    static func rotation(for scenario: CrashScenario) -> [CrashNextCommand] {
        scenario.fixture == .empty ? [.initAgain] : [.list, .doctorFix, .probe]
    }
}

/// A check that did not hold at one kill point.
struct CrashFailure: Sendable {
    var scenario: String
    var point: CrashKillPoint
    var next: CrashNextCommand
    var check: String
    var detail: String
    /// The board's files after the next command.
    var listing: String
    /// How to replay it by hand.
    var reproduction: String
    /// Where the run's sandbox was kept (`--keep`).
    var keptAt: String?
}

/// What one kill point gave.
struct CrashPointResult: Sendable {
    var point: CrashKillPoint
    var failures: [CrashFailure] = []
    /// Whether the command was really killed there (a count that drifted would let it finish).
    var wasKilled = true
    /// Whether the kill left a journal for the next command to settle.
    var leftJournal = false
}

/// Everything known about a scenario before its kill points run: the sandbox it starts from, the states its board
/// may end in after each next command, and its kill points.
struct CrashPlan: Sendable {
    var scenario: CrashScenario
    var template: String
    var points: [CrashKillPoint]
    /// For each next command: the board after it ran on the before-state and on the after-state (normalized).
    var expected: [CrashNextCommand: (before: BoardFiles, after: BoardFiles)]
    /// For each next command: the board after it ran on each state between cards of a several-card command.
    var between: [CrashNextCommand: [BoardFiles]] = [:]
    /// Everything in the sandbox except the board (and `.git`), which no command may change.
    var outside: BoardFiles
    /// In a repository: HEAD before the command, and the board's files in HEAD after it (normalized).
    var headBefore: String?
    var headTreeAfter: BoardFiles?
}

/// Runs the crash adversary's kill points for one scenario at a time.
final class CrashRunner: Sendable {
    let kanban: String
    let strace: String
    let git: String?
    let work: String
    let limit: Int
    let jobs: Int
    let keep: Bool

    init(kanban: String, strace: String, git: String?, work: String, limit: Int, jobs: Int, keep: Bool) {
        self.kanban = kanban
        self.strace = strace
        self.git = git
        self.work = work
        self.limit = limit
        self.jobs = max(1, jobs)
        self.keep = keep
    }

    // MARK: Running kanban

    private func environment(sandbox: String, gitWrapper: String? = nil) -> [String: String] {
        var extra = ["KANBAN_LOCK_TIMEOUT": "10", "COLUMNS": "100", "NO_COLOR": "1"]
        if let gitWrapper { extra["KANBAN_GIT"] = gitWrapper }
        return harnessEnvironment(home: sandbox + "/home", extra: extra)
    }

    private func directory(_ sandbox: String, _ relative: String) -> String {
        relative.isEmpty ? sandbox : sandbox + "/" + relative
    }

    /// Runs `kanban arguments` in the scenario's working directory inside `sandbox`.
    private func runKanban(_ arguments: [String], _ scenario: CrashScenario, sandbox: String, relativeDirectory: String? = nil,
                           gitWrapper: String? = nil) throws -> ChildProcess.Outcome {
        try BoardProcesses.run(kanban, arguments, in: directory(sandbox, relativeDirectory ?? scenario.workingDirectory),
                               environment: environment(sandbox: sandbox, gitWrapper: gitWrapper), timeout: 60)
    }

    private func runGit(_ arguments: [String], in directory: String, sandbox: String) throws -> ChildProcess.Outcome {
        guard let git else { throw HarnessError(message: "git is not installed", status: .skipped) }
        return try BoardProcesses.run(git, arguments, in: directory, environment: environment(sandbox: sandbox), timeout: 60)
    }

    /// Runs `next` after an interruption; for `init` again, a refusal because the board is already whole is
    /// followed by `doctor --fix`, which must then succeed.
    private func runNext(_ next: CrashNextCommand, _ scenario: CrashScenario, sandbox: String) throws -> (ok: Bool, what: String, errorOutput: String) {
        if next == .initAgain {
            let boardFileExisted = FileManager.default.fileExists(atPath: sandbox + "/" + scenario.boardPath + "/board.md")
            let again = try runKanban(scenario.arguments, scenario, sandbox: sandbox)
            if again.succeeded { return (true, "", again.errorOutput) }
            guard boardFileExisted, again.errorOutput.contains("already") else {
                return (false, "kanban init again: \(again)", again.errorOutput)
            }
            let fix = try runKanban(["doctor", "--fix"], scenario, sandbox: sandbox, relativeDirectory: scenario.boardPath)
            return (fix.succeeded, fix.succeeded ? "" : "init refused (the board was whole), then kanban doctor --fix: \(fix)", again.errorOutput + fix.errorOutput)
        }
        let outcome = try runKanban(next.arguments, scenario, sandbox: sandbox)
        return (outcome.succeeded, outcome.succeeded ? "" : "kanban \(next.arguments.joined(separator: " ")): \(outcome)", outcome.errorOutput)
    }

    private func readBoard(_ scenario: CrashScenario, sandbox: String) throws -> BoardFiles {
        try BoardFiles(reading: sandbox + "/" + scenario.boardPath)
    }

    private func readOutside(_ scenario: CrashScenario, sandbox: String) throws -> BoardFiles {
        // kanban keeps the board's index, a cache, in `$HOME/.cache/kanban` when the board is in no repository (and
        // in `.git` when it is): that is kanban's to write.
        var excluded: Set<String> = [scenario.boardPath, "home/.cache"]
        if scenario.isInRepository { excluded.insert("repo/.git") }
        return try BoardFiles(reading: sandbox, excluding: excluded)
    }

    /// The board's files in HEAD, normalized.
    private func headTree(_ scenario: CrashScenario, sandbox: String) throws -> BoardFiles {
        let extracted = sandbox + "-head"
        BoardFiles.remove(extracted)
        defer { BoardFiles.remove(extracted) }
        try FileManager.default.createDirectory(atPath: extracted, withIntermediateDirectories: true)
        guard let git else { throw HarnessError(message: "git is not installed", status: .skipped) }
        let outcome = try BoardProcesses.run("/bin/sh", ["-c", "'\(git)' archive --format=tar HEAD:board | tar -xf - -C '\(extracted)'"],
                                             in: sandbox + "/repo", environment: environment(sandbox: sandbox), timeout: 60)
        guard outcome.succeeded else { throw HarnessError(message: "cannot read HEAD's board: \(outcome)") }
        return try BoardFiles(reading: extracted).normalized()
    }

    private func head(sandbox: String, revision: String = "HEAD") throws -> String? {
        let outcome = try runGit(["rev-parse", "--verify", "--quiet", revision], in: sandbox + "/repo", sandbox: sandbox)
        return outcome.succeeded ? outcome.output.trimmingCharacters(in: .whitespacesAndNewlines) : nil
    }

    // MARK: Planning

    /// Makes the scenario's template sandbox, runs the command once uninterrupted (counting its calls), and works
    /// out the states its board may end in.
    func plan(_ scenario: CrashScenario) throws -> CrashPlan {
        let base = work + "/plan-" + scenario.name
        let template = base + "/template"
        try scenario.makeSandbox(at: template, environment: environment(sandbox: template), git: git)

        // The counting run: the after-state, and the calls made on the way.
        let counted = base + "/after"
        try BoardFiles.copy(template, to: counted)
        let traces = base + "/traces"
        try FileManager.default.createDirectory(atPath: traces, withIntermediateDirectories: true)
        var points: [CrashKillPoint] = []
        switch scenario.target {
        case .kanban:
            let log = traces + "/kanban"
            let outcome = try BoardProcesses.run(
                strace, ["-o", log, "-e", "trace=" + CrashKillPoint.diskSyscalls.joined(separator: ","), "--", kanban] + scenario.arguments,
                in: directory(counted, scenario.workingDirectory), environment: environment(sandbox: counted), timeout: 60)
            guard outcome.succeeded else { throw HarnessError(message: "\(scenario.name): \(scenario.commandLine) fails without interruption: \(outcome)") }
            points = CrashKillPoint.points(for: CrashKillPoint.calls(inTrace: try String(contentsOfFile: log, encoding: .utf8)))
        case .git:
            guard let git else { throw HarnessError(message: "git is not installed", status: .skipped) }
            let wrapper = traces + "/git"
            try BoardProcesses.writeScript(CrashKillPoint.gitWrapper(git: git, strace: strace, counter: traces + "/runs", traces: traces + "/git", point: nil),
                                           to: wrapper)
            let outcome = try runKanban(scenario.arguments, scenario, sandbox: counted, gitWrapper: wrapper)
            guard outcome.succeeded else { throw HarnessError(message: "\(scenario.name): \(scenario.commandLine) fails without interruption: \(outcome)") }
            let runs = Int((try? String(contentsOfFile: traces + "/runs", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 0
            for run in stride(from: 1, through: runs, by: 1) {
                let log = (try? String(contentsOfFile: traces + "/git.\(run)", encoding: .utf8)) ?? ""
                let arguments = (try? String(contentsOfFile: traces + "/git.\(run).arguments", encoding: .utf8)) ?? ""
                points += CrashKillPoint.points(for: CrashKillPoint.calls(inTrace: log), gitRun: run, gitCommand: CrashRunner.gitSubcommand(arguments))
            }
        }

        // The states between the cards of a several-card command: the command with its first cards only.
        var starts = [template, counted]
        for (index, partial) in scenario.partials.enumerated() {
            let sandbox = base + "/partial-\(index)"
            BoardFiles.remove(sandbox)
            try BoardFiles.copy(template, to: sandbox)
            let outcome = try runKanban(partial, scenario, sandbox: sandbox)
            guard outcome.succeeded else { throw HarnessError(message: "\(scenario.name): the partial command \(partial) fails: \(outcome)") }
            starts.append(sandbox)
        }
        var expected: [CrashNextCommand: (before: BoardFiles, after: BoardFiles)] = [:]
        var between: [CrashNextCommand: [BoardFiles]] = [:]
        for next in CrashNextCommand.rotation(for: scenario) {
            var states: [BoardFiles] = []
            for (index, start) in starts.enumerated() {
                let sandbox = base + "/next-\(index)"
                BoardFiles.remove(sandbox)
                try BoardFiles.copy(start, to: sandbox)
                let ran = try runNext(next, scenario, sandbox: sandbox)
                guard ran.ok else { throw HarnessError(message: "\(scenario.name): \(next.rawValue) fails on the \(index == 0 ? "before" : "after")-state: \(ran.what)") }
                states.append(try readBoard(scenario, sandbox: sandbox).normalized())
                BoardFiles.remove(sandbox)
            }
            expected[next] = (states[0], states[1])
            between[next] = Array(states.dropFirst(2))
        }
        for index in scenario.partials.indices { BoardFiles.remove(base + "/partial-\(index)") }
        var plan = CrashPlan(scenario: scenario, template: template, points: CrashKillPoint.spread(points, limit: limit), expected: expected,
                             outside: try readOutside(scenario, sandbox: template))
        plan.between = between
        if scenario.isInRepository {
            plan.headBefore = try head(sandbox: template)
            plan.headTreeAfter = try headTree(scenario, sandbox: counted)
            guard try head(sandbox: counted, revision: "HEAD^") == plan.headBefore else {
                throw HarnessError(message: "\(scenario.name): \(scenario.commandLine) did not make exactly one commit")
            }
        }
        return plan
    }

    /// `commit` from `-C dir -c key=value --literal-pathspecs commit --quiet ...`.
    static func gitSubcommand(_ arguments: String) -> String {
        var words = arguments.split(separator: " ").map(String.init)[...]
        while let word = words.first {
            words = words.dropFirst()
            if word == "-C" || word == "-c" {
                words = words.dropFirst()
            } else if !word.hasPrefix("-") {
                return word
            }
        }
        return "?"
    }

    // MARK: Kill points

    /// Runs every kill point of `plan`, `jobs` at a time, each from a fresh copy of the template.
    func run(_ plan: CrashPlan) -> [CrashPointResult] {
        let next = Mutex(0)
        let results = Mutex([CrashPointResult?](repeating: nil, count: plan.points.count))
        DispatchQueue.concurrentPerform(iterations: jobs) { worker in
            while true {
                let index = next.withLock { value -> Int in
                    defer { value += 1 }
                    return value
                }
                guard index < plan.points.count else { return }
                let result = runPoint(plan, index: index, worker: worker)
                results.withLock { $0[index] = result }
            }
        }
        return results.withLock { $0.compactMap { $0 } }
    }

    private func runPoint(_ plan: CrashPlan, index: Int, worker: Int) -> CrashPointResult {
        let point = plan.points[index]
        let scenario = plan.scenario
        let rotation = CrashNextCommand.rotation(for: scenario)
        let next = rotation[index % rotation.count]
        let runDirectory = work + "/run-\(worker)"
        let sandbox = runDirectory + "/sandbox"
        BoardFiles.remove(runDirectory)
        var result = CrashPointResult(point: point)
        var failures: [(check: String, detail: String)] = []
        do {
            try FileManager.default.createDirectory(atPath: runDirectory, withIntermediateDirectories: true)
            try BoardFiles.copy(plan.template, to: sandbox)
            let killed = try interrupt(scenario, at: point, sandbox: sandbox, control: runDirectory)
            result.wasKilled = killed.signal == SIGKILL
            if !result.wasKilled && !killed.succeeded {
                failures.append(("command", "\(scenario.commandLine) failed without being killed: \(killed)"))
            }
            let boardDirectory = sandbox + "/" + scenario.boardPath
            result.leftJournal = FileManager.default.fileExists(atPath: boardDirectory + "/.kanban-journal")
            failures += try check(plan, next: next, sandbox: sandbox, leftJournal: result.leftJournal)
        } catch {
            failures.append(("harness", "\(error)"))
        }
        if !failures.isEmpty {
            let listing = ((try? readBoard(scenario, sandbox: sandbox))?.listing) ?? "    (cannot list the board)"
            var keptAt: String?
            if keep {
                let kept = work + "/failed-\(scenario.name)-\(index)"
                if rename(runDirectory, kept) == 0 { keptAt = kept }
            }
            result.failures = failures.map { failure in
                CrashFailure(scenario: scenario.name, point: point, next: next, check: failure.check, detail: failure.detail, listing: listing,
                             reproduction: reproduction(scenario, point), keptAt: keptAt)
            }
        }
        BoardFiles.remove(runDirectory)
        return result
    }

    /// Runs the scenario's command so that it is killed at `point`.
    private func interrupt(_ scenario: CrashScenario, at point: CrashKillPoint, sandbox: String, control: String) throws -> ChildProcess.Outcome {
        if point.gitRun != nil, let git {
            let wrapper = control + "/git"
            try BoardProcesses.writeScript(CrashKillPoint.gitWrapper(git: git, strace: strace, counter: control + "/runs", traces: control + "/trace", point: point),
                                           to: wrapper)
            return try runKanban(scenario.arguments, scenario, sandbox: sandbox, gitWrapper: wrapper)
        }
        return try BoardProcesses.run(strace, point.straceArguments([kanban] + scenario.arguments), in: directory(sandbox, scenario.workingDirectory),
                                      environment: environment(sandbox: sandbox), timeout: 60)
    }

    /// A shell line that replays the kill by hand.
    private func reproduction(_ scenario: CrashScenario, _ point: CrashKillPoint) -> String {
        if point.gitRun != nil {
            return "KANBAN_GIT=<a wrapper that runs git run \(point.gitRun ?? 0) under 'strace -e inject=\(point.syscall):signal=SIGKILL:when=\(point.occurrence)' and then kills kanban> \(scenario.commandLine)"
        }
        return "strace -o /dev/null -e trace=\(point.syscall) -e inject=\(point.syscall):signal=SIGKILL:when=\(point.occurrence) \(scenario.commandLine)"
    }

    // MARK: Checks

    /// Runs `next` on the interrupted board and checks it; returns the checks that failed.
    private func check(_ plan: CrashPlan, next: CrashNextCommand, sandbox: String, leftJournal: Bool) throws -> [(check: String, detail: String)] {
        let scenario = plan.scenario
        var failures: [(check: String, detail: String)] = []
        let ran = try runNext(next, scenario, sandbox: sandbox)
        if !ran.ok { failures.append(("next command", ran.what)) }
        if leftJournal && !ran.errorOutput.contains("warning: finished a change") && !ran.errorOutput.contains("warning: undid a change") {
            failures.append(("notice", "the kill left .kanban-journal, and the next command (\(next.rawValue)) settled it without the promised 'warning: finished a change ...' or 'warning: undid a change ...' on stderr (stderr: \(ran.errorOutput.isEmpty ? "empty" : ran.errorOutput))"))
        }

        let board = try readBoard(scenario, sandbox: sandbox)
        let leftovers = board.leftovers
        if !leftovers.isEmpty { failures.append(("leftovers", "left for a person to clean up: \(leftovers.joined(separator: ", "))")) }

        let twice = board.cardsByIdentity.filter { $0.value.count > 1 }
        for (identity, paths) in twice.sorted(by: { $0.key < $1.key }) {
            failures.append(("card identity", "card '\(identity)' is in \(paths.count) files: \(paths.joined(separator: ", "))"))
        }

        let normalized = board.normalized()
        var isAfter = false
        if let expected = plan.expected[next] {
            isAfter = normalized == expected.after
            let isBetweenCards = plan.between[next]?.contains(normalized) ?? false
            if normalized != expected.before && !isAfter && !isBetweenCards {
                failures.append(("state", """
                    the board is neither as before the command nor as after it (then \(next.rawValue)):
                          against before: \(normalized.differences(from: expected.before).joined(separator: "; "))
                          against after:  \(normalized.differences(from: expected.after).joined(separator: "; "))
                    """))
            }
        }

        if FileManager.default.fileExists(atPath: sandbox + "/" + scenario.boardPath + "/board.md") {
            let doctor = try runKanban(["doctor"], scenario, sandbox: sandbox, relativeDirectory: scenario.boardPath)
            if !doctor.succeeded { failures.append(("doctor", "kanban doctor reports errors: \(doctor)")) }
        }

        let outside = try readOutside(scenario, sandbox: sandbox)
        if outside != plan.outside {
            failures.append(("outside", "files outside the board changed: \(outside.differences(from: plan.outside).joined(separator: "; "))"))
        }

        if scenario.isInRepository {
            failures += try checkRepository(plan, sandbox: sandbox, worktreeIsAfter: isAfter)
        }
        return failures
    }

    /// HEAD has the whole commit or none of it, agrees with the working tree, git is healthy, and a later
    /// committing command works.
    private func checkRepository(_ plan: CrashPlan, sandbox: String, worktreeIsAfter: Bool) throws -> [(check: String, detail: String)] {
        var failures: [(check: String, detail: String)] = []
        let repository = sandbox + "/repo"
        let head = try head(sandbox: sandbox)
        if head != plan.headBefore {
            if try self.head(sandbox: sandbox, revision: "HEAD^") != plan.headBefore {
                failures.append(("head", "HEAD (\(head ?? "none")) is neither the commit before (\(plan.headBefore ?? "?")) nor one commit on top of it"))
            } else if let expected = plan.headTreeAfter {
                let tree = try headTree(plan.scenario, sandbox: sandbox)
                if tree != expected {
                    failures.append(("head", "HEAD's new commit does not hold the whole change: \(tree.differences(from: expected).joined(separator: "; "))"))
                }
                if !worktreeIsAfter {
                    failures.append(("head", "HEAD has the commit but the working tree does not have the change"))
                }
            }
        }
        let status = try runGit(["status", "--porcelain"], in: repository, sandbox: sandbox)
        if !status.succeeded { failures.append(("git status", "git status fails: \(status)")) }
        let fsck = try runGit(["fsck", "--no-progress"], in: repository, sandbox: sandbox)
        if !fsck.succeeded || fsck.errorOutput.contains("error") {
            failures.append(("git fsck", "git fsck: \(fsck)"))
        }
        let before = try self.head(sandbox: sandbox)
        let later = try runKanban(CrashScenario.laterCommit, plan.scenario, sandbox: sandbox)
        let after = try self.head(sandbox: sandbox)
        let parent = try self.head(sandbox: sandbox, revision: "HEAD^")
        if !later.succeeded {
            failures.append(("later commit", "a later 'kanban \(CrashScenario.laterCommit.joined(separator: " "))' fails: \(later)"))
        } else if after == before || parent != before {
            failures.append(("later commit", "a later 'kanban \(CrashScenario.laterCommit.joined(separator: " "))' did not make one commit: \(later)"))
        }
        return failures
    }
}
