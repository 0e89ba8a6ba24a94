/// Renders strings and values as YAML text that reads back as exactly the same value.
///
/// The rules aim at every reader a board meets: YAML 1.1 (PyYAML, older Ruby), YAML 1.2 and
/// SimpleKanban's own reader, which only strips surrounding double quotes and unescapes `\"`.
/// Hence plain text wherever plain is unambiguous, double quotes everywhere else.
enum YAMLScalarWriter {
    /// Where a scalar is written: flow collections also reserve `,[]{}?` and `:`.
    enum Context: Sendable {
        case block, flow
    }

    /// How one scalar is to be written.
    enum Rendering: Equatable, Sendable {
        /// On its key's or dash's line; the text is empty for a null written as `key:`.
        case inline(String, style: YAMLScalar.Style)
        /// As a block scalar (`.literal` or `.folded`) on the following lines.
        case block(YAMLScalar.Style)
    }

    /// What plain style would mean for a string.
    enum PlainVerdict: Equatable, Sendable {
        /// Reads back as the same string in every YAML reader.
        case safe
        /// Syntactically fine, but some reader resolves it to this non-string type.
        case typed(ImplicitType)
        /// Not expressible as a plain scalar.
        case unsafe
    }

    /// The non-string types a YAML 1.1 or 1.2 reader may resolve a plain scalar to.
    enum ImplicitType: Equatable, Sendable {
        case null, bool, number, timestamp, special
    }

    /// Renders a string as a scalar that every YAML 1.1 and 1.2 reader reads back as exactly `value`.
    ///
    /// Plain when safe; otherwise double-quoted with escapes (`\" \\ \n \t \r \b \f \uXXXX`).
    static func render(_ value: String) -> String {
        plainVerdict(value, in: .block) == .safe ? value : doubleQuoted(value)
    }

    /// Renders a value on one line: scalars as `render(_:)` does (honouring non-plain styles),
    /// lists as `[a, b]` and maps as `{a: 1}`.
    ///
    /// - Parameters:
    ///   - value: The value to render.
    ///   - hint: The value this one replaces, whose scalar styles are kept where they can express the new text.
    static func render(_ value: YAMLValue, style hint: YAMLValue? = nil) -> String {
        flow(value, hint: hint).text
    }

    /// Decides how to write `scalar` in `context` so that it reads back as the same text.
    ///
    /// A scalar that `prefersUnquoted` is plain whenever plain syntax allows. The scalar's own style wins when it is not `.plain`; else the original's style is kept when
    /// it can express the new text: plain stays plain when safe, or when the original plain text
    /// resolved to the same type (a timestamp replaced by a timestamp, `~` by `null`); single
    /// quotes stay when the text has no control characters; block scalars stay when the text fits
    /// one. Everything else is double-quoted. An empty plain scalar in block context is written as
    /// nothing (`key:`), which reads back as the empty string (and as null).
    static func rendering(of scalar: YAMLScalar, original: YAMLScalar?, context: Context) -> Rendering {
        if let written = scalar.writtenAs { return .inline(written, style: .plain) }
        let text = scalar.value
        let style = scalar.style != .plain ? scalar.style : (original?.style ?? .plain)
        if text.isEmpty, context == .block, style != .singleQuoted, style != .doubleQuoted {
            return .inline("", style: .plain)
        }
        switch style {
        case .plain where scalar.prefersUnquoted:
            if case .unsafe = plainVerdict(text, in: context) {
                return .inline(doubleQuoted(text), style: .doubleQuoted)
            }
            return .inline(text, style: .plain)
        case .plain:
            return plainOrDoubleQuoted(text, original: original, context: context)
        case .singleQuoted:
            if let quoted = singleQuoted(text) { return .inline(quoted, style: .singleQuoted) }
            return .inline(doubleQuoted(text), style: .doubleQuoted)
        case .doubleQuoted:
            return .inline(doubleQuoted(text), style: .doubleQuoted)
        case .literal, .folded:
            if context == .block {
                if canWriteBlock(text, folded: style == .folded) { return .block(style) }
                if style == .folded, canWriteBlock(text, folded: false) { return .block(.literal) }
            }
            return plainOrDoubleQuoted(text, original: nil, context: context)
        }
    }

    private static func plainOrDoubleQuoted(_ text: String, original: YAMLScalar?, context: Context) -> Rendering {
        let verdict = plainVerdict(text, in: context)
        if verdict == .safe { return .inline(text, style: .plain) }
        if case .typed(let type) = verdict, type != .special, let original, original.style == .plain,
            plainVerdict(original.value, in: context) == verdict
        {
            return .inline(text, style: .plain)
        }
        return .inline(doubleQuoted(text), style: .doubleQuoted)
    }

    /// Whether `value` can be written plain in `context`, and what type readers would give it.
    static func plainVerdict(_ value: String, in context: Context) -> PlainVerdict {
        let bytes = Array(value.utf8)
        guard let first = bytes.first, let last = bytes.last else { return .unsafe }
        switch first {
        case UInt8(ascii: "-"), UInt8(ascii: "?"), UInt8(ascii: ":"), UInt8(ascii: ","), UInt8(ascii: "["),
            UInt8(ascii: "]"), UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "#"), UInt8(ascii: "&"),
            UInt8(ascii: "*"), UInt8(ascii: "!"), UInt8(ascii: "|"), UInt8(ascii: ">"), UInt8(ascii: "'"),
            UInt8(ascii: "\""), UInt8(ascii: "%"), UInt8(ascii: "@"), UInt8(ascii: "`"), UInt8(ascii: " "),
            UInt8(ascii: "\t"):
            return .unsafe
        default:
            break
        }
        if last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") || last == UInt8(ascii: ":") { return .unsafe }
        // `...` at the start of a line ends a YAML document (as a key it would be at a line start).
        if bytes.starts(with: [UInt8(ascii: "."), UInt8(ascii: "."), UInt8(ascii: ".")]) { return .unsafe }
        for index in bytes.indices {
            let byte = bytes[index]
            let next = index + 1 < bytes.count ? bytes[index + 1] : 0
            let afterNext = index + 2 < bytes.count ? bytes[index + 2] : 0
            switch byte {
            case 0..<0x20, 0x7F:
                return .unsafe
            case UInt8(ascii: ":"):
                if context == .flow || next == UInt8(ascii: " ") || next == UInt8(ascii: "\t") { return .unsafe }
            case UInt8(ascii: "#"):
                let previous = bytes[index - 1]
                if previous == UInt8(ascii: " ") || previous == UInt8(ascii: "\t") { return .unsafe }
            case UInt8(ascii: ","), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "{"), UInt8(ascii: "}"),
                UInt8(ascii: "?"):
                // PyYAML (YAML 1.1) also ends a plain scalar at `?` inside a flow collection.
                if context == .flow { return .unsafe }
            case 0xC2:
                if (0x80...0x9F).contains(next) { return .unsafe }  // C1 controls, NEL
            case 0xE2:
                if next == 0x80, afterNext == 0xA8 || afterNext == 0xA9 { return .unsafe }  // U+2028, U+2029
            case 0xEF:
                if next == 0xBB, afterNext == 0xBF { return .unsafe }  // U+FEFF
                if next == 0xBF, afterNext == 0xBE || afterNext == 0xBF { return .unsafe }  // U+FFFE, U+FFFF
            default:
                break
            }
        }
        if let type = implicitType(bytes) { return .typed(type) }
        return .safe
    }

    /// Whether a YAML 1.2 reader (the core schema) reads the plain scalar `value` as something other than text: null,
    /// a boolean, an integer or a float. (YAML 1.1 has more: `yes`, `on`, dates; ``plainVerdict(_:in:)`` errs that way.)
    static func isTypedInYAML12(_ value: String) -> Bool {
        typeName(value) != nil
    }

    /// `null`, `boolean`, `number`, or nil for text: what a YAML 1.2 reader (the core schema) makes of the plain `value`.
    static func typeName(_ value: String) -> String? {
        switch value {
        case "", "~", "null", "Null", "NULL": return "null"
        case "true", "True", "TRUE", "false", "False", "FALSE": return "boolean"
        case ".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF": return "number"
        default: break
        }
        var bytes = Array(value.utf8)[...]
        if bytes.starts(with: Array("0o".utf8)), bytes.count > 2, bytes.dropFirst(2).allSatisfy({ $0 >= 0x30 && $0 <= 0x37 }) { return "number" }
        if bytes.starts(with: Array("0x".utf8)), bytes.count > 2,
           bytes.dropFirst(2).allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x66) }) { return "number" }
        if bytes.first == UInt8(ascii: "-") || bytes.first == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
        func digits(_ slice: inout ArraySlice<UInt8>) -> Int {
            var count = 0
            while let first = slice.first, first >= 0x30 && first <= 0x39 { slice = slice.dropFirst(); count += 1 }
            return count
        }
        var mantissa = digits(&bytes)
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            mantissa += digits(&bytes)
        }
        guard mantissa > 0 else { return nil }
        if let first = bytes.first, first == UInt8(ascii: "e") || first == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if bytes.first == UInt8(ascii: "-") || bytes.first == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
            guard digits(&bytes) > 0 else { return nil }
        }
        return bytes.isEmpty ? "number" : nil
    }

    /// The type a YAML 1.1 or 1.2 reader may give the plain scalar `bytes`, erring towards a type.
    private static func implicitType(_ bytes: [UInt8]) -> ImplicitType? {
        let lowered = bytes.map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 + 32 : $0 }
        switch String(decoding: lowered, as: UTF8.self) {
        case "~", "null": return .null
        case "y", "yes", "n", "no", "true", "false", "on", "off": return .bool
        case "<<", "=": return .special
        case ".inf", "+.inf", "-.inf", ".nan": return .number
        default: break
        }
        func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        if bytes.count >= 5, bytes[0..<4].allSatisfy(isDigit), bytes[4] == UInt8(ascii: "-") { return .timestamp }
        var start = 0
        if bytes[0] == UInt8(ascii: "+") || bytes[0] == UInt8(ascii: "-") { start = 1 }
        guard start < bytes.count, isDigit(bytes[start]) || bytes[start] == UInt8(ascii: ".") else { return nil }
        let isNumeric = lowered[start...].allSatisfy { byte in
            isDigit(byte) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f"))
                || byte == UInt8(ascii: "x") || byte == UInt8(ascii: "o") || byte == UInt8(ascii: "_")
                || byte == UInt8(ascii: ".") || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "+")
                || byte == UInt8(ascii: "-")
        }
        return isNumeric ? .number : nil
    }

    /// `value` in double quotes, escaping `"`, `\`, control characters and Unicode line separators.
    static func doubleQuoted(_ value: String) -> String {
        var output = "\""
        output.reserveCapacity(value.utf8.count + 2)
        for scalar in value.unicodeScalars {
            switch scalar.value {
            case 0x22: output += "\\\""
            case 0x5C: output += "\\\\"
            case 0x0A: output += "\\n"
            case 0x09: output += "\\t"
            case 0x0D: output += "\\r"
            case 0x08: output += "\\b"
            case 0x0C: output += "\\f"
            default:
                if needsEscape(scalar) {
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        output += "\""
        return output
    }

    /// `value` in single quotes (`'` doubled), or `nil` when it has characters single quotes cannot hold.
    static func singleQuoted(_ value: String) -> String? {
        var output = "'"
        for scalar in value.unicodeScalars {
            if scalar == "\n" || scalar == "\t" || needsEscape(scalar) { return nil }
            output.unicodeScalars.append(scalar)
            if scalar == "'" { output += "'" }
        }
        return output + "'"
    }

    /// Whether `value` can be written as a literal (or, with `folded`, a folded) block scalar that reads back exactly.
    static func canWriteBlock(_ value: String, folded: Bool) -> Bool {
        var hasContent = false
        var atLineStart = true
        for scalar in value.unicodeScalars {
            if scalar == "\n" {
                atLineStart = true
                continue
            }
            if scalar != "\t", needsEscape(scalar) { return false }
            if folded, atLineStart, scalar == " " || scalar == "\t" { return false }
            atLineStart = false
            hasContent = true
        }
        return hasContent
    }

    /// Characters that must be escaped wherever they appear: C0 and C1 controls (other than
    /// those with short escapes), DEL, the Unicode line and paragraph separators, the BOM and
    /// the non-characters U+FFFE and U+FFFF.
    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F...0x9F, 0x2028, 0x2029, 0xFEFF, 0xFFFE, 0xFFFF: return true
        default: return false
        }
    }

    /// Renders `value` in flow style, returning the text and the value as a reader will see it.
    static func flow(_ value: YAMLValue, hint: YAMLValue?) -> (text: String, value: YAMLValue) {
        switch value {
        case .scalar(let scalar):
            let original: YAMLScalar? = if case .scalar(let hinted) = hint { hinted } else { nil }
            switch rendering(of: scalar, original: original, context: .flow) {
            case .inline(let text, let style):
                return (text, .scalar(YAMLScalar(scalar.value, style: style)))
            case .block:
                return (doubleQuoted(scalar.value), .scalar(YAMLScalar(scalar.value, style: .doubleQuoted)))
            }
        case .list(let items):
            let originals = hint?.list ?? []
            let hints = ListHints(originals)
            var parts: [String] = []
            var written: [YAMLValue] = []
            for (index, item) in items.enumerated() {
                let original = hints.index(for: item, at: index).map { originals[$0] }
                let (text, value) = flow(item, hint: original)
                parts.append(text)
                written.append(value)
            }
            return ("[" + parts.joined(separator: ", ") + "]", .list(written))
        case .map(let entries):
            let originals = hint?.map ?? []
            var parts: [String] = []
            var written: [YAMLMapEntry] = []
            var seen = Set<String>()
            for entry in entries where seen.insert(entry.key).inserted {
                let key = plainVerdict(entry.key, in: .flow) == .safe ? entry.key : doubleQuoted(entry.key)
                let original = originals.first(where: { $0.key == entry.key })?.value
                let (text, value) = flow(entry.value, hint: original)
                parts.append(key + ": " + text)
                written.append(YAMLMapEntry(key: entry.key, value: value))
            }
            return ("{" + parts.joined(separator: ", ") + "}", .map(written))
        }
    }

    /// Which of the original list's items should guide the style of each new item, worked out once for the whole
    /// list so that rewriting a list is linear in its length (a card with 80,000 labels is rewritten in one pass).
    ///
    /// A scalar follows an original item with the same text, else the common style of the original scalars (if
    /// they share one); a collection follows the original item at its index, else the first original of its kind.
    struct ListHints {
        private let originals: [YAMLValue]
        /// The first original scalar with each text.
        private var scalarByText: [String: Int] = [:]
        /// The last original scalar, when all original scalars share one style.
        private var uniformScalar: Int?
        private var firstList: Int?
        private var firstMap: Int?

        init(_ originals: [YAMLValue]) {
            self.originals = originals
            var style: YAMLScalar.Style?
            var isUniform = true
            for (position, original) in originals.enumerated() {
                switch original {
                case .scalar(let scalar):
                    if scalarByText[scalar.value] == nil { scalarByText[scalar.value] = position }
                    if let style, style != scalar.style { isUniform = false }
                    style = scalar.style
                    uniformScalar = position
                case .list:
                    if firstList == nil { firstList = position }
                case .map:
                    if firstMap == nil { firstMap = position }
                }
            }
            if !isUniform { uniformScalar = nil }
        }

        /// The index of the original that guides `item`, which stands at `index` in the new list.
        func index(for item: YAMLValue, at index: Int) -> Int? {
            switch item {
            case .scalar(let scalar):
                return scalarByText[scalar.value] ?? uniformScalar
            case .list:
                if index < originals.count, originals[index].list != nil { return index }
                return firstList
            case .map:
                if index < originals.count, originals[index].map != nil { return index }
                return firstMap
            }
        }
    }
}
