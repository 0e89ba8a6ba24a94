import Foundation
import Testing
@testable import KanbanCore

/// The rules for text given to the board, and the store refusing what breaks them before it writes anything.
@Suite struct BoardTextTests {
    static let controls: [String] = ["\u{0}", "\u{7}", "\u{1B}", "\u{1B}[2J", "\u{7F}", "\u{85}", "\u{9B}", "\u{8}", "\u{1}"]

    @Test(arguments: controls)
    func aLineWithAControlCharacterIsRefused(_ control: String) {
        let problem = BoardText.lineProblem("fix \(control) the login", as: "a card title")
        #expect(problem?.hasPrefix("a card title cannot hold control character U+") == true, "\(String(describing: problem))")
    }

    @Test func plainTitlesAndOtherScriptsAreAccepted() {
        for title in ["Fix the login", "Café — naïve", "修复登录", "emoji 🚀 ok", "  padded  "] {
            #expect(BoardText.lineProblem(title, as: "a card title") == nil, "\(title)")
        }
        #expect(BoardText.lineProblem("   ", as: "a card title") == "a card title cannot be empty")
        #expect(BoardText.lineProblem("two\nlines", as: "a card title") == "a card title must be one line")
        #expect(BoardText.lineProblem("two\u{2028}lines", as: "a card title") == "a card title must be one line")
    }

    @Test func aFieldValueMaySpanLinesButHoldsNoOtherControl() {
        #expect(BoardText.fieldValueProblem("one\ntwo\tthree", key: "notes") == nil)
        #expect(BoardText.fieldValueProblem("bell\u{7}", key: "notes") == "the value of field 'notes' cannot hold control character U+0007 (BEL)")
    }

    @Test(arguments: ["../x", "a/b", ".hidden", "-dash", "a b", "a:b", "tab\there", "nul\u{0}", "esc\u{1B}", String(repeating: "x", count: 65), ""])
    func aLabelIdThatIsAPathOrHoldsAControlIsRefused(_ id: String) {
        #expect(Label.idProblem(id) != nil, "\(id)")
    }

    @Test(arguments: ["bug", "needs-review", "v2.0", "c++", "ui_polish", "2024", "übung", "バグ"])
    func labelIdsOfLettersDigitsAndPunctuationAreAccepted(_ id: String) {
        #expect(Label.idProblem(id) == nil, "\(id)")
    }

    @Test func theStoreRefusesControlCharactersEverywhereTextIsGivenAndWritesNothing() throws {
        try withTemporaryBoard(.team) { board in
            let store = try board.store()
            let card = try #require(try store.createCard(title: "A card", in: "todo").card)
            let before = try board.snapshot()
            expectKanbanError(.invalidArgument) { try store.createCard(title: "evil \u{1B}]0;pwned\u{7}", in: "todo") }
            expectKanbanError(.invalidArgument) { try store.createCard(title: "nul \u{0} tail", in: "todo") }
            var update = CardUpdate()
            update.title = "bell \u{7}"
            expectKanbanError(.invalidArgument) { try store.updateCard(card.slug, update) }
            update = CardUpdate()
            update.fields = [YAMLMapEntry(key: "owner", value: .string("a\u{1B}[31mb"))]
            expectKanbanError(.invalidArgument) { try store.updateCard(card.slug, update) }
            expectKanbanError(.invalidArgument) { try store.addColumn(id: "later", name: "Later \u{1B}[2J") }
            expectKanbanError(.invalidArgument) { try store.renameColumn("todo", to: "To \u{0} do") }
            expectKanbanError(.invalidArgument) { try store.addLabel(id: "../x") }
            expectKanbanError(.invalidArgument) { try store.addLabel(id: "ok", name: "bad \u{7}") }
            #expect(TemporaryBoard.changedPaths(from: before, to: try board.snapshot()).isEmpty)
        }
    }

    @Test func indexesOutsideTheListAreRefusedBeforeAnyArithmetic() throws {
        try withTemporaryBoard(.team) { board in
            let store = try board.store()
            _ = try store.addLabel(id: "one")
            let before = try board.snapshot()
            for index in [Int.max, Int.min, -1, 3, 1_000] {
                expectKanbanError(.invalidArgument) { try store.moveColumn("todo", to: index) }
                expectKanbanError(.invalidArgument) { try store.moveLabel("one", to: index) }
            }
            #expect(TemporaryBoard.changedPaths(from: before, to: try board.snapshot()).isEmpty)
            _ = try store.moveColumn("todo", to: 2)
            #expect(try store.loadBoard().columns.last?.id == "todo")
        }
    }

    @Test func restoreTakesOnlyACardFileNameAndCardText() throws {
        try withTemporaryBoard(.team) { board in
            let store = try board.store()
            let card = Array("---\ntitle: Back\ncolumn: todo\n---\nBody\n".utf8)
            let before = try board.snapshot()
            for slug in ["nul\u{0}tail", ".side-effect", "", "a/b", "..", "esc\u{1B}x", "back\\slash"] {
                expectKanbanError(.invalidArgument) { try store.restoreCard(card, slug: slug, in: "todo") }
            }
            expectKanbanError(.invalidArgument) { try store.restoreCard(card, slug: "ok", in: "../todo") }
            expectKanbanError(.invalidCard) { try store.restoreCard(Array("---\ntitle: never closed\n".utf8), slug: "ok", in: "todo") }
            #expect(TemporaryBoard.changedPaths(from: before, to: try board.snapshot()).isEmpty)
            let restored = try store.restoreCard(card, slug: "back", in: "todo")
            #expect(restored.card?.title == "Back")
            #expect(try board.bytes("cards/todo/back.md") == card)
        }
    }

    @Test(arguments: [
        ("## Description\n\nThe `thumbnails.db` file **grows** without [bound](https://x.example).", "The thumbnails.db file grows without bound."),
        ("- [ ] Ship *it* now", "Ship it now"),
        ("> quoted _words_ here", "quoted words here"),
        ("1. first step", "first step"),
        ("![screenshot](a.png) of the page", "screenshot of the page"),
        ("| Size | Time |\n|---|---|\n| 3 | 4 |", "Size · Time"),
        ("---\n\n<!-- note -->\n```\ncode\n```", "code"),
        ("snake_case_name and 2*3*4 stay", "snake_case_name and 2*3*4 stay"),
        ("Escaped \\*stars\\*", "Escaped *stars*"),
        ("", ""),
    ])
    func anExcerptIsTheFirstLineOfTextAsPlainText(_ body: String, _ excerpt: String) {
        #expect(BoardText.excerpt(of: body) == excerpt)
    }

    @Test func anExcerptOfAHugeLineOfBracketsIsMadeFromItsStartOnly() {
        // Without the cap the link rules backtrack over the whole line from every bracket: minutes, not a moment.
        let excerpt = BoardText.excerpt(of: String(repeating: "[", count: 100_000) + "](x)")
        #expect(excerpt.count == 200)
    }

    @Test func privateUseCharactersInABodyStayAsTheyAre() throws {
        #expect(BoardText.excerpt(of: "icon \u{E000} and \u{E01B} glyphs, \\*kept\\*") == "icon \u{E000} and \u{E01B} glyphs, *kept*")
        let noncharacter = String(Character(try #require(Unicode.Scalar(0xFDD0))))
        #expect(BoardText.excerpt(of: "noncharacter \(noncharacter) keeps \\*") == "noncharacter \(noncharacter) keeps \\*")
    }
}
