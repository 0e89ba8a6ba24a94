import Foundation
import Testing

/// The board index as a person meets it: kept in `$HOME/.cache/kanban`, never in the board, damaged without
/// harm, checked and rebuilt by `kanban doctor`, and turned off by `KANBAN_INDEX=off`.
@Suite struct BoardIndexCommandTests {
    func indexFiles(_ board: TemporaryBoard) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: board.root + "/.cache/kanban")) ?? []).filter { $0.hasPrefix("index-") }
    }

    @Test func commandsKeepTheIndexInTheCacheAndReadTheSameWithOrWithoutIt() throws {
        try withTemporaryBoard(.simple) { board throws in
            let before = try board.files()
            for title in ["One", "Two", "Three"] { #expect(try board.run(["add", title]).status == 0) }
            let list = try board.run(["list", "--json"])
            #expect(list.status == 0, "\(list)")
            #expect(indexFiles(board).count == 1)
            #expect(try board.files().keys.filter { !before.keys.contains($0) }.allSatisfy { $0.hasPrefix("cards/") }, "nothing but cards added to the board")
            #expect(try board.run(["list", "--json"]).stdout == list.stdout)
            #expect(try board.run(["list", "--json"], environment: ["KANBAN_INDEX": "off"]).stdout == list.stdout)
            #expect(try board.run(["search", "title:two"]).stdout.contains("two"))
        }
    }

    @Test func aDamagedIndexIsIgnoredAndDoctorFindsNothingWrong() throws {
        try withTemporaryBoard(.simple) { board throws in
            for title in ["One", "Two"] { #expect(try board.run(["add", title]).status == 0) }
            let list = try board.run(["list"])
            let file = try #require(indexFiles(board).first)
            try Data(repeating: 0x41, count: 100).write(to: URL(fileURLWithPath: board.root + "/.cache/kanban/" + file))
            #expect(try board.run(["list"]).stdout == list.stdout)
            let doctor = try board.run(["doctor"])
            #expect(doctor.status == 0, "\(doctor)")
            #expect(doctor.stderr == "no problems found\n")
            let fixed = try board.run(["doctor", "--fix"])
            #expect(fixed.status == 0, "\(fixed)")
            #expect(try board.run(["list"]).stdout == list.stdout)
        }
    }

    @Test func offLeavesNoIndex() throws {
        try withTemporaryBoard(.simple) { board throws in
            #expect(try board.run(["add", "One"], environment: ["KANBAN_INDEX": "off"]).status == 0)
            #expect(try board.run(["list"], environment: ["KANBAN_INDEX": "off"]).status == 0)
            #expect(indexFiles(board).isEmpty)
        }
    }
}
