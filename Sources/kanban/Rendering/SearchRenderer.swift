import KanbanCore
import KanbanServer

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
        // On every core, field by field through a pointer: a hit read whole from the array is copied, a dozen
        // references retained.
        let runs = stride(from: 0, to: hits.count, by: 4_096).map { $0..<min(hits.count, $0 + 4_096) }
        let widest = ParallelMap.map(runs, minimumChunk: 1) { run in
            hits.withUnsafeBufferPointer { hits in
                var widest = (column: 0, slug: 0)
                for index in run {
                    widest.column = max(widest.column, hits[index].card.isArchived ? 7 : hits[index].card.column.terminalWidth)
                    widest.slug = max(widest.slug, hits[index].card.slug.terminalWidth)
                }
                return widest
            }
        }
        columnWidth = widest.map(\.column).max() ?? 0
        slugWidth = min(40, widest.map(\.slug).max() ?? 0)
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
            line += stylist.isEnabled ? VisibleControls.visible(hits[index].card.title) : hits[index].card.title
            stylist.append(.dim, "  \(number): ", to: &line)
        }
        let matched = hits[index].match.line
        if stylist.isEnabled && matched.utf8.contains(0x1B) {
            // Its own escape sequences shown, not obeyed; the highlight's ranges would no longer fit, so none.
            line += VisibleControls.visible(matched.trimmingCharacters(in: .whitespaces))
        } else {
            Self.appendHighlighted(matched, ranges: hits[index].match.ranges, stylist: stylist, to: &line)
        }
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
