import Foundation
import Testing

/// `kanban-harness stress`, at a size for CI: four processes of 25 changes each on one board, with `kanban watch`.
@Suite struct StressHarnessTests {
    @Test func concurrentChangesLoseNothingAndCommitsStayConsistent() throws {
        let result = try HarnessRun.run(["stress", "--processes", "4", "--operations", "25"], timeout: 600)
        if result.status == HarnessRun.skipped {
            print("StressHarnessTests: skipped: \(result.output)")
            return
        }
        #expect(result.status == 0, "kanban-harness stress --processes 4 --operations 25: \(result)")
        #expect(result.output.contains("operations: 100 run"), "\(result)")
    }
}
