#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A card or board file: an optional UTF-8 byte order mark, optional YAML frontmatter between
/// `---` lines, then the markdown body.
///
/// The document keeps the file's bytes. Reading parses the frontmatter once; the body is
/// decoded only when asked for. Edits rewrite only the lines they change, so `bytes()` after
/// no edits is the input, byte for byte, and after an edit differs only where the edit is.
package struct FrontmatterDocument: Sendable {
    /// Where one top-level entry is in `storage`.
    private struct EntryRecord: Sendable {
        /// Offset of the start of the key's line.
        var start: Int
        /// Offset just past the line break of the entry's last line.
        var end: Int
        /// 1-based line of the key.
        var line: Int
        /// 1-based line and column where the value starts.
        var valueLine: Int
        var valueColumn: Int
    }

    /// The shape of the file around the entries.
    private struct Structure: Sendable {
        var hasFrontmatter: Bool
        var hasBOM: Bool
        var usesCRLF: Bool
        /// Indentation of the top-level keys.
        var topLevelIndent = 0
        /// Offset of the closing `---` line (where a new key is inserted).
        var closingLineStart: Int
        /// 1-based line number of the closing `---`.
        var closingLineNumber: Int
        /// Offset just past the closing line's line break (or the end of the file).
        var headEnd: Int
        /// Offset where the body starts: `headEnd`, or past one blank line after it.
        var bodyStart: Int
        /// Whether a new body should end with a line break.
        var prefersFinalNewline: Bool
        /// Whether a new body should be separated from the frontmatter by a blank line.
        var prefersBlankLine: Bool
        /// The values the dialect owns that other readers may read otherwise, as parsed.
        var appReadings: [AppDialect.Reading] = []
    }

    private var storage: [UInt8]
    private var structure: Structure
    private var records: [EntryRecord]
    /// Whose keys are read and written the way SimpleKanban does (see `AppDialect`).
    let dialect: AppDialect.Kind

    /// The top-level keys and values of the frontmatter, in file order.
    private(set) var entries: [YAMLMapEntry]

    // MARK: - Reading

    /// Parses a whole file.
    ///
    /// - Parameter bytes: The file's contents.
    /// - Throws: `FrontmatterError` for invalid UTF-8 (at the first bad byte), frontmatter opened
    ///   by `---` but never closed, and YAML that is malformed or outside the subset `YAMLParser`
    ///   documents. Never traps, whatever the bytes.
    init(bytes: [UInt8], dialect: AppDialect.Kind = .yaml) throws(FrontmatterError) {
        let parsed = try bytes.withUnsafeBufferPointer {
            (buffer) throws(FrontmatterError) -> (Structure, [YAMLMapEntry], [EntryRecord]) in
            try Self.parse(buffer, dialect: dialect)
        }
        storage = bytes
        self.dialect = dialect
        (structure, entries, records) = parsed
    }

    /// A new document in SimpleKanban's layout: `---`, one `key: value` line per entry, `---`,
    /// a blank line and the body, with no line break added after the body.
    ///
    /// Scalars are written plain when that reads back as the same text, else double-quoted (a
    /// non-plain style on a scalar is honoured); lists of scalars as `[a, b]`; other lists and
    /// maps as indented blocks; an empty body ends the file right after the closing `---`.
    /// A repeated key keeps its first value.
    init(entries: [YAMLMapEntry], body: String, dialect: AppDialect.Kind = .yaml) {
        self.dialect = dialect
        storage = Array("---\n---\n".utf8)
        structure = Structure(
            hasFrontmatter: true, hasBOM: false, usesCRLF: false, closingLineStart: 4, closingLineNumber: 2,
            headEnd: 8, bodyStart: 8, prefersFinalNewline: false, prefersBlankLine: true)
        records = []
        self.entries = []
        for entry in entries where value(forKey: entry.key) == nil {
            setValue(entry.value, forKey: entry.key)
        }
        if !body.isEmpty {
            storage.append(UInt8(ascii: "\n"))
            storage.append(contentsOf: body.utf8)
            structure.bodyStart = structure.headEnd + 1
            structure.prefersFinalNewline = body.utf8.last == UInt8(ascii: "\n")
        }
    }

    /// Whether the file starts with a `---` line that opens frontmatter.
    var hasFrontmatter: Bool { structure.hasFrontmatter }

    /// Whether the file's lines end with CRLF (judged by its first line break).
    var usesCRLF: Bool { structure.usesCRLF }

    /// Whether the file starts with a UTF-8 byte order mark.
    var hasBOM: Bool { structure.hasBOM }

    /// The values SimpleKanban owns (in this document's dialect) whose text another reader may read otherwise, as
    /// the file was parsed; ``AppDialect/disagreement(_:)`` says whether and how they differ.
    var appReadings: [AppDialect.Reading] { structure.appReadings }

    /// The value of a top-level key, or `nil` when the frontmatter has no such key.
    func value(forKey key: String) -> YAMLValue? {
        entries.first(where: { $0.key == key })?.value
    }

    /// The 1-based line and column (in UTF-8 bytes) where a top-level key's value starts, for diagnostics.
    ///
    /// For a value on the key's line, its first character (a block scalar's `|` or `>`); for an
    /// empty value or a block list or map on the following lines, the column just past the `:` on
    /// the key's line, so that a diagnostic about the value points at its key.
    func location(ofKey key: String) -> (line: Int, column: Int)? {
        guard let index = entries.firstIndex(where: { $0.key == key }) else { return nil }
        return (records[index].valueLine, records[index].valueColumn)
    }

    /// The markdown body: the text after the closing `---` line minus one blank line if present, byte for byte,
    /// except that in a file whose lines end in CRLF each CRLF reads as `"\n"`.
    var body: String {
        storage.withUnsafeBufferPointer { buffer in
            Self.body(UnsafeBufferPointer(rebasing: buffer[structure.bodyStart...]), usesCRLF: structure.usesCRLF)
        }
    }

    /// Whether the file `bytes` ends its lines in CRLF, judged by its first line break (as ``usesCRLF``).
    static func usesCRLF(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress, let found = memchr(base, 0x0A, bytes.count) else { return false }
        let index = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
        return index > 0 && bytes[index - 1] == UInt8(ascii: "\r")
    }

    /// The body text of the bytes `region`: in a CRLF file (`usesCRLF`) each CRLF turned into `"\n"`, otherwise the
    /// bytes as they are.
    static func body(_ region: UnsafeBufferPointer<UInt8>, usesCRLF: Bool) -> String {
        guard usesCRLF, region.contains(UInt8(ascii: "\r")) else { return String(decoding: region, as: UTF8.self) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(region.count)
        for index in region.indices {
            if region[index] == UInt8(ascii: "\r"), index + 1 < region.count, region[index + 1] == UInt8(ascii: "\n") {
                continue
            }
            bytes.append(region[index])
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The offset in ``bytes()`` where the body starts.
    package var bodyOffset: Int { structure.bodyStart }

    /// The 1-based line of the file where `body` starts.
    var bodyStartLine: Int {
        guard structure.hasFrontmatter else { return 1 }
        return structure.closingLineNumber + 1 + (structure.bodyStart > structure.headEnd ? 1 : 0)
    }

    /// The file's bytes, reflecting every edit; with no edits, exactly the bytes parsed.
    func bytes() -> [UInt8] {
        storage
    }

    // MARK: - Editing

    /// Sets a top-level key, rewriting only that key's lines.
    ///
    /// An existing key keeps its place, its key text, its spacing and its trailing comment, and
    /// the new value keeps the old one's style where that can express it (see
    /// `YAMLScalarWriter.rendering(of:original:context:)` and `YAMLBlockWriter`). A new key goes
    /// on a new last line of the frontmatter. A document without frontmatter gets one (`---`,
    /// `---` and a blank line before the old content, which is kept byte for byte as the body).
    mutating func setValue(_ value: YAMLValue, forKey key: String) {
        if !structure.hasFrontmatter { insertFrontmatter() }
        var value = value
        // A value SimpleKanban owns is written so that the app reads it back (and YAML too, where it can).
        if case .scalar(var scalar) = value, scalar.writtenAs == nil,
           let rule = AppDialect.rule(for: key, path: [], isFirstInItem: false, in: dialect), rule != .cardLabels {
            scalar.writtenAs = AppDialect.text(for: scalar.value, rule: rule)
            value = .scalar(scalar)
        }
        if let index = entries.firstIndex(where: { $0.key == key }) {
            let record = records[index]
            let (output, written, valueStart) = renderEntry(key: key, value: value, replacing: record)
            replace(record.start..<record.end, with: output, after: index)
            entries[index].value = written
            records[index] = Self.record(start: record.start, line: record.line, output: output, valueStart: valueStart)
        } else {
            let start = structure.closingLineStart
            let line = structure.closingLineNumber
            let (output, written, valueStart) = renderEntry(key: key, value: value, replacing: nil)
            replace(start..<start, with: output, after: entries.count)
            entries.append(YAMLMapEntry(key: key, value: written))
            records.append(Self.record(start: start, line: line, output: output, valueStart: valueStart))
        }
    }

    /// Removes a top-level key's line(s); does nothing when the key is absent.
    mutating func removeValue(forKey key: String) {
        guard let index = entries.firstIndex(where: { $0.key == key }) else { return }
        let record = records[index]
        replace(record.start..<record.end, with: [], after: index)
        entries.remove(at: index)
        records.remove(at: index)
    }

    /// Replaces the body.
    ///
    /// Keeps the blank line after `---` if the file had one, the file's line endings, and its
    /// final-newline convention: a body that ended with a line break ends with one, a body that
    /// did not loses its trailing line breaks. When the old body was empty, SimpleKanban's
    /// layout applies: a blank line after `---` and no final line break. An empty body ends the
    /// file after the closing `---` line.
    mutating func setBody(_ body: String) {
        let lineBreak = lineBreakBytes
        var bytes: [UInt8] = []
        bytes.reserveCapacity(body.utf8.count + 16)
        // Byte for byte, but that a file whose lines end in CRLF writes each line feed as CRLF (and reads it back as
        // a line feed): any body reads back exactly as it was set.
        for byte in body.utf8 {
            if byte == UInt8(ascii: "\n") && structure.usesCRLF {
                bytes.append(contentsOf: lineBreak)
            } else {
                bytes.append(byte)
            }
        }
        guard structure.hasFrontmatter else {
            storage.replaceSubrange(structure.bodyStart..., with: bytes)
            return
        }
        guard !bytes.isEmpty else {
            storage.removeSubrange(structure.headEnd...)
            structure.bodyStart = structure.headEnd
            return
        }
        var separator: [UInt8] = []
        if structure.headEnd == 0 || storage[structure.headEnd - 1] != UInt8(ascii: "\n") {
            // The closing `---` ended the file without a line break.
            separator += lineBreak
        }
        let headEnd = structure.headEnd + separator.count
        // A body that starts with a line break needs the blank line: reading skips one.
        let startsWithBreak = bytes.first == UInt8(ascii: "\n") || bytes.starts(with: [UInt8(ascii: "\r"), UInt8(ascii: "\n")])
        if structure.prefersBlankLine || startsWithBreak { separator += lineBreak }
        storage.replaceSubrange(structure.headEnd..., with: separator + bytes)
        structure.bodyStart = structure.headEnd + separator.count
        structure.headEnd = headEnd
    }

    // MARK: - Private

    private var lineBreakBytes: [UInt8] {
        structure.usesCRLF ? [UInt8(ascii: "\r"), UInt8(ascii: "\n")] : [UInt8(ascii: "\n")]
    }

    /// Renders `key: value` lines replacing `record` (or new ones when `record` is nil).
    private func renderEntry(
        key: String, value: YAMLValue, replacing record: EntryRecord?
    ) -> (output: [UInt8], written: YAMLValue, valueStart: Int) {
        var writer = YAMLBlockWriter(lineBreak: lineBreakBytes, source: storage)
        let result: (value: YAMLValue, start: Int)
        let parsed = record.flatMap { originalEntry(at: $0) }
        var value = value
        var original = parsed.map { YAMLOriginal(value: $0.value, layout: $0.layout) }
        // SimpleKanban would read a comment after a value it owns as part of the value.
        var isAppText = if case .scalar(let scalar) = value { scalar.writtenAs != nil } else { false }
        if case .list(let items) = value,
           AppDialect.rule(for: key, path: [], isFirstInItem: false, in: dialect) == .cardLabels {
            // A card's labels are written `[a, b]` with each label as it is, which the app reads; labels it cannot
            // read so go in a block list, which kanban reads as YAML (the app reads none, and `doctor` says so).
            if let marked = AppDialect.labelItems(items) {
                value = .list(marked)
                original = YAMLOriginal(value: original?.value.list.map { .list($0) } ?? .list([]), layout: .inline)
                isAppText = true
            } else if original.map({ if case .blockList = $0.layout { false } else { true } }) ?? true {
                let layout = YAMLBlockLayout(indent: structure.topLevelIndent + 2, gap: 1, items: [])
                original = YAMLOriginal(value: .list([]), layout: .blockList(layout))
            }
        }
        if let record, let parsed {
            writer.append(storage[record.start..<parsed.colonEnd])
            let gap = parsed.inlineValueStart.map { Array(storage[parsed.colonEnd..<$0]) } ?? [UInt8(ascii: " ")]
            let comment = isAppText ? [] : parsed.commentStart.map { Array(storage[$0..<parsed.keyLineEnd]) } ?? []
            result = writer.writeEntryValue(value, original: original, indent: structure.topLevelIndent, gap: gap, comment: comment)
        } else {
            writer.append(repeatElement(UInt8(ascii: " "), count: structure.topLevelIndent))
            writer.append(YAMLScalarWriter.render(key).utf8)
            writer.append(CollectionOfOne(UInt8(ascii: ":")))
            result = writer.writeEntryValue(
                value, original: original, indent: structure.topLevelIndent, gap: [UInt8(ascii: " ")], comment: [])
        }
        return (writer.output, result.value, result.start)
    }

    /// Parses one entry again, this time recording its layout.
    private func originalEntry(at record: EntryRecord) -> YAMLParser.Entry? {
        storage.withUnsafeBufferPointer { buffer in
            do {
                var parser = try YAMLParser(
                    text: buffer, start: record.start, end: record.end, firstLineNumber: record.line,
                    recordsLayout: true, dialect: dialect)
                return try parser.parseSingleEntry(indent: structure.topLevelIndent)
            } catch {
                return nil
            }
        }
    }

    /// Replaces `range` of the file, shifting the records after entry `index` and the structure.
    private mutating func replace(_ range: Range<Int>, with bytes: [UInt8], after index: Int) {
        let removedLines = storage[range].count(where: { $0 == UInt8(ascii: "\n") })
        let addedLines = bytes.count(where: { $0 == UInt8(ascii: "\n") })
        storage.replaceSubrange(range, with: bytes)
        let delta = bytes.count - range.count
        let lineDelta = addedLines - removedLines
        for later in records.indices where later > index {
            records[later].start += delta
            records[later].end += delta
            records[later].line += lineDelta
            records[later].valueLine += lineDelta
        }
        structure.closingLineStart += delta
        structure.closingLineNumber += lineDelta
        structure.headEnd += delta
        structure.bodyStart += delta
    }

    /// Adds an empty `---`/`---` block in front of a document that has none.
    private mutating func insertFrontmatter() {
        let lineBreak = lineBreakBytes
        let bomLength = structure.hasBOM ? 3 : 0
        let hasContent = storage.count > bomLength
        var bytes = Array(storage[..<bomLength])
        bytes += Array("---".utf8) + lineBreak + Array("---".utf8) + lineBreak
        let headEnd = bytes.count
        if hasContent { bytes += lineBreak }
        bytes += storage[bomLength...]
        storage = bytes
        structure.hasFrontmatter = true
        structure.topLevelIndent = 0
        structure.closingLineStart = bomLength + 3 + lineBreak.count
        structure.closingLineNumber = 2
        structure.headEnd = headEnd
        structure.bodyStart = headEnd + (hasContent ? lineBreak.count : 0)
        structure.prefersBlankLine = true
    }

    private static func record(start: Int, line: Int, output: [UInt8], valueStart: Int) -> EntryRecord {
        var valueLine = line
        var lineStart = 0
        for index in 0..<valueStart where output[index] == UInt8(ascii: "\n") {
            valueLine += 1
            lineStart = index + 1
        }
        return EntryRecord(
            start: start, end: start + output.count, line: line, valueLine: valueLine,
            valueColumn: valueStart - lineStart + 1)
    }

    private static func parse(
        _ buffer: UnsafeBufferPointer<UInt8>, dialect: AppDialect.Kind
    ) throws(FrontmatterError) -> (Structure, [YAMLMapEntry], [EntryRecord]) {
        let count = buffer.count
        let hasBOM = count >= 3 && buffer[0] == 0xEF && buffer[1] == 0xBB && buffer[2] == 0xBF
        let bomLength = hasBOM ? 3 : 0
        if let bad = UTF8Validation.firstInvalidOffset(in: buffer) {
            var line = 1
            var lineStart = bomLength
            for index in bomLength..<bad where buffer[index] == UInt8(ascii: "\n") {
                line += 1
                lineStart = index + 1
            }
            let hex = String(buffer[bad], radix: 16, uppercase: true)
            throw FrontmatterError(
                line: line, column: bad - lineStart + 1, message: "invalid UTF-8 byte 0x\(hex)")
        }

        // The opening line: exactly `---`, then optional spaces or tabs.
        var openingEnd: Int?
        var usesCRLF = false
        if count - bomLength >= 3, buffer[bomLength] == UInt8(ascii: "-"), buffer[bomLength + 1] == UInt8(ascii: "-"),
            buffer[bomLength + 2] == UInt8(ascii: "-")
        {
            var index = bomLength + 3
            while index < count, buffer[index] == UInt8(ascii: " ") || buffer[index] == UInt8(ascii: "\t") {
                index += 1
            }
            if index == count {
                throw FrontmatterError(line: 1, column: 1, message: unclosedMessage)
            }
            if buffer[index] == UInt8(ascii: "\n") {
                openingEnd = index + 1
            } else if buffer[index] == UInt8(ascii: "\r"), index + 1 < count, buffer[index + 1] == UInt8(ascii: "\n") {
                openingEnd = index + 2
                usesCRLF = true
            }
        }
        guard let openingEnd else {
            var index = bomLength
            while index < count, buffer[index] != UInt8(ascii: "\n") { index += 1 }
            let structure = Structure(
                hasFrontmatter: false, hasBOM: hasBOM,
                usesCRLF: index < count && index > bomLength && buffer[index - 1] == UInt8(ascii: "\r"),
                closingLineStart: bomLength, closingLineNumber: 0, headEnd: bomLength, bodyStart: bomLength,
                prefersFinalNewline: count > bomLength && buffer[count - 1] == UInt8(ascii: "\n"),
                prefersBlankLine: true)
            return (structure, [], [])
        }

        // The closing line: `---` at the start of a line, then optional spaces or tabs.
        var lineStart = openingEnd
        var lineNumber = 2
        var closing: (start: Int, end: Int)?
        while lineStart < count {
            var lineEnd = lineStart
            while lineEnd < count, buffer[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
            if lineEnd - lineStart >= 3, buffer[lineStart] == UInt8(ascii: "-"),
                buffer[lineStart + 1] == UInt8(ascii: "-"), buffer[lineStart + 2] == UInt8(ascii: "-")
            {
                var index = lineStart + 3
                while index < lineEnd, buffer[index] == UInt8(ascii: " ") || buffer[index] == UInt8(ascii: "\t") {
                    index += 1
                }
                if index == lineEnd || (index + 1 == lineEnd && buffer[index] == UInt8(ascii: "\r") && lineEnd < count)
                {
                    closing = (lineStart, lineEnd)
                    break
                }
            }
            lineStart = lineEnd + 1
            lineNumber += 1
        }
        guard let closing else {
            throw FrontmatterError(line: 1, column: 1, message: unclosedMessage)
        }
        let headEnd = closing.end < count ? closing.end + 1 : count
        var bodyStart = headEnd
        if headEnd < count, buffer[headEnd] == UInt8(ascii: "\n") {
            bodyStart = headEnd + 1
        } else if headEnd + 1 < count, buffer[headEnd] == UInt8(ascii: "\r"), buffer[headEnd + 1] == UInt8(ascii: "\n")
        {
            bodyStart = headEnd + 2
        }

        var parser = try YAMLParser(text: buffer, start: openingEnd, end: closing.start, firstLineNumber: 2, dialect: dialect)
        let (parsedEntries, indent) = try parser.parseTopLevel()
        let lines = parser.lines
        var entries: [YAMLMapEntry] = []
        var records: [EntryRecord] = []
        entries.reserveCapacity(parsedEntries.count)
        records.reserveCapacity(parsedEntries.count)
        for entry in parsedEntries {
            entries.append(YAMLMapEntry(key: entry.key, value: entry.value))
            records.append(
                EntryRecord(
                    start: lines[entry.lineIndex].start, end: entry.end, line: 2 + entry.lineIndex,
                    valueLine: 2 + entry.valueLineIndex,
                    valueColumn: entry.valueOffset - lines[entry.valueLineIndex].start + 1))
        }
        let structure = Structure(
            hasFrontmatter: true, hasBOM: hasBOM, usesCRLF: usesCRLF, topLevelIndent: indent,
            closingLineStart: closing.start, closingLineNumber: lineNumber, headEnd: headEnd, bodyStart: bodyStart,
            prefersFinalNewline: bodyStart < count && buffer[count - 1] == UInt8(ascii: "\n"),
            prefersBlankLine: bodyStart > headEnd || bodyStart == count, appReadings: parser.appReadings)
        return (structure, entries, records)
    }

    private static let unclosedMessage = "frontmatter opened by '---' on line 1 is not closed"
}
