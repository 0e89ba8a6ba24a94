/// A JSON value written by hand so that output is stable: keys sorted, numbers as written, no platform quirks.
indirect enum JSON: Sendable, Equatable {
    case string(String)
    /// A number kept as its decimal text, so `2` stays `2` and `1.50` stays `1.50`.
    case number(String)
    case bool(Bool)
    case null
    case array([JSON])
    case object([String: JSON])

    /// Compact JSON on one line (for `--json` on streams and arrays printed one per line) or indented.
    func rendered(pretty: Bool = true) -> String {
        var output = ""
        write(to: &output, pretty: pretty, indent: 0)
        return output
    }

    func write(to output: inout String, pretty: Bool, indent: Int) {
        switch self {
        case .string(let text):
            JSON.quote(text, into: &output)
        case .number(let text):
            output += text
        case .bool(let value):
            output += value ? "true" : "false"
        case .null:
            output += "null"
        case .array(let items):
            if items.isEmpty {
                output += "[]"
                return
            }
            output += "["
            for (index, item) in items.enumerated() {
                if index > 0 { output += "," }
                if pretty { output += "\n" + String(repeating: "  ", count: indent + 1) }
                item.write(to: &output, pretty: pretty, indent: indent + 1)
            }
            if pretty { output += "\n" + String(repeating: "  ", count: indent) }
            output += "]"
        case .object(let members):
            if members.isEmpty {
                output += "{}"
                return
            }
            output += "{"
            for (index, key) in members.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }).enumerated() {
                if index > 0 { output += "," }
                if pretty { output += "\n" + String(repeating: "  ", count: indent + 1) }
                JSON.quote(key, into: &output)
                output += pretty ? ": " : ":"
                members[key]?.write(to: &output, pretty: pretty, indent: indent + 1)
            }
            if pretty { output += "\n" + String(repeating: "  ", count: indent) }
            output += "}"
        }
    }

    /// Whether `bytes` go into a JSON string as they are: no control character, `"`, `\\` or DEL, and no `E2` that
    /// may start U+2028 or U+2029 (which ``quote(_:into:)`` escapes). Eight bytes at a time.
    static func isPlain(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        /// Whether a byte of `word` is `byte` (exact: the borrow of a zero byte never makes another look zero first).
        func has(_ word: UInt64, _ byte: UInt8) -> Bool {
            let pattern = word ^ (0x0101_0101_0101_0101 &* UInt64(byte))
            return (pattern &- 0x0101_0101_0101_0101) & ~pattern & 0x8080_8080_8080_8080 != 0
        }
        var index = 0
        while index + 8 <= bytes.count {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            // A byte below 0x20, or one of the four others.
            if (word &- 0x2020_2020_2020_2020) & ~word & 0x8080_8080_8080_8080 != 0 || has(word, 0x22) || has(word, 0x5C)
                || has(word, 0x7F) || has(word, 0xE2) {
                return false
            }
            index += 8
        }
        while index < bytes.count {
            let byte = base[index]
            if byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x7F || byte == 0xE2 { return false }
            index += 1
        }
        return true
    }

    static func quote(_ text: String, into output: inout String) {
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
            case _ where scalar.value < 0x20 || scalar.value == 0x7F || scalar.value == 0x2028 || scalar.value == 0x2029:
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default:
                output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}
