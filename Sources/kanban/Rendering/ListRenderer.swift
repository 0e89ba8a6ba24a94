import KanbanCore

/// The text of `kanban list`: a heading with its count for each column (and the archive), then one line per card
/// with its slug, title, labels and, when archived, the date.
struct ListRenderer: Sendable {
    let cards: [Card]
    let board: Board
    let stylist: Stylist
    private let slugWidth: Int
    private let counts: [String: Int]
    /// Each declared label as shown: `[id]` in the label's colour (undeclared ones are dim).
    private let labelTags: [String: String]

    init(cards: [Card], board: Board, stylist: Stylist) {
        self.cards = cards
        self.board = board
        self.stylist = stylist
        // The cards come grouped: count each run of one column (or of the archive) at once.
        var counts: [String: Int] = [:]
        var start = 0
        while start < cards.count {
            var end = start + 1
            while end < cards.count, cards[end].isArchived == cards[start].isArchived,
                  cards[start].isArchived || cards[end].column == cards[start].column {
                end += 1
            }
            counts[Self.heading(isArchived: cards[start].isArchived, column: cards[start].column, board: board), default: 0] += end - start
            start = end
        }
        // The slug column is at most `widest` wide: a run stops looking once it has a slug that wide.
        let widest = 40
        let runs = stride(from: 0, to: cards.count, by: 4_096).map { $0..<min(cards.count, $0 + 4_096) }
        let slugWidth = ParallelMap.map(runs, minimumChunk: 1) { run in
            cards.withUnsafeBufferPointer { cards in
                var width = 0
                for index in run where width < widest { width = max(width, cards[index].slug.terminalWidth) }
                return width
            }
        }.max() ?? 0
        self.counts = counts
        self.slugWidth = min(widest, slugWidth)
        var labelTags: [String: String] = [:]
        for label in board.labels {
            labelTags[label.id] = stylist.apply(label.color.map { .foreground(hex: $0) } ?? .dim, to: "[\(label.id)]")
        }
        self.labelTags = labelTags
    }

    /// Takes the card's fields rather than the card, which a call would copy whole.
    private static func heading(isArchived: Bool, column: String, board: Board) -> String {
        isArchived ? "Archive" : board.columnName(column)
    }

    /// The lines of the cards `range`, each ending in a line feed, with the headings of the groups starting there.
    func lines(_ range: Range<Int>) -> String {
        cards.withUnsafeBufferPointer { lines(range, cards: $0) }
    }

    private func lines(_ range: Range<Int>, cards: UnsafeBufferPointer<Card>) -> String {
        var text = ""
        text.reserveCapacity(range.count * 80)
        let before = range.lowerBound - 1
        var group = before >= 0 ? Self.heading(isArchived: cards[before].isArchived, column: cards[before].column, board: board) : nil
        // The group's heading is worked out only where the card's column (or the archive) is not the last card's.
        var last = before >= 0 ? (isArchived: cards[before].isArchived, column: cards[before].column) : nil
        for index in range {
            let sameAsLast = last.map { $0.isArchived == cards[index].isArchived && ($0.isArchived || $0.column == cards[index].column) } ?? false
            if !sameAsLast {
                last = (cards[index].isArchived, cards[index].column)
            }
            if !sameAsLast, case let heading = Self.heading(isArchived: cards[index].isArchived, column: cards[index].column, board: board),
               heading != group {
                if group != nil { text += "\n" }
                text += stylist.apply(.bold, to: heading)
                text += stylist.apply(.dim, to: " (\(counts[heading] ?? 0))")
                text += "\n"
                group = heading
            }
            text += "  "
            stylist.append(.cyan, cards[index].slug, paddedTo: slugWidth, to: &text)
            text += "  "
            text += cards[index].title
            for label in cards[index].labels {
                text += " "
                text += labelTags[label] ?? stylist.apply(.dim, to: "[\(label)]")
            }
            if cards[index].isArchived, let date = cards[index].archivedOn { text += stylist.apply(.dim, to: "  archived \(date)") }
            text += "\n"
        }
        return text
    }
}
