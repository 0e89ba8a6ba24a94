import Foundation
import KanbanTestSupport
import Testing
@testable import KanbanCore

/// A Trello export read into columns, labels and cards, and what is not one refused with the file's name.
@Suite struct ImportedBoardTrelloTests {
    let path = "exports/trello-board.json"

    func fixture() throws -> ImportedBoard {
        try ImportedBoard(trello: TestFixtures.importBytes("trello-board.json"), path: path)
    }

    @Test func openListsAreColumnsInPositionOrderAndLabelsHaveHexColours() throws {
        let board = try fixture()
        #expect(board.format == .trello)
        #expect(board.title == "Website Relaunch")
        #expect(board.columns.map(\.name) == ["Backlog", "To Do", "Doing", "Review", "Done"])
        #expect(board.labels == [
            ImportedLabel(name: "Bug", color: "#eb5a46"), ImportedLabel(name: "Feature", color: "#61bd4f"),
            ImportedLabel(name: "Design", color: "#c377e0"), ImportedLabel(name: "sky", color: "#00c2e0"),
            ImportedLabel(name: "Blocked", color: nil), ImportedLabel(name: "Docs", color: "#f2d600"),
        ])
        #expect(board.cards.count == 22)
        #expect(board.cards.allSatisfy { card in board.columns.contains { $0.name == card.column } })
    }

    @Test func cardsFollowTheirPositionNotTheFileOrder() throws {
        let board = try fixture()
        #expect(board.titles(in: "To Do") == ["Ship the pricing page 🚀", "Fix footer links", "Fix footer links", "../../etc/passwd", "Compress hero images"])
        #expect(board.titles(in: "Done", archived: false) == ["Choose a font pairing", "Set up staging site", "Register the domain", "Kick-off meeting ☕"])
        #expect(board.titles(in: "Backlog", archived: false) == ["Write the onboarding email series", "Überprüfen der Übersetzung", "修复登录", "Research analytics tools"])
        // The board lists cards column by column.
        let columns = board.cards.map { card in board.columns.firstIndex { $0.name == card.column } ?? -1 }
        #expect(columns == columns.sorted())
    }

    @Test func aCardCarriesItsLabelsFieldsDatesAndSourceID() throws {
        let card = try #require(try fixture().card("Ship the pricing page 🚀"))
        #expect(card.sourceID == "trello:695d77d05c1e7a000001eef0")
        #expect(card.column == "To Do")
        #expect(card.labels == ["Feature", "sky"])
        #expect(card.body == "Final copy is in the doc.\n\nNeeds sign-off from legal.")
        #expect(card.fields.map(\.key) == ["url", "due", "members"])
        #expect(card.field("url")?.hasPrefix("https://trello.com/c/") == true)
        #expect(card.field("due") == "2026-02-13T17:00:00.000Z")
        #expect(card.field("members") == "analima")
        #expect(card.created == Date(timeIntervalSince1970: 0x695d77d0))
        #expect(card.modified.map(ISO8601.string) == "2026-01-08T21:20:34.234Z")
        #expect(!card.isArchived)

        let audited = try #require(try fixture().card("Accessibility audit fixes"))
        #expect(audited.fields.map(\.key) == ["url", "due", "due-complete", "members"])
        #expect(audited.field("due-complete") == "true")
    }

    @Test func checklistsFollowTheDescriptionInTheirOrder() throws {
        let card = try #require(try fixture().card("Launch checklist"))
        #expect(card.body == """
            Everything before we flip DNS.

            ### Before DNS

            - [x] Backups taken
            - [x] TLS certificate issued
            - [ ] Redirects tested

            ### After launch

            - [ ] Announce on the blog

            """)
        #expect(card.field("members") == "analima, joergweiss")
    }

    @Test func closedCardsAndCardsOfClosedListsAreArchived() throws {
        let board = try fixture()
        #expect(board.cards.filter(\.isArchived).map(\.title).sorted()
            == ["Archived idea: dark mode everywhere", "Old press kit", "Podcast sponsorship", "Print brochure"])
        #expect(board.card("Old press kit")?.column == "Done")
        // A closed list is no column: its cards are archived from the first one.
        #expect(board.card("Print brochure")?.column == "Backlog")
    }

    @Test func sameTitlesStayDistinctAndAPathIsJustATitle() throws {
        let board = try fixture()
        let twins = board.cards.filter { $0.title == "Fix footer links" }
        #expect(twins.count == 2)
        #expect(Set(twins.compactMap(\.sourceID)).count == 2)
        #expect(board.card("../../etc/passwd")?.column == "To Do")
        #expect(Set(board.cards.compactMap(\.sourceID)).count == board.cards.count)
    }

    @Test(arguments: [
        ("[{\"number\": 1, \"title\": \"x\"}]", "t.json:1:1: error: the file is not a Trello board export: it is a list, not an object"),
        ("{\"name\": \"b\", \"cards\": []}", "t.json:1:1: error: the file is not a Trello board export: it has no 'lists'"),
        ("{\"items\": [], \"totalCount\": 0}", "t.json:1:1: error: the file is not a Trello board export: it has no 'lists'"),
        ("{\"lists\": [{\"id\": \"a\", \"name\": 5}]}", "t.json:1:32: error: list 1's 'name' is a number, not text"),
        ("{\"lists\": [], \"cards\": [{\"id\": \"c\", \"idList\": \"a\", \"name\": [\"x\"]}]}", "t.json:1:60: error: card 1's 'name' is a list, not text"),
        ("{\"lists\": [], \"cards\": {}}", "t.json:1:24: error: the board's 'cards' is an object, not a list"),
        ("{\"lists\": [], \"cards\": [{\"id\": \"c\", \"idList\": \"a\", \"name\": \"x\", \"closed\": \"no\"}]}", "t.json:1:75: error: card 1's 'closed' is text, not true or false"),
        ("{\"lists\": [{\"id\": \"a\", \"name\": \"A\"", "t.json:1:35: error: truncated JSON: the file ends inside an object (a '{' is never closed)"),
        ("{\"lists\": [{\"id\": \"a\", \"na", "t.json:1:27: error: truncated JSON: the file ends inside text (a string is never closed)"),
        ("{\"lists\": [],}", "t.json:1:14: error: expected a key in quotes, found '}'"),
        ("", "t.json:1:1: error: the file is empty, not JSON"),
    ]) func refusesWhatIsNotATrelloExportNamingThePlace(text: String, message: String) {
        let refusal = ImportCheck.refusal { () throws(KanbanError) in _ = try ImportedBoard(trello: Array(text.utf8), path: "t.json") }
        #expect(refusal?.hasPrefix(message) == true, "\(refusal ?? "no error")")
    }

    @Test func refusesGitHubOutputTruncationBadBytesAndHugeFiles() throws {
        let gh = ImportCheck.refusal { () throws(KanbanError) in _ = try ImportedBoard(trello: TestFixtures.importBytes("gh-issues.json"), path: "gh.json") }
        #expect(gh?.hasPrefix("gh.json:1:1: error: the file is not a Trello board export") == true, "\(gh ?? "no error")")

        let bytes = TestFixtures.importBytes("trello-board.json")
        try #require(bytes.count > 1000)
        let cut = ImportCheck.refusal { () throws(KanbanError) in _ = try ImportedBoard(trello: Array(bytes.prefix(bytes.count / 2)), path: path) }
        #expect(cut?.hasPrefix(path + ":") == true && cut?.contains("truncated JSON") == true, "\(cut ?? "no error")")

        let latin1 = ImportCheck.refusal { () throws(KanbanError) in _ = try ImportedBoard(trello: Array("{\"name\": \"Caf".utf8) + [0xE9, 0x22, 0x7D], path: path) }
        #expect(latin1 == path + ":1:14: error: the file is not UTF-8 text")

        let huge = ImportCheck.refusal { () throws(KanbanError) in _ = try ImportedBoard(trello: ImportCheck.oversized, path: path) }
        #expect(huge?.hasPrefix(path + ": error: the file is \(ImportText.largestFile + 1) bytes, over the 64 MB") == true, "\(huge ?? "no error")")

        let deep = ImportCheck.refusal { () throws(KanbanError) in _ = try ImportedBoard(trello: ImportCheck.deeplyNested(100_000), path: path) }
        #expect(deep?.hasPrefix(path + ":1:257: error: lists and objects nest more than 256 deep") == true, "\(deep ?? "no error")")
    }

    @Test func hugeNumbersOddIDsAndEscapesDoNotTrap() throws {
        let text = """
            {"name": "B\\u00e4r \\ud83d\\ude80", "lists": [{"id": "l", "name": "L", "pos": 1e400}, {"id": "m", "name": "M", "pos": -1e400}],
             "cards": [{"id": "zz", "idList": "l", "name": "a", "pos": 123456789012345678901234567890},
                       {"id": "ffffffffffffffffffffffff", "idList": "l", "name": "b", "pos": -0.5, "idLabels": ["nope"], "idMembers": ["x"]},
                       {"id": "c", "idList": "gone", "name": "c"}]}
            """
        let board = try ImportedBoard(trello: Array(text.utf8), path: "t.json")
        #expect(board.title == "Bär 🚀")
        #expect(board.columns.map(\.name) == ["M", "L"])
        #expect(board.cards.map(\.title) == ["c", "b", "a"])
        #expect(board.cards.map(\.created) == [nil, Date(timeIntervalSince1970: 0xffffffff), nil])
        #expect(board.cards[1].labels.isEmpty && board.cards[1].field("members") == "x")
        #expect(board.cards[0].isArchived && board.cards[0].column == "M")
    }
}
