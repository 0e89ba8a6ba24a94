import KanbanCore
import KanbanServer
import KanbanWatch

/// Draws a board as text: columns side by side, fitted to a width, each with its cards.
///
/// ```
/// Lumen 2.0 Launch
///
/// Backlog │ To Do (5)                │ Done (6)
/// ────────┼──────────────────────────┼─────────────────────────
/// (5)     │ Notarize and sign the    │ Accessibility audit of
///         │ macOS build              │ the main window
///         │ [infra]                  │ [design] [bug]
///         │ notarize-and-sign-the-m… │ accessibility-audit-of-…
/// ```
///
/// A column has a header (its name and card count), a rule, then its cards in board order: the title wrapped to
/// the column (at most three lines, then cut with `…`), the label tags, and the slug, dimmed, which is how other
/// commands name the card. Collapsed columns are narrow: the name, cut to fit, and the count under the rule.
/// When the columns do not fit at `minimumColumnWidth`, they are split into bands as ``BoardLayout`` says.
///
/// Every line is at most `width` terminal columns wide, escape sequences aside; grapheme clusters and escape
/// sequences are never cut, and control characters in card files are shown as `�` so they cannot move the cursor.
struct BoardRenderer {
    /// One column to draw, with its cards in board order: a column of the live board.
    typealias ColumnContent = LiveBoard.Column

    /// The narrowest an expanded column gets while it shares its band with others.
    static let minimumColumnWidth = 16
    /// The widest an expanded column gets, however wide the terminal.
    static let maximumColumnWidth = 48
    /// The widest a collapsed column gets.
    static let maximumCollapsedWidth = 10
    /// The narrowest a collapsed column gets.
    static let minimumCollapsedWidth = 6
    /// The most lines a card title takes before it is cut.
    static let maximumTitleLines = 3
    /// The most lines a card's label tags take; tags that do not fit are counted as `+N`.
    static let maximumLabelLines = 2
    /// The width of the separator between two columns, ` │ `.
    static let separatorWidth = 3

    /// Where cards stand for agents, to say what a card waits for; nil draws no such line.
    var work: WorkQueue?
    /// The total width to fit, in terminal columns.
    var width: Int
    /// How text is styled (or not).
    var stylist: Stylist

    /// Creates a renderer for a width and a stylist.
    init(width: Int, stylist: Stylist) {
        self.width = width
        self.stylist = stylist
    }

    /// The board's lines: its title, a blank line, then the columns, band after band with a blank line between.
    ///
    /// - Parameters:
    ///   - board: The board's settings, for its title and its labels' colours.
    ///   - columns: The columns to draw, in order.
    /// - Returns: Lines without newline characters or trailing spaces.
    func lines(board: Board, columns: [ColumnContent]) -> [String] {
        let width = max(1, self.width)
        var lines = [stylist.apply(.bold, to: BoardRenderer.displayText(board.title).truncated(toWidth: width)), ""]
        let layout = self.layout(of: columns)
        let labels = BoardRenderer.labelsByID(board)
        for (number, band) in layout.bands.enumerated() {
            if number > 0 { lines.append("") }
            let cells = band.map { cell(for: columns[$0], width: layout.columnWidths[$0], labels: labels) }
            lines += joined(cells, widths: band.map { layout.columnWidths[$0] })
        }
        return lines
    }

    /// The dim line under the board: `25 cards · 4 archived`, or `3 cards` when the archive is not counted.
    func summary(cardCount: Int, archivedCount: Int?) -> String {
        var text = cardCount == 1 ? "1 card" : "\(cardCount) cards"
        if let archivedCount { text += " · \(archivedCount) archived" }
        return stylist.apply(.dim, to: text.truncated(toWidth: max(1, width)))
    }

    // MARK: Columns

    /// Where the columns go at this width: bands of columns, and each column's width.
    func layout(of columns: [ColumnContent]) -> BoardLayout {
        BoardLayout(
            fixedWidths: columns.map { $0.isCollapsed ? collapsedWidth(of: $0) : nil },
            width: max(1, width),
            separatorWidth: BoardRenderer.separatorWidth,
            minimumWidth: BoardRenderer.minimumColumnWidth,
            maximumWidth: BoardRenderer.maximumColumnWidth)
    }

    /// The board's labels by id, for their colours; the first declaration of an id wins.
    static func labelsByID(_ board: Board) -> [String: Label] {
        Dictionary(board.labels.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The width of a collapsed column: its name's, within the collapsed bounds, and never narrower than its count.
    func collapsedWidth(of column: ColumnContent) -> Int {
        let nameWidth = BoardRenderer.displayText(column.name).terminalWidth
        let fitted = min(BoardRenderer.maximumCollapsedWidth, max(BoardRenderer.minimumCollapsedWidth, nameWidth))
        return max(fitted, BoardRenderer.countText(column.cards.count, limit: column.wipLimit).terminalWidth)
    }

    /// A column's lines, each at most `width` columns wide: the header, the rule, then the cards.
    private func cell(for column: ColumnContent, width: Int, labels: [String: Label]) -> [String] {
        let count = BoardRenderer.countText(column.cards.count, limit: column.wipLimit)
        let rule = stylist.apply(.dim, to: String(repeating: "─", count: width))
        if column.isCollapsed {
            return [
                stylist.apply(.bold, to: BoardRenderer.displayText(column.name).truncated(toWidth: width)),
                rule,
                stylist.apply(column.isOverLimit ? .red : .dim, to: count.truncated(toWidth: width)),
            ]
        }
        var lines = [header(for: column, count: count, width: width, isOverLimit: column.isOverLimit), rule]
        for (index, card) in column.cards.enumerated() {
            if index > 0 { lines.append("") }
            lines += cardLines(of: card, width: width, labels: labels)
        }
        return lines
    }

    /// One card's lines, each at most `width` columns wide: the title, the label tags, and the slug, dimmed.
    func cardLines(of card: Card, width: Int, labels: [String: Label]) -> [String] {
        var lines = titleLines(of: card, width: width) + labelLines(of: card, width: width, labels: labels)
        // The slug, then who holds the card; a card not done that waits for others says which.
        let slug = BoardRenderer.displayText(card.slug)
        if let holder = card.claim?.holder {
            let mark = " ● " + BoardRenderer.displayText(holder)
            let slugWidth = max(0, width - mark.terminalWidth)
            let shown = slugWidth >= 4 ? slug.truncated(toWidth: slugWidth) : ""
            lines.append(stylist.apply(.dim, to: shown) + stylist.apply(.cyan, to: (shown.isEmpty ? String(mark.dropFirst()) : mark).truncated(toWidth: width)))
        } else {
            lines.append(stylist.apply(.dim, to: slug.truncated(toWidth: width)))
        }
        if let work, work.readiness(of: card) != .done {
            let waiting = work.unfinishedDependencies(of: card)
            if !waiting.isEmpty {
                lines.append(stylist.apply(.yellow, to: ("waits: " + waiting.map(BoardRenderer.displayText).joined(separator: ", ")).truncated(toWidth: width)))
            }
        }
        return lines
    }

    /// `To Do (5)`: the name cut to leave room for the count, or both cut together in a very narrow column. A column
    /// over its WIP limit has its count (`(5/4)`) in red.
    func header(for column: ColumnContent, count: String, width: Int, isOverLimit: Bool = false) -> String {
        let name = BoardRenderer.displayText(column.isDeclared ? column.name : "\(column.id) (undeclared)")
        let countWidth = count.terminalWidth
        guard width >= countWidth + 2 else {
            return stylist.apply(.bold, to: "\(name) \(count)".truncated(toWidth: width))
        }
        return stylist.apply(.bold, to: name.truncated(toWidth: width - countWidth - 1)) + " "
            + stylist.apply(isOverLimit ? .bold + .red : .dim, to: count)
    }

    /// The title wrapped to the column, at most `maximumTitleLines` lines, the last cut with `…` when more is left.
    private func titleLines(of card: Card, width: Int) -> [String] {
        let title = BoardRenderer.displayText(card.title)
        guard !title.allSatisfy({ $0 == " " }) else { return [stylist.apply(.dim, to: "(untitled)".truncated(toWidth: width))] }
        let wrapped = title.wrapped(toWidth: width)
        var lines = Array(wrapped.prefix(BoardRenderer.maximumTitleLines))
        if wrapped.count > lines.count, let last = lines.indices.last {
            // Joining the rest on lets the cut fill the last line, rather than leaving the space a word wrapped from.
            let rest = wrapped[lines.count...].joined(separator: " ")
            lines[last] = (lines[last] + " " + rest).truncated(toWidth: width)
        }
        return lines.map { $0.truncated(toWidth: width) }
    }

    /// The label tags, wrapped tag by tag onto at most `maximumLabelLines` lines, with `+N` for tags left over.
    ///
    /// With colour a tag is ` id ` on the label's colour; without, `[id]`.
    private func labelLines(of card: Card, width: Int, labels: [String: Label]) -> [String] {
        typealias Tag = (text: String, width: Int)
        let tags: [Tag] = card.labels.map { id in
            let name = BoardRenderer.displayText(id)
            let plain = (stylist.isEnabled ? " \(name) " : "[\(name)]").truncated(toWidth: width)
            let style = labels[id]?.color.map { TextStyle.tag(hex: $0) } ?? .inverse
            return (stylist.apply(style, to: plain), plain.terminalWidth)
        }
        var rows: [[Tag]] = []
        var used = 0
        for tag in tags {
            if let last = rows.indices.last, used + 1 + tag.width <= width {
                rows[last].append(tag)
                used += 1 + tag.width
            } else {
                rows.append([tag])
                used = tag.width
            }
        }
        if rows.count > BoardRenderer.maximumLabelLines {
            var hidden = rows[BoardRenderer.maximumLabelLines...].reduce(0) { $0 + $1.count }
            rows.removeSubrange(BoardRenderer.maximumLabelLines...)
            let last = rows.count - 1
            func rowWidth() -> Int { rows[last].reduce(-1) { $0 + 1 + $1.width } }
            while rows[last].count > 1, rowWidth() + 1 + BoardRenderer.countText(hidden, plus: true).terminalWidth > width {
                rows[last].removeLast()
                hidden += 1
            }
            let more = BoardRenderer.countText(hidden, plus: true)
            rows[last].append((stylist.apply(.dim, to: more), more.terminalWidth))
        }
        return rows.map { row in row.map(\.text).joined(separator: " ").truncated(toWidth: width) }
    }

    /// Lays cells side by side, padding all but the last to their column's width, with ` │ ` between them
    /// (`─┼─` on the rule line).
    private func joined(_ cells: [[String]], widths: [Int]) -> [String] {
        let height = cells.map(\.count).max() ?? 0
        let bar = " " + stylist.apply(.dim, to: "│") + " "
        let cross = stylist.apply(.dim, to: "─┼─")
        return (0..<height).map { row in
            var line = ""
            for (index, cell) in cells.enumerated() {
                let text = row < cell.count ? cell[row] : ""
                if index == cells.count - 1 {
                    line += text
                } else {
                    line += text.padded(toWidth: widths[index]) + (row == 1 ? cross : bar)
                }
            }
            while line.last == " " { line.removeLast() }
            return line
        }
    }

    // MARK: Text

    /// `(5)`, `(5/4)` against a WIP limit, or `+5` for tags left out.
    static func countText(_ count: Int, limit: Int? = nil, plus: Bool = false) -> String {
        if plus { return "+\(count)" }
        return limit.map { "(\(count)/\($0))" } ?? "(\(count))"
    }

    /// Text from a file made safe to lay out: line breaks and tabs become spaces, other control characters
    /// (an escape sequence's `ESC` among them) become `�`, so nothing but our own styling reaches the terminal.
    static func displayText(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .lineSeparator, .paragraphSeparator:
                result.append(" ")
            case .control:
                result.append(scalar == "\t" || scalar == "\n" || scalar == "\r" ? " " : "\u{FFFD}")
            default:
                result.append(scalar)
            }
        }
        return String(result)
    }
}
