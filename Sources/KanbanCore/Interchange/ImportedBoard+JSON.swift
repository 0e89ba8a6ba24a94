import Foundation

extension ImportedBoard {
    /// The cards of `kanban export json` (or `kanban list --json`): an array of cards, each with `title` and
    /// optionally `slug`, `column`, `position`, `labels`, `created`, `modified`, `archived`, `fields` and `body`.
    /// A card is known on a later import by its slug; `fields` keep their order as written.
    /// - Throws: ``KanbanError/Code/invalidArgument`` naming `path` for text that is not JSON, or not such an array.
    public init(json bytes: [UInt8], path: String) throws(KanbanError) {
        let value = try Self.jsonValue(bytes, path: path, what: "a card export")
        guard let items = value as? [Any] else {
            throw KanbanError(.invalidArgument, "is not a card export: expected an array of cards, as 'kanban export json' writes", at: SourceLocation(path: path))
        }
        self.init(format: .json)
        var columnNames: Set<String> = []
        var labelNames: Set<String> = []
        for (index, item) in items.enumerated() {
            func failure(_ message: String) -> KanbanError {
                KanbanError(.invalidArgument, "card \(index + 1): \(message)", at: SourceLocation(path: path))
            }
            guard let card = item as? [String: Any] else { throw failure("is not an object") }
            func text(_ key: String) throws(KanbanError) -> String? {
                guard let value = card[key], !(value is NSNull) else { return nil }
                guard let string = value as? String else { throw failure("'\(key)' is not a string") }
                return string
            }
            func date(_ key: String) throws(KanbanError) -> Date? {
                guard let string = try text(key) else { return nil }
                guard let date = ISO8601.date(from: string) else { throw failure("'\(key)' is not an ISO 8601 date: '\(string)'") }
                return date
            }
            guard let title = try text("title") else { throw failure("has no 'title'") }
            let column = try text("column") ?? ""
            if !column.isEmpty, columnNames.insert(column).inserted { columns.append(ImportedColumn(name: column)) }
            var labels: [String] = []
            if let value = card["labels"], !(value is NSNull) {
                guard let list = value as? [Any], let strings = list as? [String] else { throw failure("'labels' is not a list of strings") }
                labels = strings
            }
            for label in labels where labelNames.insert(label).inserted { self.labels.append(ImportedLabel(name: label)) }
            var fields: [YAMLMapEntry] = []
            if let value = card["fields"], !(value is NSNull) {
                guard let object = value as? [String: Any] else { throw failure("'fields' is not an object") }
                // JSONSerialization keeps no order; `export json` writes keys sorted.
                for key in object.keys.sorted() {
                    guard let yaml = Self.yamlValue(object[key]!) else { continue }
                    fields.append(YAMLMapEntry(key: key, value: yaml))
                }
            }
            var archived = false
            if let value = card["archived"], !(value is NSNull) {
                guard let flag = value as? Bool else { throw failure("'archived' is not true or false") }
                archived = flag
            }
            cards.append(ImportedCard(sourceID: nil, slug: try text("slug"), title: title, column: column, position: try text("position"),
                                      labels: labels, body: try text("body") ?? "", fields: fields, isArchived: archived,
                                      archivedOn: try text("path").flatMap(Self.archiveDay), created: try date("created"), modified: try date("modified")))
        }
    }

    /// The day in an archived card's path (`archive/2026-01-31-slug.md`).
    private static func archiveDay(_ path: String) -> String? {
        guard path.hasPrefix("archive/") else { return nil }
        return BoardStore.validDay(String(path.dropFirst("archive/".count).prefix(10)))
    }

    /// The JSON value of `bytes`, or an error naming `path` and saying what is wrong (not UTF-8, over the size
    /// limit, cut short, not JSON).
    package static func jsonValue(_ bytes: [UInt8], path: String, what: String) throws(KanbanError) -> Any {
        guard bytes.count <= CSVTable.largestFile else {
            throw KanbanError(.invalidArgument, "\(what) is \(bytes.count >> 20) MB, over the \(CSVTable.largestFile >> 20) MB kanban reads", at: SourceLocation(path: path))
        }
        guard String(validating: bytes, as: UTF8.self) != nil else {
            throw KanbanError(.invalidArgument, "is not UTF-8 text, so not \(what)", at: SourceLocation(path: path))
        }
        do {
            return try JSONSerialization.jsonObject(with: Data(bytes), options: [])
        } catch {
            let trimmed = bytes.reversed().drop { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
            let isCut = trimmed.first.map { $0 != UInt8(ascii: "}") && $0 != UInt8(ascii: "]") } ?? true
            let reason = bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) ? "is empty"
                : isCut ? "is not whole JSON (cut short?)" : "is not valid JSON"
            throw KanbanError(.invalidArgument, "\(reason), so not \(what)", at: SourceLocation(path: path))
        }
    }

    /// A JSON value as a card key's value: text and numbers as plain scalars where YAML allows, lists and objects
    /// nested; nil for null.
    static func yamlValue(_ value: Any) -> YAMLValue? {
        switch value {
        case is NSNull: return nil
        case let string as String: return fieldValue(string)
        case let number as NSNumber:
            // A JSON boolean is a number of Objective-C type `c` (char), on Linux as on Apple's platforms.
            if String(cString: number.objCType) == "c" { return .unquoted(number.boolValue ? "true" : "false") }
            return .unquoted(number.stringValue)
        case let list as [Any]: return .list(list.compactMap(yamlValue))
        case let object as [String: Any]:
            return .map(object.keys.sorted().compactMap { key in yamlValue(object[key]!).map { YAMLMapEntry(key: key, value: $0) } })
        default: return nil
        }
    }
}
