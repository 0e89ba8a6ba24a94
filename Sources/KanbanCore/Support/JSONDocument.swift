import Foundation

/// A JSON value (RFC 8259) as read from bytes: each value knows the line and column it starts at, an object keeps its
/// members in order (a repeated key twice), and a number stays its text (an id `7` is echoed as `7`, a Trello `pos` of
/// `1e400` or a 40-digit issue number overflows nothing).
///
/// The one JSON reader of the package: the importers read exports with it, the servers read requests with it (see
/// `JSON(parsing:)` in KanbanServer). Hand-written rather than `JSONSerialization` so that every error, from a missing
/// comma to text cut short, names its place, the same on every platform, and deep nesting is refused, not recursed into.
package struct JSONDocument: Sendable {
    /// What a value is.
    package enum Kind: Sendable {
        case null
        case bool(Bool)
        /// The number as written.
        case number(String)
        case string(String)
        case array([JSONDocument])
        /// The members in file order (a repeated key is kept twice; ``subscript(_:)`` finds the first).
        case object([(key: String, value: JSONDocument)])
    }

    package var kind: Kind
    /// The 1-based line where the value starts.
    package var line: Int
    /// The 1-based column, in UTF-8 bytes, where the value starts.
    package var column: Int

    /// How deep arrays and objects may nest: deeper input is refused rather than risking the stack.
    package static let deepestNesting = 256

    /// The first member named `key` when this is an object that has one.
    package subscript(key: String) -> JSONDocument? {
        guard case .object(let members) = kind else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The items when this is an array.
    package var items: [JSONDocument]? {
        if case .array(let items) = kind { return items }
        return nil
    }

    /// The members when this is an object.
    package var members: [(key: String, value: JSONDocument)]? {
        if case .object(let members) = kind { return members }
        return nil
    }

    /// The text when this is a string.
    package var text: String? {
        if case .string(let text) = kind { return text }
        return nil
    }

    package var isNull: Bool {
        if case .null = kind { return true }
        return false
    }

    /// What a person calls this kind of value in an error: `a number`, `text`, `a list`...
    package var kindName: String {
        switch kind {
        case .null: "null"
        case .bool: "true or false"
        case .number: "a number"
        case .string: "text"
        case .array: "a list"
        case .object: "an object"
        }
    }

    /// Why bytes are not one JSON value: what is wrong and where (the byte offset, and the line and column).
    package struct ParseError: Error, Sendable, Equatable {
        /// What is wrong, one lowercase sentence fragment (`truncated JSON: the file ends inside a list`).
        package var message: String
        /// The 0-based byte offset where it went wrong.
        package var offset: Int
        /// The 1-based line.
        package var line: Int
        /// The 1-based column, in UTF-8 bytes.
        package var column: Int
    }

    /// Parses `bytes` (UTF-8, a byte order mark allowed) as one JSON value with nothing but white space around it.
    /// - Parameters:
    ///   - maximumDepth: How deep arrays and objects may nest; deeper input is refused, not recursed into.
    ///   - subject: What the bytes are, for messages (`the file`: "truncated JSON: the file ends inside a list").
    /// - Throws: ``ParseError`` at the first fault: text cut short, not JSON, a lone surrogate, a number with a
    ///   leading zero, bytes that are not UTF-8, nesting deeper than `maximumDepth`.
    package static func parse(_ bytes: [UInt8], maximumDepth: Int = deepestNesting, subject: String = "the file") throws(ParseError) -> JSONDocument {
        if let bad = bytes.withUnsafeBufferPointer({ UTF8Validation.firstInvalidOffset(in: $0) }) {
            var parser = Parser(bytes: Array(bytes[..<bad]), maximumDepth: maximumDepth, subject: subject)
            parser.advance(to: bad)
            throw parser.failure("\(subject) is not UTF-8 text")
        }
        var parser = Parser(bytes: bytes, maximumDepth: maximumDepth, subject: subject)
        return try parser.document()
    }

    private struct Parser {
        let bytes: [UInt8]
        let maximumDepth: Int
        let subject: String
        var index = 0
        var line = 1
        var lineStart = 0
        var depth = 0

        init(bytes: [UInt8], maximumDepth: Int, subject: String) {
            self.bytes = bytes
            self.maximumDepth = maximumDepth
            self.subject = subject
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
                index = 3
                lineStart = 3
            }
        }

        var column: Int { index - lineStart + 1 }

        func failure(_ message: String) -> ParseError {
            ParseError(message: message, offset: index, line: line, column: column)
        }

        func truncated(_ what: String) -> ParseError {
            failure("truncated JSON: \(subject) ends inside \(what)")
        }

        /// Moves to `offset` (at most the end), counting lines on the way: for an error's place.
        mutating func advance(to offset: Int) {
            while index < min(offset, bytes.count) {
                if bytes[index] == 0x0A { line += 1; lineStart = index + 1 }
                index += 1
            }
            index = offset
        }

        mutating func document() throws(ParseError) -> JSONDocument {
            skipSpace()
            guard index < bytes.count else { throw failure("\(subject) is empty, not JSON") }
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

        mutating func value() throws(ParseError) -> JSONDocument {
            let (startLine, startColumn) = (line, column)
            func made(_ kind: Kind) -> JSONDocument { JSONDocument(kind: kind, line: startLine, column: startColumn) }
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

        mutating func word(_ text: String) throws(ParseError) {
            for expected in text.utf8 {
                guard index < bytes.count else { throw truncated("'\(text)'") }
                guard bytes[index] == expected else { throw failure("expected '\(text)'") }
                index += 1
            }
        }

        mutating func number() throws(ParseError) -> String {
            let start = index
            func digits() -> Int {
                let first = index
                while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") { index += 1 }
                return index - first
            }
            if bytes[index] == UInt8(ascii: "-") { index += 1 }
            let integerStart = index
            let integerDigits = digits()
            if integerDigits > 1, bytes[integerStart] == UInt8(ascii: "0") {
                index = integerStart
                throw failure("a number cannot start with 0")
            }
            guard integerDigits > 0 else {
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

        mutating func string() throws(ParseError) -> String {
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
                        // A lone surrogate cannot be UTF-8.
                        guard let character = Unicode.Scalar(scalar) else { throw failure("\\u escapes a lone surrogate, which no text can hold") }
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

        mutating func hex4() throws(ParseError) -> UInt32 {
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

        mutating func enter() throws(ParseError) {
            depth += 1
            guard depth <= maximumDepth else {
                throw failure("lists and objects nest more than \(maximumDepth) deep")
            }
        }

        mutating func array() throws(ParseError) -> [JSONDocument] {
            try enter()
            defer { depth -= 1 }
            index += 1
            var items: [JSONDocument] = []
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

        mutating func object() throws(ParseError) -> [(key: String, value: JSONDocument)] {
            try enter()
            defer { depth -= 1 }
            index += 1
            var members: [(key: String, value: JSONDocument)] = []
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
