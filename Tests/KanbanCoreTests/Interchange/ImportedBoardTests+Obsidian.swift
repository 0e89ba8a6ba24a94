import Foundation
import KanbanTestSupport
import Testing
@testable import KanbanCore

/// An Obsidian Kanban plugin board read into a board, and a board written as one and read back unchanged.
@Suite struct ImportedBoardObsidianTests {
    let path = "vault/Boards/Launch.md"

    func fixture() throws -> ImportedBoard {
        try ImportedBoard(obsidian: TestFixtures.importBytes("obsidian-board.md"), path: path)
    }

    @Test func headingsAreColumnsAndItemsCardsInFileOrder() throws {
        let board = try fixture()
        #expect(board.format == .obsidian)
        #expect(board.title == "Launch")
        #expect(board.columns.map(\.name) == ["Ideas", "To Do", "Doing", "Done"])
        #expect(board.cards.count == 21)
        #expect(board.titles(in: "Ideas") == ["Newsletter for the launch", "Überprüfen der Übersetzung", "修复登录", "Podcast episode about [[Project Atlas]]", "../../etc/passwd"])
        #expect(board.titles(in: "To Do") == ["Write release notes", "Fix footer links", "Fix footer links", "Plan the offsite 🏕️", "Issue #42 needs a repro"])
        #expect(board.titles(in: "Done", archived: false) == ["Choose a font pairing", "Set up staging site", "Register the domain", "Kick-off meeting ☕", "Fix footer links"])
        #expect(board.labels.map(\.name) == ["marketing", "i18n", "docs", "bug", "mobile", "web", "design"])
        #expect(board.labels.allSatisfy { $0.color == nil })
    }

    @Test func tagsBecomeLabelsDatesADueFieldAndIndentedLinesTheBody() throws {
        let board = try fixture()
        let notes = try #require(board.card("Write release notes"))
        #expect(notes.labels == ["docs"])
        #expect(notes.field("due") == "2026-02-20")
        #expect(notes.body == "Collect the changes since v0.9.\nAsk [[Mira]] for the screenshots.")
        #expect(notes.sourceID == "obsidian:Write release notes")

        let checklist = try #require(board.card("Launch checklist"))
        #expect(checklist.labels == ["marketing"])
        #expect(checklist.body == "- [x] Backups taken\n- [ ] Redirects tested\n\nOwner: [[Ana]]")
        #expect(board.card("Plan the offsite 🏕️")?.field("due") == "2026-03-05 09:30")
        #expect(board.card("修复登录")?.labels == ["bug"])
        #expect(board.card("Überprüfen der Übersetzung")?.labels == ["i18n", "docs"])
        #expect(board.card("Issue #42 needs a repro")?.labels == [])
        #expect(board.card("Register the domain")?.fields == [])
    }

    @Test func theArchiveSectionIsArchivedInTheLastColumn() throws {
        let board = try fixture()
        #expect(board.cards.filter(\.isArchived).map(\.title) == ["Print brochure", "Old press kit", "Podcast sponsorship"])
        #expect(board.cards.filter(\.isArchived).allSatisfy { $0.column == "Done" })
        #expect(board.card("Podcast sponsorship")?.field("due") == "2026-01-12")
    }

    @Test func repeatedTitlesGetNumberedSourceIDs() throws {
        let board = try fixture()
        #expect(board.cards.filter { $0.title == "Fix footer links" }.compactMap(\.sourceID)
            == ["obsidian:Fix footer links", "obsidian:Fix footer links (2)", "obsidian:Fix footer links (3)"])
        #expect(board.cards.filter { $0.title == "Fix footer links" }.map(\.column) == ["To Do", "To Do", "Done"])
        #expect(Set(board.cards.compactMap(\.sourceID)).count == board.cards.count)
        #expect(board.card("../../etc/passwd")?.sourceID == "obsidian:../../etc/passwd")
    }

    @Test func refusesAFileThatIsNoKanbanBoard() {
        let cases: [([UInt8], String)] = [
            (Array("# Notes\n\n- [ ] a task\n".utf8), "n.md:1:1: error: the file is not an Obsidian Kanban board: its frontmatter has no 'kanban-plugin'"),
            (Array("---\ntags: [x]\n---\n\n## A\n- [ ] b\n".utf8), "n.md:1:1: error: the file is not an Obsidian Kanban board"),
            (Array("---\nkanban-plugin: basic\n".utf8), "n.md:1:1: error: frontmatter"),
            (Array("---\nkanban-plugin: [basic\n---\n".utf8), "n.md:2:"),
            (Array("---\nkanban-plugin: basic\n---\n## Caf".utf8) + [0xE9], "n.md:4:7: error: the file is not UTF-8 text"),
            (ImportCheck.oversized, "n.md: error: the file is \(ImportText.largestFile + 1) bytes"),
            (TestFixtures.importBytes("trello-board.json"), "n.md:1:1: error: the file is not an Obsidian Kanban board"),
        ]
        for (bytes, message) in cases {
            let refusal = ImportCheck.refusal { () throws(KanbanError) in _ = try ImportedBoard(obsidian: bytes, path: "n.md") }
            #expect(refusal?.hasPrefix(message) == true, "\(refusal ?? "no error")")
        }
    }

    @Test func oddItemsDoNotTrap() throws {
        let text = "---\nkanban-plugin: board\n---\n- [ ] before any heading\n## \n- [ ] #only-a-tag\n- [ ] @{unclosed\n- [ ] a ^\n- [ ] \\\n- [ ]\n-[ ] not an item\n## Doing (x)\n## B (12)\n***\n## Archive\n- [ ] gone\n%% kanban:settings\n- [ ] ignored\n"
        let board = try ImportedBoard(obsidian: Array(text.utf8), path: "odd.md")
        #expect(board.columns.map(\.name) == ["Untitled", "Doing (x)", "B"])
        #expect(board.cards.map(\.title) == ["before any heading", "#only-a-tag", "@{unclosed", "a ^", "\\", "", "gone"])
        #expect(board.cards[1].labels == ["only-a-tag"])
        #expect(board.cards.last?.isArchived == true && board.cards.last?.column == "B")
    }

    @Test(.timeLimit(.minutes(1))) func aLineOfManyOpenDatesAndTagsStaysLinear() throws {
        let line = String(repeating: "@{ #t ", count: 200_000)
        let board = try ImportedBoard(obsidian: Array("---\nkanban-plugin: basic\n---\n## A\n- [ ] \(line)x\n".utf8), path: "big.md")
        #expect(board.cards.first?.labels == ["t"])
        #expect(board.cards.first?.title.hasSuffix("@{ x") == true)
    }

    func card(_ title: String, _ column: String, _ position: String, labels: [String] = [], body: String? = nil, archived: Bool = false) -> Card {
        Card(slug: title, title: title, column: column, columnField: column, position: position, created: nil, modified: nil, labels: labels,
             fields: [], path: "cards/\(column)/x.md", isArchived: archived, archivedOn: nil, hasFrontmatter: true, body: body)
    }

    @Test func whatItWritesItReadsBack() throws {
        let board = Board(title: "Launch", columns: [Column(id: "todo", name: "To Do"), Column(id: "doing", name: "Doing", wipLimit: 3),
                                                    Column(id: "done", name: "Done")],
                          labels: [Label(id: "bug", name: "Bug"), Label(id: "v1.0", name: "v1.0"), Label(id: "größe", name: "Größe")])
        let cards = [
            card("Later", "todo", "t"),
            card("C# tips and #hashtags", "todo", "g", labels: ["bug"]),
            card("Issue #42 at @{noon} ^ref and \\# and \\\\", "todo", "m", body: "Line one\n\n    indented code\n- [ ] a step\n## Heading\n***"),
            card("Überprüfen 修复 🚀", "doing", "n", labels: ["v1.0", "größe"], body: "\n\nTrimmed\n\n"),
            card("Same", "doing", "p"),
            card("Same", "done", "n", body: nil),
            card("Old", "done", "n", labels: ["bug"], archived: true),
        ]
        let text = ImportedBoard.obsidianMarkdown(board: board, cards: cards)
        #expect(text.hasPrefix("---\n\nkanban-plugin: basic\n\n---\n\n## To Do\n\n- [ ] C# tips and \\#hashtags #bug\n"))
        #expect(text.contains("## Doing (3)\n\n"))
        #expect(text.contains("## Done\n\n**Complete**\n- [x] Same\n"))
        #expect(text.contains("***\n\n## Archive\n\n- [x] Old #bug\n"))
        #expect(text.hasSuffix("%% kanban:settings\n```\n{\"kanban-plugin\":\"basic\"}\n```\n%%\n"))

        let read = try ImportedBoard(obsidian: Array(text.utf8), path: "Launch.md")
        #expect(read.columns.map(\.name) == ["To Do", "Doing", "Done"])
        #expect(read.cards.map(\.title) == ["C# tips and #hashtags", "Issue #42 at @{noon} ^ref and \\# and \\\\", "Later", "Überprüfen 修复 🚀", "Same", "Same", "Old"])
        #expect(read.cards.map(\.column) == ["To Do", "To Do", "To Do", "Doing", "Doing", "Done", "Done"])
        #expect(read.cards.map(\.labels) == [["bug"], [], [], ["v1.0", "größe"], [], [], ["bug"]])
        #expect(read.cards.map(\.isArchived) == [false, false, false, false, false, false, true])
        #expect(read.cards[1].body == "Line one\n\n    indented code\n- [ ] a step\n## Heading\n***")
        #expect(read.cards[3].body == "Trimmed")
        #expect(read.cards.allSatisfy { $0.fields.isEmpty })
    }
}
