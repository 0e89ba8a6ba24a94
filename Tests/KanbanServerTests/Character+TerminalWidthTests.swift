import Testing

@testable import KanbanServer

@Suite struct CharacterTerminalWidthTests {
    @Test(
        arguments: [
            ("a", 1), ("~", 1), (" ", 1),
            ("é", 1),  // precomposed U+00E9
            ("e\u{301}", 1),  // e + combining acute
            ("\u{301}", 0),  // a lone combining mark
            ("\u{200B}", 0),  // zero-width space
            ("\u{200D}", 0),  // zero-width joiner
            ("\u{FEFF}", 0),  // zero-width no-break space
            ("\u{AD}", 0),  // soft hyphen
            ("\t", 0), ("\n", 0), ("\r\n", 0), ("\u{7F}", 0),
            ("日", 2), ("本", 2), ("語", 2),
            ("あ", 2), ("カ", 2), ("한", 2),
            ("\u{1100}\u{1161}", 2),  // decomposed Hangul syllable
            ("Ａ", 2), ("！", 2),  // fullwidth forms
            ("\u{3000}", 2),  // ideographic space
            ("ｶ", 1),  // halfwidth Katakana
            ("😀", 2), ("👍🏽", 2),
            ("🇫🇷", 2),  // flag: two regional indicators
            ("👨‍👩‍👧", 2),  // ZWJ family
            ("❤️", 2),  // text-default emoji with VS16
            ("❤", 1),  // text-default emoji alone
            ("☺︎", 1),  // text presentation selector
            ("1️⃣", 2),  // keycap
            ("©", 1), ("…", 1), ("→", 1),
            ("\u{20000}", 2),  // CJK extension B
        ] as [(Character, Int)])
    func measuresGraphemeClusters(character: Character, width: Int) {
        #expect(character.terminalWidth == width)
    }
}
