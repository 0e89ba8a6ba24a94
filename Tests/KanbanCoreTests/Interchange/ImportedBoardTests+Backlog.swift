import Foundation
import KanbanTestSupport
import Testing
@testable import KanbanCore

/// A Backlog.md project's task files read into a board, whether given as the project or as its `backlog` folder.
@Suite struct ImportedBoardBacklogTests {
    /// Every file under the fixture folder, with paths relative to it (as the CLI reads a folder), `prefix` before each.
    func files(prefix: String = "") throws -> [ImportFile] {
        let root = TestFixtures.importFixture("backlog")
        let paths = try #require(FileManager.default.subpathsOfDirectory(atPath: root) as [String]?)
        return try paths.sorted().compactMap { path in
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isDirectory), !isDirectory.boolValue else { return nil }
            let bytes = try #require(FileManager.default.contents(atPath: root + "/" + path))
            return ImportFile(path: prefix + path, shownPath: "webshop/backlog/" + path, bytes: Array(bytes))
        }
    }

    func fixture() throws -> ImportedBoard {
        try ImportedBoard(backlog: files(), folder: "webshop/backlog")
    }

    @Test func statusesFromTheConfigAreColumnsThenOthersFirstMet() throws {
        let board = try fixture()
        #expect(board.format == .backlog && board.title == "Webshop")
        #expect(board.columns.map(\.name) == ["To Do", "In Progress", "Review", "Done", "Blocked"])
        #expect(board.cards.count == 21)
        #expect(board.labels == ["docs", "bug", "checkout", "i18n", "ui", "infra", "perf"].map { ImportedLabel(name: $0) })
        #expect(!board.cards.contains { $0.title.contains("loyalty") || $0.title == "Architecture" })
    }

    @Test func tasksAreOrderedByOrdinalThenIDNumber() throws {
        let board = try fixture()
        #expect(board.titles(in: "To Do") == ["Fix typo in README", "Checkout fails with 100+ items", "Überprüfen der Übersetzung", "Add dark mode 🌙",
                                              "../../etc/passwd", "Support Apple Pay", "Cookie banner covers footer", "Old design tokens"])
        #expect(board.titles(in: "In Progress") == ["Set up CI", "修复登录", "Document the REST API", "Document the orders endpoint"])
        #expect(board.titles(in: "Review") == ["Search ignores accents", "Fix typo in README"])
        #expect(board.titles(in: "Blocked") == ["Product images load slowly", "Remove jQuery"])
    }

    @Test func completedTasksAreDoneAndArchivedOnesArchived() throws {
        let board = try fixture()
        #expect(board.titles(in: "Done", archived: false) == ["Set up staging site", "Choose a font pairing", "Register the domain", "Kick-off meeting ☕"])
        #expect(board.cards.filter(\.isArchived).map(\.title) == ["Old design tokens", "Print brochure"])
        #expect(board.card("Old design tokens")?.column == "To Do")
    }

    @Test func aTaskCarriesItsFieldsDatesBodyAndSourceID() throws {
        let board = try fixture()
        let task = try #require(board.card("Set up CI"))
        #expect(task.sourceID == "backlog:task-1")
        #expect(task.labels == ["infra"])
        #expect(task.fields.map(\.key) == ["assignee", "reporter", "priority"])
        #expect(task.fields.first?.value == .list([.string("@ana")]))
        #expect(task.field("reporter") == "@jörg")
        #expect(task.field("priority") == "high")
        #expect(task.created.map(ISO8601.string) == "2026-01-05T10:00:00Z")
        #expect(task.modified.map(ISO8601.string) == "2026-01-09T16:20:00Z")
        #expect(task.body.hasPrefix("## Description\n\n<!-- SECTION:DESCRIPTION:BEGIN -->\nDo: Set up CI.\n"))
        #expect(task.body.contains("## Acceptance Criteria\n<!-- AC:BEGIN -->\n- [x] #1 Tests run on every push\n- [ ] #2 Build artifacts are kept for 7 days\n"))

        let blocked = try #require(board.card("Product images load slowly"))
        #expect(blocked.fields.map(\.key) == ["assignee", "priority", "dependencies", "milestone"])
        #expect(blocked.field("assignee") == "@ana, @mei")
        #expect(blocked.field("dependencies") == "task-1, task-4")
        #expect(blocked.field("milestone") == "m-1")
        #expect(board.card("修复登录")?.created.map(ISO8601.string) == "2026-01-07T00:00:00Z")
        #expect(board.card("Cookie banner covers footer")?.body == "Plain body without sections.\n\n- [ ] a checklist item\n- [x] a done one\n")
    }

    @Test func unquotedAtNamesAreReadAsBacklogMdWritesThem() throws {
        let board = try fixture()
        #expect(board.card("Search ignores accents")?.field("assignee") == "@mei, jörg")
        #expect(board.card("Document the REST API")?.field("assignee") == "@ana")
        let text = "---\nid: task-3\ntitle: T\nstatus: To Do\nassignee:\n  - @ana\n  - \"@bo\"\nreporter: @cy\n---\n\nBody with @ana.\n"
        let card = try #require(try ImportedBoard(backlog: [ImportFile(path: "tasks/task-3 - T.md", shownPath: "t.md", bytes: Array(text.utf8))], folder: "b").cards.first)
        #expect(card.field("assignee") == "@ana, @bo")
        #expect(card.field("reporter") == "@cy")
        #expect(card.body == "Body with @ana.\n")
    }

    @Test func sameTitlesStayDistinctAndAPathIsJustATitle() throws {
        let board = try fixture()
        #expect(board.cards.filter { $0.title == "Fix typo in README" }.compactMap(\.sourceID) == ["backlog:task-6", "backlog:task-7"])
        #expect(board.card("../../etc/passwd")?.sourceID == "backlog:task-8")
        #expect(Set(board.cards.compactMap(\.sourceID)).count == board.cards.count)
    }

    @Test func theProjectFolderReadsAsItsBacklogFolder() throws {
        var project = try files(prefix: "backlog/")
        project.append(ImportFile(path: "README.md", shownPath: "webshop/README.md", bytes: Array("# Webshop\n".utf8)))
        project.append(ImportFile(path: "src/tasks/x.md", shownPath: "webshop/src/tasks/x.md", bytes: Array("---\ntitle: [\n".utf8)))
        #expect(try ImportedBoard(backlog: project, folder: "webshop") == fixture())
    }

    @Test func withoutAConfigColumnsAreTheStatusesFirstMet() throws {
        let board = try ImportedBoard(backlog: files().filter { $0.path != "config.yml" }, folder: "b")
        #expect(board.columns.map(\.name) == ["To Do", "Done", "In Progress", "Review", "Blocked"])
        #expect(board.cards.count == 21)
    }

    @Test func refusesWhatIsNoBacklogAndBadTaskFilesAtTheirPlace() {
        func task(_ text: String) -> [ImportFile] { [ImportFile(path: "tasks/task-1 - A.md", shownPath: "b/tasks/task-1 - A.md", bytes: Array(text.utf8))] }
        let cases: [([ImportFile], String)] = [
            ([], "b: error: the folder is not a Backlog.md project"),
            ([ImportFile(path: "notes/a.md", shownPath: "b/notes/a.md", bytes: [])], "b: error: the folder is not a Backlog.md project"),
            (task("---\nid: task-1\ntitle: A\n"), "b/tasks/task-1 - A.md:1:1: error: frontmatter"),
            (task("---\nid: task-1\ntitle: [A, B]\n---\n"), "b/tasks/task-1 - A.md:3:8: error: 'title' is a list, not text"),
            (task("---\nid: task-1\nlabels: {a: 1}\n---\n"), "b/tasks/task-1 - A.md:3:9: error: 'labels' is not a list of names"),
            (task("---\nid: task-1\nordinal: high\n---\n"), "b/tasks/task-1 - A.md:3:10: error: 'ordinal' is 'high', not a number"),
            (task("---\nid: task-1\nstatus: \"open\n---\n"), "b/tasks/task-1 - A.md:3:"),
            ([ImportFile(path: "tasks/x.md", shownPath: "b/tasks/x.md", bytes: Array("---\ntitle: Caf".utf8) + [0xE9, 0x0A])], "b/tasks/x.md:2:11: error: the file is not UTF-8 text"),
            ([ImportFile(path: "tasks/x.md", shownPath: "b/tasks/x.md", bytes: ImportCheck.oversized)], "b/tasks/x.md: error: the file is"),
            ([ImportFile(path: "config.yml", shownPath: "b/config.yml", bytes: Array("statuses: [To Do\n".utf8))], "b/config.yml:1:"),
            ([ImportFile(path: "config.yml", shownPath: "b/config.yml", bytes: Array("statuses: [[a]]\n".utf8))], "b/config.yml: error: 'statuses' is not a list of names"),
        ]
        for (files, message) in cases {
            let refusal = ImportCheck.refusal { () throws(KanbanError) in _ = try ImportedBoard(backlog: files, folder: "b") }
            #expect(refusal?.hasPrefix(message) == true, "\(refusal ?? "no error")")
        }
    }

    @Test func aTaskWithoutIDOrTitleIsNamedByItsFile() throws {
        let file = ImportFile(path: "tasks/task-7 - Fix the login - again.md", shownPath: "x", bytes: Array("---\nstatus: Doing\n---\nText\n".utf8))
        let board = try ImportedBoard(backlog: [file], folder: "b")
        #expect(board.cards.map(\.title) == ["Fix the login - again"])
        #expect(board.cards.map(\.sourceID) == ["backlog:task-7"])
        #expect(board.columns.map(\.name) == ["Doing"])
    }
}
