import Testing

/// `kanban-harness converge`, at a size for CI: every scripted case, and one random run of several clones behind one
/// remote syncing with `kanban sync`, `git pull --rebase` and `git pull --no-rebase`.
@Suite struct ConvergeHarnessTests {
    @Test func everyScriptedCaseConverges() throws {
        let result = try HarnessRun.run(["converge", "--scenario", "all"], timeout: 600)
        if result.status == HarnessRun.skipped {
            print("ConvergeHarnessTests: skipped: \(result.output)")
            return
        }
        #expect(result.status == 0, "kanban-harness converge --scenario all: \(result)")
        #expect(result.output.contains("scenarios: 13 of 13 passed"), "\(result)")
    }

    @Test func randomWorkOnFourClonesConverges() throws {
        // About 30 s on two cores; a bigger run is `kanban-harness converge --clones 20 --ops 1000`.
        let result = try HarnessRun.run(["converge", "--clones", "4", "--ops", "80", "--seed", "2026"], timeout: 600)
        if result.status == HarnessRun.skipped {
            print("ConvergeHarnessTests: skipped: \(result.output)")
            return
        }
        #expect(result.status == 0, "kanban-harness converge --clones 4 --ops 80 --seed 2026: \(result)")
        #expect(result.output.contains("checks: all 7 held"), "\(result)")
    }
}
