import Foundation

/// SimpleKanban's own reading and writing of the format, written for these tests from the description of the app
/// (its `Shared/Sources/SimpleKanbanCore/Models.swift`), so that kanban can be checked against it both ways.
enum SimpleKanbanApp {
    // MARK: Cards

    /// The frontmatter values the app sees in a card file: each line between the `---` lines, trimmed, split at its
    /// first `:`; the value trimmed, and when it starts and ends with `"` (and has at least two characters), those
    /// removed and `\"` turned into `"`. A later line with the same key wins. Nil when the app finds no frontmatter.
    static func cardValues(_ text: String) -> [String: String]? {
        let lines = text.components(separatedBy: "\n")
        guard lines.first?.trimmingCharacters(in: .whitespaces) == "---" else { return nil }
        guard let closing = lines.indices.dropFirst().first(where: { lines[$0].trimmingCharacters(in: .whitespaces) == "---" }) else { return nil }
        var values: [String: String] = [:]
        for line in lines[1..<closing] {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty, let colon = trimmed.firstIndex(of: ":") else { continue }
            let key = String(trimmed[..<colon]).trimmingCharacters(in: .whitespaces)
            var value = String(trimmed[trimmed.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
            if value.hasPrefix("\"") && value.hasSuffix("\"") && value.count >= 2 {
                value = String(value.dropFirst().dropLast()).replacingOccurrences(of: "\\\"", with: "\"")
            }
            values[key] = value
        }
        return values
    }

    /// The labels the app reads from a `labels:` value: `[a, b]` split at commas, each trimmed, empty ones dropped;
    /// anything not in brackets is no labels.
    static func labels(_ value: String?) -> [String] {
        guard let trimmed = value?.trimmingCharacters(in: .whitespaces), trimmed.hasPrefix("["), trimmed.hasSuffix("]"), trimmed.count >= 2 else { return [] }
        return trimmed.dropFirst().dropLast().components(separatedBy: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// How the app writes `title:` and `column:` values: as they are, unless they hold `:` or `"`, start or end with
    /// a space, or start with `#`; then in double quotes with `"` written `\"` and nothing else escaped.
    static func escape(_ value: String) -> String {
        let quoted = value.contains(":") || value.contains("\"") || value.hasPrefix(" ") || value.hasSuffix(" ") || value.hasPrefix("#")
        return quoted ? "\"" + value.replacingOccurrences(of: "\"", with: "\\\"") + "\"" : value
    }

    /// A card file as the app writes it.
    static func cardFile(title: String, column: String, position: String, labels: [String], body: String) -> String {
        var lines = ["---", "title: \(escape(title))", "column: \(escape(column))", "position: \(position)",
                     "created: 2026-01-05T10:00:00Z", "modified: 2026-01-05T10:00:00Z", "labels: [\(labels.joined(separator: ", "))]", "---", ""]
        if !body.isEmpty { lines.append(body) }
        return lines.joined(separator: "\n")
    }

    // MARK: Boards

    /// What the app reads from a `board.md`: the title (a top-level value, never unquoted), and the columns and
    /// labels, lists of maps whose first key sits on the `- ` line (never unquoted) and whose other keys sit on lines
    /// indented four spaces (unquoted: surrounding `"` removed, nothing unescaped). A column needs `id` and `name`,
    /// a label `id`, `name` and `color`; the others are dropped.
    struct Board: Equatable {
        var title: String?
        var columns: [(id: String, name: String, collapsed: Bool)]
        var labels: [(id: String, name: String, color: String)]

        static func == (lhs: Board, rhs: Board) -> Bool {
            lhs.title == rhs.title && lhs.columns.map { "\($0.id)|\($0.name)|\($0.collapsed)" } == rhs.columns.map { "\($0.id)|\($0.name)|\($0.collapsed)" }
                && lhs.labels.map { "\($0.id)|\($0.name)|\($0.color)" } == rhs.labels.map { "\($0.id)|\($0.name)|\($0.color)" }
        }
    }

    static func board(_ text: String) -> Board? {
        let lines = text.components(separatedBy: "\n")
        guard lines.first?.trimmingCharacters(in: .whitespaces) == "---" else { return nil }
        guard let closing = lines.indices.dropFirst().first(where: { lines[$0].trimmingCharacters(in: .whitespaces) == "---" }) else { return nil }
        var result: [String: Any] = [:]
        var array: [[String: String]]?
        var arrayKey: String?
        var item: [String: String] = [:]
        for line in lines[1..<closing] {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty { continue }
            if trimmed.hasPrefix("- ") {
                if !item.isEmpty { array?.append(item); item = [:] }
                let content = String(trimmed.dropFirst(2))
                if let colon = content.firstIndex(of: ":") {
                    item[String(content[..<colon]).trimmingCharacters(in: .whitespaces)] =
                        String(content[content.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
                }
            } else if line.hasPrefix("    ") && arrayKey != nil {
                if let colon = trimmed.firstIndex(of: ":") {
                    var value = String(trimmed[trimmed.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
                    if value.hasPrefix("\"") && value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
                    item[String(trimmed[..<colon]).trimmingCharacters(in: .whitespaces)] = value
                }
            } else if let colon = trimmed.firstIndex(of: ":") {
                if !item.isEmpty { array?.append(item); item = [:] }
                if let key = arrayKey, let finished = array { result[key] = finished; array = nil; arrayKey = nil }
                let key = String(trimmed[..<colon]).trimmingCharacters(in: .whitespaces)
                let value = String(trimmed[trimmed.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
                if value.isEmpty {
                    array = []
                    arrayKey = key
                } else {
                    result[key] = value
                }
            }
        }
        if !item.isEmpty { array?.append(item) }
        if let key = arrayKey, let finished = array { result[key] = finished }
        let columns = (result["columns"] as? [[String: String]] ?? []).compactMap { entry -> (String, String, Bool)? in
            guard let id = entry["id"], let name = entry["name"] else { return nil }
            return (id, name, entry["collapsed"] == "true")
        }
        let labels = (result["labels"] as? [[String: String]] ?? []).compactMap { entry -> (String, String, String)? in
            guard let id = entry["id"], let name = entry["name"], let color = entry["color"] else { return nil }
            return (id, name, color)
        }
        return Board(title: result["title"] as? String, columns: columns.map { ($0.0, $0.1, $0.2) }, labels: labels.map { ($0.0, $0.1, $0.2) })
    }

    // MARK: Ordering keys

    /// The app's `LexPosition.between(low, high)`: `low` padded with `a` and `high` with `z` to the longer length;
    /// character by character the average (rounded down) of the two character codes, stopping at the first that
    /// is above `low`'s; when none is, `m` appended. No carry: it can fall outside the bounds.
    static func between(_ low: String, _ high: String) -> String {
        let lowCodes = low.unicodeScalars.map { Int($0.isASCII ? $0.value : 97) }
        let highCodes = high.unicodeScalars.map { Int($0.isASCII ? $0.value : 122) }
        var result = ""
        for index in 0..<max(lowCodes.count, highCodes.count) {
            let lower = index < lowCodes.count ? lowCodes[index] : 97
            let upper = index < highCodes.count ? highCodes[index] : 122
            let middle = (lower + upper) / 2
            result.unicodeScalars.append(Unicode.Scalar(UInt8(middle)))
            if middle > lower { return result }
        }
        return result + "m"
    }

    /// `between` the sentinel `` ` `` and `position`: a key before it.
    static func before(_ position: String) -> String { between("`", position) }

    /// `between` `position` and the sentinel `{`: a key after it.
    static func after(_ position: String) -> String { between(position, "{") }

    /// The key the app gives a card inserted at `index` of a column whose keys are `keys`.
    static func key(insertingAt index: Int, into keys: [String]) -> String {
        if keys.isEmpty { return "n" }
        if index == 0 { return before(keys[0]) }
        if index == keys.count { return after(keys[keys.count - 1]) }
        return between(keys[index - 1], keys[index])
    }
}
