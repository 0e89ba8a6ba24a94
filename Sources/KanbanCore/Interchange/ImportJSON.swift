import Foundation

/// A JSON value as an importer reads it: each value knows the line and column it starts at, an object keeps its keys
/// in file order, and a number stays text (a Trello `pos` of `1e400` or a 40-digit issue number never overflows
/// anything).
///
/// Hand-written rather than `JSONSerialization` so that every error, from a missing comma to a file cut short, is
/// reported at its `path:line:column`, the same on every platform.
struct ImportJSON: Sendable {
    /// What a value is.
    enum Kind: Sendable {
        case null
        case bool(Bool)
        /// The number as written.
        case number(String)
        case string(String)
        case array([ImportJSON])
        /// The members in file order (a repeated key is kept twice; ``subscript(_:)`` finds the first).
        case object([(key: String, value: ImportJSON)])
    }

    var kind: Kind
    /// The 1-based line where the value starts.
    var line: Int
    /// The 1-based column, in UTF-8 bytes, where the value starts.
    var column: Int

    /// How deep arrays and objects may nest: deeper input is refused rather than risking the stack.
    static let deepestNesting = 256

    /// The first member named `key` when this is an object that has one.
    subscript(key: String) -> ImportJSON? {
        guard case .object(let members) = kind else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The items when this is an array.
    var items: [ImportJSON]? {
        if case .array(let items) = kind { return items }
        return nil
    }

    /// The members when this is an object.
    var members: [(key: String, value: ImportJSON)]? {
        if case .object(let members) = kind { return members }
        return nil
    }

    /// The text when this is a string.
    var text: String? {
        if case .string(let text) = kind { return text }
        return nil
    }

    var isNull: Bool {
        if case .null = kind { return true }
        return false
    }

    /// What a person calls this kind of value in an error: `a number`, `text`, `a list`...
    var kindName: String {
        switch kind {
        case .null: "null"
        case .bool: "true or false"
        case .number: "a number"
        case .string: "text"
        case .array: "a list"
        case .object: "an object"
        }
    }

    /// Parses `bytes`, after checking their size and encoding, as one JSON value.
    /// - Throws: ``KanbanError/Code/invalidArgument`` at `path:line:column` for a file over `largestFile` bytes, bytes
    ///   that are not UTF-8, JSON cut short (`truncated JSON`), anything else that is not JSON, or nesting deeper than
    ///   ``deepestNesting``.
    static func parse(_ bytes: [UInt8], path: String, largestFile: Int) throws(KanbanError) -> ImportJSON {
        try ImportText.check(bytes, path: path, largestFile: largestFile)
        var parser = Parser(bytes: bytes, path: path)
        return try parser.document()
    }

    private struct Parser {
        let bytes: [UInt8]
        let path: String
        var index = 0
        var line = 1
        var lineStart = 0
        var depth = 0

        init(bytes: [UInt8], path: String) {
            self.bytes = bytes
            self.path = path
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
                index = 3
                lineStart = 3
            }
        }

        var column: Int { index - lineStart + 1 }

        func failure(_ message: String) -> KanbanError {
            KanbanError(.invalidArgument, message, at: SourceLocation(path: path, line: line, column: column))
        }

        func truncated(_ what: String) -> KanbanError {
            failure("truncated JSON: the file ends inside \(what)")
        }

        mutating func document() throws(KanbanError) -> ImportJSON {
            skipSpace()
            guard index < bytes.count else { throw failure("the file is empty, not JSON") }
            let value = try self.value()
            skipSpace()
            guard index == bytes.count else { throw failure("text after the end of the JSON value") }
            return value
        }

        mutating func skipSpace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x09, 0x0D: index += 1
                case 0x0A:
                    index += 1
                    line += 1
                    lineStart = index
                default: return
                }
            }
        }

        mutating func value() throws(KanbanError) -> ImportJSON {
            let (startLine, startColumn) = (line, column)
            func made(_ kind: Kind) -> ImportJSON { ImportJSON(kind: kind, line: startLine, column: startColumn) }
            guard index < bytes.count else { throw truncated("a value") }
            switch bytes[index] {
            case UInt8(ascii: "{"):
                return made(.object(try object()))
            case UInt8(ascii: "["):
                return made(.array(try array()))
            case UInt8(ascii: "\""):
                return made(.string(try string()))
            case UInt8(ascii: "t"):
                try word("true")
                return made(.bool(true))
            case UInt8(ascii: "f"):
                try word("false")
                return made(.bool(false))
            case UInt8(ascii: "n"):
                try word("null")
                return made(.null)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                return made(.number(try number()))
            default:
                throw failure("\(shown(bytes[index])) cannot start a JSON value")
            }
        }

        func shown(_ byte: UInt8) -> String {
            byte >= 0x21 && byte < 0x7F ? "'\(Character(Unicode.Scalar(byte)))'" : String(format: "byte 0x%02X", byte)
        }

        mutating func word(_ text: String) throws(KanbanError) {
            for expected in text.utf8 {
                guard index < bytes.count else { throw truncated("'\(text)'") }
                guard bytes[index] == expected else { throw failure("expected '\(text)'") }
                index += 1
            }
        }

        mutating func number() throws(KanbanError) -> String {
            let start = index
            func digits() -> Int {
                let first = index
                while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") { index += 1 }
                return index - first
            }
            if bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else {
                if index == bytes.count { throw truncated("a number") }
                throw failure("a number needs a digit here")
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                guard digits() > 0 else {
                    if index == bytes.count { throw truncated("a number") }
                    throw failure("a number needs a digit after '.'")
                }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
                guard digits() > 0 else {
                    if index == bytes.count { throw truncated("a number") }
                    throw failure("a number needs a digit in its exponent")
                }
            }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }

        mutating func string() throws(KanbanError) -> String {
            index += 1
            var text: [UInt8] = []
            while true {
                guard index < bytes.count else { throw truncated("text (a string is never closed)") }
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "\""):
                    index += 1
                    return String(decoding: text, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    index += 1
                    guard index < bytes.count else { throw truncated("text (a string is never closed)") }
                    let escape = bytes[index]
                    index += 1
                    switch escape {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(escape)
                    case UInt8(ascii: "b"): text.append(0x08)
                    case UInt8(ascii: "f"): text.append(0x0C)
                    case UInt8(ascii: "n"): text.append(0x0A)
                    case UInt8(ascii: "r"): text.append(0x0D)
                    case UInt8(ascii: "t"): text.append(0x09)
                    case UInt8(ascii: "u"):
                        var scalar = try hex4()
                        if (0xD800...0xDBFF).contains(scalar), index + 1 < bytes.count,
                           bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") {
                            let saved = index
                            index += 2
                            let low = try hex4()
                            if (0xDC00...0xDFFF).contains(low) {
                                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                            } else {
                                index = saved
                            }
                        }
                        // A lone surrogate cannot be UTF-8: it becomes U+FFFD, as JSON readers commonly do.
                        let character = Unicode.Scalar(scalar) ?? "\u{FFFD}"
                        text.append(contentsOf: String(character).utf8)
                    default:
                        index -= 1
                        throw failure("\\\(shown(escape)) is not a JSON escape")
                    }
                case 0x00..<0x20:
                    if byte == 0x0A { throw failure("a line break inside text (write it as \\n)") }
                    throw failure("a control character inside text (write it as \\u00XX)")
                default:
                    text.append(byte)
                    index += 1
                }
            }
        }

        mutating func hex4() throws(KanbanError) -> UInt32 {
            var value: UInt32 = 0
            for _ in 0..<4 {
                guard index < bytes.count else { throw truncated("text (a string is never closed)") }
                let byte = bytes[index]
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: throw failure("\\u needs four hex digits")
                }
                value = value << 4 | UInt32(digit)
                index += 1
            }
            return value
        }

        mutating func enter() throws(KanbanError) {
            depth += 1
            guard depth <= ImportJSON.deepestNesting else {
                throw failure("lists and objects nest more than \(ImportJSON.deepestNesting) deep")
            }
        }

        mutating func array() throws(KanbanError) -> [ImportJSON] {
            try enter()
            defer { depth -= 1 }
            index += 1
            var items: [ImportJSON] = []
            skipSpace()
            guard index < bytes.count else { throw truncated("a list (a '[' is never closed)") }
            if bytes[index] == UInt8(ascii: "]") {
                index += 1
                return items
            }
            while true {
                skipSpace()
                items.append(try value())
                skipSpace()
                guard index < bytes.count else { throw truncated("a list (a '[' is never closed)") }
                switch bytes[index] {
                case UInt8(ascii: ","): index += 1
                case UInt8(ascii: "]"):
                    index += 1
                    return items
                default: throw failure("expected ',' or ']' in a list, found \(shown(bytes[index]))")
                }
            }
        }

        mutating func object() throws(KanbanError) -> [(key: String, value: ImportJSON)] {
            try enter()
            defer { depth -= 1 }
            index += 1
            var members: [(key: String, value: ImportJSON)] = []
            skipSpace()
            guard index < bytes.count else { throw truncated("an object (a '{' is never closed)") }
            if bytes[index] == UInt8(ascii: "}") {
                index += 1
                return members
            }
            while true {
                skipSpace()
                guard index < bytes.count else { throw truncated("an object (a '{' is never closed)") }
                guard bytes[index] == UInt8(ascii: "\"") else { throw failure("expected a key in quotes, found \(shown(bytes[index]))") }
                let key = try string()
                skipSpace()
                guard index < bytes.count else { throw truncated("an object (a '{' is never closed)") }
                guard bytes[index] == UInt8(ascii: ":") else { throw failure("expected ':' after the key \"\(key)\"") }
                index += 1
                skipSpace()
                members.append((key, try value()))
                skipSpace()
                guard index < bytes.count else { throw truncated("an object (a '{' is never closed)") }
                switch bytes[index] {
                case UInt8(ascii: ","): index += 1
                case UInt8(ascii: "}"):
                    index += 1
                    return members
                default: throw failure("expected ',' or '}' in an object, found \(shown(bytes[index]))")
                }
            }
        }
    }
}

/// Reads the members of an import's JSON with their types checked: a member of the wrong type is refused with its
/// place and a name a person recognizes (`card 3's 'name' is a number, not text`), a missing or null optional one is
/// nil.
struct ImportJSONReader {
    /// How errors name the file.
    let path: String

    func failure(_ message: String, at value: ImportJSON?) -> KanbanError {
        KanbanError(.invalidArgument, message, at: SourceLocation(path: path, line: value?.line ?? 1, column: value?.column ?? 1))
    }

    private func wrongType(_ value: ImportJSON, _ what: String, _ expected: String) -> KanbanError {
        failure("\(what) is \(value.kindName), not \(expected)", at: value)
    }

    /// The text of `object[key]`; nil when it is missing or null.
    func text(_ object: ImportJSON, _ key: String, of owner: String) throws(KanbanError) -> String? {
        guard let value = object[key], !value.isNull else { return nil }
        guard let text = value.text else { throw wrongType(value, "\(owner)'s '\(key)'", "text") }
        return text
    }

    /// The text of `object[key]`, which must be there.
    func requiredText(_ object: ImportJSON, _ key: String, of owner: String) throws(KanbanError) -> String {
        guard let text = try text(object, key, of: owner) else { throw failure("\(owner) has no '\(key)'", at: object) }
        return text
    }

    /// Whether `object[key]` is true; false when it is missing or null.
    func bool(_ object: ImportJSON, _ key: String, of owner: String) throws(KanbanError) -> Bool {
        guard let value = object[key], !value.isNull else { return false }
        guard case .bool(let flag) = value.kind else { throw wrongType(value, "\(owner)'s '\(key)'", "true or false") }
        return flag
    }

    /// The number in `object[key]` as a `Double` (`1e400` is infinity, which still sorts); nil when missing or null.
    func number(_ object: ImportJSON, _ key: String, of owner: String) throws(KanbanError) -> Double? {
        guard let value = object[key], !value.isNull else { return nil }
        guard case .number(let text) = value.kind else { throw wrongType(value, "\(owner)'s '\(key)'", "a number") }
        return Double(text)
    }

    /// The number in `object[key]` as it is written, which must be a whole number; nil when missing or null.
    func wholeNumber(_ object: ImportJSON, _ key: String, of owner: String) throws(KanbanError) -> String? {
        guard let value = object[key], !value.isNull else { return nil }
        guard case .number(let text) = value.kind, !text.contains("."), !text.lowercased().contains("e") else {
            throw wrongType(value, "\(owner)'s '\(key)'", "a whole number")
        }
        return text
    }

    /// The items of `object[key]`; empty when it is missing or null.
    func list(_ object: ImportJSON, _ key: String, of owner: String) throws(KanbanError) -> [ImportJSON] {
        guard let value = object[key], !value.isNull else { return [] }
        guard let items = value.items else { throw wrongType(value, "\(owner)'s '\(key)'", "a list") }
        return items
    }

    /// `value` itself, which must be an object.
    func object(_ value: ImportJSON, _ what: String) throws(KanbanError) -> ImportJSON {
        guard value.members != nil else { throw wrongType(value, what, "an object") }
        return value
    }

    /// The object in `object[key]`; nil when it is missing or null.
    func object(_ object: ImportJSON, _ key: String, of owner: String) throws(KanbanError) -> ImportJSON? {
        guard let value = object[key], !value.isNull else { return nil }
        return try self.object(value, "\(owner)'s '\(key)'")
    }

    /// The texts of the list in `object[key]`; empty when it is missing or null.
    func texts(_ object: ImportJSON, _ key: String, of owner: String) throws(KanbanError) -> [String] {
        var texts: [String] = []
        for item in try list(object, key, of: owner) {
            guard let text = item.text else { throw wrongType(item, "an item of \(owner)'s '\(key)'", "text") }
            texts.append(text)
        }
        return texts
    }
}

/// The checks every importer makes on a file's bytes before reading them.
enum ImportText {
    /// The most bytes an imported file may have, as for a CSV table (``CSVTable/largestFile``).
    static let largestFile = CSVTable.largestFile

    /// Refuses a file over `largestFile` bytes (before anything else is done with it) or not UTF-8 (at the first bad
    /// byte's line and column).
    static func check(_ bytes: [UInt8], path: String, largestFile: Int) throws(KanbanError) {
        guard bytes.count <= largestFile else {
            throw KanbanError(.invalidArgument, "the file is \(bytes.count) bytes, over the \(largestFile >> 20) MB an import may read",
                              at: SourceLocation(path: path))
        }
        let bad = bytes.withUnsafeBufferPointer { UTF8Validation.firstInvalidOffset(in: $0) }
        if let bad {
            let before = bytes[..<bad]
            let line = before.count { $0 == 0x0A } + 1
            let column = bad - (before.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0) + 1
            throw KanbanError(.invalidArgument, "the file is not UTF-8 text", at: SourceLocation(path: path, line: line, column: column))
        }
    }

    /// The date in `text` (ISO 8601, or Backlog.md's `2025-06-01 10:00`), taken as UTC when it names no zone.
    static func date(_ text: String) -> Date? {
        if let date = ISO8601.date(from: text) { return date }
        // `2025-06-01 10:00` has no seconds, which ISO8601 asks for.
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.utf8.count == 16 { return ISO8601.date(from: trimmed + ":00") }
        return nil
    }
}

/// Names each kept once in the order first given, found in constant time: a source with a hundred thousand columns
/// or labels is read in linear time, not quadratic.
struct ImportNames {
    private(set) var names: [String] = []
    private var indices: [String: Int] = [:]

    /// Adds `name` unless it is there; returns whether it was added.
    @discardableResult
    mutating func insert(_ name: String) -> Bool {
        guard indices[name] == nil else { return false }
        indices[name] = names.count
        names.append(name)
        return true
    }

    /// The place of `name` among the names.
    func index(of name: String) -> Int? { indices[name] }

    func contains(_ name: String) -> Bool { indices[name] != nil }

    var isEmpty: Bool { names.isEmpty }
}
