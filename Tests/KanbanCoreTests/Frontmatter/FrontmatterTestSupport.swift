import KanbanTestSupport
@testable import KanbanCore

/// Parses `text` as a whole file.
func frontmatterDocument(_ text: String) throws(FrontmatterError) -> FrontmatterDocument {
    try FrontmatterDocument(bytes: Array(text.utf8))
}

/// Parses `yaml` wrapped in `---` lines and returns the top-level map as a value.
func parsedFrontmatter(_ yaml: String) throws(FrontmatterError) -> YAMLValue {
    .map(try frontmatterDocument("---\n" + yaml + "---\n").entries)
}

/// The file's text (tests only build valid UTF-8).
func fileText(of document: FrontmatterDocument) -> String {
    String(decoding: document.bytes(), as: UTF8.self)
}

/// Lines of `text`, each with its line break, so that CRLF and a missing final newline show.
func textLines(_ text: String) -> [String] {
    var result: [String] = []
    var current = ""
    for character in text {
        current.append(character)
        if character == "\n" || character == "\r\n" {
            result.append(current)
            current = ""
        }
    }
    if !current.isEmpty { result.append(current) }
    return result
}

/// The lines that differ between two texts: `before` lines replaced by `after` lines, found by
/// trimming the common prefix and suffix.
func changedLines(from old: String, to new: String) -> (removed: [String], added: [String]) {
    let before = textLines(old)
    let after = textLines(new)
    var prefix = 0
    while prefix < before.count, prefix < after.count, before[prefix] == after[prefix] { prefix += 1 }
    var suffix = 0
    while suffix < before.count - prefix, suffix < after.count - prefix,
        before[before.count - 1 - suffix] == after[after.count - 1 - suffix]
    {
        suffix += 1
    }
    return (Array(before[prefix..<(before.count - suffix)]), Array(after[prefix..<(after.count - suffix)]))
}


/// Pieces that random strings are built from: the characters and words YAML treats specially.
let trickyPieces: [String] = [
    "a", "b", "Z", "0", "1", "9", " ", "  ", ":", ": ", "#", " #", "-", "- ", "?", ",", "[", "]", "{", "}",
    "&", "*", "!", "|", ">", "'", "\"", "%", "@", "`", "~", ".", "_", "\\", "\n", "\n\n", "\t", "\r", "\r\n",
    "\u{0}", "\u{7}", "\u{1B}", "\u{7F}", "\u{85}", "\u{A0}", "\u{2028}", "\u{2029}", "\u{FEFF}", "\u{FFFE}",
    "é", "ß", "日本", "😀", "y", "n", "no", "yes", "on", "off", "true", "False", "null", "NULL", "0x1F",
    "0o17", "1e3", "1_000", ".5", ".inf", "-.Inf", ".NaN", "1:20", "2026-01-05", "2026-01-05T10:00:00Z",
    "---", "...", "<<", "=", "+", "http://x.y/z?q=1#f", "\\n", "\\\"", "''",
]

/// A random string of up to `maximumPieces` tricky pieces.
func randomTrickyString(using generator: inout SeededGenerator, maximumPieces: Int = 6) -> String {
    let count = Int.random(in: 0...maximumPieces, using: &generator)
    var result = ""
    for _ in 0..<count {
        result += trickyPieces[Int.random(in: 0..<trickyPieces.count, using: &generator)]
    }
    return result
}

/// Checks that the document's model matches what parsing its bytes gives.
func reparsesToSameModel(_ document: FrontmatterDocument) -> Bool {
    guard let reparsed = try? FrontmatterDocument(bytes: document.bytes()) else { return false }
    guard reparsed.entries == document.entries, reparsed.body == document.body,
        reparsed.bodyStartLine == document.bodyStartLine, reparsed.hasFrontmatter == document.hasFrontmatter
    else { return false }
    for entry in document.entries {
        guard let mine = document.location(ofKey: entry.key), let theirs = reparsed.location(ofKey: entry.key),
            mine == theirs
        else { return false }
    }
    return true
}
