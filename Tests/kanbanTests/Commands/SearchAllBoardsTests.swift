import Foundation
import Testing

/// `kanban search --all-boards`: one search over every board under a directory, each board's cards under its name.
@Suite struct SearchAllBoardsTests {
    @Test func everyBoardIsSearchedAndEachHitNamesItsBoard() throws {
        try withTemporaryBoard(.sample) { board throws in
            // root/board (the sample), root/team/ops (a second board), root/team/broken (a board.md that does not parse).
            let ops = board.root + "/team/ops"
            #expect(try board.run(["init", ops, "--title", "Ops"]).status == 0)
            #expect(try board.run(["--board", ops, "add", "Memory leak in the uploader"]).status == 0)
            try FileManager.default.createDirectory(atPath: board.root + "/team/broken", withIntermediateDirectories: true)
            try Data("---\ntitle: [\n---\n".utf8).write(to: URL(fileURLWithPath: board.root + "/team/broken/board.md"))

            let text = try board.run(["search", "memory", "leak", "--all-boards", "--boards-in", ".."])
            #expect(text.status == 0, "\(text)")
            let lines = text.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            #expect(lines.first == "board  Lumen 2.0 Launch", "\(text.stdout)")
            #expect(lines.contains("team/ops  Ops"), "\(text.stdout)")
            #expect(text.stdout.contains("memory-leak-when-scrolling-large-libraries") && text.stdout.contains("memory-leak-in-the-uploader"))
            #expect(text.stderr.contains("team/broken/board.md") && text.stderr.contains("board skipped"), "\(text.stderr)")

            let json = try board.run(["search", "memory", "leak", "--all-boards", "--boards-in", "..", "--json"])
            let cards = try decodeJSON([[String: JSONValue]].self, from: json.stdout)
            #expect(cards.compactMap { $0["board"] } == [.string("board"), .string("team/ops")], "\(json.stdout)")

            let none = try board.run(["search", "nothing-like-this", "--all-boards", "--boards-in", ".."])
            #expect(none.status == 1 && none.stdout.isEmpty)
        }
    }
}
