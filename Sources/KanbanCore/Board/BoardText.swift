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

    /// What a board view shows under a card's title: the first line of its body with text on it that is not a
    /// heading, a comment, a rule or a fence (the card template's `## Description` says nothing of the card), as
    /// plain text (the markdown of emphasis, code, links, images, list items and quotes taken away), at most 200
    /// characters.
    public static func excerpt(of body: String) -> String {
        for line in body.split(whereSeparator: \.isNewline) {
            var text = line.trimmingCharacters(in: .whitespaces)
            if text.isEmpty || text.hasPrefix("#") || text.hasPrefix("<!--") || text.hasPrefix("```") || text.hasPrefix("~~~") { continue }
            if text.allSatisfy({ "-*_=|: ".contains($0) }) { continue }  // rules and table separators
            // Only the start of a long line can be shown; the rules below must not spend time on the rest.
            if text.count > 1_000 { text = String(text.prefix(1_000)) }
            text = plainText(ofMarkdownLine: text)
            if text.isEmpty { continue }
            return text.count > 200 ? String(text.prefix(199)) + "…" : text
        }
        return ""
    }

    /// One line of markdown as the text a reader sees.
    ///
    /// Each rule runs only on a line that holds the characters it looks for: most lines are plain words, and a
    /// regular expression costs tens of microseconds even when it finds nothing (a board of 10,000 cards spent
    /// 4 s here before `kanban serve` could answer).
    static func plainText(ofMarkdownLine line: String) -> String {
        let bytes = Set(line.utf8.filter { $0 < 0x80 && !(0x30...0x39).contains($0) && !(0x41...0x5A).contains($0) && !(0x61...0x7A).contains($0) })
        func has(_ characters: String) -> Bool { characters.utf8.contains { bytes.contains($0) } }
        guard has("\\`*_[]!<>|~#+-.)") || line.first?.isNumber == true else { return line.trimmingCharacters(in: .whitespaces) }
        // Escaped characters are set aside first (as noncharacters, which text does not hold), so no rule below
        // takes them; a line that holds noncharacters itself keeps its backslashes instead.
        let setAside = "\\`*_{}[]()#+-.!|>~<".unicodeScalars.map { $0 }
        let canSetAside = has("\\") && !line.unicodeScalars.contains { (0xFDD0...0xFDEF).contains($0.value) }
        var text = !canSetAside ? line : line.replacing(/\\([\\`*_{}\[\]()#+\-.!|>~<])/) { match in
            let index = match.output.1.unicodeScalars.first.flatMap { setAside.firstIndex(of: $0) } ?? 0
            return String(Character(Unicode.Scalar(0xFDD0 + UInt32(index)) ?? " "))
        }
        // Block markers: quotes, list items, task boxes.
        if text.hasPrefix(">") { text = text.replacing(/^(>\s*)+/, with: "") }
        if let first = text.first, "-*+".contains(first) || first.isNumber { text = text.replacing(/^([-*+]|\d{1,9}[.)])\s+/, with: "") }
        if text.hasPrefix("[") { text = text.replacing(/^\[[ xX]\]\s+/, with: "") }
        // Inline: images and links keep their text, autolinks their address, code its content.
        if text.contains("](") {
            text = text.replacing(/!\[([^\]]*)\]\([^)]*\)/) { String($0.output.1) }
            text = text.replacing(/\[([^\]]*)\]\([^)]*\)/) { String($0.output.1) }
        }
        if text.contains("<") { text = text.replacing(/<((?:https?|mailto):[^>\s]+)>/) { String($0.output.1) } }
        if text.contains("`") { text = text.replacing(/`+([^`]*)`+/) { String($0.output.1) } }
        if text.contains("**") || text.contains("__") || text.contains("~~") {
            text = text.replacing(/(\*\*|__|~~)(.+?)\1/) { String($0.output.2) }
        }
        if text.contains("*") { text = text.replacing(/(^|[^\w*])\*(?!\s)([^*]+?)\*(?![\w*])/) { String($0.output.1) + String($0.output.2) } }
        if text.contains("_") { text = text.replacing(/(^|\W)_(?!\s)([^_]+?)_(?!\w)/) { String($0.output.1) + String($0.output.2) } }
        if text.hasPrefix("|") && text.hasSuffix("|") {
            text = text.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: " · ")
        }
        if canSetAside {
            text = String(String.UnicodeScalarView(text.unicodeScalars.map { scalar in
                let index = Int(scalar.value) - 0xFDD0
                return setAside.indices.contains(index) ? setAside[index] : scalar
            }))
        }
        return text.trimmingCharacters(in: .whitespaces)
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
        let code = YAMLParser.codePointName(scalar.value)
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
