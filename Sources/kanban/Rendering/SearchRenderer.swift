import KanbanCore

/// The text of `kanban search`: one line per hit with the column, the slug, then the title with the matched line
/// (`title  12: line`), or the matched title alone; matches in bold red when colour is on.
struct SearchRenderer: Sendable {
    let hits: [SearchHit]
    let stylist: Stylist
    /// The terminal's width, to keep each result on one line; nil keeps whole lines (piped output, for scripts).
    let width: Int?
    private let columnWidth: Int
    private let slugWidth: Int

    init(hits: [SearchHit], stylist: Stylist, width: Int?) {
        self.hits = hits
        self.stylist = stylist
        self.width = width
        // Field by field, through a pointer: a hit read whole from the array is copied, a dozen references retained.
        var widestColumn = 0
        var widestSlug = 0
        hits.withUnsafeBufferPointer { hits in
            for index in hits.indices {
                widestColumn = max(widestColumn, hits[index].card.isArchived ? 7 : hits[index].card.column.terminalWidth)
                widestSlug = max(widestSlug, hits[index].card.slug.terminalWidth)
            }
        }
        columnWidth = widestColumn
        slugWidth = min(40, widestSlug)
    }

    /// The lines of the hits `range`, each ending in a line feed.
    func lines(_ range: Range<Int>) -> String {
        hits.withUnsafeBufferPointer { lines(range, hits: $0) }
    }

    private func lines(_ range: Range<Int>, hits: UnsafeBufferPointer<SearchHit>) -> String {
        var text = ""
        text.reserveCapacity(range.count * 100)
        var line = ""
        for index in range {
            if let width {
                line.removeAll(keepingCapacity: true)
                append(index, hits: hits, to: &line)
                text += line.truncated(toWidth: width)
            } else {
                append(index, hits: hits, to: &text)
            }
            text += "\n"
        }
        return text
    }

    private func append(_ index: Int, hits: UnsafeBufferPointer<SearchHit>, to line: inout String) {
        stylist.append(.dim, hits[index].card.isArchived ? "archive" : hits[index].card.column, paddedTo: columnWidth, to: &line)
        line += "  "
        stylist.append(.cyan, hits[index].card.slug, paddedTo: slugWidth, to: &line)
        line += "  "
        if let number = hits[index].match.lineNumber {
            line += hits[index].card.title
            stylist.append(.dim, "  \(number): ", to: &line)
        }
        Self.appendHighlighted(hits[index].match.line, ranges: hits[index].match.ranges, stylist: stylist, to: &line)
    }

    /// Appends the matched line, trimmed of leading white space, with its matches `ranges` in bold red.
    static func appendHighlighted(_ text: String, ranges: [Range<String.Index>], stylist: Stylist, to output: inout String) {
        // Trimmed on bytes when the first kept character is ASCII (no combining mark can join the blank before it).
        let utf8 = text.utf8
        let byteStart = utf8.firstIndex { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") } ?? utf8.endIndex
        let start = byteStart == utf8.endIndex || utf8[byteStart] < 0x80
            ? byteStart : text.firstIndex { $0 != " " && $0 != "\t" } ?? text.endIndex
        guard stylist.isEnabled else {
            output += text[start...]
            return
        }
        var cursor = start
        for range in ranges where range.upperBound > cursor {
            let lower = max(range.lowerBound, cursor)
            output += text[cursor..<lower]
            stylist.append(.bold + .red, String(text[lower..<range.upperBound]), to: &output)
            cursor = range.upperBound
        }
        output += text[cursor...]
    }
}
