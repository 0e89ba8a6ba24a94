/// Parses the YAML subset that card and board frontmatter use, straight from UTF-8 bytes.
///
/// The parser reads the lines between the opening and closing `---` of a file. It works on
/// bytes, creates `String`s only for keys and scalar values, and reports every problem as a
/// `FrontmatterError` with the file's 1-based line and byte column. It never traps on input.
///
/// Supported:
/// - The top level is a block map: `key: value` lines, all at the same indentation.
/// - Block maps nested by indentation (spaces only), with plain, single- or double-quoted keys
///   (a quoted key stays on one line).
/// - Block lists of `- item` lines, indented under their key or at the key's own indentation;
///   `- key: value` starts a map item and `- - a` a nested list item (compact forms).
/// - Flow lists `[a, "b, c", 'd']` and flow maps `{a: 1, b}`, nested, optionally spanning lines
///   (continuation lines indented more than the enclosing block), with a trailing comma allowed.
/// - Plain scalars, including multi-line plain scalars (continuation lines indented more than
///   the key, folded to spaces; in a flow collection too). A plain value may contain `: `
///   (`title: Fix: login`), which standard YAML rejects; writers never produce this.
/// - Single-quoted (`''` escape) and double-quoted scalars with every YAML escape
///   (`\0 \a \b \t \n \v \f \r \e \  \" \/ \\ \N \_ \L \P \xNN \uNNNN \UNNNNNNNN`, escaped line
///   breaks); both may span lines, folded as YAML specifies.
/// - Literal `|` and folded `>` block scalars with chomping (`-`, `+`) and an explicit
///   indentation indicator (`1`–`9`, relative to the enclosing block collection).
/// - Comments: `# ...` lines anywhere and `# ...` after a value (preceded by a space or tab).
/// - `key:` with nothing after it is null: the plain scalar `""`, unless a nested block follows.
///
/// Scalars are not resolved to types: `2`, `true` and `2026-01-05` are plain text.
///
/// Rejected, with the line and column of the problem:
/// - Tabs used as indentation; lines indented where nothing can be nested (`unexpected indentation`).
/// - Git merge conflict markers (`<<<<<<<`, `=======`, `>>>>>>>` at the start of a line).
/// - Anchors `&`, aliases `*`, tags `!`, complex keys `? `, directives `%`, the reserved
///   indicators `@` and `` ` ``, and a second document (`---` or `...` inside the frontmatter).
/// - Unterminated quoted scalars and unclosed flow collections (also when a line in between is not
///   indented enough to continue them); single-pair maps inside flow lists (`[a: 1]`); block
///   scalars inside flow collections.
/// - Duplicate keys in any map; a line that is not `key: value` where a map entry is expected;
///   a block list starting on its key's line (`key: - a`).
/// - Control characters other than tab (a carriage return only before a line feed).
/// - Nesting deeper than `maximumDepth` levels.
struct YAMLParser {
    /// The deepest nesting of collections accepted, so that hostile input cannot exhaust the stack.
    static let maximumDepth = 64

    /// One line of the YAML text.
    struct Line {
        /// Offset of the line's first byte.
        var start: Int
        /// Offset of the line break (a carriage return before the line feed is excluded).
        var end: Int
        /// Offset just past the line break.
        var next: Int
        /// Number of leading spaces.
        var indent: Int
        /// Offset of the first byte that is neither space nor tab; `end` for a blank line.
        var contentStart: Int
    }

    /// A parsed `key: value` entry and where its pieces are.
    struct Entry {
        var key: String
        var value: YAMLValue
        var layout: YAMLLayout
        /// Index (into `lines`) of the key's line.
        var lineIndex: Int
        /// Offset of the key's first byte (its opening quote when quoted).
        var keyOffset: Int
        /// Offset just past the `:` that ends the key.
        var colonEnd: Int
        /// Offset where the value starts, when it starts on the key's line.
        var inlineValueStart: Int?
        /// Offset where the whitespace before a `# comment` on the key's line starts.
        var commentStart: Int?
        /// Offset of the line break of the key's line.
        var keyLineEnd: Int
        /// Offset where the value starts on the key's line; `colonEnd` when the value is null or
        /// on the following lines.
        var valueOffset: Int
        /// Index of the line holding `valueOffset`.
        var valueLineIndex: Int
        /// Offset just past the line break of the entry's last line.
        var end: Int
        /// When the key starts its line: the start of the blank and comment lines just above it
        /// (or of its own line), which an editor keeps with the entry.
        var leadingStart: Int? = nil
    }

    /// A parsed node and where it starts.
    struct Node {
        var value: YAMLValue
        var layout: YAMLLayout
        var valueOffset: Int
        var valueLineIndex: Int
        var commentStart: Int?
    }

    private enum NodeContext {
        case mapValue, listItem, standalone
    }

    private let text: UnsafeBufferPointer<UInt8>
    private(set) var lines: [Line] = []
    private let firstLineNumber: Int
    private let recordsLayout: Bool
    private var lineIndex = 0
    private var depth = 0
    /// Whose values are read the way SimpleKanban reads them (see `AppDialect`).
    private let dialect: AppDialect.Kind
    /// The keys of the maps around the entry being parsed, outermost first.
    private var path: [String] = []
    /// With a dialect: the first control character of each line that has one, by line index. They are allowed in a
    /// value SimpleKanban owns (the app reads the line as it is) and refused anywhere else once parsing is done.
    private var controlCharacters: [Int: Int] = [:]
    /// The lines whose whole value was read the app's way.
    private var verbatimLines: Set<Int> = []
    /// The values SimpleKanban owns whose text another reader may read otherwise (see
    /// `AppDialect.mayReadDifferently`), for `kanban doctor` to look at more closely.
    private(set) var appReadings: [AppDialect.Reading] = []

    /// Splits `text[start..<end]` into lines, rejecting control characters.
    ///
    /// - Parameters:
    ///   - text: The whole file.
    ///   - start: Offset of the first YAML line.
    ///   - end: Offset just past the last YAML line's line break.
    ///   - firstLineNumber: The file's 1-based line number of the first YAML line.
    ///   - recordsLayout: Whether to record `YAMLLayout`s (for the editor) or skip that work.
    init(
        text: UnsafeBufferPointer<UInt8>, start: Int, end: Int, firstLineNumber: Int,
        recordsLayout: Bool = false, dialect: AppDialect.Kind = .yaml
    ) throws(FrontmatterError) {
        self.text = text
        self.firstLineNumber = firstLineNumber
        self.recordsLayout = recordsLayout
        self.dialect = dialect
        var lines: [Line] = []
        lines.reserveCapacity(16)
        var offset = start
        while offset < end {
            let lineStart = offset
            var index = offset
            while index < end, text[index] == .space { index += 1 }
            let indent = index - lineStart
            while index < end, text[index] == .space || text[index] == .tab { index += 1 }
            let contentStart = index
            var lineEnd = end
            var next = end
            while index < end {
                let byte = text[index]
                if byte == .lineFeed {
                    lineEnd = index
                    next = index + 1
                    break
                }
                if byte < 0x20 || byte == 0x7F, byte != .tab {
                    if byte == .carriageReturn, index + 1 < end, text[index + 1] == .lineFeed {
                        lineEnd = index
                        next = index + 2
                        break
                    }
                    guard dialect != .yaml else {
                        throw FrontmatterError(
                            line: firstLineNumber + lines.count, column: index - lineStart + 1,
                            message: "control character \(Self.codePointName(UInt32(byte))) is not allowed in frontmatter")
                    }
                    if controlCharacters[lines.count] == nil { controlCharacters[lines.count] = index }
                }
                index += 1
            }
            lines.append(
                Line(
                    start: lineStart, end: lineEnd, next: next, indent: indent,
                    contentStart: min(contentStart, lineEnd)))
            offset = next
        }
        self.lines = lines
    }

    // MARK: - Entry points

    /// Parses the whole text as the top-level map.
    ///
    /// - Returns: The entries in file order and the indentation of the top-level keys.
    mutating func parseTopLevel() throws(FrontmatterError) -> (entries: [Entry], indent: Int) {
        guard let first = try nextStructuralLine(from: 0) else { return ([], 0) }
        let indent = lines[first].indent
        lineIndex = first
        let entries = try parseMapEntries(indent: indent, firstAt: lines[first].contentStart, leadingFrom: nil)
        if let index = try nextStructuralLine(from: lineIndex) {
            let line = lines[index]
            let message = isListItem(line) ? "expected 'key: value', found a list item" : "unexpected indentation"
            throw error(message, at: line.contentStart, lineIndex: index)
        }
        try refuseControlCharacters()
        return (entries, indent)
    }

    /// Throws for the first control character outside the values read the app's way.
    private func refuseControlCharacters() throws(FrontmatterError) {
        guard let (index, offset) = controlCharacters.filter({ !verbatimLines.contains($0.key) }).min(by: { $0.key < $1.key }) else { return }
        throw FrontmatterError(
            line: firstLineNumber + index, column: offset - lines[index].start + 1,
            message: "control character \(Self.codePointName(UInt32(text[offset]))) is not allowed in frontmatter")
    }

    /// Parses the text as exactly one top-level entry at `indent` (the editor's view of one key).
    mutating func parseSingleEntry(indent: Int) throws(FrontmatterError) -> Entry {
        guard let first = try nextStructuralLine(from: 0) else {
            throw FrontmatterError(line: firstLineNumber, column: 1, message: "expected 'key: value'")
        }
        lineIndex = first
        let entry = try parseMapEntry(indent: indent, keyAt: lines[first].contentStart)
        try refuseControlCharacters()
        return entry
    }

    // MARK: - Block structure

    /// Parses the entries of a block map at `indent`, the first of which starts at `position`.
    ///
    /// - Parameter leadingFrom: The first line that may hold comments leading to the first entry,
    ///   or `nil` when the first entry does not start its line (`- key: value`).
    private mutating func parseMapEntries(
        indent: Int, firstAt position: Int, leadingFrom: Int?
    ) throws(FrontmatterError) -> [Entry] {
        try enterNesting(at: position)
        defer { depth -= 1 }
        var entries: [Entry] = []
        var keys: Set<String>?
        var keyPosition = position
        var leadingStart = leadingFrom.map { lines[$0].start }
        while true {
            var entry = try parseMapEntry(indent: indent, keyAt: keyPosition)
            entry.leadingStart = leadingStart
            if keys?.contains(entry.key) ?? entries.contains(where: { $0.key == entry.key }) {
                let firstLine = entries.first(where: { $0.key == entry.key }).map { firstLineNumber + $0.lineIndex }
                throw error(
                    "duplicate key '\(entry.key)' (first on line \(firstLine ?? 0))",
                    at: entry.keyOffset, lineIndex: entry.lineIndex)
            }
            entries.append(entry)
            if keys != nil {
                keys?.insert(entry.key)
            } else if entries.count >= 16 {
                keys = Set(entries.map(\.key))
            }
            guard let index = try nextStructuralLine(from: lineIndex) else { break }
            let line = lines[index]
            if line.indent < indent { break }
            if line.indent > indent {
                throw error("unexpected indentation", at: line.contentStart, lineIndex: index)
            }
            if isListItem(line) { break }
            leadingStart = lines[lineIndex].start
            lineIndex = index
            keyPosition = line.contentStart
        }
        return entries
    }

    private mutating func parseBlockMap(
        indent: Int, firstAt position: Int, leadingFrom: Int?
    ) throws(FrontmatterError) -> Node {
        let firstLine = lineIndex
        let entries = try parseMapEntries(indent: indent, firstAt: position, leadingFrom: leadingFrom)
        var layout = YAMLLayout.inline
        if recordsLayout {
            layout = .blockMap(
                YAMLBlockLayout(
                    indent: indent, gap: 1,
                    items: entries.map { entry in
                        YAMLBlockItemLayout(
                            layout: entry.layout, column: entry.keyOffset - lines[entry.lineIndex].start,
                            source: entry.keyOffset..<entry.end, keyEnd: entry.colonEnd,
                            leadingStart: entry.leadingStart)
                    }))
        }
        return Node(
            value: .map(entries.map { YAMLMapEntry(key: $0.key, value: $0.value) }), layout: layout,
            valueOffset: position, valueLineIndex: firstLine, commentStart: nil)
    }

    private mutating func parseBlockList(
        indent: Int, firstAt position: Int, leadingFrom: Int?
    ) throws(FrontmatterError) -> Node {
        try enterNesting(at: position)
        defer { depth -= 1 }
        let firstLine = lineIndex
        var items: [YAMLValue] = []
        var itemLayouts: [YAMLBlockItemLayout] = []
        var gap = 1
        var isGapKnown = false
        var dash = position
        var leadingStart = leadingFrom.map { lines[$0].start }
        while true {
            let line = lines[lineIndex]
            var content = dash + 1
            while content < line.end, text[content] == .space || text[content] == .tab { content += 1 }
            if !isGapKnown, content < line.end, text[content] != .hash {
                gap = content - dash - 1
                isGapKnown = true
            }
            let node = try parseNode(at: content, parentIndent: indent, context: .listItem, indicatorEnd: dash + 1)
            items.append(node.value)
            if recordsLayout {
                itemLayouts.append(
                    YAMLBlockItemLayout(
                        layout: node.layout, column: dash - line.start, source: dash..<lines[lineIndex - 1].next,
                        keyEnd: dash, leadingStart: leadingStart))
            }
            guard let index = try nextStructuralLine(from: lineIndex) else { break }
            let next = lines[index]
            if next.indent < indent { break }
            if next.indent > indent {
                throw error("unexpected indentation", at: next.contentStart, lineIndex: index)
            }
            guard isListItem(next) else { break }
            leadingStart = lines[lineIndex].start
            lineIndex = index
            dash = next.contentStart
        }
        let layout: YAMLLayout =
            recordsLayout ? .blockList(YAMLBlockLayout(indent: indent, gap: gap, items: itemLayouts)) : .inline
        return Node(
            value: .list(items), layout: layout, valueOffset: position, valueLineIndex: firstLine, commentStart: nil)
    }

    private mutating func parseMapEntry(indent: Int, keyAt position: Int) throws(FrontmatterError) -> Entry {
        let keyLine = lineIndex
        let line = lines[keyLine]
        let key: String
        let colon: Int
        let first = text[position]
        if first == .doubleQuote || first == .singleQuote {
            let (decoded, afterKey) = try parseQuoted(at: position, minimumIndent: 0, spansLines: false)
            var index = afterKey
            while index < line.end, text[index] == .space || text[index] == .tab { index += 1 }
            guard index < line.end, text[index] == .colon, isSeparator(after: index, lineEnd: line.end) else {
                throw error("expected ':' after key", at: index, lineIndex: keyLine)
            }
            key = decoded
            colon = index
        } else {
            try checkKeyStart(at: position, line: line)
            guard let found = mapColon(from: position, lineEnd: line.end) else {
                throw error("expected 'key: value'", at: position, lineIndex: keyLine)
            }
            var keyEnd = found
            while keyEnd > position, text[keyEnd - 1] == .space || text[keyEnd - 1] == .tab { keyEnd -= 1 }
            key = string(position, keyEnd)
            colon = found
        }
        let colonEnd = colon + 1
        var valueStart = colonEnd
        while valueStart < line.end, text[valueStart] == .space || text[valueStart] == .tab { valueStart += 1 }
        // A value SimpleKanban owns, alone on its key's line: read as the app reads it, the whole rest of the line.
        if dialect != .yaml,
           let rule = AppDialect.rule(for: key, path: path, isFirstInItem: isListItem(line) && position > line.contentStart, in: dialect) {
            let written = valueStart < line.end ? string(valueStart, line.end) : ""
            let continues = try continuesBelow(keyLine, indent: indent)
            let value = written.isEmpty || continues ? nil : AppDialect.value(Substring(written), rule: rule)
            if AppDialect.mayReadDifferently(written, continues: continues, read: value) {
                appReadings.append(AppDialect.Reading(
                    key: key, path: path, line: firstLineNumber + keyLine, column: valueStart - line.start + 1,
                    written: AppDialect.trimmed(written[...]), value: value, rule: rule))
            }
            if let value {
                lineIndex = keyLine + 1
                verbatimLines.insert(keyLine)
                return Entry(
                    key: key, value: value, layout: .inline, lineIndex: keyLine, keyOffset: position, colonEnd: colonEnd,
                    inlineValueStart: valueStart, commentStart: nil, keyLineEnd: line.end, valueOffset: valueStart,
                    valueLineIndex: keyLine, end: line.next)
            }
        }
        path.append(key)
        defer { path.removeLast() }
        let node = try parseNode(at: valueStart, parentIndent: indent, context: .mapValue, indicatorEnd: colonEnd)
        let isInline = valueStart < line.end && text[valueStart] != .hash
        return Entry(
            key: key, value: node.value, layout: node.layout, lineIndex: keyLine, keyOffset: position,
            colonEnd: colonEnd, inlineValueStart: isInline ? valueStart : nil, commentStart: node.commentStart,
            keyLineEnd: line.end, valueOffset: node.valueOffset, valueLineIndex: node.valueLineIndex,
            end: lines[lineIndex - 1].next)
    }

    /// Whether lines indented more than `indent` follow line `index`: a value continued or nested below its key.
    private func continuesBelow(_ index: Int, indent: Int) throws(FrontmatterError) -> Bool {
        guard let next = try nextStructuralLine(from: index + 1) else { return false }
        return lines[next].indent > indent
    }

    /// Parses the node at `position` on the current line: after `key:` or `-` and their spaces,
    /// or at the start of a line that holds a nested node. Leaves `lineIndex` on the line after the node.
    private mutating func parseNode(
        at position: Int, parentIndent: Int, context: NodeContext, indicatorEnd: Int
    ) throws(FrontmatterError) -> Node {
        let nodeLine = lineIndex
        let line = lines[nodeLine]
        if position == line.end || text[position] == .hash {
            let comment: Int? = position == line.end ? nil : indicatorEnd
            if let index = try nextStructuralLine(from: nodeLine + 1) {
                let next = lines[index]
                if next.indent > parentIndent
                    || (context == .mapValue && next.indent == parentIndent && isListItem(next))
                {
                    lineIndex = index
                    var node = try parseBlockNode(
                        at: next.contentStart, parentIndent: parentIndent, leadingFrom: nodeLine + 1)
                    // Diagnostics about a nested value point at its key's line, just past the `:`.
                    node.valueOffset = indicatorEnd
                    node.valueLineIndex = nodeLine
                    node.commentStart = comment
                    return node
                }
            }
            lineIndex = nodeLine + 1
            return Node(
                value: .scalar(YAMLScalar("")), layout: .inline, valueOffset: indicatorEnd,
                valueLineIndex: nodeLine, commentStart: comment)
        }
        let first = text[position]
        let isSeparated = isSeparator(after: position, lineEnd: line.end)
        switch first {
        case .pipe, .greaterThan:
            return try parseBlockScalar(at: position, parentIndent: parentIndent)
        case .openBracket, .openBrace:
            let (value, end) = try parseFlowCollection(at: position, minimumIndent: parentIndent + 1)
            let what = first == .openBracket ? "flow list" : "flow map"
            return try finishInlineNode(value, at: position, startLine: nodeLine, end: end, what: what)
        case .doubleQuote, .singleQuote:
            if context == .listItem, looksLikeMapEntry(at: position, lineEnd: line.end) {
                return try parseBlockMap(indent: position - line.start, firstAt: position, leadingFrom: nil)
            }
            let (decoded, end) = try parseQuoted(at: position, minimumIndent: parentIndent + 1, spansLines: true)
            let style: YAMLScalar.Style = first == .doubleQuote ? .doubleQuoted : .singleQuoted
            let what = first == .doubleQuote ? "double-quoted scalar" : "single-quoted scalar"
            return try finishInlineNode(
                .scalar(YAMLScalar(decoded, style: style)), at: position, startLine: nodeLine, end: end, what: what)
        case .hyphen where isSeparated:
            guard context == .listItem else {
                throw error("a block list cannot start on the same line as its key", at: position, lineIndex: nodeLine)
            }
            return try parseBlockList(indent: position - line.start, firstAt: position, leadingFrom: nil)
        case .colon where isSeparated:
            throw error("missing key before ':'", at: position, lineIndex: nodeLine)
        default:
            try checkNodeStart(at: position, lineIndex: nodeLine)
        }
        if context == .listItem, looksLikeMapEntry(at: position, lineEnd: line.end) {
            return try parseBlockMap(indent: position - line.start, firstAt: position, leadingFrom: nil)
        }
        return try parsePlainScalar(at: position, parentIndent: parentIndent)
    }

    /// Parses a node that starts a line of its own, below its key or dash.
    private mutating func parseBlockNode(
        at position: Int, parentIndent: Int, leadingFrom: Int
    ) throws(FrontmatterError) -> Node {
        let line = lines[lineIndex]
        if isListItem(line) {
            return try parseBlockList(indent: line.indent, firstAt: position, leadingFrom: leadingFrom)
        }
        if looksLikeMapEntry(at: position, lineEnd: line.end) {
            return try parseBlockMap(indent: line.indent, firstAt: position, leadingFrom: leadingFrom)
        }
        return try parseNode(at: position, parentIndent: parentIndent, context: .standalone, indicatorEnd: position)
    }

    private mutating func finishInlineNode(
        _ value: YAMLValue, at position: Int, startLine: Int, end: Int, what: String
    ) throws(FrontmatterError) -> Node {
        let line = lines[lineIndex]
        var index = end
        while index < line.end, text[index] == .space || text[index] == .tab { index += 1 }
        var comment: Int?
        if index < line.end {
            guard text[index] == .hash, index > end else {
                throw error("unexpected text after \(what)", at: index, lineIndex: lineIndex)
            }
            comment = lineIndex == startLine ? end : nil
        }
        lineIndex += 1
        return Node(
            value: value, layout: .inline, valueOffset: position, valueLineIndex: startLine, commentStart: comment)
    }

    // MARK: - Scalars

    private mutating func parsePlainScalar(at position: Int, parentIndent: Int) throws(FrontmatterError) -> Node {
        let startLine = lineIndex
        let line = lines[startLine]
        let (firstEnd, firstComment) = scanPlainLine(from: position, lineEnd: line.end)
        var folded: [UInt8] = []
        var isFolded = false
        var lastLine = startLine
        if firstComment == nil {
            var index = startLine + 1
            var blankLines = 0
            while index < lines.count {
                let next = lines[index]
                if next.contentStart == next.end {
                    blankLines += 1
                    index += 1
                    continue
                }
                if next.indent <= parentIndent || text[next.contentStart] == .hash { break }
                if mapColon(from: next.contentStart, lineEnd: next.end) != nil {
                    throw error("unexpected indentation", at: next.contentStart, lineIndex: index)
                }
                if !isFolded {
                    folded.append(contentsOf: text[position..<firstEnd])
                    isFolded = true
                }
                if blankLines == 0 {
                    folded.append(.space)
                } else {
                    folded.append(contentsOf: repeatElement(UInt8.lineFeed, count: blankLines))
                }
                let (end, comment) = scanPlainLine(from: next.contentStart, lineEnd: next.end)
                folded.append(contentsOf: text[next.contentStart..<end])
                blankLines = 0
                lastLine = index
                index += 1
                if comment != nil { break }
            }
        }
        lineIndex = lastLine + 1
        let value = isFolded ? String(decoding: folded, as: UTF8.self) : string(position, firstEnd)
        return Node(
            value: .scalar(YAMLScalar(value)), layout: .inline, valueOffset: position, valueLineIndex: startLine,
            commentStart: firstComment == nil ? nil : firstEnd)
    }

    /// Finds where a plain scalar's text ends on one line: before a ` #` comment, trailing blanks trimmed.
    private func scanPlainLine(from position: Int, lineEnd: Int) -> (end: Int, comment: Int?) {
        var index = position
        var comment: Int?
        while index < lineEnd {
            if text[index] == .hash, index > position, text[index - 1] == .space || text[index - 1] == .tab {
                comment = index
                break
            }
            index += 1
        }
        var end = index
        while end > position, text[end - 1] == .space || text[end - 1] == .tab { end -= 1 }
        return (end, comment)
    }

    private mutating func parseBlockScalar(at position: Int, parentIndent: Int) throws(FrontmatterError) -> Node {
        let headerLine = lineIndex
        let line = lines[headerLine]
        let isFolded = text[position] == .greaterThan
        var index = position + 1
        var chomping: UInt8 = 0  // 0 clip, '-' strip, '+' keep
        var explicitIndent: Int?
        for _ in 0..<2 where index < line.end {
            let byte = text[index]
            if chomping == 0, byte == .hyphen || byte == .plus {
                chomping = byte
            } else if explicitIndent == nil, byte >= UInt8(ascii: "1"), byte <= UInt8(ascii: "9") {
                explicitIndent = Int(byte - UInt8(ascii: "0"))
            } else {
                break
            }
            index += 1
        }
        let headerEnd = index
        while index < line.end, text[index] == .space || text[index] == .tab { index += 1 }
        var comment: Int?
        if index < line.end {
            guard text[index] == .hash, index > headerEnd else {
                throw error("invalid block scalar header", at: index, lineIndex: headerLine)
            }
            comment = headerEnd
        }

        let contentIndent: Int
        if let explicitIndent {
            contentIndent = parentIndent + explicitIndent
        } else {
            var widestEmpty = 0
            var widestEmptyLine = headerLine
            var detected = parentIndent + 1
            var scan = headerLine + 1
            while scan < lines.count {
                let candidate = lines[scan]
                if candidate.contentStart == candidate.end {
                    if candidate.indent > widestEmpty {
                        widestEmpty = candidate.indent
                        widestEmptyLine = scan
                    }
                    scan += 1
                    continue
                }
                if candidate.indent > parentIndent {
                    detected = candidate.indent
                    if widestEmpty > detected {
                        throw error(
                            "empty line in block scalar is indented more than its first line",
                            at: lines[widestEmptyLine].start + widestEmpty, lineIndex: widestEmptyLine)
                    }
                }
                break
            }
            contentIndent = detected
        }

        var output: [UInt8] = []
        var pendingBreaks = 0
        var hasContent = false
        var previousIsMoreIndented = false
        var lastContentLine = headerLine
        var scan = headerLine + 1
        while scan < lines.count {
            let candidate = lines[scan]
            if candidate.indent >= contentIndent, candidate.end - candidate.start > contentIndent {
                let contentStart = candidate.start + contentIndent
                let firstByte = text[contentStart]
                let isMoreIndented = firstByte == .space || firstByte == .tab
                if !hasContent {
                    output.append(contentsOf: repeatElement(UInt8.lineFeed, count: pendingBreaks))
                } else if isFolded, !previousIsMoreIndented, !isMoreIndented {
                    if pendingBreaks == 0 {
                        output.append(.space)
                    } else {
                        output.append(contentsOf: repeatElement(UInt8.lineFeed, count: pendingBreaks))
                    }
                } else {
                    output.append(contentsOf: repeatElement(UInt8.lineFeed, count: pendingBreaks + 1))
                }
                output.append(contentsOf: text[contentStart..<candidate.end])
                hasContent = true
                previousIsMoreIndented = isMoreIndented
                pendingBreaks = 0
                lastContentLine = scan
            } else if candidate.contentStart == candidate.end {
                pendingBreaks += 1
            } else {
                break
            }
            scan += 1
        }
        var lastLine = lastContentLine
        switch chomping {
        case .hyphen:
            break
        case .plus:
            output.append(
                contentsOf: repeatElement(UInt8.lineFeed, count: hasContent ? pendingBreaks + 1 : pendingBreaks))
            lastLine = scan - 1
        default:
            if hasContent { output.append(.lineFeed) }
        }
        lineIndex = lastLine + 1
        let style: YAMLScalar.Style = isFolded ? .folded : .literal
        return Node(
            value: .scalar(YAMLScalar(String(decoding: output, as: UTF8.self), style: style)),
            layout: recordsLayout ? .blockScalar(contentIndent: contentIndent) : .inline,
            valueOffset: position, valueLineIndex: headerLine, commentStart: comment)
    }

    /// Parses a quoted scalar starting at its opening quote on the current line.
    ///
    /// - Returns: The decoded text and the offset just past the closing quote, which is on
    ///   `lines[lineIndex]` when this returns.
    private mutating func parseQuoted(
        at position: Int, minimumIndent: Int, spansLines: Bool
    ) throws(FrontmatterError) -> (String, Int) {
        let quote = text[position]
        let isDouble = quote == .doubleQuote
        let openLine = lineIndex
        var line = lines[openLine]
        var index = position + 1
        while index < line.end, text[index] != quote, !(isDouble && text[index] == .backslash) { index += 1 }
        if index < line.end, text[index] == quote,
            isDouble || index + 1 == line.end || text[index + 1] != .singleQuote
        {
            return (string(position + 1, index), index + 1)
        }

        var output = Array(text[(position + 1)..<index])
        var protectedCount = 0  // bytes that trimming at a line fold must keep (they came from escapes)
        var isEscapedBreak = false
        while true {
            if index >= line.end {
                guard spansLines else {
                    throw error(
                        "quoted key is not closed on its line", at: position, lineIndex: openLine)
                }
                while output.count > protectedCount, output.last == .space || output.last == .tab {
                    output.removeLast()
                }
                var breaks = 0
                while true {
                    lineIndex += 1
                    guard lineIndex < lines.count else {
                        throw error(
                            "\(isDouble ? "double" : "single")-quoted scalar is not closed",
                            at: position, lineIndex: openLine)
                    }
                    line = lines[lineIndex]
                    if line.contentStart == line.end {
                        breaks += 1
                        continue
                    }
                    guard line.indent >= minimumIndent else {
                        throw error(
                            "\(isDouble ? "double" : "single")-quoted scalar is not closed",
                            at: position, lineIndex: openLine)
                    }
                    break
                }
                if breaks > 0 {
                    output.append(contentsOf: repeatElement(UInt8.lineFeed, count: breaks))
                } else if !isEscapedBreak {
                    output.append(.space)
                }
                isEscapedBreak = false
                protectedCount = output.count
                index = line.contentStart
                continue
            }
            let byte = text[index]
            if byte == quote {
                if !isDouble, index + 1 < line.end, text[index + 1] == .singleQuote {
                    output.append(.singleQuote)
                    index += 2
                    continue
                }
                return (String(decoding: output, as: UTF8.self), index + 1)
            }
            if isDouble, byte == .backslash {
                if index + 1 == line.end {
                    isEscapedBreak = true
                    protectedCount = output.count
                    index = line.end
                    continue
                }
                index = try decodeEscape(at: index, lineEnd: line.end, into: &output)
                protectedCount = output.count
                continue
            }
            output.append(byte)
            index += 1
        }
    }

    /// Decodes the escape whose backslash is at `position`, appending UTF-8 to `output`.
    ///
    /// - Returns: The offset just past the escape.
    private func decodeEscape(
        at position: Int, lineEnd: Int, into output: inout [UInt8]
    ) throws(FrontmatterError) -> Int {
        let code = text[position + 1]
        let simple: UInt32?
        var hexDigits = 0
        switch code {
        case UInt8(ascii: "0"): simple = 0x00
        case UInt8(ascii: "a"): simple = 0x07
        case UInt8(ascii: "b"): simple = 0x08
        case UInt8(ascii: "t"), .tab: simple = 0x09
        case UInt8(ascii: "n"): simple = 0x0A
        case UInt8(ascii: "v"): simple = 0x0B
        case UInt8(ascii: "f"): simple = 0x0C
        case UInt8(ascii: "r"): simple = 0x0D
        case UInt8(ascii: "e"): simple = 0x1B
        case .space, .doubleQuote, .slash, .backslash: simple = UInt32(code)
        case UInt8(ascii: "N"): simple = 0x85
        case UInt8(ascii: "_"): simple = 0xA0
        case UInt8(ascii: "L"): simple = 0x2028
        case UInt8(ascii: "P"): simple = 0x2029
        case UInt8(ascii: "x"): simple = nil; hexDigits = 2
        case UInt8(ascii: "u"): simple = nil; hexDigits = 4
        case UInt8(ascii: "U"): simple = nil; hexDigits = 8
        default:
            let shown = code >= 0x21 && code <= 0x7E ? "'\\\(Character(Unicode.Scalar(code)))'" : "sequence"
            throw error("invalid escape \(shown) in double-quoted scalar", at: position, lineIndex: lineIndex)
        }
        if let simple {
            Self.appendUTF8(simple, to: &output)
            return position + 2
        }
        var value: UInt32 = 0
        var index = position + 2
        for _ in 0..<hexDigits {
            guard index < lineEnd, let digit = Self.hexValue(text[index]) else {
                throw error(
                    "escape '\\\(Character(Unicode.Scalar(code)))' needs \(hexDigits) hexadecimal digits",
                    at: position, lineIndex: lineIndex)
            }
            value = value << 4 | digit
            index += 1
        }
        guard Unicode.Scalar(value) != nil else {
            throw error(
                "escape is not a Unicode scalar value (\(Self.codePointName(value)))", at: position,
                lineIndex: lineIndex)
        }
        Self.appendUTF8(value, to: &output)
        return index
    }

    // MARK: - Flow collections

    /// Parses `[...]` or `{...}` starting at the opening bracket on the current line.
    ///
    /// - Returns: The value and the offset just past the closing bracket, on `lines[lineIndex]`.
    private mutating func parseFlowCollection(
        at position: Int, minimumIndent: Int
    ) throws(FrontmatterError) -> (YAMLValue, Int) {
        try enterNesting(at: position)
        defer { depth -= 1 }
        let openLine = lineIndex
        let isList = text[position] == .openBracket
        var index = position + 1
        if isList {
            var items: [YAMLValue] = []
            while true {
                guard try skipFlowSpace(&index, minimumIndent: minimumIndent) else {
                    throw unclosed(isList: isList, at: position, lineIndex: openLine)
                }
                if text[index] == .closeBracket { return (.list(items), index + 1) }
                items.append(try parseFlowNode(&index, minimumIndent: minimumIndent))
                guard try skipFlowSpace(&index, minimumIndent: minimumIndent) else {
                    throw unclosed(isList: isList, at: position, lineIndex: openLine)
                }
                switch text[index] {
                case .comma:
                    index += 1
                case .closeBracket:
                    return (.list(items), index + 1)
                case .colon:
                    throw error(
                        "single-pair maps inside flow lists are not supported", at: index, lineIndex: lineIndex)
                default:
                    throw error("expected ',' or ']' in flow list", at: index, lineIndex: lineIndex)
                }
            }
        }
        var entries: [YAMLMapEntry] = []
        var keys: Set<String>?
        while true {
            guard try skipFlowSpace(&index, minimumIndent: minimumIndent) else {
                throw unclosed(isList: isList, at: position, lineIndex: openLine)
            }
            if text[index] == .closeBrace { return (.map(entries), index + 1) }
            let keyLine = lineIndex
            let keyPosition = index
            if text[index] == .openBracket || text[index] == .openBrace {
                throw error("flow collections cannot be used as keys", at: index, lineIndex: lineIndex)
            }
            let key = try parseFlowNode(&index, minimumIndent: minimumIndent).string ?? ""
            guard try skipFlowSpace(&index, minimumIndent: minimumIndent) else {
                throw unclosed(isList: isList, at: position, lineIndex: openLine)
            }
            var value = YAMLValue.scalar(YAMLScalar(""))
            if text[index] == .colon {
                index += 1
                guard try skipFlowSpace(&index, minimumIndent: minimumIndent) else {
                    throw unclosed(isList: isList, at: position, lineIndex: openLine)
                }
                if text[index] != .comma, text[index] != .closeBrace {
                    value = try parseFlowNode(&index, minimumIndent: minimumIndent)
                }
            }
            if keys?.contains(key) ?? entries.contains(where: { $0.key == key }) {
                throw error("duplicate key '\(key)'", at: keyPosition, lineIndex: keyLine)
            }
            entries.append(YAMLMapEntry(key: key, value: value))
            if keys != nil {
                keys?.insert(key)
            } else if entries.count >= 16 {
                keys = Set(entries.map(\.key))
            }
            guard try skipFlowSpace(&index, minimumIndent: minimumIndent) else {
                throw unclosed(isList: isList, at: position, lineIndex: openLine)
            }
            switch text[index] {
            case .comma:
                index += 1
            case .closeBrace:
                return (.map(entries), index + 1)
            default:
                throw error("expected ',' or '}' in flow map", at: index, lineIndex: lineIndex)
            }
        }
    }

    private func unclosed(isList: Bool, at position: Int, lineIndex index: Int) -> FrontmatterError {
        error(isList ? "flow list '[' is not closed" : "flow map '{' is not closed", at: position, lineIndex: index)
    }

    private mutating func parseFlowNode(_ index: inout Int, minimumIndent: Int) throws(FrontmatterError) -> YAMLValue {
        let first = text[index]
        switch first {
        case .openBracket, .openBrace:
            let (value, end) = try parseFlowCollection(at: index, minimumIndent: minimumIndent)
            index = end
            return value
        case .doubleQuote, .singleQuote:
            let (decoded, end) = try parseQuoted(at: index, minimumIndent: minimumIndent, spansLines: true)
            index = end
            return .scalar(YAMLScalar(decoded, style: first == .doubleQuote ? .doubleQuoted : .singleQuoted))
        case .pipe, .greaterThan:
            throw error("block scalars are not allowed inside flow collections", at: index, lineIndex: lineIndex)
        case .comma, .closeBracket, .closeBrace, .hash:
            throw error("unexpected '\(Character(Unicode.Scalar(first)))'", at: index, lineIndex: lineIndex)
        case .hyphen, .question, .colon:
            let line = lines[lineIndex]
            if index + 1 == line.end || Self.isFlowBreak(text[index + 1]) {
                if first == .question {
                    throw error("complex keys ('? ') are not supported", at: index, lineIndex: lineIndex)
                }
                throw error("unexpected '\(Character(Unicode.Scalar(first)))'", at: index, lineIndex: lineIndex)
            }
        default:
            try checkNodeStart(at: index, lineIndex: lineIndex)
        }
        var start = index
        var folded: [UInt8] = []
        var isFolded = false
        while true {
            let line = lines[lineIndex]
            while index < line.end, !isFlowPlainEnd(at: index, start: start, lineEnd: line.end) { index += 1 }
            var end = index
            while end > start, text[end - 1] == .space || text[end - 1] == .tab { end -= 1 }
            // A plain scalar continues on the next non-blank line unless that line starts a new token.
            guard index == line.end, let next = flowPlainContinuation(after: lineIndex, minimumIndent: minimumIndent)
            else {
                if !isFolded { return .scalar(YAMLScalar(string(start, end))) }
                folded.append(contentsOf: text[start..<end])
                return .scalar(YAMLScalar(String(decoding: folded, as: UTF8.self)))
            }
            folded.append(contentsOf: text[start..<end])
            isFolded = true
            let blankLines = next - lineIndex - 1
            if blankLines == 0 {
                folded.append(.space)
            } else {
                folded.append(contentsOf: repeatElement(UInt8.lineFeed, count: blankLines))
            }
            lineIndex = next
            index = lines[next].contentStart
            start = index
        }
    }

    /// Whether a plain scalar inside a flow collection ends before the byte at `index`.
    private func isFlowPlainEnd(at index: Int, start: Int, lineEnd: Int) -> Bool {
        switch text[index] {
        case .comma, .openBracket, .closeBracket, .openBrace, .closeBrace:
            return true
        case .colon:
            return index + 1 == lineEnd || Self.isFlowBreak(text[index + 1])
        case .hash:
            return index > start && (text[index - 1] == .space || text[index - 1] == .tab)
        default:
            return false
        }
    }

    /// The line that continues a plain scalar in a flow collection after line `index`, if any.
    private func flowPlainContinuation(after index: Int, minimumIndent: Int) -> Int? {
        var next = index + 1
        while next < lines.count, lines[next].contentStart == lines[next].end { next += 1 }
        guard next < lines.count, lines[next].indent >= minimumIndent else { return nil }
        let position = lines[next].contentStart
        switch text[position] {
        case .comma, .openBracket, .closeBracket, .openBrace, .closeBrace, .hash:
            return nil
        case .colon:
            return isFlowPlainEnd(at: position, start: position, lineEnd: lines[next].end) ? nil : next
        default:
            return next
        }
    }

    /// Skips spaces, tabs, comments and line breaks inside a flow collection.
    ///
    /// - Returns: `false` when the text ends, or a line is not indented enough to continue the collection.
    private mutating func skipFlowSpace(_ index: inout Int, minimumIndent: Int) throws(FrontmatterError) -> Bool {
        while true {
            let line = lines[lineIndex]
            while index < line.end, text[index] == .space || text[index] == .tab { index += 1 }
            if index < line.end {
                let isComment =
                    text[index] == .hash
                    && (index == line.start || text[index - 1] == .space || text[index - 1] == .tab)
                if !isComment { return true }
            }
            guard lineIndex + 1 < lines.count else { return false }
            lineIndex += 1
            let next = lines[lineIndex]
            let isBlankOrComment = next.contentStart == next.end || text[next.contentStart] == .hash
            if !isBlankOrComment, next.indent < minimumIndent { return false }
            index = next.start
        }
    }

    // MARK: - Helpers

    private mutating func enterNesting(at position: Int) throws(FrontmatterError) {
        depth += 1
        if depth > Self.maximumDepth {
            throw error(
                "nesting is deeper than \(Self.maximumDepth) levels", at: position, lineIndex: lineIndex)
        }
    }

    /// The index of the first line at or after `index` that is neither blank nor a comment,
    /// rejecting it if tabs indent it.
    private func nextStructuralLine(from index: Int) throws(FrontmatterError) -> Int? {
        var index = index
        while index < lines.count {
            let line = lines[index]
            if line.contentStart != line.end, text[line.contentStart] != .hash {
                if line.contentStart != line.start + line.indent {
                    throw error("tab character used for indentation", at: line.start + line.indent, lineIndex: index)
                }
                return index
            }
            index += 1
        }
        return nil
    }

    private func isListItem(_ line: Line) -> Bool {
        line.contentStart < line.end && text[line.contentStart] == .hyphen
            && isSeparator(after: line.contentStart, lineEnd: line.end)
    }

    /// Whether the byte after `position` ends the token: a space, a tab or the end of the line.
    private func isSeparator(after position: Int, lineEnd: Int) -> Bool {
        position + 1 >= lineEnd || text[position + 1] == .space || text[position + 1] == .tab
    }

    /// The offset of the `:` that ends a plain key starting at `position`, if the line has one.
    private func mapColon(from position: Int, lineEnd: Int) -> Int? {
        var index = position
        while index < lineEnd {
            let byte = text[index]
            if byte == .colon, isSeparator(after: index, lineEnd: lineEnd) { return index }
            if byte == .hash, index > position, text[index - 1] == .space || text[index - 1] == .tab { return nil }
            index += 1
        }
        return nil
    }

    /// Whether a node starting at `position` is a `key: value` entry (so a list item holding it is a map).
    private func looksLikeMapEntry(at position: Int, lineEnd: Int) -> Bool {
        let first = text[position]
        if first == .doubleQuote || first == .singleQuote {
            var index = position + 1
            while index < lineEnd {
                let byte = text[index]
                if first == .doubleQuote, byte == .backslash {
                    index += 2
                    continue
                }
                if byte == first {
                    if first == .singleQuote, index + 1 < lineEnd, text[index + 1] == .singleQuote {
                        index += 2
                        continue
                    }
                    break
                }
                index += 1
            }
            guard index < lineEnd else { return false }
            index += 1
            while index < lineEnd, text[index] == .space || text[index] == .tab { index += 1 }
            return index < lineEnd && text[index] == .colon && isSeparator(after: index, lineEnd: lineEnd)
        }
        switch first {
        case .openBracket, .openBrace, .ampersand, .asterisk, .exclamation, .pipe, .greaterThan, .percent, .at,
            .backtick, .hash, .comma, .closeBracket, .closeBrace:
            return false
        case .hyphen, .question, .colon:
            if isSeparator(after: position, lineEnd: lineEnd) { return false }
        default:
            break
        }
        return mapColon(from: position, lineEnd: lineEnd) != nil
    }

    /// Rejects indicators that cannot start a plain key.
    private func checkKeyStart(at position: Int, line: Line) throws(FrontmatterError) {
        let first = text[position]
        let index = lineIndex
        if position == line.start, first == .hyphen || first == .period {
            if position + 2 < line.end, text[position + 1] == first, text[position + 2] == first,
                isSeparator(after: position + 2, lineEnd: line.end)
            {
                throw error("multiple documents are not supported", at: position, lineIndex: index)
            }
        }
        if position == line.start, first == .lessThan || first == .equals || first == .greaterThan,
            line.end - position >= 7, text[position..<(position + 7)].allSatisfy({ $0 == first }),
            isSeparator(after: position + 6, lineEnd: line.end)
        {
            let marker = String(repeating: Character(Unicode.Scalar(first)), count: 7)
            throw error("unresolved merge conflict ('\(marker)')", at: position, lineIndex: index)
        }
        switch first {
        case .hyphen where isSeparator(after: position, lineEnd: line.end):
            throw error("expected 'key: value', found a list item", at: position, lineIndex: index)
        case .colon where isSeparator(after: position, lineEnd: line.end):
            throw error("missing key before ':'", at: position, lineIndex: index)
        case .openBracket, .openBrace:
            throw error("expected 'key: value', found a flow collection", at: position, lineIndex: index)
        case .pipe, .greaterThan:
            throw error("expected 'key: value', found a block scalar", at: position, lineIndex: index)
        case .percent where position == line.start:
            throw error("directives ('%') are not supported", at: position, lineIndex: index)
        default:
            try checkNodeStart(at: position, lineIndex: index)
        }
    }

    /// Rejects anchors, aliases, tags, complex keys and reserved indicators at the start of a node.
    private func checkNodeStart(at position: Int, lineIndex index: Int) throws(FrontmatterError) {
        let lineEnd = lines[index].end
        switch text[position] {
        case .ampersand:
            throw error("anchors ('&') are not supported", at: position, lineIndex: index)
        case .asterisk:
            throw error("aliases ('*') are not supported", at: position, lineIndex: index)
        case .exclamation:
            throw error("tags ('!') are not supported", at: position, lineIndex: index)
        case .question where isSeparator(after: position, lineEnd: lineEnd):
            throw error("complex keys ('? ') are not supported", at: position, lineIndex: index)
        case .percent, .at, .backtick:
            let shown = Character(Unicode.Scalar(text[position]))
            throw error("reserved indicator '\(shown)' cannot start a plain scalar", at: position, lineIndex: index)
        case .comma, .closeBracket, .closeBrace:
            let shown = Character(Unicode.Scalar(text[position]))
            throw error("unexpected '\(shown)'", at: position, lineIndex: index)
        default:
            break
        }
    }

    private func string(_ start: Int, _ end: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: text[start..<end]), as: UTF8.self)
    }

    private func error(_ message: String, at position: Int, lineIndex index: Int) -> FrontmatterError {
        let start = index < lines.count ? lines[index].start : position
        return FrontmatterError(line: firstLineNumber + index, column: position - start + 1, message: message)
    }

    private static func isFlowBreak(_ byte: UInt8) -> Bool {
        switch byte {
        case .space, .tab, .comma, .openBracket, .closeBracket, .openBrace, .closeBrace: return true
        default: return false
        }
    }

    private static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }

    static func codePointName(_ value: UInt32) -> String {
        let hex = String(value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    static func appendUTF8(_ value: UInt32, to output: inout [UInt8]) {
        switch value {
        case ..<0x80:
            output.append(UInt8(value))
        case ..<0x800:
            output.append(UInt8(0xC0 | value >> 6))
            output.append(UInt8(0x80 | value & 0x3F))
        case ..<0x10000:
            output.append(UInt8(0xE0 | value >> 12))
            output.append(UInt8(0x80 | value >> 6 & 0x3F))
            output.append(UInt8(0x80 | value & 0x3F))
        default:
            output.append(UInt8(0xF0 | value >> 18))
            output.append(UInt8(0x80 | value >> 12 & 0x3F))
            output.append(UInt8(0x80 | value >> 6 & 0x3F))
            output.append(UInt8(0x80 | value & 0x3F))
        }
    }
}

extension UInt8 {
    fileprivate static let tab = UInt8(ascii: "\t")
    fileprivate static let lineFeed = UInt8(ascii: "\n")
    fileprivate static let carriageReturn = UInt8(ascii: "\r")
    fileprivate static let space = UInt8(ascii: " ")
    fileprivate static let exclamation = UInt8(ascii: "!")
    fileprivate static let doubleQuote = UInt8(ascii: "\"")
    fileprivate static let hash = UInt8(ascii: "#")
    fileprivate static let percent = UInt8(ascii: "%")
    fileprivate static let ampersand = UInt8(ascii: "&")
    fileprivate static let singleQuote = UInt8(ascii: "'")
    fileprivate static let asterisk = UInt8(ascii: "*")
    fileprivate static let plus = UInt8(ascii: "+")
    fileprivate static let comma = UInt8(ascii: ",")
    fileprivate static let hyphen = UInt8(ascii: "-")
    fileprivate static let period = UInt8(ascii: ".")
    fileprivate static let slash = UInt8(ascii: "/")
    fileprivate static let colon = UInt8(ascii: ":")
    fileprivate static let greaterThan = UInt8(ascii: ">")
    fileprivate static let lessThan = UInt8(ascii: "<")
    fileprivate static let equals = UInt8(ascii: "=")
    fileprivate static let question = UInt8(ascii: "?")
    fileprivate static let at = UInt8(ascii: "@")
    fileprivate static let openBracket = UInt8(ascii: "[")
    fileprivate static let backslash = UInt8(ascii: "\\")
    fileprivate static let closeBracket = UInt8(ascii: "]")
    fileprivate static let backtick = UInt8(ascii: "`")
    fileprivate static let openBrace = UInt8(ascii: "{")
    fileprivate static let pipe = UInt8(ascii: "|")
    fileprivate static let closeBrace = UInt8(ascii: "}")
}
