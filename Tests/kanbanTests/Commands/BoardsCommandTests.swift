import Foundation
import Testing

/// `kanban boards [DIR] [--json]`: the boards under a directory, by the names the servers give them.
@Suite struct BoardsCommandTests {
    static func boardText(_ title: String) -> String {
        "---\ntitle: \(title)\ncolumns:\n  - id: todo\n    name: To Do\n  - id: done\n    name: Done\n---\n"
    }

    static func write(_ text: String, _ relative: String, in root: String) throws {
        let url = URL(fileURLWithPath: root + "/" + relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    /// `root/projects` with boards `alpha` (two cards, one archived), `beta/web` and a broken `gamma`.
    static func makeProjects(in root: String) throws {
        try write(boardText("Alpha"), "projects/alpha/board.md", in: root)
        try write("---\ntitle: One\ncolumn: todo\nposition: a\n---\n", "projects/alpha/cards/todo/one.md", in: root)
        try write("---\ntitle: Two\ncolumn: done\nposition: a\n---\n", "projects/alpha/cards/done/two.md", in: root)
        try write("---\ntitle: Old\ncolumn: done\nposition: a\n---\n", "projects/alpha/archive/2026-01-01-old.md", in: root)
        try write(boardText("Web"), "projects/beta/web/board.md", in: root)
        try write("---\ntitle: [Gamma\n---\n", "projects/gamma/board.md", in: root)
    }

    @Test func listsEachBoardWithItsTitleColumnsAndCardsAndReportsABrokenOne() throws {
        try withTemporaryDirectory { root in
            try Self.makeProjects(in: root)
            let result = try runKanban(["boards", "projects"], in: root, environment: ["HOME": root])
            #expect(result.status == 0, "\(result)")
            let lines = result.stdout.split(separator: "\n").map(String.init)
            #expect(lines.count == 2, "\(result.stdout)")
            #expect(lines.first?.hasPrefix("alpha     Alpha  2 columns, 2 cards") == true, "\(result.stdout)")
            #expect(lines.last?.hasPrefix("beta/web  Web    2 columns, 0 cards") == true, "\(result.stdout)")
            #expect(result.stderr.hasPrefix("gamma/board.md:"), "\(result.stderr)")
            #expect(result.stderr.contains(": error: "), "\(result.stderr)")
        }
    }

    @Test func jsonGivesNamePathTitleCountsAndTheErrorOfABrokenBoard() throws {
        try withTemporaryDirectory { root in
            try Self.makeProjects(in: root)
            let result = try runKanban(["boards", root + "/projects", "--json"], in: root, environment: ["HOME": root])
            #expect(result.status == 0, "\(result)")
            let boards = try decodeJSON([JSONValue].self, from: result.stdout)
            #expect(boards.map { $0["name"]?.stringValue } == ["alpha", "beta/web", "gamma"])
            #expect(boards[0]["path"]?.stringValue == root + "/projects/alpha")
            #expect(boards[0]["title"]?.stringValue == "Alpha")
            #expect(boards[0]["columns"] == .number(2))
            #expect(boards[0]["cards"] == .number(2))
            #expect(boards[2]["title"] == nil)
            #expect(boards[2]["error"]?.stringValue?.hasPrefix("gamma/board.md:") == true, "\(boards[2])")
        }
    }

    @Test func withoutADirectoryItSearchesTheGitWorkTreeFromItsTop() throws {
        try withTemporaryDirectory { root in
            try Self.makeProjects(in: root)
            try FileManager.default.createDirectory(atPath: root + "/.git", withIntermediateDirectories: true)
            let result = try runKanban(["boards", "--json"], in: root + "/projects/beta", environment: ["HOME": root])
            #expect(result.status == 0, "\(result)")
            let boards = try decodeJSON([JSONValue].self, from: result.stdout)
            #expect(boards.map { $0["name"]?.stringValue } == ["projects/alpha", "projects/beta/web", "projects/gamma"])
        }
    }

    @Test func aMissingDirectoryIsAnErrorAndAnEmptyOneSaysSo() throws {
        try withTemporaryDirectory { root in
            let missing = try runKanban(["boards", "nowhere"], in: root, environment: ["HOME": root])
            #expect(missing.status == 1 && missing.stdout.isEmpty && missing.stderr.contains("nowhere"), "\(missing)")
            let empty = try runKanban(["boards"], in: root, environment: ["HOME": root])
            #expect(empty.status == 0 && empty.stdout.isEmpty && empty.stderr.contains("no boards"), "\(empty)")
            let json = try runKanban(["boards", "--json"], in: root, environment: ["HOME": root])
            #expect(json.status == 0 && json.stdout == "[]\n", "\(json)")
        }
    }
}
