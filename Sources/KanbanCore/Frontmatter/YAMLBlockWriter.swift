/// Writes values in block layout for the frontmatter editor.
///
/// Given the value being replaced (a `YAMLOriginal`), it keeps that value's shape: scalar
/// styles, flow versus block, indentation and dash spacing. Items and entries of a block
/// collection that are unchanged are copied from the original bytes, comments and all.
struct YAMLBlockWriter {
    /// The bytes written so far.
    private(set) var output: [UInt8] = []
    private let lineBreak: [UInt8]
    private let source: [UInt8]

    /// Creates a writer.
    ///
    /// - Parameters:
    ///   - lineBreak: `"\n"` or `"\r\n"`, ending every line written.
    ///   - source: The file the originals were parsed from; block items are copied from it.
    init(lineBreak: [UInt8], source: [UInt8]) {
        self.lineBreak = lineBreak
        self.source = source
    }

    mutating func append(_ bytes: some Sequence<UInt8>) {
        output.append(contentsOf: bytes)
    }

    private mutating func appendSpaces(_ count: Int) {
        output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: count))
    }

    private mutating func endLine() {
        output.append(contentsOf: lineBreak)
    }

    /// Writes the value of a block-map entry whose `key:` has just been written, through the
    /// line break of its last line.
    ///
    /// - Parameters:
    ///   - value: The value to write.
    ///   - original: The value it replaces, as a style hint.
    ///   - indent: Column of the entry's key.
    ///   - gap: Bytes between `:` and a value written on the key's line.
    ///   - comment: A trailing comment (with its leading whitespace) to keep on the key's line.
    /// - Returns: The value as a reader will see it, and the offset in `output` where it starts
    ///   (just past the `:` for a null or a block collection, as the parser reports it).
    mutating func writeEntryValue(
        _ value: YAMLValue, original: YAMLOriginal?, indent: Int, gap: [UInt8], comment: [UInt8]
    ) -> (value: YAMLValue, start: Int) {
        switch value {
        case .scalar(let scalar):
            switch YAMLScalarWriter.rendering(of: scalar, original: original?.value.scalarValue, context: .block) {
            case .inline(let text, let style):
                if text.isEmpty {
                    let start = output.count
                    append(comment)
                    endLine()
                    return (.scalar(YAMLScalar("")), start)
                }
                append(gap)
                let start = output.count
                append(text.utf8)
                append(comment)
                endLine()
                return (.scalar(YAMLScalar(scalar.value, style: style)), start)
            case .block(let style):
                append(gap)
                let start = output.count
                let contentIndent = Self.blockScalarIndent(original: original, parentIndent: indent)
                writeBlockScalar(
                    scalar.value, folded: style == .folded, parentIndent: indent, contentIndent: contentIndent,
                    comment: comment)
                return (.scalar(YAMLScalar(scalar.value, style: style)), start)
            }
        case .list(let items):
            if usesFlow(value, original: original) {
                return writeFlow(value, original: original, gap: gap, comment: comment)
            }
            let layout = original?.layout.blockListLayout
            let listIndent = layout.map { $0.indent >= indent ? $0.indent : indent + 2 } ?? indent + 2
            let start = output.count
            append(comment)
            endLine()
            let (written, _) = writeBlockList(
                items, originals: original?.value.list ?? [], layout: layout, indent: listIndent,
                gap: layout?.gap ?? 1, startsOnCurrentLine: false)
            return (.list(written), start)
        case .map(let entries):
            if usesFlow(value, original: original) {
                return writeFlow(value, original: original, gap: gap, comment: comment)
            }
            let layout = original?.layout.blockMapLayout
            let mapIndent = layout.map { $0.indent > indent ? $0.indent : indent + 2 } ?? indent + 2
            let start = output.count
            append(comment)
            endLine()
            let (written, _) = writeBlockMap(
                entries, originals: original?.value.map ?? [], layout: layout, indent: mapIndent,
                startsOnCurrentLine: false)
            return (.map(written), start)
        }
    }

    private mutating func writeFlow(
        _ value: YAMLValue, original: YAMLOriginal?, gap: [UInt8], comment: [UInt8]
    ) -> (value: YAMLValue, start: Int) {
        let (text, written) = YAMLScalarWriter.flow(value, hint: original?.value)
        append(gap)
        let start = output.count
        append(text.utf8)
        append(comment)
        endLine()
        return (written, start)
    }

    /// Writes a list item whose `-` has just been written at column `dashColumn`.
    private mutating func writeListItem(
        _ value: YAMLValue, original: YAMLOriginal?, dashColumn: Int, gap: Int
    ) -> YAMLValue {
        let nestedIndent = dashColumn + 1 + gap
        switch value {
        case .scalar(let scalar):
            switch YAMLScalarWriter.rendering(of: scalar, original: original?.value.scalarValue, context: .block) {
            case .inline(let text, let style):
                if text.isEmpty {
                    endLine()
                    return .scalar(YAMLScalar(""))
                }
                appendSpaces(gap)
                append(text.utf8)
                endLine()
                return .scalar(YAMLScalar(scalar.value, style: style))
            case .block(let style):
                appendSpaces(gap)
                let contentIndent = Self.blockScalarIndent(original: original, parentIndent: dashColumn)
                writeBlockScalar(
                    scalar.value, folded: style == .folded, parentIndent: dashColumn, contentIndent: contentIndent,
                    comment: [])
                return .scalar(YAMLScalar(scalar.value, style: style))
            }
        case .list(let items):
            if usesFlow(value, original: original) {
                return writeFlow(
                    value, original: original, gap: Array(repeating: UInt8(ascii: " "), count: gap), comment: []
                ).value
            }
            appendSpaces(gap)
            let layout = original?.layout.blockListLayout
            return .list(
                writeBlockList(
                    items, originals: original?.value.list ?? [], layout: layout, indent: nestedIndent,
                    gap: layout?.gap ?? 1, startsOnCurrentLine: true
                ).values)
        case .map(let entries):
            if usesFlow(value, original: original) {
                return writeFlow(
                    value, original: original, gap: Array(repeating: UInt8(ascii: " "), count: gap), comment: []
                ).value
            }
            appendSpaces(gap)
            return .map(
                writeBlockMap(
                    entries, originals: original?.value.map ?? [], layout: original?.layout.blockMapLayout,
                    indent: nestedIndent, startsOnCurrentLine: true
                ).entries)
        }
    }

    /// Writes block list items at `indent`, the first right here when `startsOnCurrentLine`.
    ///
    /// - Returns: The values as written and the offset in `output` of the first item's `-`.
    private mutating func writeBlockList(
        _ items: [YAMLValue], originals: [YAMLValue], layout: YAMLBlockLayout?, indent: Int, gap: Int,
        startsOnCurrentLine: Bool
    ) -> (values: [YAMLValue], start: Int) {
        // Unchanged items are copied; find them first so that no changed item takes their comments.
        var copies = [Int?](repeating: nil, count: items.count)
        var isTaken = Array(repeating: false, count: originals.count)
        if let layout {
            func isCopy(_ candidate: Int, of item: YAMLValue) -> Bool {
                !isTaken[candidate] && candidate < layout.items.count && layout.items[candidate].column == indent
                    && originals[candidate] == item
            }
            // Where each original value stands, so that finding a moved item is not a search of the whole list.
            var positions: [YAMLValue: [Int]] = [:]
            for (position, original) in originals.enumerated().reversed() { positions[original, default: []].append(position) }
            for (index, item) in items.enumerated() {
                // Most items are unchanged and in place; look there before searching.
                if index < originals.count, isCopy(index, of: item) {
                    copies[index] = index
                } else {
                    while let candidate = positions[item]?.last, !isCopy(candidate, of: item) { positions[item]?.removeLast() }
                    copies[index] = positions[item]?.last
                }
                if let copy = copies[index] { isTaken[copy] = true }
            }
        }
        var written: [YAMLValue] = []
        var start = output.count
        let hints = YAMLScalarWriter.ListHints(originals)
        for (index, item) in items.enumerated() {
            let startsLine = index > 0 || !startsOnCurrentLine
            if let copy = copies[index], let itemLayout = layout?.items[copy] {
                let itemStart = appendCopy(of: itemLayout, startsLine: startsLine, indent: indent)
                if index == 0 { start = itemStart }
                written.append(originals[copy])
                continue
            }
            if startsLine {
                // A changed item keeps the comments above the original item at its place.
                if index < originals.count, !isTaken[index], let itemLayout = layout?.items[index] {
                    isTaken[index] = true
                    appendLeadingLines(of: itemLayout, indent: indent)
                }
                appendSpaces(indent)
            }
            if index == 0 { start = output.count }
            append(CollectionOfOne(UInt8(ascii: "-")))
            let original = hints.index(for: item, at: index).map { position in
                YAMLOriginal(
                    value: originals[position],
                    layout: layout.flatMap { position < $0.items.count ? $0.items[position].layout : nil } ?? .inline)
            }
            written.append(writeListItem(item, original: original, dashColumn: indent, gap: gap))
        }
        return (written, start)
    }

    /// Writes block map entries at `indent`, the first right here when `startsOnCurrentLine`.
    ///
    /// - Returns: The entries as written and the offset in `output` of the first key.
    private mutating func writeBlockMap(
        _ entries: [YAMLMapEntry], originals: [YAMLMapEntry], layout: YAMLBlockLayout?, indent: Int,
        startsOnCurrentLine: Bool
    ) -> (entries: [YAMLMapEntry], start: Int) {
        var seen = Set<String>()
        var written: [YAMLMapEntry] = []
        var start = output.count
        for entry in entries where seen.insert(entry.key).inserted {
            let startsLine = !written.isEmpty || !startsOnCurrentLine
            let match = originals.firstIndex(where: { $0.key == entry.key })
            let itemLayout = match.flatMap { position in
                layout.flatMap { position < $0.items.count ? $0.items[position] : nil }
            }.flatMap { $0.column == indent ? $0 : nil }
            if let match, let itemLayout, originals[match].value == entry.value {
                let itemStart = appendCopy(of: itemLayout, startsLine: startsLine, indent: indent)
                if written.isEmpty { start = itemStart }
                written.append(originals[match])
                continue
            }
            if startsLine {
                if let itemLayout { appendLeadingLines(of: itemLayout, indent: indent) }
                appendSpaces(indent)
            }
            if written.isEmpty { start = output.count }
            if let itemLayout {
                append(source[itemLayout.source.lowerBound..<itemLayout.keyEnd])
            } else {
                append(YAMLScalarWriter.render(entry.key).utf8)
                append(CollectionOfOne(UInt8(ascii: ":")))
            }
            let original = match.map { position in
                YAMLOriginal(value: originals[position].value, layout: itemLayout?.layout ?? .inline)
            }
            let (value, _) = writeEntryValue(
                entry.value, original: original, indent: indent, gap: [UInt8(ascii: " ")], comment: [])
            written.append(YAMLMapEntry(key: entry.key, value: value))
        }
        return (written, start)
    }

    /// Copies an unchanged item, with the comment lines above it when it starts a line.
    ///
    /// - Returns: The offset in `output` of the copied `-` or key.
    private mutating func appendCopy(of item: YAMLBlockItemLayout, startsLine: Bool, indent: Int) -> Int {
        if startsLine, let leadingStart = item.leadingStart {
            let start = output.count + item.source.lowerBound - leadingStart
            append(source[leadingStart..<item.source.upperBound])
            return start
        }
        if startsLine { appendSpaces(indent) }
        let start = output.count
        append(source[item.source])
        return start
    }

    /// Copies the comment and blank lines above an item, when it had any at this indentation.
    private mutating func appendLeadingLines(of item: YAMLBlockItemLayout, indent: Int) {
        guard item.column == indent, let leadingStart = item.leadingStart, let lineStart = item.lineStart else {
            return
        }
        append(source[leadingStart..<lineStart])
    }

    /// Writes a block scalar's header (with `comment`) and content lines. The caller has
    /// checked `YAMLScalarWriter.canWriteBlock`.
    private mutating func writeBlockScalar(
        _ value: String, folded: Bool, parentIndent: Int, contentIndent: Int, comment: [UInt8]
    ) {
        let bytes = Array(value.utf8)
        var contentEnd = bytes.count
        while contentEnd > 0, bytes[contentEnd - 1] == UInt8(ascii: "\n") { contentEnd -= 1 }
        let trailingBreaks = bytes.count - contentEnd
        let lines = bytes[..<contentEnd].split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        let firstText = lines.first(where: { !$0.isEmpty })?.first
        let needsIndentIndicator = firstText == UInt8(ascii: " ") || firstText == UInt8(ascii: "\t")
        append(CollectionOfOne(folded ? UInt8(ascii: ">") : UInt8(ascii: "|")))
        if needsIndentIndicator { append(String(contentIndent - parentIndent).utf8) }
        switch trailingBreaks {
        case 0: append(CollectionOfOne(UInt8(ascii: "-")))
        case 1: break
        default: append(CollectionOfOne(UInt8(ascii: "+")))
        }
        append(comment)
        endLine()
        for (index, line) in lines.enumerated() {
            if !line.isEmpty {
                appendSpaces(contentIndent)
                append(line)
                // A single break between two folded lines would read as a space.
                if folded, index < lines.count - 1 { endLine() }
            }
            endLine()
        }
        for _ in 0..<max(0, trailingBreaks - 1) { endLine() }
    }

    /// Whether a collection is written in flow style: empty ones always; otherwise as the
    /// original was, and without an original, lists of scalars only.
    private func usesFlow(_ value: YAMLValue, original: YAMLOriginal?) -> Bool {
        switch value {
        case .list(let items) where items.isEmpty: return true
        case .map(let entries) where entries.isEmpty: return true
        default: break
        }
        if let original {
            switch original.layout {
            case .blockList, .blockMap:
                return false
            case .inline where original.value.list != nil || original.value.map != nil:
                return true
            default:
                break
            }
        }
        guard case .list(let items) = value else { return false }
        return items.allSatisfy { $0.string != nil }
    }

    /// Content indentation for a block scalar: the original's when it was one (and still fits
    /// an indentation indicator), else two more than its parent.
    private static func blockScalarIndent(original: YAMLOriginal?, parentIndent: Int) -> Int {
        if case .blockScalar(let contentIndent)? = original?.layout,
            contentIndent > parentIndent, contentIndent - parentIndent <= 9
        {
            return contentIndent
        }
        return parentIndent + 2
    }
}

extension YAMLLayout {
    fileprivate var blockListLayout: YAMLBlockLayout? {
        if case .blockList(let layout) = self { return layout }
        return nil
    }

    fileprivate var blockMapLayout: YAMLBlockLayout? {
        if case .blockMap(let layout) = self { return layout }
        return nil
    }
}

extension YAMLValue {
    fileprivate var scalarValue: YAMLScalar? {
        if case .scalar(let scalar) = self { return scalar }
        return nil
    }
}
