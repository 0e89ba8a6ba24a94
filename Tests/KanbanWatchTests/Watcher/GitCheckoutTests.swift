import Foundation
import Testing
@testable import KanbanWatch

extension BoardWatcherTests {
    /// `git checkout` between two commits that move 500 cards, edit 500 and add 200 in a new column: once git
    /// is done, exactly the true set of events, and the same backwards.
    @Suite struct GitCheckoutTests {
        static let moved = 500
        static let edited = 500
        static let added = 200

        /// A board in a git repository with commits `before` and `after`, checked out at `before`.
        static func makeRepository() throws -> WatchedBoard {
            let board = try WatchedBoard(cards: [])
            for name in ["todo", "doing", "done"] {
                try board.write("", to: "cards/\(name)/.gitkeep")
            }
            try board.write("", to: "archive/.gitkeep")
            for number in 0..<moved {
                try board.write(WatchedBoard.cardText(title: "Move \(number)", column: "todo"), to: "cards/todo/move-\(number).md")
            }
            for number in 0..<edited {
                try board.write(WatchedBoard.cardText(title: "Edit \(number)", column: "doing"), to: "cards/doing/edit-\(number).md")
            }
            try git(board, "init -q -b main")
            try git(board, "add -A")
            try git(board, "commit -q -m before")
            try git(board, "tag before")
            try git(board, "mv cards/todo/move-* cards/done/")
            for number in 0..<edited {
                try board.write(WatchedBoard.cardText(title: "Edit \(number)", column: "doing", body: "Edited on the branch."),
                                to: "cards/doing/edit-\(number).md")
            }
            try FileSystemTestSupport.makeDirectory(board.path("cards/new-column"))
            for number in 0..<added {
                try board.write(WatchedBoard.cardText(title: "New \(number)", column: "new-column"), to: "cards/new-column/new-\(number).md")
            }
            try git(board, "add -A")
            try git(board, "commit -q -m after")
            try git(board, "tag after")
            try git(board, "checkout -q before")
            return board
        }

        static func git(_ board: WatchedBoard, _ arguments: String) throws {
            let result = try FileSystemTestSupport.run("/bin/sh", ["-c", "git -c core.autocrlf=false -c gc.auto=0 \(arguments)"], in: board.root)
            guard result.status == 0 else { throw FileSystemTestSupport.Failure(description: "git \(arguments): \(result.output)") }
        }

        @Test(arguments: Mechanism.allCases)
        func checkoutReportsExactlyWhatChanged(_ mechanism: Mechanism) throws {
            guard FileSystemTestSupport.hasProgram("git") else {
                Issue.record("git is not installed; the checkout test cannot run")
                return
            }
            let board = try Self.makeRepository()
            try board.start(mechanism)

            try Self.git(board, "checkout -q after")
            let forward = board.recorder.wait(timeout: .seconds(60)) { events in
                events.count(of: .moved) >= Self.moved && events.count(of: .modified) >= Self.edited
                    && events.count(of: .created) >= Self.added && events.count(of: .columnAdded) >= 1
            }
            try board.barrier()
            var events = board.recorder.cardEvents
            #expect(forward, "counts: \(Dictionary(grouping: events, by: \.kind).mapValues(\.count))")
            #expect(events.count == Self.moved + Self.edited + Self.added + 1, "\(Dictionary(grouping: events, by: \.kind).mapValues(\.count))")
            #expect(Set(events.filter { $0.kind == .moved }.compactMap(\.slug)) == Set((0..<Self.moved).map { "move-\($0)" }))
            #expect(events.filter { $0.kind == .moved }.allSatisfy { $0.from == "todo" && $0.to == "done" && $0.changes.isEmpty })
            #expect(Set(events.filter { $0.kind == .modified }.compactMap(\.slug)) == Set((0..<Self.edited).map { "edit-\($0)" }))
            #expect(events.filter { $0.kind == .modified }.allSatisfy { $0.changes == [.body] })
            #expect(Set(events.filter { $0.kind == .created }.compactMap(\.slug)) == Set((0..<Self.added).map { "new-\($0)" }))
            #expect(events.filter { $0.kind == .columnAdded }.map(\.column) == ["new-column"])

            let before = board.recorder.events.count
            try Self.git(board, "checkout -q before")
            let backward = board.recorder.wait(timeout: .seconds(60)) { all in
                let events = all.dropFirst(before)
                return events.filter { $0.kind == .moved }.count >= Self.moved && events.filter { $0.kind == .deleted }.count >= Self.added
                    && events.filter { $0.kind == .modified }.count >= Self.edited
            }
            try board.barrier()
            events = Array(board.recorder.events.dropFirst(before)).filter { !($0.slug ?? "").hasPrefix("barrier-") }
            #expect(backward, "counts: \(Dictionary(grouping: events, by: \.kind).mapValues(\.count))")
            let counts = Dictionary(grouping: events, by: \.kind).mapValues(\.count)
            #expect(counts == [.moved: Self.moved, .modified: Self.edited, .deleted: Self.added, .columnRemoved: 1], "\(counts)")
        }
    }
}
