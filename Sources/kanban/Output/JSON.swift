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

    static func quote(_ text: String, into output: inout String) {
        // Most strings need no escaping: append them whole rather than scalar by scalar.
        var bytes = text
        let isPlain = bytes.withUTF8 { utf8 in
            !utf8.contains { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0x7F || $0 == 0xE2 }
        }
        if isPlain {
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
