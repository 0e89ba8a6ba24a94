import Foundation
import KanbanCore
import KanbanServer

extension JSON {
    /// Appends the text `JSON(card:includeBody:body:)` renders to, indented `indent` levels, without building
    /// the tree: `list --json` writes a hundred thousand cards, and a dictionary per card would cost more than the
    /// whole load. The members are written in the sorted order `rendered(pretty:)` gives them.
    static func appendCard(_ card: Card, includeBody: Bool = false, body: String? = nil, to output: inout String,
                           pretty: Bool, indent: Int) {
        appendCard(card, includeBody: includeBody, body: body, to: &output, layout: CardJSONLayout(pretty: pretty, indent: indent))
    }

    /// The same, with the layout's pieces made once for many cards.
    static func appendCard(_ card: Card, includeBody: Bool = false, body: String? = nil, to output: inout String,
                           layout: CardJSONLayout) {
        withUnsafePointer(to: card) { appendCard($0, includeBody: includeBody, body: body, to: &output, layout: layout) }
    }

    /// The same for the card at `card`, read field by field: a card passed whole is copied, a dozen references
    /// retained and released, which for a hundred thousand cards costs more than writing them.
    static func appendCard(_ card: UnsafePointer<Card>, includeBody: Bool = false, body: String? = nil, to output: inout String,
                           layout: CardJSONLayout) {
        func optionalString(_ text: String?) {
            if let text { quote(text, into: &output) } else { output += "null" }
        }
        output += layout.opening
        output += card.pointee.isArchived ? "true" : "false"
        if includeBody {
            output += layout.body
            quote(body ?? card.pointee.body ?? "", into: &output)
        }
        output += layout.column
        quote(card.pointee.column, into: &output)
        output += layout.created
        optionalString(card.pointee.created.map(timestamp))
        output += layout.fields
        appendFields(card.pointee.fields, to: &output, layout: layout)
        output += layout.labels
        if card.pointee.labels.isEmpty {
            output += "[]"
        } else {
            for (index, label) in card.pointee.labels.enumerated() {
                output += index == 0 ? layout.firstItem : layout.nextItem
                quote(label, into: &output)
            }
            output += layout.closingList
        }
        output += layout.modified
        optionalString(card.pointee.modified.map(timestamp))
        output += layout.path
        quote(card.pointee.path, into: &output)
        output += layout.position
        optionalString(card.pointee.position)
        output += layout.slug
        quote(card.pointee.slug, into: &output)
        output += layout.title
        quote(card.pointee.title, into: &output)
        output += layout.closing
    }

    /// The `fields` object: keys sorted by their bytes, the first of a repeated key kept, as the tree does.
    fileprivate static func appendFields(_ fields: [YAMLMapEntry], to output: inout String, layout: CardJSONLayout) {
        guard !fields.isEmpty else {
            output += "{}"
            return
        }
        var unique = fields
        if fields.count > 1 {
            var seen: Set<String> = []
            unique = fields.filter { seen.insert($0.key).inserted }.sorted { $0.key.utf8Precedes($1.key) }
        }
        output += "{"
        for (index, field) in unique.enumerated() {
            if index > 0 { output += "," }
            output += layout.fieldIndent
            quote(field.key, into: &output)
            output += layout.separator
            JSON(yaml: field.value).write(to: &output, pretty: layout.pretty, indent: layout.indent + 2)
        }
        output += layout.closingObject
    }
}

extension JSON {
    /// Appends the text ``appendCard(_:includeBody:body:to:layout:)`` gives for the card a row of the board's index
    /// holds (in `directory`, `cards/<column>` or `archive`), as bytes, without making the card.
    static func appendRow(_ row: IndexedListing.Row, directory: RowDirectory, to output: inout ByteWriter, layout: CardJSONLayout) {
        let pieces = layout.bytes
        func optionalDate(_ date: Date?) {
            // A timestamp is digits and `-:.TZ`: nothing in it needs escaping.
            guard let date else { return output.append(pieces.null) }
            output.append(UInt8(ascii: "\""))
            var fits = true
            output.write(upTo: 24) { buffer in
                guard let length = ISO8601.write(date, into: buffer) else { fits = false; return 0 }
                return length
            }
            if !fits { output.append(ISO8601.string(from: date)) }
            output.append(UInt8(ascii: "\""))
        }
        output.append(pieces.opening)
        output.append(directory.isArchive ? pieces.true : pieces.false)
        output.append(pieces.column)
        quote(row.column, into: &output)
        output.append(pieces.created)
        optionalDate(row.created)
        output.append(pieces.fields)
        if row.hasFields {
            appendFields(row, to: &output, layout: layout)
        } else {
            output.append(pieces.emptyObject)
        }
        output.append(pieces.labels)
        var labels = 0
        row.forEachLabel { label in
            output.append(labels == 0 ? pieces.firstItem : pieces.nextItem)
            quote(label, into: &output)
            labels += 1
        }
        output.append(labels == 0 ? pieces.emptyList : pieces.closingList)
        output.append(pieces.modified)
        optionalDate(row.modified)
        output.append(pieces.path)
        // The slug is part of the file name: when the path needs no escaping, neither does it.
        let pathIsPlain = directory.isPlain && isPlain(row.name.assumingMemoryBound(to: UInt8.self))
        if pathIsPlain {
            output.append(UInt8(ascii: "\""))
            output.append(directory.path)
            output.append(UInt8(ascii: "/"))
            output.append(row.name)
            output.append(UInt8(ascii: "\""))
        } else {
            quote(directory.path + "/" + String(decoding: row.name, as: UTF8.self), into: &output)
        }
        output.append(pieces.position)
        if let position = row.position { quote(position, into: &output) } else { output.append(pieces.null) }
        output.append(pieces.slug)
        if pathIsPlain {
            output.append(UInt8(ascii: "\""))
            output.append(row.slug)
            output.append(UInt8(ascii: "\""))
        } else {
            quote(row.slug, into: &output)
        }
        output.append(pieces.title)
        quote(row.title, into: &output)
        output.append(pieces.closing)
    }

    /// A directory of cards (`cards/<column>` or `archive`) as its rows are written: what each row needs of it,
    /// worked out once.
    struct RowDirectory: Sendable {
        let path: String
        let isArchive: Bool
        /// Whether the path goes into a JSON string as it is.
        let isPlain: Bool

        init(_ path: String) {
            self.path = path
            isArchive = path == "archive"
            isPlain = withUTF8Bytes(of: path) { JSON.isPlain($0.assumingMemoryBound(to: UInt8.self)) }
        }
    }

    /// The `fields` object of a row, written from the index's bytes as ``appendFields(_:to:layout:)`` writes a card's;
    /// through the card's fields when a key is not ASCII (keys are told apart as strings are, which for other text
    /// is not by their bytes).
    private static func appendFields(_ row: IndexedListing.Row, to output: inout ByteWriter, layout: CardJSONLayout) {
        let start = output.count
        if appendObject(row.fieldsInPlace, to: &output, pretty: layout.pretty, indent: layout.indent + 1) { return }
        output.truncate(to: start)
        var text = ""
        appendFields(row.fields(), to: &text, layout: layout)
        output.append(text)
    }

    /// Appends what ``write(to:pretty:indent:)`` writes for `.object` of `fields` (the first of a repeated key kept,
    /// keys in the order of their bytes); false, having written part of it, when a key is not ASCII.
    private static func appendObject(_ fields: [IndexedField], to output: inout ByteWriter, pretty: Bool, indent: Int) -> Bool {
        guard !fields.isEmpty else {
            output.append("{}")
            return true
        }
        for field in fields where field.key.contains(where: { $0 >= 0x80 }) { return false }
        var unique = fields
        if fields.count > 1 {
            // By key, the first of equal keys first, and only that one kept.
            let order = fields.indices.sorted {
                fields[$0].key.elementsEqual(fields[$1].key) ? $0 < $1 : fields[$0].key.lexicographicallyPrecedes(fields[$1].key)
            }
            unique = []
            for index in order where unique.last.map({ !$0.key.elementsEqual(fields[index].key) }) ?? true { unique.append(fields[index]) }
        }
        output.append(UInt8(ascii: "{"))
        for (index, field) in unique.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            if pretty { appendLineBreak(indent + 1, to: &output) }
            quote(field.key, into: &output)
            output.append(pretty ? ": " : ":")
            guard appendValue(field.value, to: &output, pretty: pretty, indent: indent + 1) else { return false }
        }
        if pretty { appendLineBreak(indent, to: &output) }
        output.append(UInt8(ascii: "}"))
        return true
    }

    /// Appends what ``write(to:pretty:indent:)`` writes for `JSON(yaml:)` of `value`; false as ``appendObject``.
    private static func appendValue(_ value: IndexedValue, to output: inout ByteWriter, pretty: Bool, indent: Int) -> Bool {
        switch value {
        case .scalar(let text, let isPlain):
            guard isPlain else {
                quote(text, into: &output)
                return true
            }
            switch String(decoding: text, as: UTF8.self) {
            case "", "~", "null", "Null", "NULL": output.append("null")
            case "true", "True", "TRUE": output.append("true")
            case "false", "False", "FALSE": output.append("false")
            case let scalar where isNumber(scalar): output.append(text)
            default: quote(text, into: &output)
            }
        case .list(let items):
            guard !items.isEmpty else {
                output.append("[]")
                return true
            }
            output.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                if pretty { appendLineBreak(indent + 1, to: &output) }
                guard appendValue(item, to: &output, pretty: pretty, indent: indent + 1) else { return false }
            }
            if pretty { appendLineBreak(indent, to: &output) }
            output.append(UInt8(ascii: "]"))
        case .map(let entries):
            return appendObject(entries, to: &output, pretty: pretty, indent: indent)
        }
        return true
    }

    private static func appendLineBreak(_ indent: Int, to output: inout ByteWriter) {
        output.append(0x0A)
        for _ in 0..<(2 * indent) { output.append(UInt8(ascii: " ")) }
    }

    /// ``quote(_:into:)`` for UTF-8 bytes.
    static func quote(_ bytes: UnsafeRawBufferPointer, into output: inout ByteWriter) {
        let bytes = bytes.assumingMemoryBound(to: UInt8.self)
        guard isPlain(bytes) else {
            var text = ""
            quote(String(decoding: bytes, as: UTF8.self), into: &text)
            output.append(text)
            return
        }
        output.append(UInt8(ascii: "\""))
        output.append(bytes)
        output.append(UInt8(ascii: "\""))
    }

    static func quote(_ text: String, into output: inout ByteWriter) {
        withUTF8Bytes(of: text) { quote($0, into: &output) }
    }
}

/// The fixed pieces of a card's JSON at one indentation: each member's key with what comes before it.
struct CardJSONLayout: Sendable {
    let pretty: Bool
    let indent: Int
    let separator: String
    let opening, body, column, created, fields, labels, modified, path, position, slug, title, closing: String
    let firstItem, nextItem, closingList, fieldIndent, closingObject: String
    /// The same pieces as UTF-8, for a card written as bytes.
    let bytes: Bytes

    struct Bytes: Sendable {
        /// Where the pieces are kept.
        private let store: OutputPieces
        let opening, column, created, fields, labels, modified, path, position, slug, title, closing: OutputPieces.Piece
        let firstItem, nextItem, closingList: OutputPieces.Piece
        let `true`, `false`, null, emptyObject, emptyList: OutputPieces.Piece

        init(_ layout: CardJSONLayout.Texts) {
            store = OutputPieces([layout.opening, layout.column, layout.created, layout.fields, layout.labels, layout.modified, layout.path,
                                  layout.position, layout.slug, layout.title, layout.closing, layout.firstItem, layout.nextItem,
                                  layout.closingList, "true", "false", "null", "{}", "[]"])
            let pieces = store.pieces
            (opening, column, created, fields, labels, modified, path, position, slug, title, closing) =
                (pieces[0], pieces[1], pieces[2], pieces[3], pieces[4], pieces[5], pieces[6], pieces[7], pieces[8], pieces[9], pieces[10])
            (firstItem, nextItem, closingList) = (pieces[11], pieces[12], pieces[13])
            (`true`, `false`, null, emptyObject, emptyList) = (pieces[14], pieces[15], pieces[16], pieces[17], pieces[18])
        }
    }

    /// The texts ``Bytes`` is made of.
    struct Texts {
        let opening, column, created, fields, labels, modified, path, position, slug, title, closing, firstItem, nextItem, closingList: String
    }

    init(pretty: Bool, indent: Int) {
        self.pretty = pretty
        self.indent = indent
        func lineBreak(_ level: Int) -> String { pretty ? "\n" + String(repeating: "  ", count: level) : "" }
        let separator = pretty ? ": " : ":"
        self.separator = separator
        func member(_ key: String, first: Bool = false) -> String {
            (first ? "" : ",") + lineBreak(indent + 1) + "\"" + key + "\"" + separator
        }
        opening = "{" + member("archived", first: true)
        body = member("body")
        column = member("column")
        created = member("created")
        fields = member("fields")
        labels = member("labels")
        modified = member("modified")
        path = member("path")
        position = member("position")
        slug = member("slug")
        title = member("title")
        closing = lineBreak(indent) + "}"
        firstItem = "[" + lineBreak(indent + 2)
        nextItem = "," + lineBreak(indent + 2)
        closingList = lineBreak(indent + 1) + "]"
        fieldIndent = lineBreak(indent + 2)
        closingObject = lineBreak(indent + 1) + "}"
        bytes = Bytes(Texts(opening: opening, column: column, created: created, fields: fields, labels: labels, modified: modified, path: path,
                            position: position, slug: slug, title: title, closing: closing, firstItem: firstItem, nextItem: nextItem,
                            closingList: closingList))
    }
}

/// Writes a pretty JSON array of cards as `JSON.array(cards.map { JSON(card: $0) }).rendered()` would, made on
/// every core a run of cards at a time, so that a hundred thousand cards take a fraction of the load's time.
enum JSONCardArrayWriter {
    /// Writes the array of `cards` and a line feed.
    static func write(_ cards: [Card], to output: BufferedOutput, includeBody: Bool = false) {
        write(cards, to: output, indent: 0, terminator: "\n", includeBody: includeBody) { $0 }
    }

    /// Writes the array of the cards of `hits` and a line feed.
    static func write(_ hits: [SearchHit], to output: BufferedOutput) {
        let offset = MemoryLayout<SearchHit>.offset(of: \SearchHit.card)!
        write(hits, to: output, indent: 0, terminator: "\n") { UnsafeRawPointer($0).advanced(by: offset).assumingMemoryBound(to: Card.self) }
    }

    /// Writes a pretty JSON array, as a value `indent` levels in, of the cards `card` finds in `elements` (those at
    /// `indices`, when given), then `terminator`. The cards are reached through pointers, so that none is copied.
    private static func write<Element: Sendable>(_ elements: [Element], at indices: [Int]? = nil, to output: BufferedOutput,
                                                 indent: Int, terminator: String, includeBody: Bool = false,
                                                 card: @Sendable (UnsafePointer<Element>) -> UnsafePointer<Card>) {
        write(count: indices?.count ?? elements.count, to: output, indent: indent, terminator: terminator, includeBody: includeBody) { index, body in
            elements.withUnsafeBufferPointer { elements in body(card(elements.baseAddress! + (indices?[index] ?? index))) }
        }
    }

    /// Writes the array of the cards of `listing` (made from the board index's entries a run at a time, never all
    /// at once) and a line feed.
    static func write(_ listing: IndexedListing, to output: BufferedOutput) {
        let places = listing.groups.indices.flatMap { group in (0..<listing.groups[group].count).map { (group, $0) } }
        let directories = listing.groups.map { JSON.RowDirectory($0.directory) }
        writeItems(count: places.count, to: output, indent: 0, terminator: "\n") { index, text, _, layout in
            let (group, row) = places[index]
            listing.withRow(group: group, row: row) { JSON.appendRow($0, directory: directories[group], to: &text, layout: layout) }
        }
    }

    /// Writes a pretty JSON array, as a value `indent` levels in, of `count` cards, each given by `withCard`, then
    /// `terminator`.
    private static func write(count: Int, to output: BufferedOutput, indent: Int, terminator: String, includeBody: Bool = false,
                              withCard: @Sendable (Int, (UnsafePointer<Card>) -> Void) -> Void) {
        writeItems(count: count, to: output, indent: indent, terminator: terminator) { index, text, scratch, layout in
            withCard(index) { card in
                scratch.removeAll(keepingCapacity: true)
                JSON.appendCard(card, includeBody: includeBody, to: &scratch, layout: layout)
                text.append(scratch)
            }
        }
    }

    /// Writes a pretty JSON array, as a value `indent` levels in, of `count` items, each appended to the chunk's
    /// bytes by `item` (with a string to reuse), then `terminator`; made on every core a run of items at a time.
    private static func writeItems(count: Int, to output: BufferedOutput, indent: Int, terminator: String,
                                   item: @Sendable (Int, inout ByteWriter, inout String, CardJSONLayout) -> Void) {
        guard count > 0 else {
            output.write("[]" + terminator)
            return
        }
        let itemIndent = String(repeating: "  ", count: indent + 1)
        let first = "[\n" + itemIndent
        let next = ",\n" + itemIndent
        let closing = "\n" + String(repeating: "  ", count: indent) + "]" + terminator
        // Every string in it went through `JSON.quote`, which leaves no control character for the terminal to obey.
        ChunkedText.write(count: count, to: output, safeBytes: { range in
            var text = ByteWriter(capacity: range.count * 512)
            var scratch = ""
            let layout = CardJSONLayout(pretty: true, indent: indent + 1)
            for index in range {
                text.append(index == 0 ? first : next)
                item(index, &text, &scratch, layout)
            }
            if range.upperBound == count { text.append(closing) }
            return text.finish()
        })
    }

    /// Writes `board --json`, the text `JSON(snapshot:columns:).rendered()` gives, with each column's cards written
    /// as `list --json`'s are: no tree of a hundred thousand cards.
    static func writeBoard(_ snapshot: BoardSnapshot, columns: [String], to output: BufferedOutput) {
        var positions: [String: [Int]] = [:]
        for (index, card) in snapshot.cards.enumerated() where !card.isArchived { positions[card.column, default: []].append(index) }
        writeBoard(snapshot.board, columns: columns, to: output) { id, indent, terminator in
            write(snapshot.cards, at: positions[id] ?? [], to: output, indent: indent, terminator: terminator) { $0 }
        }
    }

    /// The same, for the board's active cards as its index holds them.
    static func writeBoard(_ listing: IndexedListing, board: Board, columns: [String], to output: BufferedOutput) {
        writeBoard(board, columns: columns, to: output) { id, indent, terminator in
            let group = listing.groups.firstIndex { $0.column == id }
            let directory = JSON.RowDirectory("cards/" + id)
            writeItems(count: group.map { listing.groups[$0].count } ?? 0, to: output, indent: indent, terminator: terminator) { index, text, _, layout in
                listing.withRow(group: group!, row: index) { JSON.appendRow($0, directory: directory, to: &text, layout: layout) }
            }
        }
    }

    /// `board --json` with `cards(id, indent, terminator)` writing the array of column `id`'s cards.
    private static func writeBoard(_ board: Board, columns: [String], to output: BufferedOutput, cards: (String, Int, String) -> Void) {
        output.write("{\n  \"columns\": ")
        if columns.isEmpty { output.write("[]") }
        for (number, id) in columns.enumerated() {
            let column = board.column(withID: id)
            output.write((number == 0 ? "[\n" : ",\n") + "    {\n      \"cards\": ")
            cards(id, 3, ",\n")
            var tail = "      \"collapsed\": " + ((column?.isCollapsed ?? false) ? "true" : "false") + ",\n      \"id\": "
            JSON.quote(id, into: &tail)
            tail += ",\n      \"limit\": " + (column?.wipLimit.map(String.init) ?? "null") + ",\n      \"name\": "
            JSON.quote(column?.name ?? id, into: &tail)
            tail += "\n    }"
            output.write(tail)
        }
        if !columns.isEmpty { output.write("\n  ]") }
        var rest = ",\n  \"labels\": "
        JSON.array(board.labels.map { label in
            .object(["id": .string(label.id), "name": .string(label.name), "color": label.color.map(JSON.string) ?? .null])
        }).write(to: &rest, pretty: true, indent: 1)
        rest += ",\n  \"title\": "
        JSON.quote(board.title, into: &rest)
        rest += "\n}\n"
        output.write(rest)
    }
}
