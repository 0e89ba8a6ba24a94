import Foundation
import KanbanCore

extension JSON {
    /// A card as documented in docs/json.md:
    /// `{"archived", "column", "created", "fields", "labels", "modified", "path", "position", "slug", "title"}`,
    /// plus `"body"` when asked for.
    package init(card: Card, includeBody: Bool = false, body: String? = nil) {
        var members: [String: JSON] = [
            "slug": .string(card.slug),
            "title": .string(card.title),
            "column": .string(card.column),
            "position": card.position.map(JSON.string) ?? .null,
            "labels": .array(card.labels.map(JSON.string)),
            "created": card.created.map { .string(JSON.timestamp($0)) } ?? .null,
            "modified": card.modified.map { .string(JSON.timestamp($0)) } ?? .null,
            "path": .string(card.path),
            "archived": .bool(card.isArchived),
            "fields": .object(Dictionary(card.fields.map { ($0.key, JSON(yaml: $0.value)) }, uniquingKeysWith: { first, _ in first })),
        ]
        if includeBody { members["body"] = .string(body ?? card.body ?? "") }
        self = .object(members)
    }

    /// A frontmatter value: plain scalars that YAML reads as numbers, booleans or null become those JSON types;
    /// everything else is a string; lists and maps nest.
    package init(yaml value: YAMLValue) {
        switch value {
        case .scalar(let scalar):
            guard scalar.style == .plain else {
                self = .string(scalar.value)
                return
            }
            switch scalar.value {
            case "", "~", "null", "Null", "NULL": self = .null
            case "true", "True", "TRUE": self = .bool(true)
            case "false", "False", "FALSE": self = .bool(false)
            default: self = JSON.isNumber(scalar.value) ? .number(scalar.value) : .string(scalar.value)
            }
        case .list(let items):
            self = .array(items.map(JSON.init(yaml:)))
        case .map(let entries):
            self = .object(Dictionary(entries.map { ($0.key, JSON(yaml: $0.value)) }, uniquingKeysWith: { first, _ in first }))
        }
    }

    /// ISO 8601 in UTC, `2026-01-05T10:00:00Z` (milliseconds only when the file had a fraction).
    package static func timestamp(_ date: Date) -> String {
        ISO8601.string(from: date)
    }

    /// Whether `text` is a JSON number as-is (`-12`, `3.5`, `1e3`), so it can be written without quotes.
    package static func isNumber(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        var index = 0
        func digits() -> Bool {
            let start = index
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
            return index > start
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        let integerStart = index
        guard digits() else { return false }
        if bytes[integerStart] == UInt8(ascii: "0") && index - integerStart > 1 { return false }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() else { return false }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() else { return false }
        }
        return index == bytes.count
    }
}
