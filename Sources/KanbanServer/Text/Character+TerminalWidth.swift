extension Character {
    /// The number of terminal columns the grapheme cluster occupies: 0, 1 or 2.
    ///
    /// - Control characters (including tab and newline), combining marks, format
    ///   characters such as zero-width space and joiner, and default-ignorable code points: 0.
    /// - East Asian Wide and Fullwidth (CJK, Hangul, Kana, fullwidth forms): 2.
    /// - Emoji: 2 when the first scalar has emoji presentation by default, or when the
    ///   cluster asks for it with U+FE0F; flags, ZWJ sequences and skin tones count once.
    /// - Everything else, including East Asian Ambiguous: 1.
    ///
    /// The cluster is measured as one unit by its first scalar, because the scalars after
    /// it only extend that one glyph.
    var terminalWidth: Int {
        let scalars = unicodeScalars
        guard let first = scalars.first else { return 0 }
        let properties = first.properties

        switch properties.generalCategory {
        case .control, .nonspacingMark, .enclosingMark, .format, .lineSeparator, .paragraphSeparator:
            return 0
        default:
            break
        }
        if first.value >= 0x1160 && first.value <= 0x11FF {
            // Hangul medial vowels and final consonants join the preceding syllable.
            return 0
        }
        if properties.isDefaultIgnorableCodePoint && first != "\u{3164}" && first != "\u{FFA0}" {
            return 0
        }
        if EastAsianWidth.isWide(first) {
            return 2
        }
        if scalars.count > 1 && scalars.contains("\u{FE0E}") {
            // Text presentation selector: a narrow glyph.
            return 1
        }
        if properties.isEmojiPresentation {
            return 2
        }
        if properties.isEmoji && scalars.contains("\u{FE0F}") {
            return 2
        }
        return 1
    }
}
