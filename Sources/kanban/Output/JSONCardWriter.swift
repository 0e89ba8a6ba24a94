import KanbanCore

extension JSON {
    /// Appends the text `JSON(card:includeBody:body:)` renders to, indented `indent` levels, without building
    /// the tree: `list --json` writes a hundred thousand cards, and a dictionary per card would cost more than the
    /// whole load. The members are written in the sorted order `rendered(pretty:)` gives them.
    static func appendCard(_ card: Card, includeBody: Bool = false, body: String? = nil, to output: inout String,
                           pretty: Bool, indent: Int) {
        let inner = pretty ? "\n" + String(repeating: "  ", count: indent + 1) : ""
        let separator = pretty ? ": " : ":"
        func member(_ key: String, first: Bool = false) {
            if !first { output += "," }
            output += inner
            output += "\""
            output += key
            output += "\""
            output += separator
        }
        func optionalString(_ text: String?) {
            if let text { quote(text, into: &output) } else { output += "null" }
        }
        output += "{"
        member("archived", first: true)
        output += card.isArchived ? "true" : "false"
        if includeBody {
            member("body")
            quote(body ?? card.body ?? "", into: &output)
        }
        member("column")
        quote(card.column, into: &output)
        member("created")
        optionalString(card.created.map(timestamp))
        member("fields")
        if card.fields.isEmpty {
            output += "{}"
        } else {
            JSON.object(Dictionary(card.fields.map { ($0.key, JSON(yaml: $0.value)) }, uniquingKeysWith: { first, _ in first }))
                .write(to: &output, pretty: pretty, indent: indent + 1)
        }
        member("labels")
        if card.labels.isEmpty {
            output += "[]"
        } else {
            let item = pretty ? "\n" + String(repeating: "  ", count: indent + 2) : ""
            output += "["
            for (index, label) in card.labels.enumerated() {
                if index > 0 { output += "," }
                output += item
                quote(label, into: &output)
            }
            output += pretty ? "\n" + String(repeating: "  ", count: indent + 1) + "]" : "]"
        }
        member("modified")
        optionalString(card.modified.map(timestamp))
        member("path")
        quote(card.path, into: &output)
        member("position")
        optionalString(card.position)
        member("slug")
        quote(card.slug, into: &output)
        member("title")
        quote(card.title, into: &output)
        if pretty { output += "\n" + String(repeating: "  ", count: indent) }
        output += "}"
    }
}

/// Writes a pretty JSON array of cards to an output a piece at a time, as `JSON.array(cards.map { JSON(card: $0) })
/// .rendered()` would, so that memory stays flat however many cards there are.
struct JSONCardArrayWriter {
    private let output: BufferedOutput
    private var text = ""
    private var count = 0

    init(_ output: BufferedOutput) {
        self.output = output
        text.reserveCapacity(80_000)
    }

    mutating func append(_ card: Card, includeBody: Bool = false) {
        text += count == 0 ? "[\n  " : ",\n  "
        JSON.appendCard(card, includeBody: includeBody, to: &text, pretty: true, indent: 1)
        count += 1
        if text.utf8.count >= 65_536 {
            output.write(text)
            text.removeAll(keepingCapacity: true)
        }
    }

    /// Closes the array (`[]` when nothing was appended) and ends the line.
    mutating func finish() {
        text += count == 0 ? "[]\n" : "\n]\n"
        output.write(text)
        text = ""
    }
}
