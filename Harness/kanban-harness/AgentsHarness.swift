import Foundation

/// `agents`: the promise of the agent commands (`kanban ready`, `claim`, `depend`, one board across worktrees), that
/// many agents across the git worktrees and clones of one board never both hold one card after a sync, never start a
/// card before its dependencies are done, and end with every card done and nothing lost.
enum AgentsHarness {
    static let command = HarnessCommand(name: "agents", help: help, run: run)

    static let help = """
        OVERVIEW: Many agents in the worktrees and clones of one board claim cards with dependencies and finish them; none may hold a card another holds, start one too soon, or lose work.

        A creator makes the board in the 'board' folder of a git repository (To Do, In Progress, Done), adds K cards
        ('Card 001'...), each waiting ('kanban depend') for 0-2 cards made before it, runs 'kanban git-setup --commit'
        and pushes to a bare remote. C clones clone it, each with its own HOME and git identity, and add W-1 linked
        worktrees ('git worktree add'). N agents, given to (clone, worktree) in turn, run at once, each in its
        worktree's board folder with KANBAN_AGENT=agent-<i> and no --board: in a linked worktree kanban must use the
        main worktree's board, so agents in the worktrees of one clone share one board.

        Each agent loops: 'kanban claim --next --sync --json'. Exit 4 (nothing ready): 'kanban sync', stop when every
        card is done, else wait a little. Exit 3 (another clone claimed first): again. Any other failure is
        recorded, and the agent waits a little and tries again. Exit 0: 'kanban show --json'
        must say every dependency is done; it works 0-100 ms, appends a line of its own to the card's body
        ('kanban set --body'), runs 'kanban sync', and if it still holds the card ('work.claimedBy') moves it to done
        ('kanban move CARD done --commit') and syncs; else it counts a claim lost after success and moves on. A sync
        that fails is tried up to 3 times. An agent stops after --max-iterations turns, after --time-limit seconds,
        or after \(AgentsRun.idleTurnLimit) turns in a row found nothing ready while no card became done.
        Then every clone runs 'kanban sync' in turn until a round changes nothing.

        Checks: (1) every clone's board files are equal byte for byte and equal to the remote's tip, nothing left
        uncommitted; (2) every card is done and exists exactly once; (3) every card has one claimed-by, the agent
        that finished it (having seen after a sync that it held it), no two agents finished one card, and no claim
        was granted of a card in a state other than claimed (a card already done, say); (4) no card
        was claimed before its dependencies were done (by 'kanban show' right after the claim, and by when the
        agents moved them to done); (5) every line an agent appended to a card it finished is in the final card;
        (6) 'kanban doctor' finds no errors on any clone.

        A seed replays the same cards and dependencies and the same delays; which agent wins a race is up to the
        machine.

        USAGE: kanban-harness agents [--kanban PATH] [--agents N] [--clones N] [--worktrees N] [--cards N] [--seed N] [--keep]

        OPTIONS:
          --kanban PATH          The kanban binary (default: the one beside this program).
          --agents N             How many agents (default 4).
          --clones N             How many clones of the remote (default 2).
          --worktrees N          Worktrees per clone, the main one included (default 2).
          --cards N              How many cards (default 40).
          --seed N               The random seed (default: from the time; printed, to replay the run).
          --max-iterations N     Turns of each agent's loop, at most (default 20 per card, plus 100).
          --time-limit S         The agents stop after S seconds, done or not (default 900).
          --max-rounds N         At most this many final rounds of syncs (default 10).
          --keep                 Keep the work directory (the clones, their worktrees, the remote and agents.log, every command run) and print its path.

        EXIT STATUS: 0 every check held; 1 a check failed; 2 the harness could not run; 77 git is missing.
        """

    static func run(_ options: HarnessOptions) throws -> HarnessStatus {
        guard let git = findProgram("git") else {
            FileHandle.standardError.write(Data("kanban-harness agents: skipped: git is not installed (not on PATH)\n".utf8))
            return .skipped
        }
        let settings = try AgentsSettings(options)
        let kanban = try options.kanbanBinary()
        let workDirectory = try makeWorkDirectory("agents")
        let run = AgentsRun(settings: settings, kanban: kanban, git: git, workDirectory: workDirectory)
        defer {
            run.runner.close()
            if settings.keepsWorkDirectory {
                print("kept the work directory: \(workDirectory) (every command is in agents.log)")
            } else {
                try? FileManager.default.removeItem(atPath: workDirectory)
            }
        }
        let dependencies = run.cards.map(\.dependencies.count).reduce(0, +)
        print("agents: \(count(settings.agentCount, "agent")), \(count(settings.cloneCount, "clone")), \(count(settings.worktreeCount, "worktree")) each, "
              + "\(count(settings.cardCount, "card")) with \(count(dependencies, "dependency", plural: "dependencies")), seed \(settings.seed)")
        try run.setUp()
        let setUpSeconds = run.elapsed
        run.runAgents()
        let agentSeconds = run.elapsed - setUpSeconds
        let rounds = try run.syncUntilQuiet()
        let checks = try AgentsChecks(run: run, rounds: rounds).all()
        let passed = checks.allSatisfy(\.held)
        print(report(run, rounds: rounds, checks: checks, agentSeconds: agentSeconds), terminator: "")
        let replay = "--seed \(settings.seed) --agents \(settings.agentCount) --clones \(settings.cloneCount) --worktrees \(settings.worktreeCount) --cards \(settings.cardCount)"
        print(passed ? "agents: PASSED" : "agents: FAILED; replay with: kanban-harness agents \(replay)")
        return passed ? .passed : .failed
    }

    /// Findings printed per check; the rest are counted.
    static let findingLimit = 25

    private static func report(_ run: AgentsRun, rounds: AgentsRun.Rounds, checks: [AgentsCheck], agentSeconds: Double) -> String {
        let records = run.records.withLock { $0 }
        var out = ""
        func list(_ lines: [String], indent: String = "  ") {
            for line in lines.prefix(findingLimit) { out += indent + line + "\n" }
            if lines.count > findingLimit { out += indent + "... and \(lines.count - findingLimit) more\n" }
        }
        let placed = run.agents.map { "\($0.name) c\($0.clone.index)\($0.worktree == 0 ? "" : "-wt\($0.worktree)")" }
        out += "agents placed: \(placed.joined(separator: ", "))\n"
        let claimedTwice = Dictionary(grouping: records.claims, by: \.card).filter { $0.value.count > 1 }.count
        out += "claims made: \(records.claims.count) (\(count(claimedTwice, "card")) granted more than once); "
            + "claims lost at claim time (exit 3 or --next moving on): \(records.lostAtClaim); claims lost after success: \(records.lostAfterSuccess.count)\n"
        list(records.lostAfterSuccess)
        out += "claims failed otherwise: \(records.claimFailures.count)\n"
        list(records.claimFailures)
        if records.impureJSON > 0 {
            out += "note: \(records.impureJSON) of \(records.claims.count) 'kanban claim --sync --json' printed sync progress on stdout before the JSON\n"
        }
        out += "syncs run by the agents: \(records.syncs), \(records.failedSyncs.count) failed\n"
        list(records.failedSyncs)
        out += "other steps failed: \(records.failures.count)\n"
        list(records.failures)
        if !records.stoppedByLimit.isEmpty {
            out += "agents stopped before every card was done: \(records.stoppedByLimit.count)\n"
            list(records.stoppedByLimit)
        }
        let quiet = rounds.quietAfter.map { "quiet after \(count($0, "round"))" } ?? "still changing after \(count(rounds.count, "round"))"
        out += "final rounds: \(quiet); \(rounds.syncs) kanban syncs, \(rounds.failures.count) failed\n"
        list(rounds.failures)
        let perAgent = run.agents.map { "\($0.name) \(records.done[$0.name] ?? 0)" }
        out += "cards done per agent: \(perAgent.joined(separator: ", ")) (\(records.done.values.reduce(0, +)) of \(run.cards.count))\n"
        out += "checks:\n"
        for check in checks {
            out += "  \(check.held ? "ok  " : "FAIL") (\(check.number)) \(check.name)\(check.held ? "" : ": \(count(check.findings.count, "problem"))")\n"
            list(check.findings, indent: "         ")
        }
        let failed = checks.filter { !$0.held }.map { "\($0.number)" }
        let settings = run.settings
        out += "agents: \(count(settings.agentCount, "agent")), \(count(settings.cloneCount, "clone")), \(count(settings.worktreeCount, "worktree")) each, "
            + "\(count(settings.cardCount, "card")) (seed \(settings.seed)): \(records.claims.count) claims, \(records.syncs + rounds.syncs) syncs "
            + "(\(records.failedSyncs.count + rounds.failures.count) failed); "
            + (failed.isEmpty ? "checks: all 6 held" : "checks: \(failed.count) of 6 failed (\(failed.joined(separator: ", ")))")
            + "; agents worked \(String(format: "%.1f", agentSeconds)) s, \(run.runner.commandCount) commands in \(String(format: "%.1f", run.elapsed)) s\n"
        return out
    }

    /// `1 card`, `4 cards`.
    private static func count(_ number: Int, _ noun: String, plural: String? = nil) -> String {
        "\(number) \(number == 1 ? noun : plural ?? noun + "s")"
    }
}
