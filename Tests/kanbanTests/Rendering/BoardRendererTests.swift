import Foundation
import KanbanWatch
import Testing

@testable import KanbanCore
@testable import KanbanServer
@testable import kanban

@Suite struct BoardRendererTests {
    // MARK: Snapshots, colour off

    @Test func fortyColumnsSplitIntoBands() {
        #expect(render(width: 40) == [
            "Synthetic board",
            "",
            "Ideas  │ To Do (2)",
            "───────┼───────────────────",
            "(2)    │ Fix login",
            "       │ [bug]",
            "       │ fix-login",
            "       │",
            "       │ Rewrite the sync",
            "       │ engine so that it",
            "       │ survives flaky ne…",
            "       │ [feature] [bug]",
            "       │ rewrite-sync",
            "",
            "In Progress (1)    │ Done (0)",
            "───────────────────┼───────────────────",
            "修复登录页面的错误 │",
            "提示信息           │",
            "[feature]          │",
            "cjk                │",
            "",
            "later (undecl… (1)",
            "──────────────────",
            "Someday",
            "someday",
        ])
    }

    @Test func eightyColumnsSplitIntoTwoBands() {
        #expect(render(width: 80) == [
            "Synthetic board",
            "",
            "Ideas  │ To Do (2)                          │ In Progress (1)",
            "───────┼────────────────────────────────────┼───────────────────────────────────",
            "(2)    │ Fix login                          │ 修复登录页面的错误提示信息",
            "       │ [bug]                              │ [feature]",
            "       │ fix-login                          │ cjk",
            "       │                                    │",
            "       │ Rewrite the sync engine so that it │",
            "       │ survives flaky networks, sleeping  │",
            "       │ laptops and clock skew between de… │",
            "       │ [feature] [bug]                    │",
            "       │ rewrite-sync                       │",
            "",
            "Done (0)                           │ later (undeclared) (1)",
            "───────────────────────────────────┼───────────────────────────────────",
            "                                   │ Someday",
            "                                   │ someday",
        ])
    }

    @Test func oneHundredTwentyColumnsFitSideBySide() {
        #expect(render(width: 120) == [
            "Synthetic board",
            "",
            "Ideas  │ To Do (2)                 │ In Progress (1)           │ Done (0)                  │ later (undeclared) (1)",
            "───────┼───────────────────────────┼───────────────────────────┼───────────────────────────┼──────────────────────────",
            "(2)    │ Fix login                 │ 修复登录页面的错误提示信  │                           │ Someday",
            "       │ [bug]                     │ 息                        │                           │ someday",
            "       │ fix-login                 │ [feature]                 │                           │",
            "       │                           │ cjk                       │                           │",
            "       │ Rewrite the sync engine   │                           │                           │",
            "       │ so that it survives flaky │                           │                           │",
            "       │ networks, sleeping lapto… │                           │                           │",
            "       │ [feature] [bug]           │                           │                           │",
            "       │ rewrite-sync              │                           │                           │",
        ])
    }

    @Test func twoHundredColumnsShareTheWidth() {
        let lines = render(width: 200)
        let rule = "───────┼" + Array(repeating: String(repeating: "─", count: 47), count: 3).joined(separator: "┼")
            + "┼" + String(repeating: "─", count: 46)
        #expect(lines == [
            "Synthetic board",
            "",
            "Ideas  │ " + [
                "To Do (2)", "In Progress (1)", "Done (0)",
            ].map { $0.padded(toWidth: 45) }.joined(separator: " │ ") + " │ later (undeclared) (1)",
            rule,
            row("(2)", "Fix login", "修复登录页面的错误提示信息", "", "Someday"),
            row("", "[bug]", "[feature]", "", "someday"),
            row("", "fix-login", "cjk", "", ""),
            row("", "", "", "", ""),
            row("", "Rewrite the sync engine so that it survives", "", "", ""),
            row("", "flaky networks, sleeping laptops and clock", "", "", ""),
            row("", "skew between devices", "", "", ""),
            row("", "[feature] [bug]", "", "", ""),
            row("", "rewrite-sync", "", "", ""),
        ])
        #expect(lines.allSatisfy { $0.terminalWidth <= 200 })
    }

    @Test func columnsStopAtTheMaximumWidth() {
        let lines = BoardRenderer(width: 200, stylist: .plain).lines(board: Self.board, columns: Array(Self.columns[1...2]))
        #expect(lines[2] == "To Do (2)".padded(toWidth: BoardRenderer.maximumColumnWidth) + " │ In Progress (1)")
        #expect(lines[3] == String(repeating: "─", count: 48) + "─┼─" + String(repeating: "─", count: 48))
    }

    /// A line of the 200-column snapshot: the collapsed column, three columns of 45, the last one unpadded.
    private func row(_ cells: String...) -> String {
        let padded = [cells[0].padded(toWidth: 6)] + cells[1...3].map { $0.padded(toWidth: 45) } + [cells[4]]
        var line = padded.joined(separator: " │ ")
        while line.last == " " { line.removeLast() }
        return line
    }

    // MARK: Properties at every width

    @Test(arguments: [false, true])
    func noLineIsWiderThanTheWidth(colour: Bool) {
        for width in 1...220 {
            let lines = render(width: width, colour: colour)
            for line in lines {
                #expect(line.terminalWidth <= width, "width \(width): \(line)")
                #expect(!line.hasSuffix(" "), "width \(width): trailing spaces in \(line)")
            }
        }
    }

    @Test(arguments: [40, 80, 120, 200])
    func separatorsLineUpInEveryBand(width: Int) {
        for band in bands(of: render(width: width)) {
            let positions = band.map(separatorColumns)
            #expect(Set(positions).count == 1, "width \(width): \(band.joined(separator: "\n"))")
        }
    }

    @Test(arguments: [40, 80, 120, 200])
    func theCollapsedColumnIsNarrow(width: Int) throws {
        let lines = render(width: width)
        let header = try #require(lines.dropFirst(2).first)
        #expect(header.hasPrefix("Ideas  │ "))
        #expect(lines[4].hasPrefix("(2)    │ "))
        #expect(!lines.contains { $0.contains("Dark mode") || $0.contains("dark-mode") })
    }

    @Test func aCollapsedColumnWithALongNameIsCutToTheMaximum() {
        let column = BoardRenderer.ColumnContent(id: "later", name: "Ideas for next year", isCollapsed: true, cards: [])
        let lines = BoardRenderer(width: 80, stylist: .plain).lines(board: Self.board, columns: [column, Self.columns[1]])
        #expect(lines[2] == "Ideas for… │ To Do (2)")
        #expect(lines[4] == "(0)        │ Fix login")
    }

    @Test func titlesStopAtThreeLinesWithAnEllipsis() {
        let lines = render(width: 40)
        #expect(lines.contains("       │ survives flaky ne…"))
        #expect(!lines.contains { $0.contains("networks") })
    }

    @Test func controlCharactersInFilesCannotReachTheTerminal() {
        let card = Self.card("evil", "Clear\u{1B}[2J the\tscreen\u{7}", in: "todo", labels: ["x\u{1B}]0;pwned\u{7}"])
        let column = BoardRenderer.ColumnContent(id: "todo", name: "To\u{1B}[31m Do", cards: [card])
        for colour in [false, true] {
            let stylist = Stylist(isEnabled: colour)
            let lines = BoardRenderer(width: 60, stylist: stylist).lines(board: Self.board, columns: [column])
            let text = lines.joined(separator: "\n")
            #expect(!text.contains("\u{1B}[2J"))
            #expect(!text.contains("\u{1B}[31m"))
            #expect(!text.contains("\u{1B}]0;"))
            #expect(!text.contains("\u{7}"))
            if !colour { #expect(!containsEscape(text)) }
        }
        let plain = BoardRenderer(width: 60, stylist: .plain).lines(board: Self.board, columns: [column])
        #expect(plain[2] == "To�[31m Do (1)")
        #expect(plain[4] == "Clear�[2J the screen�")
        #expect(plain[5] == "[x�]0;pwned�]")
    }

    @Test func labelsThatDoNotFitOnTwoLinesAreCounted() {
        let labels = ["feature", "bug", "design", "docs", "infra", "marketing", "urgent"]
        let column = BoardRenderer.ColumnContent(id: "todo", name: "To Do", cards: [
            Self.card("busy", "Busy", in: "todo", labels: labels),
        ])
        let lines = BoardRenderer(width: 20, stylist: .plain).lines(board: Self.board, columns: [column])
        #expect(lines == ["Synthetic board", "", "To Do (1)", String(repeating: "─", count: 20), "Busy",
                          "[feature] [bug]", "[design] [docs] +3", "busy"])
    }

    @Test func anEmptyBoardIsItsTitle() {
        #expect(BoardRenderer(width: 80, stylist: .plain).lines(board: Self.board, columns: []) == ["Synthetic board", ""])
    }

    @Test func anEmptyTitleIsShownAsUntitled() {
        let column = BoardRenderer.ColumnContent(id: "todo", name: "To Do", cards: [Self.card("blank", "  ", in: "todo")])
        let lines = BoardRenderer(width: 30, stylist: .plain).lines(board: Self.board, columns: [column])
        #expect(lines.suffix(2) == ["(untitled)", "blank"])
    }

    // MARK: Colour

    @Test(arguments: [40, 80, 120, 200])
    func colourStylesWithoutWideningLines(width: Int) {
        let lines = render(width: width, colour: true)
        let text = lines.joined(separator: "\n")
        #expect(containsEscape(text))
        #expect(text.contains("\u{1B}[1mSynthetic board\u{1B}[0m"))
        #expect(text.contains("48;2;231;76;60m bug \u{1B}[0m"), "the bug label on its colour")
        #expect(text.contains("48;2;52;152;219m feature \u{1B}[0m"), "the feature label on its colour")
        #expect(text.contains("\u{1B}[2mfix-login\u{1B}[0m"), "the slug dimmed")
        #expect(!text.contains("[bug]"))
        let plain = render(width: width)
        #expect(lines.count == plain.count)
        for (styled, unstyled) in zip(lines, plain) {
            #expect(styled.terminalWidth <= width)
            #expect(styled.terminalWidth == unstyled.terminalWidth, "\(styled)")
        }
    }

    @Test func anUndeclaredLabelIsShownInInverseVideo() {
        let column = BoardRenderer.ColumnContent(id: "todo", name: "To Do", cards: [
            Self.card("odd", "Odd", in: "todo", labels: ["mystery"]),
        ])
        let lines = BoardRenderer(width: 40, stylist: Stylist(isEnabled: true)).lines(board: Self.board, columns: [column])
        #expect(lines.contains("\u{1B}[7m mystery \u{1B}[0m"))
    }

    // MARK: Summary

    @Test func theSummaryCountsCardsAndTheArchive() {
        let renderer = BoardRenderer(width: 80, stylist: .plain)
        #expect(renderer.summary(cardCount: 25, archivedCount: 4) == "25 cards · 4 archived")
        #expect(renderer.summary(cardCount: 1, archivedCount: nil) == "1 card")
        #expect(renderer.summary(cardCount: 0, archivedCount: 0) == "0 cards · 0 archived")
        #expect(BoardRenderer(width: 80, stylist: Stylist(isEnabled: true)).summary(cardCount: 2, archivedCount: nil)
            == "\u{1B}[2m2 cards\u{1B}[0m")
        #expect(BoardRenderer(width: 8, stylist: .plain).summary(cardCount: 25, archivedCount: 4) == "25 card…")
    }

    // MARK: The synthetic board

    static let board = Board(
        title: "Synthetic board",
        columns: [
            Column(id: "ideas", name: "Ideas", isCollapsed: true),
            Column(id: "todo", name: "To Do"),
            Column(id: "doing", name: "In Progress"),
            Column(id: "done", name: "Done"),
        ],
        labels: [Label(id: "bug", name: "Bug", color: "#e74c3c"), Label(id: "feature", name: "Feature", color: "#3498db")])

    static let columns = [
        BoardRenderer.ColumnContent(id: "ideas", name: "Ideas", isCollapsed: true, cards: [
            card("dark-mode", "Dark mode", in: "ideas"), card("plugins", "Plugins", in: "ideas"),
        ]),
        BoardRenderer.ColumnContent(id: "todo", name: "To Do", cards: [
            card("fix-login", "Fix login", in: "todo", labels: ["bug"]),
            card("rewrite-sync", "Rewrite the sync engine so that it survives flaky networks, sleeping laptops and clock skew between devices",
                 in: "todo", labels: ["feature", "bug"]),
        ]),
        BoardRenderer.ColumnContent(id: "doing", name: "In Progress", cards: [
            card("cjk", "修复登录页面的错误提示信息", in: "doing", labels: ["feature"]),
        ]),
        BoardRenderer.ColumnContent(id: "done", name: "Done", cards: []),
        BoardRenderer.ColumnContent(id: "later", name: "later", isDeclared: false, cards: [
            card("someday", "Someday", in: "later"),
        ]),
    ]

    static func card(_ slug: String, _ title: String, in column: String, labels: [String] = []) -> Card {
        Card(slug: slug, title: title, column: column, labels: labels, fields: [], path: "cards/\(column)/\(slug).md",
             isArchived: false, hasFrontmatter: true)
    }

    private func render(width: Int, colour: Bool = false) -> [String] {
        BoardRenderer(width: width, stylist: Stylist(isEnabled: colour)).lines(board: Self.board, columns: Self.columns)
    }

    /// The bands of a rendering: runs of lines between blank lines, after the title.
    private func bands(of lines: [String]) -> [[String]] {
        lines.dropFirst(2).split(separator: "").map(Array.init)
    }

    /// The terminal columns at which `│` or `┼` stand in `line`.
    private func separatorColumns(_ line: String) -> [Int] {
        var columns: [Int] = []
        var position = 0
        for character in line {
            if character == "│" || character == "┼" { columns.append(position) }
            position += String(character).terminalWidth
        }
        return columns
    }
}
