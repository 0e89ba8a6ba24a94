import Testing

/// `kanban-harness agents`, at a size for CI: three agents in two clones of one board, two worktrees each, claiming
/// twelve cards that wait for one another, with every check and figure in the output.
@Suite struct AgentsHarnessTests {
    @Test func agentsInWorktreesAndClonesFinishEveryCardOnce() throws {
        // About 20 s on two cores; a bigger run is `kanban-harness agents --agents 8 --clones 2 --worktrees 2 --cards 200`.
        let arguments = ["agents", "--agents", "3", "--clones", "2", "--worktrees", "2", "--cards", "12", "--seed", "2026", "--time-limit", "90"]
        guard let result = try HarnessRun.passing(arguments, timeout: 300) else { return }
        #expect(result.output.contains("checks: all 6 held"), "\(result)")
        for figure in ["agents placed:", "claims made:", "claims lost at claim time", "claims lost after success:",
                       "syncs run by the agents:", "final rounds:", "cards done per agent:", " s, ", "seed 2026"] {
            #expect(result.output.contains(figure), "no '\(figure)' in the output: \(result)")
        }
    }
}
