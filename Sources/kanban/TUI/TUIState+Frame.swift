import KanbanCore
import KanbanServer

extension TUIState {
    /// The screen for a terminal of `size`, drawn as `kanban board` draws the board: the columns of the band that
    /// holds the selection side by side (bands are the pages of a board too wide for the window), a header and a
    /// rule, then each column's cards from its scroll position, the selected card in reverse video, and the status
    /// line at the bottom.
    ///
    /// Only the cards that fit are laid out, so the cost does not grow with the board. Each column keeps its scroll
    /// position (``scrollTops``) unless the selection would leave the window; then it scrolls just enough.
    /// - Parameters:
    ///   - size: The terminal's size.
    ///   - stylist: Colours and text styles, as `kanban board` would use them; the selection's reverse video and the
    ///     screen's own emphasis are shown even when colour is off.
    mutating func frame(size: ScreenSize, stylist: Stylist) -> ScreenFrame {
        guard size.rows >= 4, size.columns >= 10 else {
            return ScreenFrame(size: size, rows: ["kanban tui: the window is too small".truncated(toWidth: size.columns)])
        }
        let layout = FrameLayout(state: self, size: size, stylist: stylist)
        var rows: [String] = []
        var cells: [ColumnCell] = []
        for column in layout.band {
            cells.append(cell(forColumn: column, layout: layout))
        }
        rows.append(layout.joined(cells.map(\.header), isRule: false))
        rows.append(layout.joined(cells.map(\.rule), isRule: true))
        for row in 0..<layout.areaHeight {
            rows.append(layout.joined(cells.map { $0.lines[row] }, isRule: false))
        }
        overlay(on: &rows, layout: layout)
        let (status, cursor) = statusLine(layout: layout)
        rows.append(status)
        return ScreenFrame(size: size, rows: rows, cursor: cursor.map { ScreenFrame.Position(row: size.rows - 1, column: $0) })
    }

    /// One column's part of the screen: its header, its rule, and exactly `areaHeight` lines below.
    private struct ColumnCell {
        var header: String
        var rule: String
        var lines: [String]
    }

    private mutating func cell(forColumn index: Int, layout: FrameLayout) -> ColumnCell {
        let column = board.columns[index]
        let width = layout.widths[index]
        let areaRows = layout.areaHeight
        let cards = shownCards(inColumn: index)
        let style = layout.stylist
        let isSelected = index == selectedColumn
        let rule = String(repeating: "─", count: width)
        // Against a WIP limit the count is the column's, whatever the filter shows.
        let countText = column.wipLimit == nil ? BoardRenderer.countText(cards.count) : BoardRenderer.countText(column.cards.count, limit: column.wipLimit)
        var lines: [String] = []
        if column.isCollapsed {
            let name = BoardRenderer.displayText(column.name).truncated(toWidth: width)
            lines.append(style.apply(column.isOverLimit ? .red : .dim, to: countText.truncated(toWidth: width)))
            lines += Array(repeating: "", count: max(0, areaRows - 1))
            return ColumnCell(header: isSelected ? layout.highlighted(name, width: width) : style.apply(.bold, to: name),
                              rule: style.apply(.dim, to: rule), lines: Array(lines.prefix(areaRows)))
        }
        let content = BoardRenderer.ColumnContent(id: column.id, name: column.name, isCollapsed: false,
                                                  isDeclared: column.isDeclared, cards: [])
        let header = isSelected
            ? layout.highlighted(layout.plainRenderer.header(for: content, count: countText, width: width), width: width)
            : layout.renderer.header(for: content, count: countText, width: width, isOverLimit: column.isOverLimit)

        let selected = isSelected && selection.path != nil && cards.indices.contains(selection.index) ? selection.index : nil
        // A card whose file cannot be read is shown as last read, marked, so that `e` can open it.
        func cardLines(of card: Card, renderer: BoardRenderer) -> [String] {
            let lines = renderer.cardLines(of: card, width: width, labels: layout.labels)
            guard board.isUnreadable(card.path) else { return lines }
            return lines + [renderer.stylist.apply(.red, to: "unreadable: e to fix".truncated(toWidth: width))]
        }
        var heights: [Int: Int] = [:]
        func height(of card: Int) -> Int {
            if let known = heights[card] { return known }
            let count = cardLines(of: cards[card], renderer: layout.renderer).count
            heights[card] = count
            return count
        }
        var top = min(scrollTops[column.id] ?? 0, max(0, cards.count - 1))
        if let selected {
            top = Self.scrollTop(top, showing: selected, count: cards.count, height: height, rows: areaRows)
        }
        scrollTops[column.id] = top

        var fullyShown = top
        var index = top
        while index < cards.count && lines.count < areaRows {
            if index > top { lines.append("") }
            if index == selected {
                lines += cardLines(of: cards[index], renderer: layout.plainRenderer).map { layout.highlighted($0, width: width) }
            } else {
                lines += cardLines(of: cards[index], renderer: layout.renderer)
            }
            if lines.count <= areaRows { fullyShown = index + 1 }
            index += 1
        }
        if lines.count > areaRows || fullyShown < cards.count {
            lines = Array(lines.prefix(areaRows - 1))
            lines += Array(repeating: "", count: areaRows - 1 - lines.count)
            lines.append(style.apply(.dim, to: "↓ \(cards.count - fullyShown) more".truncated(toWidth: width)))
        }
        if cards.isEmpty && isSelected {
            lines.append(style.apply(.dim, to: "(no cards; n adds one)".truncated(toWidth: width)))
        }
        lines += Array(repeating: "", count: max(0, areaRows - lines.count))
        let ruleText = top > 0 ? ("↑ \(top) more " + rule).truncated(toWidth: width, ellipsis: "") : rule
        return ColumnCell(header: header, rule: style.apply(.dim, to: ruleText), lines: lines)
    }

    /// The first card to show so that card `selected` is whole on the screen, moving from `top` as little as possible.
    ///
    /// A card below the selection takes the last row for its `↓ N more` line, so the selection must end above it.
    /// - Complexity: O(rows): only cards that could be on the screen are measured.
    static func scrollTop(_ top: Int, showing selected: Int, count: Int, height: (Int) -> Int, rows: Int) -> Int {
        guard selected > top else { return selected }
        let available = selected < count - 1 ? rows - 1 : rows
        var used = 0
        var index = top
        while index <= selected {
            used += (index > top ? 1 : 0) + height(index)
            if used > available { break }
            index += 1
        }
        if index > selected { return top }
        var first = selected
        used = height(selected)
        while first > 0 {
            let more = height(first - 1) + 1
            if used + more > available { break }
            used += more
            first -= 1
        }
        return first
    }

    // MARK: Overlays and the status line

    /// The help screen over the cards, or the label menu at the bottom of them.
    private func overlay(on rows: inout [String], layout: FrameLayout) {
        let first = 2
        let height = layout.areaHeight
        let width = layout.size.columns
        let style = layout.emphasis
        var lines: [String]
        switch mode {
        case .help:
            lines = [style.apply(.bold, to: "kanban tui: keys"), ""] + TUIKeys.lines(indent: "  ")
                + ["", style.apply(.dim, to: "Press any key to go back.")]
            lines = lines.map { $0.truncated(toWidth: width) }
            lines += Array(repeating: "", count: max(0, height - lines.count))
            for (offset, line) in lines.prefix(height).enumerated() { rows[first + offset] = line }
        case .choosingLabel(let menu):
            let title = "─ Labels of \"\(BoardRenderer.displayText(menu.card.title))\": number or j k and Enter; Esc closes "
            lines = [style.apply(.dim, to: (title + String(repeating: "─", count: width)).truncated(toWidth: width, ellipsis: ""))]
            for (index, label) in board.board.labels.enumerated() {
                let mark = menu.card.labels.contains(label.id) ? "[x]" : "[ ]"
                let number = index < 9 ? "\(index + 1)" : " "
                let text = BoardRenderer.displayText("\(number) \(mark) \(label.id)  \(label.name)").truncated(toWidth: width)
                lines.append(index == menu.highlighted ? layout.highlighted(text, width: width) : text)
            }
            let shown = lines.prefix(height)
            for (offset, line) in shown.enumerated() { rows[first + height - shown.count + offset] = line }
        default:
            break
        }
    }

    /// The bottom line, and the column to put the cursor at when a prompt is being typed.
    private func statusLine(layout: FrameLayout) -> (String, Int?) {
        let width = layout.size.columns
        let style = layout.emphasis
        switch mode {
        case .prompt(let prompt):
            let label = prompt.label
            var text = BoardRenderer.displayText(prompt.text)
            // The end of a long line stays in view, where the typing is.
            while label.terminalWidth + text.terminalWidth + 1 > width && !text.isEmpty { text.removeFirst() }
            var line = style.apply(.bold, to: label) + text
            if prompt.purpose == .filter, let filter, let note = filterNote(filter) {
                let room = width - label.terminalWidth - text.terminalWidth - 3
                if room > 4 { line += "  " + style.apply(.dim, to: note.truncated(toWidth: room)) }
            }
            return (line, label.terminalWidth + text.terminalWidth)
        case .confirmingDelete(let card):
            let question = "Delete \"\(BoardRenderer.displayText(card.title))\"? y/n"
            return (style.apply(.bold, to: question.truncated(toWidth: width)), nil)
        case .help, .normal, .choosingLabel:
            break
        }
        var parts = [style.apply(.bold, to: BoardRenderer.displayText(board.board.title))]
        if boardNames.count > 1, boardNames.indices.contains(boardIndex) {
            parts.append("board \(boardIndex + 1)/\(boardNames.count) " + BoardRenderer.displayText(boardNames[boardIndex]) + " (b B)")
        }
        let total = board.cardCount
        if let filter, let note = filterNote(filter) {
            parts.append("/" + BoardRenderer.displayText(filter.text) + "/ " + note)
        } else {
            parts.append(total == 1 ? "1 card" : "\(total) cards")
        }
        if layout.bandCount > 1 {
            let first = (layout.band.first ?? 0) + 1
            let last = (layout.band.last ?? 0) + 1
            parts.append("columns \(first)–\(last) of \(board.columns.count)")
        }
        if !board.problems.isEmpty {
            let count = board.problems.count
            parts.append(style.apply(.yellow, to: count == 1 ? "1 unreadable file" : "\(count) unreadable files"))
        }
        if let message {
            parts.append(message.isError ? style.apply(.red, to: BoardRenderer.displayText(message.text))
                                         : BoardRenderer.displayText(message.text))
        }
        let hint = "? help"
        var line = parts.joined(separator: style.apply(.dim, to: " · "))
        let lineWidth = line.terminalWidth
        if lineWidth + 2 + hint.terminalWidth <= width {
            line += String(repeating: " ", count: width - lineWidth - hint.terminalWidth) + style.apply(.dim, to: hint)
        } else {
            line = line.truncated(toWidth: width)
        }
        return (line, nil)
    }

    /// `3 of 25 cards match`, with why the query cannot be used as typed, when it cannot.
    private func filterNote(_ filter: Filter) -> String? {
        var note: String?
        if filter.matches != nil, let filtered = filteredCards {
            let count = filtered.reduce(0) { $0 + $1.count }
            note = "\(count) of \(board.cardCount) \(board.cardCount == 1 ? "card" : "cards") \(count == 1 ? "matches" : "match")"
        }
        if let problem = filter.problem { note = (note.map { $0 + "; " } ?? "") + problem }
        return note
    }
}

/// What one frame's layout needs, worked out once: the band shown, the columns' widths, the renderers.
private struct FrameLayout {
    let size: ScreenSize
    let stylist: Stylist
    /// Reverse video, bold and dim, shown even when colour is off: the selection must be seen.
    let emphasis: Stylist
    let renderer: BoardRenderer
    /// A renderer without styles, for text shown in reverse video (a reset inside would end it early).
    let plainRenderer: BoardRenderer
    let labels: [String: Label]
    let band: [Int]
    let bandCount: Int
    let widths: [Int]
    let areaHeight: Int

    init(state: TUIState, size: ScreenSize, stylist: Stylist) {
        self.size = size
        self.stylist = stylist
        emphasis = Stylist(isEnabled: true, depth: stylist.depth)
        var renderer = BoardRenderer(width: size.columns, stylist: stylist)
        var plainRenderer = BoardRenderer(width: size.columns, stylist: .plain)
        // What cards wait for. The screen holds the active cards only: a card it waits for that is not among them
        // counts as done (archived; 'kanban doctor' reports one that is nowhere).
        let cards = state.board.columns.flatMap(\.cards)
        if cards.contains(where: { $0.field(Card.dependenciesKey) != nil }), let flow = try? WorkFlow(board: state.board.board) {
            let shown = Set(cards.map(\.slug))
            let elsewhere = Set(cards.flatMap(\.dependencies)).subtracting(shown)
            let work = WorkQueue(flow: flow, cards: cards, archivedSlugs: elsewhere)
            renderer.work = work
            plainRenderer.work = work
        }
        self.renderer = renderer
        self.plainRenderer = plainRenderer
        labels = BoardRenderer.labelsByID(state.board.board)
        let contents = state.board.columns.indices.map { index in
            var column = state.board.columns[index]
            column.cards = state.shownCards(inColumn: index)
            return column
        }
        let layout = renderer.layout(of: contents)
        let selected = state.selectedColumn ?? 0
        band = layout.bands.first { $0.contains(selected) } ?? layout.bands.first ?? []
        bandCount = layout.bands.count
        widths = layout.columnWidths
        areaHeight = size.rows - 3
    }

    /// `text` in reverse video, filling `width` columns.
    func highlighted(_ text: String, width: Int) -> String {
        emphasis.apply(.inverse, to: text.padded(toWidth: width))
    }

    /// The cells of one row side by side, padded to their columns' widths, with ` │ ` between them (`─┼─` on the
    /// rule); trailing spaces are left out.
    func joined(_ cells: [String], isRule: Bool) -> String {
        var line = ""
        for (position, cell) in cells.enumerated() {
            if position == cells.count - 1 {
                line += cell
            } else {
                line += cell.padded(toWidth: widths[band[position]])
                line += isRule ? stylist.apply(.dim, to: "─┼─") : " " + stylist.apply(.dim, to: "│") + " "
            }
        }
        while line.last == " " { line.removeLast() }
        return line
    }
}
