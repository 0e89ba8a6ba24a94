import KanbanCore
import KanbanServer

/// The cards `kanban list` shows, in board order, in runs of one directory each: cards loaded, or the rows of the
/// board's index (``IndexedListing``), which make no card.
protocol ListRows: Sendable {
    var count: Int { get }
    /// Each run of rows from one directory, in order: its column (nil for the archive) and how many rows.
    var runs: [(column: String?, count: Int)] { get }
    /// Calls `body` with what row `index` shows.
    func withRow<R>(_ index: Int, _ body: (ListRow) -> R) -> R
    /// How many columns row `index`'s slug takes on a terminal.
    func slugWidth(_ index: Int) -> Int
}

/// What one line of `kanban list` shows of a card, as UTF-8 bytes valid only inside the call that gives them.
struct ListRow {
    enum Labels {
        case strings([String])
        case indexed(IndexedListing.Row)
    }

    var slug: UnsafeRawBufferPointer
    var title: UnsafeRawBufferPointer
    var labels: Labels
    /// The date an archived card was archived on.
    var archivedOn: String?

    func forEachLabel(_ body: (UnsafeRawBufferPointer) -> Void) {
        switch labels {
        case .strings(let labels): for label in labels { withUTF8Bytes(of: label, body) }
        case .indexed(let row): row.forEachLabel(body)
        }
    }
}

/// Spaces to pad with.
private let listSpaces = [UInt8](repeating: UInt8(ascii: " "), count: 64)

/// Calls `body` with the UTF-8 bytes of `text`, in place where the string keeps them so.
func withUTF8Bytes<R>(of text: String, _ body: (UnsafeRawBufferPointer) -> R) -> R {
    if let result = text.utf8.withContiguousStorageIfAvailable({ body(UnsafeRawBufferPointer($0)) }) { return result }
    return Array(text.utf8).withUnsafeBytes(body)
}

/// Cards loaded from their files.
struct LoadedRows: ListRows {
    let cards: [Card]

    var count: Int { cards.count }

    var runs: [(column: String?, count: Int)] {
        var runs: [(column: String?, count: Int)] = []
        cards.withUnsafeBufferPointer { cards in
            var start = 0
            while start < cards.count {
                var end = start + 1
                while end < cards.count, cards[end].isArchived == cards[start].isArchived,
                      cards[start].isArchived || cards[end].column == cards[start].column {
                    end += 1
                }
                runs.append((cards[start].isArchived ? nil : cards[start].column, end - start))
                start = end
            }
        }
        return runs
    }

    func withRow<R>(_ index: Int, _ body: (ListRow) -> R) -> R {
        cards.withUnsafeBufferPointer { cards in
            withUTF8Bytes(of: cards[index].slug) { slug in
                withUTF8Bytes(of: cards[index].title) { title in
                    body(ListRow(slug: slug, title: title, labels: .strings(cards[index].labels),
                                 archivedOn: cards[index].isArchived ? cards[index].archivedOn : nil))
                }
            }
        }
    }

    func slugWidth(_ index: Int) -> Int {
        cards.withUnsafeBufferPointer { $0[index].slug.terminalWidth }
    }
}

/// Cards as the board's index holds them.
struct IndexedRows: ListRows {
    let listing: IndexedListing
    /// Where each group's rows start, and one past the last.
    private let starts: [Int]

    init(_ listing: IndexedListing) {
        self.listing = listing
        starts = listing.groups.reduce(into: [0]) { $0.append($0.last! + $1.count) }
    }

    var count: Int { starts.last! }

    var runs: [(column: String?, count: Int)] {
        listing.groups.filter { $0.count > 0 }.map { ($0.column, $0.count) }
    }

    /// The group of row `index` and the row's number in it.
    private func place(_ index: Int) -> (group: Int, row: Int) {
        var low = 0
        var high = starts.count - 1
        while high - low > 1 {
            let middle = (low + high) / 2
            if starts[middle] <= index { low = middle } else { high = middle }
        }
        return (low, index - starts[low])
    }

    func withRow<R>(_ index: Int, _ body: (ListRow) -> R) -> R {
        let (group, row) = place(index)
        return listing.withRow(group: group, row: row) { row in
            body(ListRow(slug: row.slug, title: row.title, labels: .indexed(row), archivedOn: row.archivedOn.map { String(decoding: $0, as: UTF8.self) }))
        }
    }

    func slugWidth(_ index: Int) -> Int {
        let (group, row) = place(index)
        return listing.withRow(group: group, row: row) { row in
            row.slug.allSatisfy { $0 >= 0x20 && $0 < 0x7F } ? row.slug.count : String(decoding: row.slug, as: UTF8.self).terminalWidth
        }
    }
}

/// The text of `kanban list`: a heading with its count for each column (and the archive), then one line per card
/// with its slug, title, labels and, when archived, the date.
struct ListRenderer<Rows: ListRows>: Sendable {
    let rows: Rows
    let board: Board
    let stylist: Stylist
    private let slugWidth: Int
    private let counts: [String: Int]
    /// Where each run of rows starts, and its heading.
    private let runStarts: [Int]
    private let runHeadings: [String]
    /// Each declared label's id and how it is shown: `[id]` in the label's colour (undeclared ones are dim).
    private let labelTags: [(id: [UInt8], tag: [UInt8])]

    init(rows: Rows, board: Board, stylist: Stylist) {
        self.rows = rows
        self.board = board
        self.stylist = stylist
        var counts: [String: Int] = [:]
        var runStarts: [Int] = []
        var runHeadings: [String] = []
        var start = 0
        for run in rows.runs {
            let heading = run.column.map(board.columnName) ?? "Archive"
            counts[heading, default: 0] += run.count
            runStarts.append(start)
            runHeadings.append(heading)
            start += run.count
        }
        // The slug column is at most `widest` wide: a run stops looking once it has a slug that wide.
        let widest = 40
        let runs = stride(from: 0, to: rows.count, by: 4_096).map { $0..<min(rows.count, $0 + 4_096) }
        let slugWidth = ParallelMap.map(runs, minimumChunk: 1) { run in
            var width = 0
            for index in run where width < widest { width = max(width, rows.slugWidth(index)) }
            return width
        }.max() ?? 0
        self.counts = counts
        self.runStarts = runStarts
        self.runHeadings = runHeadings
        self.slugWidth = min(widest, slugWidth)
        labelTags = board.labels.map { label in
            (Array(label.id.utf8), Array(stylist.apply(label.color.map { .foreground(hex: $0) } ?? .dim, to: "[\(label.id)]").utf8))
        }
    }

    /// The run row `index` is in.
    private func run(of index: Int) -> Int {
        var low = 0
        var high = runStarts.count
        while high - low > 1 {
            let middle = (low + high) / 2
            if runStarts[middle] <= index { low = middle } else { high = middle }
        }
        return low
    }

    /// The lines of the rows `range`, each ending in a line feed, with the headings of the groups starting there.
    func lines(_ range: Range<Int>) -> String {
        String(decoding: bytes(range), as: UTF8.self)
    }

    /// ``lines(_:)`` as UTF-8 bytes, gathered without a string for each title (which would check each one's UTF-8).
    func bytes(_ range: Range<Int>) -> [UInt8] {
        var text: [UInt8] = []
        text.reserveCapacity(range.count * 100)
        guard !range.isEmpty else { return text }
        var run = run(of: range.lowerBound)
        var group: String? = range.lowerBound > 0 ? runHeadings[self.run(of: range.lowerBound - 1)] : nil
        for index in range {
            if run + 1 < runStarts.count, runStarts[run + 1] == index { run += 1 }
            // The heading is written where the run's heading is not the last row's.
            if runStarts[run] == index, runHeadings[run] != group {
                let heading = runHeadings[run]
                if group != nil { text.append(UInt8(ascii: "\n")) }
                text += stylist.apply(.bold, to: heading).utf8
                text += stylist.apply(.dim, to: " (\(counts[heading] ?? 0))").utf8
                text.append(UInt8(ascii: "\n"))
                group = heading
            }
            rows.withRow(index) { row in
                text += "  ".utf8
                appendSlug(row.slug, to: &text)
                text += "  ".utf8
                let title = row.title.assumingMemoryBound(to: UInt8.self)
                // With colour on, the writer keeps colour sequences: one in a title must show, not act.
                if stylist.isEnabled && title.contains(0x1B) {
                    text += VisibleControls.escaped(title, keepingStyles: false)
                } else {
                    text += title
                }
                row.forEachLabel { label in
                    text.append(UInt8(ascii: " "))
                    if let declared = labelTags.first(where: { $0.id.elementsEqual(label) }) {
                        text += declared.tag
                    } else {
                        // Not these bytes, but maybe the same text otherwise composed (ids compare as strings).
                        let id = String(decoding: label, as: UTF8.self)
                        text += labelTags.first { String(decoding: $0.id, as: UTF8.self) == id }?.tag ?? Array(stylist.apply(.dim, to: "[\(id)]").utf8)
                    }
                }
                if let date = row.archivedOn { text += stylist.apply(.dim, to: "  archived \(date)").utf8 }
            }
            text.append(UInt8(ascii: "\n"))
        }
        return text
    }

    /// The slug in cyan, padded with spaces to the slug column's width.
    private func appendSlug(_ slug: UnsafeRawBufferPointer, to text: inout [UInt8]) {
        let bytes = slug.assumingMemoryBound(to: UInt8.self)
        let isPlain = bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
        guard isPlain && !stylist.isEnabled else {
            var styled = ""
            stylist.append(.cyan, String(decoding: slug, as: UTF8.self), paddedTo: slugWidth, to: &styled)
            text += styled.utf8
            return
        }
        text += bytes
        var missing = slugWidth - bytes.count
        while missing > 0 {
            text += listSpaces[..<min(missing, listSpaces.count)]
            missing -= listSpaces.count
        }
    }

}

extension ListRenderer where Rows == LoadedRows {
    init(cards: [Card], board: Board, stylist: Stylist) {
        self.init(rows: LoadedRows(cards: cards), board: board, stylist: stylist)
    }
}
