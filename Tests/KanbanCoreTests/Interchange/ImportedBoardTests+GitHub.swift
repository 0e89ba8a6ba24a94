import Foundation
import KanbanTestSupport
import Testing
@testable import KanbanCore

/// `gh issue list --json` and `gh project item-list --format json` output read into a board, told apart by shape.
@Suite struct ImportedBoardGitHubTests {
    func issues() throws -> ImportedBoard {
        try ImportedBoard(github: TestFixtures.importBytes("gh-issues.json"), path: "gh-issues.json")
    }

    func project() throws -> ImportedBoard {
        try ImportedBoard(github: TestFixtures.importBytes("gh-project-items.json"), path: "gh-project-items.json")
    }

    @Test func openIssuesAreOpenAndClosedOnesArchived() throws {
        let board = try issues()
        #expect(board.format == .github)
        #expect(board.columns.map(\.name) == ["Open", "Closed"])
        #expect(board.cards.count == 22)
        #expect(board.cards.filter(\.isArchived).map(\.title)
            == ["Bump the Node version in CI", "Old design system tokens", "Wishlist button does nothing", "Migrate to the new payment API",
                "Flaky test: CartTests.testRemoveLast", "Set up error tracking"])
        #expect(board.cards.allSatisfy { $0.isArchived == ($0.column == "Closed") })
        // gh's order (newest first) is kept.
        #expect(board.titles(in: "Open").prefix(4) == ["Checkout fails when the cart has 100+ items", "修复登录", "Überprüfen der Übersetzung", "Add dark mode 🌙"])
    }

    @Test func labelsKeepTheirColoursWithAHash() throws {
        let board = try issues()
        #expect(board.labels == [
            ImportedLabel(name: "bug", color: "#d73a4a"), ImportedLabel(name: "i18n", color: "#fbca04"),
            ImportedLabel(name: "documentation", color: "#0075ca"), ImportedLabel(name: "enhancement", color: "#a2eeef"),
            ImportedLabel(name: "good first issue", color: "#7057ff"), ImportedLabel(name: "wontfix", color: "#ffffff"),
        ])
    }

    @Test func anIssueCarriesItsURLAssigneesMilestoneAndDates() throws {
        let card = try #require(try issues().card("Product images load slowly on 3G"))
        #expect(card.sourceID == "github:acme/webshop#34")
        #expect(card.labels == ["bug", "enhancement"])
        #expect(card.body == "Lighthouse says LCP is 6.1 s.")
        #expect(card.fields.map(\.key) == ["url", "assignees", "milestone"])
        #expect(card.field("url") == "https://github.com/acme/webshop/issues/34")
        #expect(card.field("assignees") == "octocat, jweiss")
        #expect(card.field("milestone") == "v1.0")
        #expect(card.created.map(ISO8601.string) == "2026-02-03T09:30:30Z")
        #expect(card.modified.map(ISO8601.string) == "2026-02-04T11:37:43Z")

        let pull = try #require(try issues().card("Bump the Node version in CI"))
        #expect(pull.sourceID == "github:acme/webshop#35")
        #expect(pull.isArchived && pull.column == "Closed")
        #expect(pull.fields.map(\.key) == ["url", "assignees"])
    }

    @Test func sameTitlesStayDistinctAndAPathIsJustATitle() throws {
        let board = try issues()
        #expect(board.cards.filter { $0.title == "Fix typo in README" }.compactMap(\.sourceID) == ["github:acme/webshop#38", "github:acme/webshop#37"])
        #expect(board.card("../../etc/passwd")?.sourceID == "github:acme/webshop#36")
        #expect(Set(board.cards.compactMap(\.sourceID)).count == board.cards.count)
    }

    @Test func onlyNumberAndTitleAreRequired() throws {
        let board = try ImportedBoard(github: Array(#"[{"number": 7, "title": "Bare"}, {"number": 8, "title": "Gone", "closedAt": "2026-01-02T00:00:00Z"}]"#.utf8), path: "x.json")
        #expect(board.cards.map(\.sourceID) == ["github:#7", "github:#8"])
        #expect(board.cards.map(\.isArchived) == [false, true])
        #expect(board.cards[0].fields.isEmpty && board.cards[0].body.isEmpty && board.labels.isEmpty)
    }

    @Test func projectStatusesAreColumnsWithDoneLast() throws {
        let board = try project()
        #expect(board.columns.map(\.name) == ["In Progress", "Todo", "No Status", "In Review", "Done"])
        #expect(board.cards.count == 22)
        #expect(board.cards.allSatisfy { !$0.isArchived })
        #expect(board.titles(in: "Done") == ["Überprüfen der Übersetzung", "Bump the Node version in CI", "Wishlist button does nothing",
                                             "Migrate to the new payment API", "Fix typo in README"])
        #expect(board.titles(in: "No Status") == ["../../etc/passwd", "Write the press release ✍️", "Email receipts in the customer's language"])
        #expect(board.labels.map(\.name) == ["bug", "i18n", "documentation", "enhancement", "good first issue"])
        #expect(board.labels.allSatisfy { $0.color == nil })
    }

    @Test func projectItemsCarryTheirCustomFields() throws {
        let board = try project()
        let card = try #require(board.card("Checkout fails when the cart has 100+ items"))
        #expect(card.sourceID == "github:acme/webshop#42")
        #expect(card.column == "In Progress")
        #expect(card.body == "Steps:\n1. Add 101 items\n2. Click **Checkout**")
        #expect(card.fields.map(\.key) == ["url", "assignees", "milestone", "estimate", "priority", "sprint"])
        #expect(card.field("milestone") == "v1.0")
        #expect(card.field("estimate") == "5")
        #expect(card.field("sprint") == "Sprint 3")
        #expect(board.card("Add order history page")?.field("target-date") == "2026-03-01")
        #expect(board.card("Bump the Node version in CI")?.field("linked-pull-requests") == "https://github.com/acme/webshop/pull/35")
        #expect(board.card("Shared design tokens")?.sourceID == "github:acme/design-system#12")
    }

    @Test func aCustomFieldWithSignsInItsNameBecomesAKeyACardCanHold() throws {
        // A project field named "Size (est.)" once became the key `size-(est.)`, which no card can hold: the import failed.
        let text = #"{"items": [{"id": "PVTI_1", "title": "A", "status": "Todo", "size (est.)": 3, "Due: Q3?": "late"}], "totalCount": 1}"#
        let board = try ImportedBoard(github: Array(text.utf8), path: "p.json")
        #expect(board.cards.first?.fields.map(\.key) == ["size-est", "due-q3"])
        #expect(board.cards.first?.fields.allSatisfy { BoardStore.isFieldKey($0.key) } == true)
    }

    @Test func draftsAreNamedByTheirItemAndTwinsStayDistinct() throws {
        let board = try project()
        let draft = try #require(board.card("Decide on the launch date"))
        #expect(draft.sourceID?.hasPrefix("github:project-item:PVTI_") == true)
        #expect(draft.body == "Marketing needs two weeks' notice.")
        #expect(draft.fields.map(\.key) == ["priority"])
        let twins = board.cards.filter { $0.title == "Fix typo in README" }
        #expect(twins.count == 3)
        #expect(Set(twins.compactMap(\.sourceID)).count == 3)
        #expect(Set(board.cards.compactMap(\.sourceID)).count == board.cards.count)
    }

    @Test(arguments: [
        (#"{"name": "Board", "lists": []}"#, "t.json:1:1: error: the file is neither `gh issue list --json` output"),
        (#""text""#, "t.json:1:1: error: the file is neither `gh issue list --json` output"),
        (#"[{"title": "No number"}]"#, "t.json:1:2: error: issue 1 has no 'number'"),
        (#"[{"number": 1, "title": 2}]"#, "t.json:1:25: error: issue 1's 'title' is a number, not text"),
        (#"[{"number": "1", "title": "x"}]"#, "t.json:1:13: error: issue 1's 'number' is text, not a whole number"),
        (#"[{"number": 1.5, "title": "x"}]"#, "t.json:1:13: error: issue 1's 'number' is a number, not a whole number"),
        (#"[{"number": 1, "title": "x", "labels": "bug"}]"#, "t.json:1:40: error: issue 1's 'labels' is text, not a list"),
        (#"[{"number": 1, "title": "x", "labels": [{"color": "fff"}]}]"#, "t.json:1:41: error: label 1 of issue 1 has no 'name'"),
        (#"[7]"#, "t.json:1:2: error: issue 1 is a number, not an object"),
        (#"{"items": [{"id": "PVTI_1", "status": 3, "title": "x"}], "totalCount": 1}"#, "t.json:1:39: error: item 1's 'status' is a number, not text"),
        (#"{"items": [{"id": "PVTI_1", "content": {"type": "DraftIssue"}}]}"#, "t.json:1:12: error: item 1 has no 'title'"),
        (#"{"items": [{"id": "PVTI_1", "title": "x", "labels": [["nested"]]}]}"#, "t.json:1:54: error: an item of item 1's 'labels' is a list, not text"),
        (#"[{"number": 1, "title": "x"}"#, "t.json:1:29: error: truncated JSON: the file ends inside a list"),
    ]) func refusesWhatIsNotGhOutputNamingThePlace(text: String, message: String) {
        let refusal = ImportCheck.refusal { () throws(KanbanError) in _ = try ImportedBoard(github: Array(text.utf8), path: "t.json") }
        #expect(refusal?.hasPrefix(message) == true, "\(refusal ?? "no error")")
    }

    @Test func refusesATrelloExportTruncationBadBytesAndHugeFiles() throws {
        let trello = ImportCheck.refusal { () throws(KanbanError) in _ = try ImportedBoard(github: TestFixtures.importBytes("trello-board.json"), path: "b.json") }
        #expect(trello?.hasPrefix("b.json:1:1: error: the file is neither `gh issue list --json` output") == true, "\(trello ?? "no error")")

        for name in ["gh-issues.json", "gh-project-items.json"] {
            let bytes = TestFixtures.importBytes(name)
            try #require(bytes.count > 1000)
            let cut = ImportCheck.refusal { () throws(KanbanError) in _ = try ImportedBoard(github: Array(bytes.prefix(bytes.count - 20)), path: name) }
            #expect(cut?.hasPrefix(name + ":") == true && cut?.contains("truncated JSON") == true, "\(cut ?? "no error")")
        }
        let bad = ImportCheck.refusal { () throws(KanbanError) in _ = try ImportedBoard(github: Array("[\n{\"title\": \"".utf8) + [0xC3, 0x28], path: "i.json") }
        #expect(bad == "i.json:2:12: error: the file is not UTF-8 text")
        let huge = ImportCheck.refusal { () throws(KanbanError) in _ = try ImportedBoard(github: ImportCheck.oversized, path: "i.json") }
        #expect(huge?.hasPrefix("i.json: error: the file is") == true && huge?.contains("64 MB") == true, "\(huge ?? "no error")")
        let deep = ImportCheck.refusal { () throws(KanbanError) in _ = try ImportedBoard(github: ImportCheck.deeplyNested(5000), path: "i.json") }
        #expect(deep?.contains("nest more than") == true, "\(deep ?? "no error")")
    }

    @Test func hugeNumbersAndOddURLsDoNotTrap() throws {
        let text = #"""
            [{"number": 123456789012345678901234567890, "title": "Big", "url": "https://github.com/a/b/issues/123456789012345678901234567890"},
             {"number": -1, "title": "Odd", "url": "file:///etc/passwd", "labels": [{"name": "x", "color": "not-a-colour"}, "plain"]}]
            """#
        let board = try ImportedBoard(github: Array(text.utf8), path: "t.json")
        #expect(board.cards.map(\.sourceID) == ["github:a/b#123456789012345678901234567890", "github:#-1"])
        #expect(board.labels == [ImportedLabel(name: "x"), ImportedLabel(name: "plain")])
    }
}
