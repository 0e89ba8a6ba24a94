import Foundation

/// How SimpleKanban reads and writes the values it owns, which kanban reads and writes the same way.
///
/// The app does not read YAML: it splits each frontmatter line at its first `:`, trims the value, and (in a card)
/// removes a surrounding pair of `"` and turns `\"` into `"`. So `title: Fix bug #123` is `Fix bug #123` to the
/// app (a YAML reader takes `#123` for a comment), `title: [WIP] login` is `[WIP] login` (not a flow list), and
/// `title: "C:\temp"` is `C:\temp` (not a tab). For the keys it owns kanban reads what the app reads, and writes
/// what the app reads back unchanged; everything else stays YAML. See FORMAT.md, "SimpleKanban's dialect".
enum AppDialect {
    /// Which file's dialect a document follows.
    enum Kind: Sendable, Hashable {
        /// Plain YAML: no key is read the app's way.
        case yaml
        /// A card: `title`, `column`, `position`, `created`, `modified` and `labels` at the top level.
        case card
        /// `board.md`: `title` at the top level, and `id`, `name`, `color`, `collapsed` in the items of `columns`
        /// and `labels`.
        case board
    }

    /// How one value is read, when it stands on its key's line alone (nothing indented below it).
    enum Rule: Sendable, Hashable {
        /// A card's value: trimmed; a surrounding pair of `"` removed, and `\"` turned into `"`.
        case cardValue
        /// A card's `labels`: `[a, b]` split at commas, each trimmed, empty ones dropped.
        case cardLabels
        /// `board.md`'s title, and the first key of a column or label (on the `- ` line): trimmed, nothing more.
        case verbatim
        /// The other keys of a column or label: trimmed; a surrounding `"` removed from each end, nothing unescaped.
        case boardItemValue
    }

    /// The keys of a card the app owns, read line by line.
    static let cardKeys: Set<String> = ["title", "column", "position", "created", "modified"]
    /// The keys of a column or label map the app reads.
    static let boardItemKeys: Set<String> = ["id", "name", "color", "collapsed"]

    /// The rule for `key`, found at `path` (the keys of the maps around it; empty at the top level), in a file of
    /// dialect `kind`; nil when the value is plain YAML.
    /// - Parameter isFirstInItem: Whether the key stands on the `- ` line of a list item.
    static func rule(for key: String, path: [String], isFirstInItem: Bool, in kind: Kind) -> Rule? {
        switch kind {
        case .yaml:
            return nil
        case .card:
            guard path.isEmpty else { return nil }
            if cardKeys.contains(key) { return .cardValue }
            return key == "labels" ? .cardLabels : nil
        case .board:
            if path.isEmpty { return key == "title" ? .verbatim : nil }
            guard path.count == 1, path[0] == "columns" || path[0] == "labels", boardItemKeys.contains(key) else { return nil }
            return isFirstInItem ? .verbatim : .boardItemValue
        }
    }

    /// The value the app reads from `raw`, the rest of the key's line after the `:`; nil when the rule does not
    /// apply to it (labels that are not in brackets), and the value is read as YAML.
    static func value(_ raw: Substring, rule: Rule) -> YAMLValue? {
        let text = trimmed(raw)
        switch rule {
        case .cardValue:
            if text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") {
                return .scalar(YAMLScalar(String(text.dropFirst().dropLast()).replacingOccurrences(of: "\\\"", with: "\"")))
            }
            return .scalar(YAMLScalar(text))
        case .cardLabels:
            guard text.count >= 2, text.hasPrefix("["), text.hasSuffix("]") else { return nil }
            let items = text.dropFirst().dropLast().split(separator: ",", omittingEmptySubsequences: false)
                .map { trimmed($0) }.filter { !$0.isEmpty }
            return .list(items.map { .scalar(YAMLScalar($0)) })
        case .verbatim:
            return .scalar(YAMLScalar(text))
        case .boardItemValue:
            guard text.hasPrefix("\""), text.hasSuffix("\"") else { return .scalar(YAMLScalar(text)) }
            return .scalar(YAMLScalar(String(text.dropFirst().dropLast())))
        }
    }

    /// `text` without the white space (tabs and Unicode spaces) the app trims at both ends.
    static func trimmed(_ text: Substring) -> String {
        text.trimmingCharacters(in: .whitespaces)
    }

    // MARK: Writing

    /// How kanban writes `value` under `rule`: one text that the app, kanban and a YAML 1.2 reader all read as
    /// `value` where there is one; else one the app (and so kanban) reads as `value`.
    ///
    /// - A card's value: plain when plain reads the same everywhere; else in double quotes with `"` written `\"`
    ///   (which the app and YAML read alike when the value holds no `\`); else (a value needing quotes and holding a
    ///   `\`) what the app itself writes, which only the app and kanban read right.
    /// - `board.md`'s title and an item's first key: always as they are (the app never unquotes them).
    /// - Another key of a column or label: plain when it reads the same everywhere; else in double quotes when the
    ///   value has no `"` or `\`; else as it is (the app reads that right) or, when it starts and ends with `"`,
    ///   with one more pair (which the app removes).
    static func text(for value: String, rule: Rule) -> String {
        switch rule {
        case .cardValue, .cardLabels:
            let quoted = "\"" + value.replacingOccurrences(of: "\"", with: "\\\"") + "\""
            let plainWorks = readsPlain(value, rule: .cardValue)
            if plainWorks && isPlainYAML(value) { return value }
            if !value.contains("\\") && !hasControlCharacters(value) { return quoted }
            return plainWorks && !appQuotes(value) ? value : quoted
        case .verbatim:
            return value
        case .boardItemValue:
            let plainWorks = readsPlain(value, rule: .boardItemValue)
            if plainWorks && isPlainYAML(value) { return value }
            if !value.contains("\"") && !value.contains("\\") && !hasControlCharacters(value) { return "\"" + value + "\"" }
            return plainWorks ? value : "\"" + value + "\""
        }
    }

    /// A card's labels marked to be written as they are between the brackets of `labels: [a, b]`, the only form the
    /// app reads; nil when one of them would not read back so (it is empty, holds a comma or a control character, or
    /// starts or ends with white space), and the list is to be written as YAML instead.
    ///
    /// The app reads no quotes in a label, so `2024`, `on` and `~` are written bare: quoted, they would be labels
    /// with quotes in them, to the app and to kanban. No form of such a label reads the same to a YAML reader (it
    /// takes `2024` for a number, `~` for null), and the app's reading wins.
    ///
    /// - Complexity: O(n) in the total length of the labels.
    static func labelItems(_ items: [YAMLValue]) -> [YAMLValue]? {
        var marked: [YAMLValue] = []
        marked.reserveCapacity(items.count)
        for item in items {
            guard case .scalar(var scalar) = item, readsAsLabel(scalar.value) else { return nil }
            scalar.writtenAs = scalar.value
            marked.append(.scalar(scalar))
        }
        return marked
    }

    /// The label id a label read with quotes around it stands for: `"2024"`, `'on'`, and the `"\"2024\""` and deeper
    /// nestings that earlier versions of kanban wrote by quoting such a label once more on every edit, all stand for
    /// `2024`. Nil when `label` is not in quotes, or when what is inside them is no valid label id.
    static func unquotedLabel(_ label: String) -> String? {
        var text = label
        while text.count >= 2, let quote = text.first, quote == "\"" || quote == "'", text.last == quote {
            let inside = text.dropFirst().dropLast()
            text = quote == "'" ? inside.replacingOccurrences(of: "''", with: "'") : unescapedDoubleQuoted(inside)
        }
        return text != label && Label.isValidID(text) ? text : nil
    }

    /// The text of a double-quoted YAML scalar whose inside is `inside`, for the two escapes a label can need:
    /// `\"` and `\\`. Other escapes are kept as they are.
    private static func unescapedDoubleQuoted(_ inside: Substring) -> String {
        var text = ""
        var isEscaped = false
        for character in inside {
            if isEscaped {
                if character != "\"" && character != "\\" { text.append("\\") }
                text.append(character)
                isEscaped = false
            } else if character == "\\" {
                isEscaped = true
            } else {
                text.append(character)
            }
        }
        if isEscaped { text.append("\\") }
        return text
    }

    /// Whether the app reads `label`, written as it is as one item of `labels: [a, b]`, back as `label`.
    static func readsAsLabel(_ label: String) -> Bool {
        let scalars = label.unicodeScalars
        guard let first = scalars.first, let last = scalars.last,
              !first.properties.isWhitespace, !last.properties.isWhitespace else { return false }
        return !scalars.contains { scalar in
            scalar == "," || scalar.value < 0x20 || (scalar.value >= 0x7F && scalar.value <= 0x9F)
                || scalar.value == 0x2028 || scalar.value == 0x2029
        }
    }

    /// Whether the app reads `value`, written plain under `rule`, as `value`.
    static func readsPlain(_ value: String, rule: Rule) -> Bool {
        guard !value.isEmpty, trimmed(value[...]) == value, !value.contains("\n") else { return false }
        switch rule {
        case .cardValue, .cardLabels: return !(value.count >= 2 && value.hasPrefix("\"") && value.hasSuffix("\""))
        case .verbatim: return true
        case .boardItemValue: return !(value.hasPrefix("\"") && value.hasSuffix("\""))
        }
    }

    /// Whether the app's own writer puts `value` (a title or column) in quotes.
    static func appQuotes(_ value: String) -> Bool {
        value.contains(":") || value.contains("\"") || value.hasPrefix(" ") || value.hasSuffix(" ") || value.hasPrefix("#")
    }

    /// Whether a YAML 1.2 reader reads `value`, written plain after `key: `, as the string `value`.
    static func isPlainYAML(_ value: String) -> Bool {
        switch YAMLScalarWriter.plainVerdict(value, in: .block) {
        case .safe: return true
        case .unsafe: return false
        case .typed: return !YAMLScalarWriter.isTypedInYAML12(value)
        }
    }

    private static func hasControlCharacters(_ value: String) -> Bool {
        value.unicodeScalars.contains { $0.value < 0x20 && $0 != "\t" || ($0.value >= 0x7F && $0.value <= 0x9F) }
    }

    // MARK: What only some readers agree on

    /// A value SimpleKanban owns whose text another reader may read otherwise, as the parser found it.
    struct Reading: Sendable, Hashable {
        /// The key, and the keys of the maps around it (`["columns"]` for a column's `name`).
        var key: String
        var path: [String]
        /// The 1-based line and column of the value (of the key's line end when there is none).
        var line: Int
        var column: Int
        /// The text after the `:`, trimmed.
        var written: String
        /// What the app reads; nil when it reads nothing kanban can use: the value continues on the lines below,
        /// or labels are not written `[a, b]`. Kanban then reads the value as YAML.
        var value: YAMLValue?
        var rule: Rule
    }

    /// Whether a value written `written` on its key's line might read differently in the app, in kanban and in a
    /// YAML reader: a cheap test, true for any text holding a character YAML treats specially (or a word it reads
    /// as null), so that only those are compared closely (``disagreement(_:)``).
    /// - Parameters:
    ///   - continues: Whether indented lines below continue the value.
    ///   - read: What the app reads from `written`, nil when it reads nothing kanban uses.
    static func mayReadDifferently(_ written: String, continues: Bool, read: YAMLValue?) -> Bool {
        if continues { return true }
        guard read != nil else { return !written.isEmpty }
        var text = written[...]
        if case .list = read, text.hasPrefix("["), text.hasSuffix("]") { text = text.dropFirst().dropLast() }
        let nulls: Set<String> = ["~", "null", "Null", "NULL"]
        if nulls.contains(String(text)) { return true }
        if case .list(let items) = read, items.contains(where: { nulls.contains($0.string ?? "") }) { return true }
        if let first = text.unicodeScalars.first, first == "-" || first.value >= 0x80 && first.properties.isWhitespace { return true }
        if let last = text.unicodeScalars.last, last.value >= 0x80 && last.properties.isWhitespace { return true }
        let special = Set(#""'#:[]{}\&*!|>%@`?~"#.utf8)
        let isList = if case .list = read { true } else { false }
        return text.utf8.contains { byte in
            special.contains(byte) || byte < 0x20 || byte == 0x7F || (byte == UInt8(ascii: ",") && !isList)
        }
    }

    /// What is wrong with `reading`, for `kanban doctor`: one sentence saying what the app (and kanban) read and
    /// what a YAML reader reads, and how to write the value so that all agree where one way exists; nil when they
    /// all agree after all.
    static func disagreement(_ reading: Reading) -> String? {
        let name = (reading.path.last.map { $0 + " " } ?? "") + "'\(reading.key)'"
        guard let value = reading.value else {
            if reading.rule == .cardLabels {
                return "SimpleKanban reads labels only written [a, b] on the key's line, and sees none here"
            }
            let seen = reading.written.isEmpty ? "nothing" : "only '\(reading.written)'"
            return "\(name) goes on over several lines; SimpleKanban reads \(seen), kanban reads it as YAML; write it on one line"
        }
        guard let yaml = yamlReading(of: reading.written, appValue: value) else { return nil }
        var message = "\(name) reads as \(describe(value)) in SimpleKanban and kanban, but as \(yaml) in YAML"
        if case .scalar(let scalar) = value {
            let suggestion = text(for: scalar.value, rule: reading.rule)
            if suggestion != reading.written, yamlReading(of: suggestion, appValue: value) == nil {
                message += "; write it as '\(reading.key): \(suggestion)' to read the same everywhere"
            } else {
                message += "; no way of writing it reads the same in both"
            }
        }
        return message
    }

    /// `value` for a message: text in quotes, and in a list a YAML reader read (`asYAML`), a plain null as `null`, so
    /// that the app's `['~']` and YAML's `[null]` read as the two things they are.
    private static func describe(_ value: YAMLValue, asYAML: Bool = false) -> String {
        switch value {
        case .scalar(let scalar): return "'\(scalar.value)'"
        case .list(let items):
            return "[" + items.map { item in
                guard case .scalar(let scalar) = item else { return "?" }
                let isNull = asYAML && scalar.style == .plain && YAMLScalarWriter.typeName(scalar.value) == "null"
                return isNull ? "null" : "'\(scalar.value)'"
            }.joined(separator: ", ") + "]"
        case .map: return "a map"
        }
    }

    /// What a YAML reader makes of a value written `written` (a whole line's value) that the app reads as `value`,
    /// when the two differ in text: nil when they agree. A number or boolean YAML reads from the same text agrees
    /// (a YAML reader that wants text gets the same text back); null does not.
    static func yamlReading(of written: String, appValue value: YAMLValue) -> String? {
        let text = trimmed(written[...])
        guard let parsed = try? FrontmatterDocument(bytes: Array("---\nk: \(text)\n---\n".utf8)), let yaml = parsed.value(forKey: "k") else {
            return "nothing (it is not valid YAML)"
        }
        switch (yaml, value) {
        case (.scalar(let scalar), _):
            if scalar.style == .plain && YAMLScalarWriter.typeName(scalar.value) == "null" { return "null (no value)" }
            if case .scalar(let app) = value, app.value == scalar.value { return nil }
            return "'\(scalar.value)'"
        case (.list(let items), .list(let appItems)):
            let texts = items.map { item -> String? in
                guard case .scalar(let scalar) = item, !(scalar.style == .plain && YAMLScalarWriter.typeName(scalar.value) == "null") else { return nil }
                return scalar.value
            }
            if texts == appItems.map(\.string) { return nil }
            return describe(yaml, asYAML: true)
        case (.list, _):
            return "a list"
        case (.map, _):
            return "a map"
        }
    }
}
