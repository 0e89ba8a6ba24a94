/// The rules for text a person or an agent gives the board (a card's title, a column's or a label's name, a field's
/// value), one function each, checked by the store before anything is written, so that the command line, the page,
/// MCP and an app refuse the same things with the same words.
///
/// Control characters are refused: a NUL cuts a C string short, and ESC, BEL and the C1 controls written into a
/// frontmatter line break its YAML and would reach the terminals of everyone who lists the board.
public enum BoardText {
    /// Why `text` cannot be a one-line name of the kind `what` names ("a card title", "a column name"), or nil when it
    /// can: not empty once trimmed, one line, and no control characters (C0 but tab, DEL, C1) nor Unicode line
    /// separators.
    /// - Parameters:
    ///   - text: The text as given (it is trimmed of white space before the check, as the store trims it).
    ///   - what: What the text is, for the message: `a card title`.
    /// - Returns: One sentence, such as `a card title cannot hold control character U+001B (ESC)`.
    public static func lineProblem(_ text: String, as what: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return "\(what) cannot be empty" }
        if trimmed.unicodeScalars.contains(where: { $0 == "\n" || $0 == "\r" || $0.value == 0x2028 || $0.value == 0x2029 }) {
            return "\(what) must be one line"
        }
        if let control = trimmed.unicodeScalars.first(where: { isControl($0) && $0 != "\t" }) {
            return "\(what) cannot hold control character \(name(of: control))"
        }
        return nil
    }

    /// Why `text` cannot be the value of a card's field, or nil when it can: line feeds and tabs are allowed (a value
    /// may span lines), other control characters are not.
    public static func fieldValueProblem(_ text: String, key: String) -> String? {
        guard let control = text.unicodeScalars.first(where: { isControl($0) && $0 != "\n" && $0 != "\t" }) else { return nil }
        return "the value of field '\(key)' cannot hold control character \(name(of: control))"
    }

    /// Whether `text` holds a C0 control, DEL or a C1 control.
    public static func hasControl(_ text: String) -> Bool {
        text.unicodeScalars.contains(where: isControl)
    }

    /// Whether `scalar` is a C0 control, DEL or a C1 control.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// `U+001B (ESC)`: a control character named so that a person can tell which one it was.
    static func name(of scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        let names: [UInt32: String] = [0x00: "NUL", 0x07: "BEL", 0x08: "BS", 0x09: "TAB", 0x0A: "LF", 0x0D: "CR", 0x1B: "ESC", 0x7F: "DEL"]
        return names[scalar.value].map { "\(code) (\($0))" } ?? code
    }
}

extension YAMLValue {
    /// The text of every scalar in this value, lists and maps included (map keys too), in order.
    var stringValues: [String] {
        switch self {
        case .scalar(let scalar): [scalar.value]
        case .list(let items): items.flatMap(\.stringValues)
        case .map(let entries): entries.flatMap { [$0.key] + $0.value.stringValues }
        }
    }
}
