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
    /// answered as `7`, not `7.0`), with whitespace around it and nothing else.
    /// - Throws: ``JSONParseError`` with the byte offset of the first fault.
    init(parsing bytes: [UInt8]) throws(JSONParseError) {
        var parser = JSONBytesParser(bytes: bytes)
        parser.skipWhitespace()
        let value = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw JSONParseError(message: "unexpected text after the value", offset: parser.index) }
        self = value
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

/// A recursive-descent reader over a byte buffer; depth-limited so that `[[[[...` cannot exhaust the stack.
private struct JSONBytesParser {
    let bytes: [UInt8]
    var index = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    mutating func skipWhitespace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    private func fail(_ message: String) -> JSONParseError { JSONParseError(message: message, offset: index) }

    mutating func value(depth: Int) throws(JSONParseError) -> JSON {
        guard index < bytes.count else { throw fail("unexpected end of input") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object(depth: depth + 1)
        case UInt8(ascii: "["): return try array(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw fail("unexpected character")
        }
    }

    private mutating func literal(_ word: String) throws(JSONParseError) {
        let expected = Array(word.utf8)
        guard index + expected.count <= bytes.count, Array(bytes[index..<(index + expected.count)]) == expected else {
            throw fail("unexpected character")
        }
        index += expected.count
    }

    private mutating func object(depth: Int) throws(JSONParseError) -> JSON {
        guard depth <= JSON.maximumDepth else { throw fail("nested deeper than \(JSON.maximumDepth) levels") }
        index += 1
        var members: [String: JSON] = [:]
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw fail("expected a member name in quotes") }
            let key = try string()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw fail("expected ':' after a member name") }
            index += 1
            skipWhitespace()
            members[key] = try value(depth: depth)
            skipWhitespace()
            guard index < bytes.count else { throw fail("unexpected end of input") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            guard bytes[index] == UInt8(ascii: "}") else { throw fail("expected ',' or '}'") }
            index += 1
            return .object(members)
        }
    }

    private mutating func array(depth: Int) throws(JSONParseError) -> JSON {
        guard depth <= JSON.maximumDepth else { throw fail("nested deeper than \(JSON.maximumDepth) levels") }
        index += 1
        var items: [JSON] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(items)
        }
        while true {
            skipWhitespace()
            items.append(try value(depth: depth))
            skipWhitespace()
            guard index < bytes.count else { throw fail("unexpected end of input") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            guard bytes[index] == UInt8(ascii: "]") else { throw fail("expected ',' or ']'") }
            index += 1
            return .array(items)
        }
    }

    private mutating func number() throws(JSONParseError) -> JSON {
        let start = index
        func digits() -> Int {
            let from = index
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
            return index - from
        }
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        let integerStart = index
        let count = digits()
        guard count > 0 else { throw fail("expected a digit") }
        if bytes[integerStart] == UInt8(ascii: "0") && count > 1 { throw JSONParseError(message: "a number may not start with 0", offset: integerStart) }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { throw fail("expected a digit after '.'") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw fail("expected a digit in the exponent") }
        }
        return .number(String(decoding: bytes[start..<index], as: UTF8.self))
    }

    private mutating func string() throws(JSONParseError) -> String {
        index += 1
        var scalars = String.UnicodeScalarView()
        var runStart = index
        func flushRun() throws(JSONParseError) {
            guard runStart < index else { return }
            guard let text = String(validating: bytes[runStart..<index], as: UTF8.self) else {
                throw JSONParseError(message: "a string is not valid UTF-8", offset: runStart)
            }
            scalars.append(contentsOf: text.unicodeScalars)
        }
        while true {
            guard index < bytes.count else { throw fail("a string is not closed") }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                try flushRun()
                index += 1
                return String(scalars)
            }
            if byte < 0x20 { throw fail("a control character in a string must be escaped") }
            if byte != UInt8(ascii: "\\") {
                index += 1
                continue
            }
            try flushRun()
            index += 1
            guard index < bytes.count else { throw fail("a string is not closed") }
            let escape = bytes[index]
            index += 1
            switch escape {
            case UInt8(ascii: "\""): scalars.append("\"")
            case UInt8(ascii: "\\"): scalars.append("\\")
            case UInt8(ascii: "/"): scalars.append("/")
            case UInt8(ascii: "b"): scalars.append("\u{08}")
            case UInt8(ascii: "f"): scalars.append("\u{0C}")
            case UInt8(ascii: "n"): scalars.append("\n")
            case UInt8(ascii: "r"): scalars.append("\r")
            case UInt8(ascii: "t"): scalars.append("\t")
            case UInt8(ascii: "u"):
                let first = try hexQuad()
                if (0xD800...0xDBFF).contains(first) {
                    // A high surrogate must be followed by a low one; together they are one scalar.
                    guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                        throw fail("a lone surrogate in a \\u escape")
                    }
                    index += 2
                    let second = try hexQuad()
                    guard (0xDC00...0xDFFF).contains(second),
                          let scalar = Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)) else {
                        throw fail("a lone surrogate in a \\u escape")
                    }
                    scalars.append(scalar)
                } else {
                    guard let scalar = Unicode.Scalar(first) else { throw fail("a lone surrogate in a \\u escape") }
                    scalars.append(scalar)
                }
            default:
                throw JSONParseError(message: "unknown escape in a string", offset: index - 1)
            }
            runStart = index
        }
    }

    private mutating func hexQuad() throws(JSONParseError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw fail("a \\u escape needs four hex digits") }
        var value: UInt32 = 0
        for byte in bytes[index..<(index + 4)] {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw fail("a \\u escape needs four hex digits")
            }
            value = value << 4 | UInt32(digit)
        }
        index += 4
        return value
    }
}
