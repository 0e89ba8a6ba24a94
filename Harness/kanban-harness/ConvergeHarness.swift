import Foundation

/// `converge`: the promise of issue 13, that a board shared through git behaves like a replicated data type. Many
/// clones of one board behind one bare remote do random work and sync now and then; then every clone syncs until a
/// round changes nothing; then the checks say whether all clones hold the same board and whether anyone's work vanished.
enum ConvergeHarness {
    static let command = HarnessCommand(name: "converge", help: help, run: run)

    static let help = """
        OVERVIEW: Many clones of one board behind one git remote do random work and sync; then all must hold one board, with nothing lost.

        A creator makes the board (4 columns, 4 labels, 5 cards, 'kanban git-setup --commit') and pushes it to a bare
        remote; N clones clone it, each with its own HOME and git identity, and run 'kanban git-setup'. Then each
        operation picks a random clone and does one of: add (titles sometimes shared between clones, so two clones
        make the same slug), move, reorder, set title, add/remove a label, append a body line, replace a body line
        (often a card's first, which other clones replace too), edit by hand (a line appended to the file by
        another program, 'modified' untouched, committed at once with 'git commit' or left for the next sync to
        commit), archive, unarchive, delete. Every card gets a hidden
        identity (hid: c<clone>-<op>) and every body line written is unique text (L<clone>-<op>), so the checks can
        follow them. 30% of operations are followed by a sync of that clone: 'kanban sync' mostly, else the pending
        changes committed ('kanban sync --no-push' or 'git add -A && git commit') and 'git pull --rebase' or
        'git pull --no-rebase', then 'git push' (a pull stopped on a conflict is aborted). Then every clone runs
        'kanban sync' in turn until a whole round changes nothing.

        Checks: (1) every clone has the same files under board.md, cards/ and archive/, byte for byte, equal to the
        remote's tip; (2) every card never deleted exists exactly once (by hid); (3) no deleted card is back unless
        another clone edited it after the delete (a hand edit counts from its commit); (4) every card on the board
        has every body line written into it, unless someone who saw it replaced it, and every label added to it,
        unless someone removed it later, with no excuse for a change made before a delete; (5) no
        conflict markers; (6) 'kanban doctor' finds no errors on any clone; (7) no commit with a single parent has
        that parent's tree. Checks 2-4 look at every clone and say which clones a problem is on; a problem about work
        that never left a clone whose syncs failed, or seen only on clones whose syncs fail, is marked as such: it
        shows that the clones did not converge, where an unmarked one shows work a merge destroyed.

        A seed replays the same choices; cards carry times in seconds, so a replay can differ in ties of 'modified'.

        --scenario NAME runs a scripted minimal case instead of random work (two clones, a few steps), judged by the
        same rounds and checks; --scenario all runs every one, --scenario list names them.

        USAGE: kanban-harness converge [--kanban PATH] [--seed N] [--clones N] [--ops N] [--max-rounds N] [--keep]
               kanban-harness converge [--kanban PATH] --scenario NAME|all|list [--keep]

        OPTIONS:
          --kanban PATH      The kanban binary (default: the one beside this program).
          --seed N           The random seed (default: from the time; printed, to replay the run).
          --clones N         How many clones (default 4).
          --ops N            How many random operations (default 100).
          --max-rounds N     At most this many final rounds of syncs (default 10).
          --scenario NAME    A scripted case (or 'all', or 'list') instead of random work.
          --keep             Keep the work directory (the clones, the remote and converge.log, every command run) and print its path.

        EXIT STATUS: 0 every check held and no sync failed; 1 otherwise; 2 the harness could not run; 77 git is missing.
        """

    static func run(_ options: HarnessOptions) throws -> HarnessStatus {
        guard let git = findProgram("git") else {
            FileHandle.standardError.write(Data("kanban-harness converge: skipped: git is not installed (not on PATH)\n".utf8))
            return .skipped
        }
        let settings = try ConvergeSettings(options)
        guard let name = options.string("scenario") else {
            return try runOnce(settings, kanban: try options.kanbanBinary(), git: git).passed ? .passed : .failed
        }
        if name == "list" {
            print(ConvergeScenario.list)
            return .passed
        }
        guard let scenarios = name == "all" ? ConvergeScenario.all : ConvergeScenario.named(name).map({ [$0] }) else {
            throw HarnessError(message: "no scenario '\(name)'; the scenarios are:\n\(ConvergeScenario.list)")
        }
        let kanban = try options.kanbanBinary()
        var outcomes: [(String, ConvergeReport)] = []
        for scenario in scenarios {
            outcomes.append((scenario.name, try runOnce(settings.playing(scenario), kanban: kanban, git: git)))
            if scenarios.count > 1 { print("") }
        }
        if scenarios.count > 1 {
            let width = (scenarios.map(\.name.count).max() ?? 0) + 2
            print("scenarios: \(outcomes.filter { $0.1.passed }.count) of \(outcomes.count) passed")
            for (name, report) in outcomes {
                print("  \(name.padding(toLength: width, withPad: " ", startingAt: 0))\(report.passed ? "PASSED" : "FAILED: " + report.gist)")
            }
        }
        return outcomes.allSatisfy { $0.1.passed } ? .passed : .failed
    }

    /// One run, random or scripted, with its report printed.
    private static func runOnce(_ settings: ConvergeSettings, kanban: String, git: String) throws -> ConvergeReport {
        let started = Date()
        let workDirectory = try makeWorkDirectory("converge")
        let run = ConvergeRun(settings: settings, kanban: kanban, git: git, workDirectory: workDirectory)
        defer {
            run.runner.close()
            if settings.keepsWorkDirectory {
                print("kept the work directory: \(workDirectory) (every command is in converge.log)")
            } else {
                try? FileManager.default.removeItem(atPath: workDirectory)
            }
        }
        if let scenario = settings.scenario {
            print("converge scenario \(scenario.name): \(scenario.summary)")
        } else {
            print("converge: \(ConvergeReport.count(settings.cloneCount, "clone")), \(settings.operationCount) ops, seed \(settings.seed)")
        }
        try run.setUp()
        if let scenario = settings.scenario {
            try run.play(scenario)
        } else {
            let step = max(1, settings.operationCount / 10)
            try run.work { number in
                if settings.operationCount >= 200 && number % step == 0 {
                    let failed = run.workSyncs.filter { !$0.succeeded }.count
                    let seconds = String(format: "%.0f", Date().timeIntervalSince(started))
                    FileHandle.standardError.write(Data("converge: op \(number)/\(settings.operationCount), \(run.workSyncs.count) syncs (\(failed) failed), \(seconds) s\n".utf8))
                }
            }
        }
        let rounds = try run.syncUntilQuiet()
        let checks = try ConvergeChecks(run: run, rounds: rounds).all()
        try run.requireIntactWorkDirectory()
        let report = ConvergeReport(run: run, rounds: rounds, checks: checks, seconds: Date().timeIntervalSince(started))
        print(report.text, terminator: "")
        return report
    }
}

/// What a run prints: the operations, the failed syncs, the final rounds, each check with its findings, and the
/// one-line summary with the seed.
struct ConvergeReport {
    /// Findings printed per check; the rest are counted.
    static let findingLimit = 25
    /// Failed syncs printed one by one; the rest are counted.
    static let failureLimit = 20

    let run: ConvergeRun
    let rounds: ConvergeRun.Rounds
    let checks: [ConvergeCheck]
    let seconds: Double

    var failedSyncs: [ConvergeSyncRecord] { (run.workSyncs + rounds.syncs).filter { !$0.succeeded } }

    /// Failed syncs that count against kanban: all but plain git pulls git stopped on its own path conflicts (or on
    /// cards it paired wrongly, which the merge driver refuses).
    var faultedSyncs: [ConvergeSyncRecord] { failedSyncs.filter { !$0.isStoppedByGitAlone } }

    var passed: Bool { checks.allSatisfy(\.held) && faultedSyncs.isEmpty }

    var text: String {
        var out = ""
        let settings = run.settings
        let kinds = ConvergeOperationKind.allCases.compactMap { kind in run.operationCounts[kind].map { "\($0) \(kind.rawValue)" } }
        out += "operations: \(kinds.joined(separator: ", ")); \(run.failedOperations.count) failed\n"
        for failure in run.failedOperations.prefix(Self.failureLimit) { out += "  \(failure)\n" }
        if run.failedOperations.count > Self.failureLimit { out += "  ... and \(run.failedOperations.count - Self.failureLimit) more\n" }

        let methods = [ConvergeSyncMethod.kanban, .pullRebase, .pullMerge].map { method in
            "\(run.workSyncs.filter { $0.method == method }.count) \(method.rawValue)"
        }
        let workFailures = run.workSyncs.filter { !$0.succeeded }
        out += "syncs during the work: \(run.workSyncs.count) (\(methods.joined(separator: ", "))), \(workFailures.count) failed\(Self.breakdown(workFailures))\n"
        for failure in workFailures.prefix(Self.failureLimit) { out += "  \(failure.summary)\n" }
        if workFailures.count > Self.failureLimit { out += "  ... and \(workFailures.count - Self.failureLimit) more\n" }

        out += conflictKindsSummary
        let gitAlone = failedSyncs.filter(\.isStoppedByGitAlone)
        if !gitAlone.isEmpty {
            out += "plain git pulls stopped by git's own path conflicts or by cards git paired wrongly (the next kanban sync merges them): \(gitAlone.count); not counted as failures\n"
        }

        let roundFailures = rounds.syncs.filter { !$0.succeeded }
        out += "final rounds: \(roundsSummary); \(rounds.syncs.count) kanban syncs, \(roundFailures.count) failed\(Self.breakdown(roundFailures))\n"
        // The last round shows who is stuck, and on what.
        for failure in rounds.syncs.filter({ $0.round == rounds.count && !$0.succeeded }) {
            let since = firstRoundOfStreak(clone: failure.clone)
            out += "  \(failure.summary)\(since < rounds.count ? " (every round since round \(since))" : "")\n"
        }

        out += "checks:\n"
        for check in checks {
            let stranded = check.findings.filter(\.isStranded).count
            let problems = check.held ? "" : ": \(Self.count(check.findings.count, "problem"))" + (stranded == 0 ? "" : " (\(stranded) only because syncs failed: work that never left, or never reached, a clone)")
            out += "  \(check.held ? "ok  " : "FAIL") (\(check.number)) \(check.name)\(problems)\n"
            // Problems that are not merely stranded work come first: they are what a merge destroyed.
            let ordered = check.findings.filter { !$0.isStranded } + check.findings.filter(\.isStranded)
            for finding in ordered.prefix(Self.findingLimit) { out += "         \(finding.text)\n" }
            if check.findings.count > Self.findingLimit { out += "         ... and \(check.findings.count - Self.findingLimit) more\n" }
        }

        if let scenario = settings.scenario {
            out += "converge scenario \(scenario.name): \(Self.count(settings.cloneCount, "clone")), \(settings.operationCount) steps: "
        } else {
            out += "converge: \(Self.count(settings.cloneCount, "clone")), \(settings.operationCount) ops (seed \(settings.seed)): "
        }
        out += "\(gist); \(run.runner.commandCount) commands in \(String(format: "%.1f", seconds)) s\n"
        let replay = settings.scenario.map { "--scenario \($0.name)" }
            ?? "--seed \(settings.seed) --clones \(settings.cloneCount) --ops \(settings.operationCount) --max-rounds \(settings.maxRounds)"
        out += passed ? "converge: PASSED\n" : "converge: FAILED; replay with: kanban-harness converge \(replay)\n"
        return out
    }

    /// `31 syncs, 3 failed (2 conflict, 1 rejected); converged after 2 rounds; checks: 2 of 7 failed (2, 4)`.
    var gist: String {
        let failedChecks = checks.filter { !$0.held }.map { "\($0.number)" }
        return "\((run.workSyncs + rounds.syncs).count) syncs, \(failedSyncs.count) failed\(Self.breakdown(failedSyncs)); \(roundsSummary); "
            + (failedChecks.isEmpty ? "checks: all 7 held" : "checks: \(failedChecks.count) of 7 failed (\(failedChecks.joined(separator: ", ")))")
    }

    /// `conflicts by git's kind (...): 12 content (first: op 13 c2), 3 modify/delete (first: op 40 c1)`, counting the
    /// failed syncs, work and final rounds, whose conflicts include each kind; empty when there were none.
    private var conflictKindsSummary: String {
        var counts: [String: Int] = [:]
        var first: [String: String] = [:]
        var order: [String] = []
        for sync in failedSyncs {
            var kinds = sync.conflictKinds
            if kinds.isEmpty && sync.method != .kanban {
                kinds = sync.message.compactMap { line in
                    guard line.hasPrefix("CONFLICT ("), let close = line.firstIndex(of: ")") else { return nil }
                    return String(line[line.index(line.startIndex, offsetBy: 10)..<close])
                }
            }
            for kind in Set(kinds) {
                if counts[kind] == nil { order.append(kind) }
                counts[kind, default: 0] += 1
                if first[kind] == nil { first[kind] = sync.label }
            }
        }
        guard !order.isEmpty else { return "" }
        let parts = order.sorted { (counts[$0] ?? 0, $1) > (counts[$1] ?? 0, $0) }.map { "\(counts[$0] ?? 0) \($0) (first: \(first[$0] ?? "?"))" }
        return "failed syncs by git's kind of conflict (git merge-tree for kanban sync, git pull's own words for git): " + parts.joined(separator: ", ") + "\n"
    }

    /// `converged after 2 rounds`, or what kept it from converging.
    private var roundsSummary: String {
        if let after = rounds.oneBoardAfter, rounds.quietAfter != nil {
            return "converged after \(Self.count(after, "round"))"
        }
        if let quiet = rounds.quietAfter {
            let stuck = Set(rounds.syncs.filter { $0.round == quiet && !$0.succeeded }.map(\.clone)).sorted()
            return "did not converge: quiet after \(Self.count(quiet, "round")) with \(stuck.count) clone\(stuck.count == 1 ? "" : "s") failing to sync"
                + (stuck.isEmpty ? "" : " (\(stuck.map { "c\($0)" }.joined(separator: ", ")))")
        }
        return "did not converge: still changing after \(rounds.count) rounds"
    }

    /// The first round of the run of failed syncs `clone` ended the final rounds with.
    private func firstRoundOfStreak(clone: Int) -> Int {
        var first = rounds.count
        for round in stride(from: rounds.count, through: 1, by: -1) {
            guard rounds.syncs.contains(where: { $0.clone == clone && $0.round == round && !$0.succeeded }) else { break }
            first = round
        }
        return first
    }

    /// `1 clone`, `4 clones`.
    static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }

    /// ` (2 conflict, 1 rejected)`, or nothing when none failed.
    static func breakdown(_ failures: [ConvergeSyncRecord]) -> String {
        guard !failures.isEmpty else { return "" }
        let parts = ConvergeSyncRecord.Failure.allCases.compactMap { kind -> String? in
            let count = failures.filter { $0.failure == kind }.count
            return count == 0 ? nil : "\(count) \(kind.rawValue)"
        }
        return " (\(parts.joined(separator: ", ")))"
    }
}
