extension String {
    /// The number of terminal columns the string occupies.
    ///
    /// Escape sequences occupy none; each grapheme cluster counts as
    /// `Character.terminalWidth` says. Newlines count 0, so measure one line at a time.
    package var terminalWidth: Int {
        // Printable ASCII is one column a byte: the common case (slugs, most titles) skips grapheme breaking.
        let printableASCII = utf8.withContiguousStorageIfAvailable { bytes in
            bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F } ? bytes.count : nil
        }
        if let count = printableASCII ?? (utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F } ? utf8.count : nil) { return count }
        return TerminalTextPiece.pieces(of: self).reduce(0) { $0 + $1.width }
    }

    /// The string cut to at most `width` columns, ending in `ellipsis` when anything was cut.
    ///
    /// Grapheme clusters and escape sequences are never split. Escape sequences after the
    /// cut are kept (they occupy no columns), so a style's closing reset survives.
    /// When even the ellipsis does not fit, the text is cut without one.
    ///
    /// - Parameters:
    ///   - width: The most columns the result may occupy; 0 or less gives no visible text.
    ///   - ellipsis: The mark of a cut, `…` by default.
    /// - Returns: The string itself when it fits.
    package func truncated(toWidth width: Int, ellipsis: String = "…") -> String {
        let pieces = TerminalTextPiece.pieces(of: self)
        let total = pieces.reduce(0) { $0 + $1.width }
        guard total > width else { return self }

        let ellipsisWidth = ellipsis.terminalWidth
        let usesEllipsis = ellipsisWidth <= width
        let budget = usesEllipsis ? width - ellipsisWidth : max(width, 0)

        var result = ""
        var used = 0
        var isCut = false
        for piece in pieces {
            switch piece {
            case .escape(let sequence):
                result += sequence
            case .character(let character, let characterWidth):
                guard !isCut else { continue }
                if used + characterWidth > budget {
                    isCut = true
                    if usesEllipsis { result += ellipsis }
                } else {
                    result.append(character)
                    used += characterWidth
                }
            }
        }
        return result
    }

    /// The string with spaces added to fill `width` columns; a wider string is returned unchanged.
    ///
    /// - Parameters:
    ///   - width: The columns to fill.
    ///   - alignment: Where the text goes within the field.
    package func padded(toWidth width: Int, alignment: TextAlignment = .leading) -> String {
        let missing = width - terminalWidth
        guard missing > 0 else { return self }
        switch alignment {
        case .leading:
            return self + String(repeating: " ", count: missing)
        case .trailing:
            return String(repeating: " ", count: missing) + self
        case .center:
            let before = missing / 2
            return String(repeating: " ", count: before) + self
                + String(repeating: " ", count: missing - before)
        }
    }

    /// The string word-wrapped into lines of at most `width` columns.
    ///
    /// Existing line breaks (`\n`, `\r\n` and the other newline characters) are kept, and so is each line's leading indentation, which also
    /// indents the lines it wraps into. Words are separated by spaces (runs of spaces
    /// become one); a word wider than the line is broken between grapheme clusters. A
    /// single cluster wider than `width` gets a line of its own. Trailing spaces are dropped.
    ///
    /// - Parameter width: The most columns per line; 0 or less disables wrapping.
    /// - Returns: The lines, without newline characters; an empty string gives `[""]`.
    package func wrapped(toWidth width: Int) -> [String] {
        let lines = split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        guard width > 0 else { return lines.map(String.init) }
        return lines.flatMap { TextWrapper(width: width).wrap(String($0)) }
    }
}

/// Greedy word wrapping of one line of text, measured in terminal columns.
private struct TextWrapper {
    var width: Int

    private typealias Word = [TerminalTextPiece]

    func wrap(_ line: String) -> [String] {
        let pieces = TerminalTextPiece.pieces(of: line)

        // Leading spaces form the indentation, repeated on every line the text wraps into.
        var start = 0
        while start < pieces.count, pieces[start].isSpace {
            start += 1
        }
        var indentation = String(repeating: " ", count: start)
        var indentationWidth = start
        if indentationWidth >= width {
            indentation = ""
            indentationWidth = 0
        }

        var words: [Word] = []
        var current: Word = []
        for piece in pieces[start...] {
            if piece.isSpace {
                if !current.isEmpty { words.append(current) }
                current = []
            } else {
                current.append(piece)
            }
        }
        if !current.isEmpty { words.append(current) }

        var lines: [String] = []
        var text = indentation
        var used = indentationWidth
        var isLineEmpty = true

        func finishLine() {
            lines.append(text)
            text = indentation
            used = indentationWidth
            isLineEmpty = true
        }

        for word in words {
            let wordWidth = word.reduce(0) { $0 + $1.width }
            if !isLineEmpty && used + 1 + wordWidth <= width {
                text += " " + word.map(\.text).joined()
                used += 1 + wordWidth
                continue
            }
            if !isLineEmpty { finishLine() }
            if used + wordWidth <= width {
                text += word.map(\.text).joined()
                used += wordWidth
                isLineEmpty = false
                continue
            }
            // Too wide for any line: break it between clusters.
            for piece in word {
                if !isLineEmpty && used + piece.width > width {
                    finishLine()
                }
                text += piece.text
                used += piece.width
                if piece.width > 0 { isLineEmpty = false }
            }
        }
        if !isLineEmpty || lines.isEmpty {
            lines.append(isLineEmpty ? text.trimmingTrailingSpaces() : text)
        }
        return lines
    }
}

extension String {
    /// The string without trailing spaces.
    fileprivate func trimmingTrailingSpaces() -> String {
        var result = self
        while result.last == " " { result.removeLast() }
        return result
    }
}
