import Foundation
import Testing

/// `kanban-harness stress`, at a size for CI: four processes of 25 changes each on one board, with `kanban watch`
/// on inotify; and three of 20 with it polling, so that both of the watcher's ways of seeing changes must report
/// every one.
@Suite struct StressHarnessTests {
    @Test func concurrentChangesLoseNothingAndCommitsStayConsistent() throws {
        guard let result = try HarnessRun.passing(["stress", "--processes", "4", "--operations", "25"]) else { return }
        #expect(result.output.contains("operations: 100 run"), "\(result)")
    }

    @Test func pollingWatcherReportsEveryChange() throws {
        guard let result = try HarnessRun.passing(["stress", "--processes", "3", "--operations", "20", "--poll"]) else { return }
        #expect(result.output.contains("operations: 60 run"), "\(result)")
        #expect(result.output.contains("kanban watch polling every"), "\(result)")
        #expect(result.output.contains("ok   the watcher's events, applied in order, add up to the board"), "\(result)")
    }
}
