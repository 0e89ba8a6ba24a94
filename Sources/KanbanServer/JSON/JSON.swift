/// A JSON value written by hand so that output is stable: keys sorted, numbers as written, no platform quirks.
package indirect enum JSON: Sendable, Equatable {
    case string(String)
    /// A number kept as its decimal text, so `2` stays `2` and `1.50` stays `1.50`.
    case number(String)
    case bool(Bool)
    case null
    case array([JSON])
    case object([String: JSON])
    /// A value rendered already, as compact JSON, written as it is (a server keeps its cards' JSON rendered). Only
    /// for compact output: it is not indented.
    case rendered(String)

    /// Compact JSON on one line (for `--json` on streams and arrays printed one per line) or indented.
    package func rendered(pretty: Bool = true) -> String {
        var output = ""
        write(to: &output, pretty: pretty, indent: 0)
        return output
    }

    package func write(to output: inout String, pretty: Bool, indent: Int) {
        switch self {
        case .string(let text):
            JSON.quote(text, into: &output)
        case .number(let text):
            output += text
        case .bool(let value):
            output += value ? "true" : "false"
        case .null:
            output += "null"
        case .rendered(let text):
            output += text
        case .array(let items):
            if items.isEmpty {
                output += "[]"
                return
            }
            output += "["
            for (index, item) in items.enumerated() {
                if index > 0 { output += "," }
                if pretty { JSON.newLine(indent + 1, into: &output) }
                item.write(to: &output, pretty: pretty, indent: indent + 1)
            }
            if pretty { JSON.newLine(indent, into: &output) }
            output += "]"
        case .object(let members):
            if members.isEmpty {
                output += "{}"
                return
            }
            output += "{"
            for (index, member) in members.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }).enumerated() {
                if index > 0 { output += "," }
                if pretty { JSON.newLine(indent + 1, into: &output) }
                JSON.quote(member.key, into: &output)
                output += pretty ? ": " : ":"
                member.value.write(to: &output, pretty: pretty, indent: indent + 1)
            }
            if pretty { JSON.newLine(indent, into: &output) }
            output += "}"
        }
    }

    /// Line breaks followed by two spaces per level, made once.
    private static let newLines = (0..<16).map { "\n" + String(repeating: "  ", count: $0) }

    /// A line break and `level` levels of indentation.
    private static func newLine(_ level: Int, into output: inout String) {
        if level < newLines.count {
            output += newLines[level]
        } else {
            output += "\n" + String(repeating: "  ", count: level)
        }
    }

    /// Whether `bytes` go into a JSON string as they are: no control character (C0, DEL, or a C1 control, which
    /// starts with `C2`), `"` or `\\`, and no `E2` that may start U+2028 or U+2029; ``quote(_:into:)`` escapes each.
    /// So a JSON text made by ``quote(_:into:)`` holds nothing ``VisibleControls`` would change (line feeds apart).
    /// Eight bytes at a time, the last eight overlapping those before; any byte past `7E` is looked at closely.
    package static func isPlain(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let count = bytes.count
        func isPlain(_ word: UInt64) -> Bool {
            let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
            /// Whether a byte of `word` is `byte` (exact: the borrow of a zero byte never makes another look zero first).
            func has(_ byte: UInt8) -> Bool {
                let pattern = word ^ (ones &* UInt64(byte))
                return (pattern &- ones) & ~pattern & highs != 0
            }
            // A byte below 0x20, `"` or `\`.
            if (word &- 0x2020_2020_2020_2020) & ~word & highs != 0 || has(0x22) || has(0x5C) { return false }
            // A byte of 0x7F or more (its high bit set, or the low seven bits all set): DEL, `C2`, `E2`, or other text.
            guard ((word & 0x7F7F_7F7F_7F7F_7F7F) &+ ones | word) & highs != 0 else { return true }
            return !has(0x7F) && !has(0xC2) && !has(0xE2)
        }
        guard count >= 8 else {
            // Padded with `A`s, which are plain.
            var word: UInt64 = 0x4141_4141_4141_4141
            withUnsafeMutableBytes(of: &word) { $0.copyMemory(from: UnsafeRawBufferPointer(bytes)) }
            return isPlain(word)
        }
        var index = 0
        while index + 8 < count {
            guard isPlain(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)) else { return false }
            index += 8
        }
        return isPlain(UnsafeRawPointer(base + count - 8).loadUnaligned(as: UInt64.self))
    }

    package static func quote(_ text: String, into output: inout String) {
        // Most strings need no escaping: append them whole rather than scalar by scalar.
        var bytes = text
        if bytes.withUTF8(isPlain) {
            output += "\""
            output += text
            output += "\""
            return
        }
        output += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029:
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default:
                output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}
