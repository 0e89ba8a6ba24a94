import Foundation

/// A card file's text split the simple way tests need: the frontmatter lines between the first two `---` lines,
/// and the body after the blank line that follows. Only for well-formed LF files that the test controls.
struct CardText: Equatable, CustomStringConvertible {
    /// The lines between the opening and closing `---`, without line ends.
    var frontmatter: [String]
    /// Everything after the closing `---` line and the one blank line after it.
    var body: String

    init(_ text: String) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard lines.first == "---", let close = lines.dropFirst().firstIndex(of: "---") else {
            frontmatter = []
            body = text
            return
        }
        frontmatter = Array(lines[1..<close])
        var rest = Array(lines[(close + 1)...])
        if rest.first == "" { rest.removeFirst() }
        body = rest.joined(separator: "\n")
    }

    /// The frontmatter keys in file order (top-level keys only).
    var keys: [String] {
        frontmatter.compactMap { line in
            guard let first = line.first, first != " ", first != "-", first != "#", let colon = line.firstIndex(of: ":") else {
                return nil
            }
            return String(line[..<colon])
        }
    }

    /// The text after `key: ` on the key's line, or nil.
    func value(_ key: String) -> String? {
        frontmatter.first { $0.hasPrefix(key + ":") }.map { line in
            String(line.dropFirst(key.count + 1)).trimmingCharacters(in: .whitespaces)
        }
    }

    var description: String { "---\n" + frontmatter.joined(separator: "\n") + "\n---\n\n" + body }
}

/// The lines that differ between two texts, as a multiset difference: lines only in `before` (removed) and lines
/// only in `after` (added), each in file order. Enough to say "only these lines changed" about a small edit.
func lineChanges(from before: String, to after: String) -> (removed: [String], added: [String]) {
    let old = before.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let new = after.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    var remaining: [String: Int] = [:]
    for line in new { remaining[line, default: 0] += 1 }
    var removed: [String] = []
    for line in old {
        if let count = remaining[line], count > 0 {
            remaining[line] = count - 1
        } else {
            removed.append(line)
        }
    }
    var kept: [String: Int] = [:]
    for line in old { kept[line, default: 0] += 1 }
    var added: [String] = []
    for line in new {
        if let count = kept[line], count > 0 {
            kept[line] = count - 1
        } else {
            added.append(line)
        }
    }
    return (removed, added)
}

/// Today's date in UTC as `YYYY-MM-DD`, as archive file names use it.
func utcDay(_ date: Date = Date()) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
    let parts = calendar.dateComponents([.year, .month, .day], from: date)
    return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
}

/// Whether `text` is an ISO 8601 timestamp as card files write it: `2026-01-05T10:00:00Z`.
func isTimestamp(_ text: String) -> Bool {
    text.wholeMatch(of: /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/) != nil
}
