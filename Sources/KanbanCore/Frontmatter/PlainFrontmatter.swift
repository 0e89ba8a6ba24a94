/// Reads frontmatter of the plainest kind in one pass over the bytes, without the YAML parser, for loading many
/// cards quickly. Anything less plain gives nil, and the caller then uses ``FrontmatterDocument``, so the two
/// never disagree: where this reader answers, its entries and body are exactly the parser's (a differential test
/// checks that on a hundred thousand generated files, plain and nearly plain).
///
/// Plain means all of this:
/// - the file is valid UTF-8 and starts with `---` and a line feed (no byte order mark, no CRLF in the frontmatter);
/// - every line up to the closing `---` line is `key: value` starting in column 1: a key of ASCII letters, digits,
///   `_` and `-` (not starting with `-`), a colon, one space and a value; no key twice;
/// - a value is a plain scalar that needs no interpretation: it does not start with a YAML indicator or a space,
///   holds no `: `, ` #`, tab or control character, and does not end with a space or a colon; or a flow list
///   `[]` / `[a, b]` whose items are words of letters, digits, non-ASCII characters, `_`, `.` and `/`
///   (not starting with `.` or `-`), separated by `, `;
/// - no comments, blank lines, indented lines, block scalars or empty values;
/// - the closing line is exactly `---` (the last line of the file, or followed by a line feed).
///
/// SimpleKanban writes exactly this, and so does `kanban` for cards whose values need no quotes.
enum PlainFrontmatter {
    /// The entries and where the body starts (past one blank line after the closing `---`); decode the body with
    /// `FrontmatterDocument.body(_:usesCRLF:)` (the file ends its lines in line feeds: plain frontmatter does).
    struct Result {
        var entries: [YAMLMapEntry]
        var bodyStart: Int
    }

    static func read(_ buffer: UnsafeBufferPointer<UInt8>) -> Result? {
        var entries: [YAMLMapEntry] = []
        let bodyStart = walk(buffer) { key, value in
            entries.append(YAMLMapEntry(key: string(buffer, key), value: yamlValue(value, in: buffer)))
        }
        return bodyStart.map { Result(entries: entries, bodyStart: $0) }
    }

    /// A value as it stands in the file.
    enum Value {
        /// A plain scalar, whose text is the bytes of the range.
        case scalar(Range<Int>)
        /// A flow list: the range between its brackets, whose items are words separated by `, ` (see ``forEachItem(in:of:_:)``).
        case list(Range<Int>)
    }

    /// Checks that the frontmatter in `buffer` is plain, calling `visit` with each entry's key range and value in
    /// file order as it goes; where the body starts, or nil when the frontmatter is not plain (what `visit` saw
    /// is then to be thrown away). Makes no string or array, so that a caller can build just what it needs.
    static func walk(_ buffer: UnsafeBufferPointer<UInt8>, _ visit: (Range<Int>, Value) -> Void) -> Int? {
        let count = buffer.count
        guard count >= 8, buffer[0] == dash, buffer[1] == dash, buffer[2] == dash, buffer[3] == lineFeed else { return nil }
        guard UTF8Validation.firstInvalidOffset(in: buffer) == nil else { return nil }
        // The keys seen, to refuse one given twice; more keys than this is not plain enough.
        return withUnsafeTemporaryAllocation(of: Range<Int>.self, capacity: 64) { keys -> Int? in
            var keyCount = 0
            var lineStart = 4
            while lineStart < count {
                let lineEnd = lineEnd(in: buffer, from: lineStart)
                if lineEnd - lineStart == 3, buffer[lineStart] == dash, buffer[lineStart + 1] == dash, buffer[lineStart + 2] == dash {
                    var bodyStart = min(lineEnd + 1, count)
                    if bodyStart < count, buffer[bodyStart] == lineFeed {
                        bodyStart += 1
                    } else if bodyStart + 1 < count, buffer[bodyStart] == UInt8(ascii: "\r"), buffer[bodyStart + 1] == lineFeed {
                        bodyStart += 2
                    }
                    return bodyStart
                }
                guard lineEnd < count, keyCount < keys.count, let (key, value) = entry(in: buffer, from: lineStart, to: lineEnd)
                else { return nil }
                for seen in keys[0..<keyCount] where buffer[seen].elementsEqual(buffer[key]) { return nil }
                keys[keyCount] = key
                keyCount += 1
                visit(key, value)
                lineStart = lineEnd + 1
            }
            return nil
        }
    }

    /// Calls `body` with the range of each item of the flow list whose inside (between the brackets) is `list`.
    static func forEachItem(in buffer: UnsafeBufferPointer<UInt8>, of list: Range<Int>, _ body: (Range<Int>) -> Void) {
        var index = list.lowerBound
        while index < list.upperBound {
            let itemStart = index
            while index < list.upperBound, buffer[index] != UInt8(ascii: ",") { index += 1 }
            body(itemStart..<index)
            index += 2  // past `, `
        }
    }

    /// The value as the YAML parser gives it.
    static func yamlValue(_ value: Value, in buffer: UnsafeBufferPointer<UInt8>) -> YAMLValue {
        switch value {
        case .scalar(let range):
            return .scalar(YAMLScalar(string(buffer, range)))
        case .list(let range):
            var items: [YAMLValue] = []
            forEachItem(in: buffer, of: range) { items.append(.scalar(YAMLScalar(string(buffer, $0)))) }
            return .list(items)
        }
    }

    /// Whether the plain scalar `range` reads as null: `~`, `null`, `Null` or `NULL` (never empty here).
    static func isNull(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        guard range.count == 1 || range.count == 4 else { return false }
        let text = buffer[range]
        return text.elementsEqual("~".utf8) || text.elementsEqual("null".utf8) || text.elementsEqual("Null".utf8)
            || text.elementsEqual("NULL".utf8)
    }

    private static let dash = UInt8(ascii: "-")
    private static let lineFeed = UInt8(ascii: "\n")
    private static let space = UInt8(ascii: " ")

    /// The offset of the line feed ending the line that starts at `start`, or the end of the file.
    private static func lineEnd(in buffer: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start
        while index < buffer.count, buffer[index] != lineFeed { index += 1 }
        return index
    }

    /// The key's range and the value of a `key: value` line, or nil when the line is not that plain.
    private static func entry(in buffer: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> (Range<Int>, Value)? {
        var index = start
        while index < end, isKeyByte(buffer[index]) { index += 1 }
        guard index > start, buffer[start] != dash, index + 2 < end, buffer[index] == UInt8(ascii: ":"),
              buffer[index + 1] == space else { return nil }
        let key = start..<index
        let valueStart = index + 2
        if buffer[valueStart] == UInt8(ascii: "[") {
            guard isFlowList(buffer, from: valueStart, to: end) else { return nil }
            return (key, .list((valueStart + 1)..<(end - 1)))
        }
        guard isPlainScalar(buffer, valueStart..<end) else { return nil }
        return (key, .scalar(valueStart..<end))
    }

    private static func isKeyByte(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39)
            || byte == UInt8(ascii: "_") || byte == dash
    }

    /// Whether `range` (not empty) is a plain scalar whose text is its bytes.
    private static func isPlainScalar(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        switch buffer[range.lowerBound] {
        case UInt8(ascii: "-"), UInt8(ascii: "?"), UInt8(ascii: ":"), UInt8(ascii: ","), UInt8(ascii: "["), UInt8(ascii: "]"),
             UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "#"), UInt8(ascii: "&"), UInt8(ascii: "*"), UInt8(ascii: "!"),
             UInt8(ascii: "|"), UInt8(ascii: ">"), UInt8(ascii: "'"), UInt8(ascii: "\""), UInt8(ascii: "%"), UInt8(ascii: "@"),
             UInt8(ascii: "`"), space:
            return false  // a YAML indicator, or a leading space
        default:
            break
        }
        let last = buffer[range.upperBound - 1]
        guard last != space, last != UInt8(ascii: ":") else { return false }
        // SimpleKanban trims Unicode white space (a no-break space, say) from its values, YAML does not: such a
        // value is left to the full reader, which knows whose value it is.
        if hasUnicodeSpaceAtEnds(buffer, range) { return false }
        var previous: UInt8 = 0
        for index in range {
            let byte = buffer[index]
            if byte < 0x20 || byte == 0x7F { return false }
            if previous == UInt8(ascii: ":") && byte == space { return false }
            if previous == space && byte == UInt8(ascii: "#") { return false }
            previous = byte
        }
        return true
    }

    /// Whether the text of `range` (not empty) starts or ends with white space outside ASCII, such as a no-break
    /// space, which SimpleKanban trims from a value or a label and YAML keeps.
    private static func hasUnicodeSpaceAtEnds(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        guard buffer[range.lowerBound] >= 0x80 || buffer[range.upperBound - 1] >= 0x80 else { return false }
        let text = string(buffer, range)
        if let first = text.unicodeScalars.first, first.properties.isWhitespace { return true }
        if let final = text.unicodeScalars.last, final.properties.isWhitespace { return true }
        return false
    }

    /// Whether `start..<end` is `[]` or `[a, b]` with items of word bytes separated by `, `.
    private static func isFlowList(_ buffer: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Bool {
        guard buffer[end - 1] == UInt8(ascii: "]") else { return false }
        var index = start + 1
        if index == end - 1 { return true }
        while true {
            let itemStart = index
            while index < end - 1, isWordByte(buffer[index]) { index += 1 }
            guard index > itemStart, buffer[itemStart] != UInt8(ascii: "."), buffer[itemStart] != dash,
                  !hasUnicodeSpaceAtEnds(buffer, itemStart..<index) else { return false }
            if index == end - 1 { return true }
            guard index + 2 < end - 1, buffer[index] == UInt8(ascii: ","), buffer[index + 1] == space else { return false }
            index += 2
        }
    }

    private static func isWordByte(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39)
            || byte >= 0x80 || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "/")
            || byte == dash
    }

    static func string(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: buffer[range]), as: UTF8.self)
    }
}
