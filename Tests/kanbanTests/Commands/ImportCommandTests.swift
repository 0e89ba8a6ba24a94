import Foundation
import KanbanCore
import KanbanTestSupport
import Testing

/// `kanban import`: a dry run says what would happen and writes nothing, `--apply` writes it in one change, a second
/// import of the same export changes nothing, and an export that cannot be read is refused with nothing written.
@Suite struct ImportCommandTests {
    /// A spreadsheet as people keep one: other names for the columns, a key column, a duplicate title, a title that
    /// looks like a path, unicode, a multi-line description.
    static let spreadsheet = """
        Title,Status,Tags,Description,Due Date,Owner
        Fix the login page,To Do,"bug, ui","Steps:
        1. open /login
        2. nothing happens",2026-12-01,ana
        Überprüfen der Übersetzung,Doing,docs,,,ben
        修复登录,Doing,bug,,,
        Write release notes,Done,,,,
        Write release notes,Done,,second of the same title,,
        ../../etc/passwd,To Do,,,,

        """

    @Test func aDryRunSaysWhatWouldHappenAndWritesNothing() throws {
        try withTemporaryBoard(.sample) { board throws in
            try board.write(Self.spreadsheet, to: "../sheet.csv")
            let before = try board.files()
            let result = try board.run(["import", "csv", "../sheet.csv"])
            #expect(result.status == 0, "\(result)")
            #expect(try board.files() == before)
            #expect(result.stdout.contains("nothing is written without --apply"))
            #expect(result.stdout.contains("To Do → todo"))
            #expect(result.stdout.contains("Doing → doing (new)"))
            #expect(result.stdout.contains("create  fix-the-login-page          todo   Fix the login page\n"))
            #expect(result.stdout.hasSuffix("6 to create, 0 to update, 0 unchanged; 1 new column, 1 new label\n"), "\(result.stdout)")
        }
    }

    @Test func applyWritesTheCardsAndASecondImportChangesNothing() throws {
        try withTemporaryBoard(.sample) { board throws in
            try board.write(Self.spreadsheet, to: "../sheet.csv")
            let applied = try board.run(["import", "csv", "../sheet.csv", "--map", "Doing=in-progress", "--apply"])
            #expect(applied.status == 0, "\(applied)")
            #expect(applied.stdout.hasSuffix("6 created, 0 updated, 0 unchanged; 0 new columns, 1 new label\n"), "\(applied.stdout)")
            let cards = try board.listJSON(["--all"]).filter { $0.fields["source"] != nil }
            #expect(cards.map(\.title) == ["Fix the login page", "../../etc/passwd", "Überprüfen der Übersetzung", "修复登录",
                                           "Write release notes", "Write release notes"])
            let login = try #require(cards.first { $0.title == "Fix the login page" })
            #expect(login.column == "todo" && login.labels == ["bug", "ui"])
            #expect(login.fields["due-date"] == .string("2026-12-01") && login.fields["owner"] == .string("ana"))
            #expect(login.fields["source"] == .string("csv:Fix the login page"))
            #expect(try board.text(login.path).contains("Steps:\n1. open /login\n2. nothing happens"))
            #expect(cards.first { $0.title == "修复登录" }?.column == "in-progress")
            // The path-like title is a title: its card is inside the column's directory.
            #expect(cards.first { $0.title == "../../etc/passwd" }?.path == "cards/todo/etc-passwd.md")
            let notes = cards.filter { $0.title == "Write release notes" }
            #expect(Set(notes.map(\.slug)) == ["write-release-notes", "write-release-notes-2"])
            #expect(notes.map(\.fields["source"]) == [.string("csv:Write release notes"), .string("csv:Write release notes (2)")])
            #expect(try board.text("board.md").contains("id: ui"))

            let files = try board.files()
            let again = try board.run(["import", "csv", "../sheet.csv", "--map", "Doing=in-progress", "--apply"])
            #expect(again.status == 0 && again.stdout.hasSuffix("0 created, 0 updated, 6 unchanged\n"), "\(again)")
            #expect(try board.files() == files)

            // The source changed: the card it made is updated, not added again.
            try board.write(Self.spreadsheet.replacingOccurrences(of: "2026-12-01,ana", with: "2026-12-24,ana")
                .replacingOccurrences(of: "Überprüfen der Übersetzung,Doing,docs", with: "Überprüfen der Übersetzung,Done,docs"), to: "../sheet.csv")
            let changed = try board.run(["import", "csv", "../sheet.csv", "--map", "Doing=in-progress", "--json"])
            let plan = try decodeJSON([String: JSONValue].self, from: changed.stdout)
            #expect(plan["updated"] == .number(2) && plan["created"] == .number(0), "\(changed.stdout)")
            let updated = try board.run(["import", "csv", "../sheet.csv", "--map", "Doing=in-progress", "--apply"])
            #expect(updated.stdout.contains("update  fix-the-login-page") && updated.stdout.contains("(due-date)"), "\(updated)")
            let after = try board.listJSON(["--all"]).filter { $0.fields["source"] != nil }
            #expect(after.count == 6)
            #expect(after.first { $0.title == "Überprüfen der Übersetzung" }?.path == "cards/done/uberprufen-der-ubersetzung.md")
        }
    }

    @Test(arguments: ["csv", "json"])
    func theSampleBoardExportedAndImportedIsTheSameCardByCard(format: String) throws {
        try withTemporaryBoard(.sample) { board throws in
            let exported = try board.run(["export", format, "--all", "--output", "../cards." + format])
            #expect(exported.status == 0, "\(exported)")
            let imported = try board.run(["--board", "../copy", "import", format, "../cards." + format, "--apply"])
            #expect(imported.status == 0, "\(imported)")
            #expect(imported.stdout.hasSuffix("29 created, 0 updated, 0 unchanged; 0 new columns, 6 new labels\n"), "\(imported.stdout)")
            let original = try decodeJSON([CardJSON].self, from: try board.run(["export", "json", "--all"]).stdout)
            let copied = try decodeJSON([CardJSON].self, from: try board.run(["--board", "../copy", "export", "json", "--all"]).stdout)
            #expect(original.count == 29 && copied.count == 29)
            for (left, right) in zip(original, copied) { #expect(left == right) }
            let again = try board.run(["--board", "../copy", "import", format, "../cards." + format])
            #expect(again.stdout.hasSuffix("0 to create, 0 to update, 29 unchanged\n"), "\(again.stdout)")
        }
    }

    @Test func aNewBoardIsMadeOnlyByApply() throws {
        try withTemporaryBoard(.sample) { board throws in
            try board.write(Self.spreadsheet, to: "../sheet.csv")
            let dry = try board.run(["--board", "../fresh", "import", "csv", "../sheet.csv"])
            #expect(dry.status == 0 && dry.stdout.hasPrefix("would create board 'fresh' in ../fresh\n"), "\(dry)")
            #expect(!FileManager.default.fileExists(atPath: board.root + "/fresh"))
            let made = try board.run(["--board", "../fresh", "import", "csv", "../sheet.csv", "--apply"])
            #expect(made.status == 0, "\(made)")
            let text = try String(contentsOfFile: board.root + "/fresh/board.md", encoding: .utf8)
            #expect(text.contains("id: to-do") && text.contains("name: To Do") && text.contains("id: doing") && text.contains("id: done"))
        }
    }

    /// Exports that cannot be read: each is refused with its name in the message, and nothing is written.
    @Test(arguments: [
        ("truncated.json", "json", "[{\"title\": \"a\"", "truncated JSON"),
        ("object.json", "json", "{\"cards\": []}", "is not a card export"),
        ("latin1.csv", "csv", "title\nCaf\u{E9}\n", "not UTF-8"),
        ("nothing.csv", "csv", "name\n", ""),
        ("no-title.csv", "csv", "column,labels\ntodo,bug\n", "has no title column"),
        ("bad-date.csv", "csv", "title,created\nA,yesterday\n", "row 1: 'yesterday'"),
    ])
    func unreadableExportsAreRefusedAndNothingIsWritten(name: String, format: String, text: String, message: String) throws {
        try withTemporaryBoard(.sample) { board throws in
            var bytes = Array(text.utf8)
            if name == "latin1.csv" { bytes = Array("title\nCaf".utf8) + [0xE9, 0x0A] }
            try board.write(bytes, to: "../" + name)
            let before = try board.files()
            let result = try board.run(["import", format, "../" + name, "--apply"])
            #expect(try board.files() == before)
            if name == "nothing.csv" {
                #expect(result.status == 0 && result.stdout.hasSuffix("0 created, 0 updated, 0 unchanged\n"), "\(result)")
                return
            }
            #expect(result.status == 1, "\(result)")
            #expect(result.stderr.hasPrefix("../\(name)") && result.stderr.contains(message), "\(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
    }

    @Test func aFileOverTheLimitAFolderAndAFIFOAreRefusedBeforeReading() throws {
        try withTemporaryBoard(.sample) { board throws in
            let huge = board.root + "/huge.json"
            #expect(FileManager.default.createFile(atPath: huge, contents: nil))
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: huge))
            try handle.truncate(atOffset: 100 << 20)  // sparse: 100 MB on paper
            try handle.close()
            try FileManager.default.createDirectory(atPath: board.root + "/folder", withIntermediateDirectories: true)
            #expect(mkfifo(board.root + "/fifo", 0o600) == 0)
            let before = try board.files()
            for (path, message) in [("../huge.json", "is 100 MB, over the 64 MB kanban reads"), ("../folder", "is a folder"),
                                    ("../fifo", "not a regular file")] {
                let result = try board.run(["import", "json", path, "--apply"])
                #expect(result.status == 1 && result.stderr.contains(path) && result.stderr.contains(message), "\(result)")
            }
            #expect(try board.files() == before)
        }
    }

    @Test(arguments: [(["import", "xml", "a"], 64), (["import", "csv", "a.csv", "--map", "Doing"], 64),
                      (["import", "csv", "../sheet.csv", "--map", "Nope=todo"], 1),
                      (["import", "csv", "../sheet.csv", "--map", "Doing=../x"], 1),
                      (["import", "csv", "../missing.csv"], 1)] as [([String], Int32)])
    func badRequestsAreRefused(arguments: [String], status: Int32) throws {
        try withTemporaryBoard(.sample) { board throws in
            try board.write(Self.spreadsheet, to: "../sheet.csv")
            let before = try board.files()
            let result = try board.run(arguments + ["--apply"])
            #expect(result.status == status, "\(result)")
            #expect(!result.stderr.isEmpty && result.stdout.isEmpty)
            #expect(try board.files() == before)
        }
    }
}

extension GitTests {
    @Suite struct ImportCommitTests {
        @Test func anImportIsOneCommit() throws {
            try withGitWorkspace { workspace in
                let repository = workspace.root + "/repo"
                try workspace.git(["init", "--quiet", repository], in: workspace.root)
                #expect(try workspace.kanban(["init", ".", "--title", "Team"], in: repository).status == 0)
                try workspace.git(["add", "--all"], in: repository)
                try workspace.git(["commit", "--quiet", "-m", "Start"], in: repository)
                try Data(ImportCommandTests.spreadsheet.utf8).write(to: URL(fileURLWithPath: workspace.root + "/sheet.csv"))
                let result = try workspace.kanban(["import", "csv", "../sheet.csv", "--apply", "--commit"], in: repository)
                #expect(result.status == 0, "\(result)")
                #expect(try workspace.git(["log", "-1", "--format=%s"], in: repository) == "Import 6 new cards from CSV (sheet.csv)")
                #expect(try workspace.git(["rev-list", "--count", "HEAD"], in: repository) == "2")
                #expect(try workspace.git(["status", "--porcelain"], in: repository).isEmpty)
                let again = try workspace.kanban(["import", "csv", "../sheet.csv", "--apply", "--commit"], in: repository)
                #expect(again.status == 0 && !again.stdout.contains("committed"), "\(again)")
                #expect(try workspace.git(["rev-list", "--count", "HEAD"], in: repository) == "2")
            }
        }
    }
}

/// Each importer end to end on its fixture (Tests/Fixtures/import): the plan writes nothing, `--apply` makes the cards
/// in their columns and order, and a second import changes nothing.
@Suite struct ImportSourceCommandTests {
    @Test(arguments: [
        ("trello", "trello-board.json", 22, ["backlog", "to-do", "doing", "review", "done"], 4),
        ("github", "gh-issues.json", 22, ["open"], 6),
        ("github", "gh-project-items.json", 22, ["in-progress", "todo", "no-status", "in-review", "done"], 0),
        ("obsidian", "obsidian-board.md", 21, ["ideas", "to-do", "doing", "done", "marketing"], 3),
        ("backlog", "backlog", 21, ["to-do", "in-progress", "review", "done", "blocked"], 2),
    ])
    func anExportIsPlannedAppliedAndImportedAgainWithoutChange(source: String, fixture: String, cards: Int, columns: [String],
                                                               archived: Int) throws {
        try withTemporaryDirectory { directory in
            let path = TestFixtures.importFixture(fixture)
            let planned = try KanbanProcess.run(["--board", "board", "import", source, path, "--json"], in: directory)
            #expect(planned.status == 0, "\(planned)")
            #expect(!FileManager.default.fileExists(atPath: directory + "/board"))
            let applied = try KanbanProcess.run(["--board", "board", "import", source, path, "--apply"], in: directory)
            #expect(applied.status == 0 && applied.stdout.contains("\(cards) created, 0 updated, 0 unchanged"), "\(applied)")
            let listed = try KanbanProcess.run(["--board", "board", "list", "--all", "--json"], in: directory)
            let made = try decodeJSON([CardJSON].self, from: listed.stdout)
            #expect(made.count == cards && made.count { $0.archived } == archived)
            let board = try String(contentsOfFile: directory + "/board/board.md", encoding: .utf8)
            let ids = board.split(separator: "\n").compactMap { $0.hasPrefix("  - id: ") ? String($0.dropFirst(8)) : nil }
            #expect(Array(ids.prefix(columns.count)) == columns, "\(board)")
            #expect(made.allSatisfy { $0.fields["source"] != nil && $0.path.hasPrefix($0.archived ? "archive/" : "cards/\($0.column)/") })
            let again = try KanbanProcess.run(["--board", "board", "import", source, path, "--apply"], in: directory)
            #expect(again.stdout.contains("0 created, 0 updated, \(cards) unchanged"), "\(again)")
        }
    }

    @Test func theSampleBoardGoesToObsidianAndComesBackInItsColumnsAndOrder() throws {
        try withTemporaryBoard(.sample) { board throws in
            #expect(try board.run(["export", "obsidian", "--output", "../board.md"]).status == 0)
            let imported = try board.run(["--board", "../copy", "import", "obsidian", "../board.md", "--apply"])
            #expect(imported.status == 0, "\(imported)")
            let original = try board.listJSON()
            let copied = try decodeJSON([CardJSON].self, from: try board.run(["--board", "../copy", "list", "--json"]).stdout)
            #expect(copied.map(\.title) == original.map(\.title))
            // The file has the columns' names, and a new board makes ids from them ("To Do" → to-do).
            #expect(copied.map(\.column) == original.map { $0.column == "todo" ? "to-do" : $0.column })
            #expect(copied.map(\.labels) == original.map(\.labels))
        }
    }
}

/// This tool's exports carry slugs: a card of another board that shares a slug is another card.
@Suite struct ImportSlugTests {
    @Test func anotherBoardsCardOfTheSameSlugIsAddedBesideNeverOverwritten() throws {
        try withTemporaryBoard(.sample) { board throws in
            #expect(try board.run(["--board", "../other", "import", "csv", "../sheet.csv"]).status == 1, "no table yet")
            #expect(try board.run(["init", "../other", "--title", "Other"]).status == 0)
            #expect(try board.run(["--board", "../other", "add", "Smart albums rule editor", "--column", "todo"]).status == 0)
            #expect(try board.run(["export", "json", "--output", "../cards.json"]).status == 0)
            let before = try String(contentsOfFile: board.root + "/other/cards/todo/smart-albums-rule-editor.md", encoding: .utf8)
            let imported = try board.run(["--board", "../other", "import", "json", "../cards.json", "--apply"])
            #expect(imported.status == 0 && imported.stdout.contains("25 created, 0 updated"), "\(imported)")
            #expect(try String(contentsOfFile: board.root + "/other/cards/todo/smart-albums-rule-editor.md", encoding: .utf8) == before)
            #expect(FileManager.default.fileExists(atPath: board.root + "/other/cards/in-progress/smart-albums-rule-editor-2.md"))
            // The board's own export is its own cards: nothing to change.
            let own = try board.run(["import", "json", "../cards.json"])
            #expect(own.stdout.hasSuffix("0 to create, 0 to update, 25 unchanged\n"), "\(own)")
        }
    }
}
