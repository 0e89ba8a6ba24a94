import Testing

@testable import KanbanCore
@testable import KanbanServer
@testable import kanban

@Suite struct SearchRendererTests {
    /// A hit on `line` (the title when `lineNumber` is nil) with the matches of `word` in it.
    private static func hit(slug: String, column: String = "todo", title: String, line: String, lineNumber: Int?, word: String) -> SearchHit {
        var ranges: [Range<String.Index>] = []
        var start = line.startIndex
        while let found = line[start...].range(of: word) {
            ranges.append(found)
            start = found.upperBound
        }
        let card = Card(slug: slug, title: title, column: column, columnField: column, position: "a1", created: nil, modified: nil,
                        labels: [], fields: [], path: "cards/\(column)/\(slug).md", isArchived: false, archivedOn: nil,
                        hasFrontmatter: true, body: nil)
        return SearchHit(card: card, match: SearchMatch(line: line, lineNumber: lineNumber, ranges: ranges))
    }

    private static let hits = [
        hit(slug: "fix-login", title: "Fix login", line: "Fix login", lineNumber: nil, word: "login"),
        hit(slug: "safari", column: "doing", title: "Safari bug", line: "  - the login page, login again", lineNumber: 12, word: "login"),
    ]

    @Test func columnsAndSlugsArePaddedToTheWidestAndLeadingBlanksTrimmed() {
        let text = SearchRenderer(hits: Self.hits, stylist: .plain, width: nil).lines(0..<2)
        #expect(text == """
            todo   fix-login  Fix login
            doing  safari     Safari bug  12: - the login page, login again

            """)
    }

    @Test func matchesAreHighlightedOnlyWithColour() {
        let stylist = Stylist(isEnabled: true)
        let text = SearchRenderer(hits: Self.hits, stylist: stylist, width: nil).lines(1..<2)
        let login = stylist.apply(.bold + .red, to: "login")
        #expect(text.hasSuffix("- the \(login) page, \(login) again\n"))
        #expect(text.hasPrefix(stylist.apply(.dim, to: "doing")))
    }

    @Test func onATerminalEachResultIsCutToTheWidth() {
        let text = SearchRenderer(hits: Self.hits, stylist: .plain, width: 30).lines(0..<2)
        let lines = text.split(separator: "\n")
        #expect(lines.map { String($0).terminalWidth }.allSatisfy { $0 <= 30 })
        #expect(lines[1].hasSuffix("…"))
    }

    @Test func theLinesAreTheSameHoweverTheHitsAreSplitIntoRuns() {
        let many = (0..<50).map { Self.hits[$0 % 2] }
        let renderer = SearchRenderer(hits: many, stylist: Stylist(isEnabled: true), width: nil)
        let pieces = stride(from: 0, to: many.count, by: 7).map { renderer.lines($0..<min(many.count, $0 + 7)) }
        #expect(pieces.joined() == renderer.lines(0..<many.count))
    }
}
