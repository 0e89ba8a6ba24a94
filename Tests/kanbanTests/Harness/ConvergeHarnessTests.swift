import Testing

/// `kanban-harness converge`, at a size for CI: every scripted case, and one random run of several clones behind one
/// remote syncing with `kanban sync`, `git pull --rebase` and `git pull --no-rebase`.
@Suite struct ConvergeHarnessTests {
    @Test func everyScriptedCaseConverges() throws {
        guard let result = try HarnessRun.passing(["converge", "--scenario", "all"]) else { return }
        #expect(result.output.contains("scenarios: 17 of 17 passed"), "\(result)")
    }

    @Test func randomWorkOnFourClonesConverges() throws {
        // About 40 s on two cores; a bigger run is `kanban-harness converge --clones 20 --ops 1000`.
        guard let result = try HarnessRun.passing(["converge", "--clones", "4", "--ops", "100", "--seed", "2026"]) else { return }
        #expect(result.output.contains("checks: all 7 held"), "\(result)")
    }
}
