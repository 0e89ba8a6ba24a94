import Foundation
import KanbanTestSupport
import Testing

/// WIP limits through the command line: `column limit`/`queue`, the count/limit in `column list` and `board`, and
/// `add`/`move`/`unarchive` warning, or refusing with `--strict` or `wip-limits: strict`.
@Suite struct WIPLimitCommandTests {
    @Test func aLimitIsSetShownAndRemoved() throws {
        try withTemporaryBoard(.sample) { board throws in
            let set = try board.run(["column", "limit", "in-progress", "4"])
            #expect(set.status == 0, "\(set)")
            #expect(set.stdout == "column in-progress: WIP limit 4\n")
            #expect(try board.text("board.md").contains("    name: In Progress\n    wip-limit: 4\n"))
            let list = try board.run(["column", "list"])
            #expect(list.stdout.contains("in-progress  In Progress  5/4 cards  over its limit"), "\(list.stdout)")
            let json = try decodeJSON([JSONValue].self, from: try board.run(["column", "list", "--json"]).stdout)
            #expect(json[2]["limit"] == .number(4))
            let drawn = try board.run(["board"], environment: ["COLUMNS": "200"])
            #expect(drawn.stdout.contains("In Progress (5/4)"), "\(drawn.stdout)")
            let again = try board.run(["column", "limit", "in-progress", "4"])
            #expect(again.stdout == "column in-progress already has a WIP limit of 4\n")
            let removed = try board.run(["column", "limit", "in-progress", "none"])
            #expect(removed.status == 0, "\(removed)")
            #expect(!(try board.text("board.md").contains("wip-limit")))
        }
    }

    @Test(arguments: ["0", "-3", "four", "100001", "2.5"]) func aLimitThatIsNoWholeNumberIsAUsageError(text: String) throws {
        try withTemporaryBoard(.sample) { board throws in
            let before = try board.text("board.md")
            let result = try board.run(["column", "limit", "in-progress", text])
            #expect(result.status == 64, "\(result)")
            #expect(result.stderr.contains("a WIP limit is a whole number from 1 to 100000"), "\(result.stderr)")
            #expect(try board.text("board.md") == before)
        }
    }

    @Test func aQueueIsMarkedAndUnmarked() throws {
        try withTemporaryBoard(.sample) { board throws in
            let result = try board.run(["column", "queue", "review"])
            #expect(result.status == 0, "\(result)")
            #expect(try board.text("board.md").contains("    name: Review\n    queue: true\n"))
            #expect(try board.run(["column", "list"]).stdout.contains("review       Review       4 cards  queue"))
            #expect(try board.run(["column", "queue", "review", "--off"]).status == 0)
            #expect(!(try board.text("board.md").contains("queue:")))
        }
    }

    @Test func movingIntoAFullColumnWarnsAndStrictRefuses() throws {
        try withTemporaryBoard(.sample) { board throws in
            #expect(try board.run(["column", "limit", "review", "4"]).status == 0)
            let moved = try board.run(["move", "press-kit-and-screenshots", "review"])
            #expect(moved.status == 0, "\(moved)")
            #expect(moved.stderr == "warning: column 'review' holds 5 cards, over its WIP limit of 4\n")
            let before = try board.files()
            let refused = try board.run(["move", "update-website-download-page", "review", "--strict"])
            #expect(refused.status == 1, "\(refused)")
            #expect(refused.stderr.contains("column 'review' is at its WIP limit of 4"), "\(refused.stderr)")
            let added = try board.run(["add", "One more", "--column", "review", "--strict"])
            #expect(added.status == 1, "\(added)")
            #expect(try board.files() == before, "nothing written for a refused change")
            let warned = try board.run(["add", "One more", "--column", "review"])
            #expect(warned.status == 0)
            #expect(warned.stderr.contains("holds 6 cards, over its WIP limit of 4"))
        }
    }

    @Test func aStrictBoardRefusesWithoutTheOption() throws {
        try withTemporaryBoard(.sample) { board throws in
            #expect(try board.run(["column", "limit", "review", "4"]).status == 0)
            let text = try board.text("board.md").replacingOccurrences(of: "title: Lumen 2.0 Launch\n", with: "title: Lumen 2.0 Launch\nwip-limits: strict\n")
            try board.write(text, to: "board.md")
            let refused = try board.run(["move", "press-kit-and-screenshots", "review"])
            #expect(refused.status == 1, "\(refused)")
            #expect(refused.stderr.contains("board.md sets wip-limits: strict"), "\(refused.stderr)")
        }
    }

    @Test func aClaimIntoAFullStartColumnWarns() throws {
        try withTemporaryBoard(.sample) { board throws in
            #expect(try board.run(["column", "limit", "in-progress", "5"]).status == 0)
            let claimed = try board.run(["claim", "press-kit-and-screenshots", "--as", "agent-1"])
            #expect(claimed.status == 0, "\(claimed)")
            #expect(claimed.stderr.contains("warning: column 'in-progress' holds 6 cards, over its WIP limit of 5"), "\(claimed.stderr)")
        }
    }

    /// Many processes adding to a strict column at once: the board's lock lets exactly as many in as the limit says,
    /// and every other is refused with nothing written.
    @Test func racingAddsNeverPutAStrictColumnOverItsLimit() throws {
        try withTemporaryBoard(.sample) { board throws in
            #expect(try board.run(["column", "add", "qa"]).status == 0)
            #expect(try board.run(["column", "limit", "qa", "3"]).status == 0)
            try board.write(try board.text("board.md").replacingOccurrences(of: "title: Lumen 2.0 Launch\n", with: "title: Lumen 2.0 Launch\nwip-limits: strict\n"),
                            to: "board.md")
            let statuses = Locked<[Int32]>([])
            DispatchQueue.concurrentPerform(iterations: 12) { index in
                let status = (try? board.run(["add", "Racer \(index)", "--column", "qa"]).status) ?? -1
                statuses.withLock { $0.append(status) }
            }
            let all = statuses.withLock { $0 }
            #expect(all.filter { $0 == 0 }.count == 3, "\(all)")
            #expect(all.filter { $0 == 1 }.count == 9, "\(all)")
            let files = try FileManager.default.contentsOfDirectory(atPath: board.path + "/cards/qa").filter { $0.hasSuffix(".md") }
            #expect(files.count == 3, "\(files)")
        }
    }
}
