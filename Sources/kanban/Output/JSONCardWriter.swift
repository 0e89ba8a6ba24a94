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

/// Writes a pretty JSON array of cards as `JSON.array(cards.map { JSON(card: $0) }).rendered()` would, made on
/// every core a run of cards at a time, so that a hundred thousand cards take a fraction of the load's time.
enum JSONCardArrayWriter {
    /// Writes the array of `card(0)`, `card(1)` ... up to `count`, and a line feed.
    static func write(count: Int, to output: BufferedOutput, includeBody: Bool = false, _ card: @Sendable @escaping (Int) -> Card) {
        guard count > 0 else {
            output.write("[]\n")
            return
        }
        ChunkedText.write(count: count, to: output) { range in
            var text = ""
            text.reserveCapacity(range.count * 400)
            for index in range {
                text += index == 0 ? "[\n  " : ",\n  "
                JSON.appendCard(card(index), includeBody: includeBody, to: &text, pretty: true, indent: 1)
            }
            if range.upperBound == count { text += "\n]\n" }
            return text
        }
    }
}
