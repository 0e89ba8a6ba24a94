import KanbanCore

/// Why bytes are not one JSON value.
package struct JSONParseError: Error, Equatable, CustomStringConvertible {
    /// What is wrong, one lowercase sentence fragment.
    var message: String
    /// The 0-based byte offset where it went wrong.
    var offset: Int

    package var description: String { "\(message) at byte \(offset + 1)" }
}

extension JSON {
    /// The deepest nesting of arrays and objects ``init(parsing:)`` accepts; deeper input is refused, not recursed into.
    static let maximumDepth = 64

    /// Parses one JSON value (RFC 8259) from UTF-8 bytes, keeping numbers as their text (so a request id `7` is
    /// answered as `7`, not `7.0`), with whitespace around it and nothing else. KanbanCore's ``JSONDocument`` reads
    /// it (the one JSON reader of the package); of a key given twice in an object, the last is kept.
    /// - Throws: ``JSONParseError`` with the byte offset of the first fault.
    init(parsing bytes: [UInt8]) throws(JSONParseError) {
        do {
            self.init(try JSONDocument.parse(bytes, maximumDepth: Self.maximumDepth, subject: "the text"))
        } catch {
            throw JSONParseError(message: error.message, offset: error.offset)
        }
    }

    /// The value `document` holds, objects as dictionaries.
    private init(_ document: JSONDocument) {
        switch document.kind {
        case .null: self = .null
        case .bool(let value): self = .bool(value)
        case .number(let text): self = .number(text)
        case .string(let text): self = .string(text)
        case .array(let items): self = .array(items.map(JSON.init))
        case .object(let members): self = .object(Dictionary(members.map { ($0.key, JSON($0.value)) }, uniquingKeysWith: { _, last in last }))
        }
    }

    // MARK: Reading values

    /// The member `key` of an object; nil for anything else or a missing member.
    subscript(key: String) -> JSON? {
        guard case .object(let members) = self else { return nil }
        return members[key]
    }

    /// The text of a string.
    var stringValue: String? {
        guard case .string(let text) = self else { return nil }
        return text
    }

    /// The value of `true` or `false`.
    var boolValue: Bool? {
        guard case .bool(let value) = self else { return nil }
        return value
    }

    /// A number that is a whole number within `Int`'s range.
    var integerValue: Int? {
        guard case .number(let text) = self else { return nil }
        if let value = Int(text) { return value }
        guard let value = Double(text), value.rounded() == value, abs(value) < 9.0e15 else { return nil }
        return Int(value)
    }

    /// The items of an array.
    var arrayValue: [JSON]? {
        guard case .array(let items) = self else { return nil }
        return items
    }

    /// The members of an object.
    var objectValue: [String: JSON]? {
        guard case .object(let members) = self else { return nil }
        return members
    }
}

