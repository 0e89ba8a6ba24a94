import Foundation
import Testing

extension GitTests {
    /// Commands that commit at the same moment: each commit holds exactly what its command changed, and HEAD never
    /// lacks a card the working tree has.
    @Suite struct ConcurrentCommitTests {
        @Test func anEditAndAMoveCommittedAtOnceBothLandWhole() throws {
            try withGitWorkspace { workspace in
                let (ana, _) = try workspace.makeSharedBoard()
                #expect(try workspace.kanban(["add", "Task", "--commit"], in: ana).status == 0)
                let columns = ["in-progress", "done", "todo"]
                for round in 0..<8 {
                    let column = columns[round % columns.count]
                    let results = Results()
                    let group = DispatchGroup()
                    for arguments in [["set", "task", "--title", "Task \(round)", "--commit"], ["move", "task", column, "--commit"]] {
                        DispatchQueue.global().async(group: group) {
                            results.append(Result { try workspace.kanban(arguments, in: ana) })
                        }
                    }
                    group.wait()
                    for result in results.all {
                        let output = try result.get()
                        #expect(output.status == 0, "round \(round): \(output)")
                    }
                    // Both committed, nothing left over, and HEAD has the card exactly where the working tree has it.
                    #expect(try workspace.git(["status", "--porcelain", "--", "cards"], in: ana).isEmpty, "round \(round)")
                    let inHead = try workspace.git(["ls-tree", "-r", "--name-only", "HEAD", "--", "cards"], in: ana)
                        .split(separator: "\n").filter { $0.hasSuffix("/task.md") }
                    #expect(inHead == ["cards/\(column)/task.md"], "round \(round): HEAD has \(inHead)")
                    let committed = try workspace.git(["show", "HEAD:cards/\(column)/task.md"], in: ana)
                    let working = try workspace.read(ana + "/cards/\(column)/task.md")
                    #expect(committed == working.trimmingCharacters(in: .newlines), "round \(round)")
                    #expect(committed.contains("title: Task \(round)"), "round \(round): \(committed)")
                }
            }
        }
    }
}

/// Results gathered from several threads.
private final class Results: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [Result<KanbanProcess.Output, any Error>] = []

    func append(_ result: Result<KanbanProcess.Output, any Error>) {
        lock.lock()
        results.append(result)
        lock.unlock()
    }

    var all: [Result<KanbanProcess.Output, any Error>] {
        lock.lock()
        defer { lock.unlock() }
        return results
    }
}
