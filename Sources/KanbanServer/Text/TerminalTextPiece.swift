/// A piece of text as a terminal sees it: an escape sequence, which occupies no columns,
/// or one grapheme cluster with its width.
package enum TerminalTextPiece: Hashable, Sendable {
    /// A complete (or, at the end of the text, truncated) escape sequence, such as `ESC [ 1 m`.
    case escape(String)

    /// One grapheme cluster and the columns it occupies.
    case character(Character, width: Int)

    /// The columns the piece occupies.
    var width: Int {
        switch self {
        case .escape: return 0
        case .character(_, let width): return width
        }
    }

    /// The piece's text.
    var text: String {
        switch self {
        case .escape(let sequence): return sequence
        case .character(let character, _): return String(character)
        }
    }

    /// Whether the piece is a plain space, where word wrapping may break a line.
    var isSpace: Bool {
        if case .character(" ", _) = self { return true }
        return false
    }

    /// Splits `text` into escape sequences and grapheme clusters.
    ///
    /// Recognised sequences: CSI (`ESC [` parameters, intermediates, one final byte),
    /// OSC, DCS, SOS, PM and APC strings (ended by `BEL` or `ESC \`), and two-character
    /// `ESC x` sequences. Text between sequences is cut into grapheme clusters on its own,
    /// so a combining mark after a sequence never merges into it.
    ///
    /// - Complexity: O(*n*) in the number of Unicode scalars.
    static func pieces(of text: String) -> [TerminalTextPiece] {
        let scalars = Array(text.unicodeScalars)
        var pieces: [TerminalTextPiece] = []
        var run = String.UnicodeScalarView()

        func flushRun() {
            guard !run.isEmpty else { return }
            for character in String(run) {
                pieces.append(.character(character, width: character.terminalWidth))
            }
            run = String.UnicodeScalarView()
        }

        var index = 0
        while index < scalars.count {
            guard scalars[index] == "\u{1B}" else {
                run.append(scalars[index])
                index += 1
                continue
            }
            flushRun()
            let end = escapeSequenceEnd(in: scalars, startingAt: index)
            var sequence = String.UnicodeScalarView()
            sequence.append(contentsOf: scalars[index..<end])
            pieces.append(.escape(String(sequence)))
            index = end
        }
        flushRun()
        return pieces
    }

    /// The index just past the escape sequence that starts with `ESC` at `start`.
    private static func escapeSequenceEnd(in scalars: [Unicode.Scalar], startingAt start: Int) -> Int {
        var index = start + 1
        guard index < scalars.count else { return index }
        let introducer = scalars[index]
        index += 1
        switch introducer {
        case "[":
            // Parameter and intermediate bytes are 0x20–0x3F; the final byte is 0x40–0x7E.
            while index < scalars.count {
                let value = scalars[index].value
                index += 1
                if (0x40...0x7E).contains(value) { return index }
                if !(0x20...0x3F).contains(value) { return index - 1 }
            }
            return index
        case "]", "P", "X", "^", "_":
            while index < scalars.count {
                if scalars[index] == "\u{07}" { return index + 1 }
                if scalars[index] == "\u{1B}" {
                    if index + 1 < scalars.count, scalars[index + 1] == "\\" { return index + 2 }
                    return index
                }
                index += 1
            }
            return index
        default:
            return index
        }
    }
}
