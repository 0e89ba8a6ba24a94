import Testing

@testable import KanbanServer

@Suite struct StringTerminalWidthTests {
    // MARK: Width

    @Test(arguments: [
        ("", 0),
        ("hello", 5),
        ("日本語", 6),
        ("Cafe\u{301}", 4),
        ("🇫🇷🇩🇪", 4),
        ("👨‍👩‍👧 family", 9),
        ("\u{1B}[1;31mred\u{1B}[0m", 3),
        ("\u{1B}]8;;https://example.com\u{1B}\\link\u{1B}]8;;\u{1B}\\", 4),
        ("a\u{200B}b", 2),
        ("한국어 text", 11),
    ])
    func measuresStrings(text: String, width: Int) {
        #expect(text.terminalWidth == width)
    }

    // MARK: Truncation

    @Test(arguments: [
        ("hello", 5, "hello"),
        ("hello", 6, "hello"),
        ("hello", 4, "hel…"),
        ("hello", 1, "…"),
        ("hello", 0, ""),
        ("hello", -3, ""),
        ("", 0, ""),
        ("日本語", 6, "日本語"),
        ("日本語", 5, "日本…"),
        ("日本語", 4, "日…"),
        ("日本語", 2, "…"),
        ("e\u{301}e\u{301}e\u{301}", 2, "e\u{301}…"),
        ("👨‍👩‍👧👨‍👩‍👧", 3, "👨‍👩‍👧…"),
        ("🇫🇷🇩🇪", 3, "🇫🇷…"),
    ])
    func truncatesToAWidth(text: String, width: Int, truncated: String) {
        #expect(text.truncated(toWidth: width) == truncated)
        #expect(truncated.terminalWidth <= max(width, 0))
    }

    @Test func keepsEscapeSequencesWhole() {
        let text = "\u{1B}[31mhello\u{1B}[0m world"
        #expect(text.truncated(toWidth: 4) == "\u{1B}[31mhel…\u{1B}[0m")
        #expect(text.truncated(toWidth: 0) == "\u{1B}[31m\u{1B}[0m")
    }

    @Test func usesACustomEllipsis() {
        #expect("hello".truncated(toWidth: 4, ellipsis: "...") == "h...")
        #expect("hello".truncated(toWidth: 2, ellipsis: "...") == "he")
    }

    // MARK: Padding

    @Test(arguments: [
        ("ab", 5, TextAlignment.leading, "ab   "),
        ("ab", 5, .trailing, "   ab"),
        ("ab", 5, .center, " ab  "),
        ("ab", 2, .leading, "ab"),
        ("abc", 2, .leading, "abc"),
        ("ab", 0, .trailing, "ab"),
        ("", 3, .leading, "   "),
        ("日本", 6, .leading, "日本  "),
        ("\u{1B}[1mab\u{1B}[0m", 4, .trailing, "  \u{1B}[1mab\u{1B}[0m"),
    ])
    func padsToAWidth(text: String, width: Int, alignment: TextAlignment, padded: String) {
        #expect(text.padded(toWidth: width, alignment: alignment) == padded)
    }

    // MARK: Wrapping

    @Test(arguments: [
        ("", 10, [""]),
        ("one two three", 20, ["one two three"]),
        ("one two three", 13, ["one two three"]),
        ("one two three", 12, ["one two", "three"]),
        ("one two three", 7, ["one two", "three"]),
        ("one two three", 3, ["one", "two", "thr", "ee"]),
        ("abcdef", 1, ["a", "b", "c", "d", "e", "f"]),
        ("one two", 0, ["one two"]),
        ("one  two   three ", 9, ["one two", "three"]),
        ("first\nsecond line", 6, ["first", "second", "line"]),
        ("a\n\nb", 5, ["a", "", "b"]),
        ("a\r\nb\rc", 5, ["a", "b", "c"]),
        ("a\n", 5, ["a", ""]),
        ("  indented text here", 10, ["  indented", "  text", "  here"]),
        ("日本語の文章", 5, ["日本", "語の", "文章"]),
        ("日本", 1, ["日", "本"]),
        ("abc 日本語", 6, ["abc", "日本語"]),
        ("word verylongword end", 8, ["word", "verylong", "word end"]),
    ])
    func wrapsToAWidth(text: String, width: Int, lines: [String]) {
        #expect(text.wrapped(toWidth: width) == lines)
    }

    @Test func wrapsStyledTextByVisibleWidth() {
        let text = "\u{1B}[1mbold\u{1B}[0m words here"
        #expect(text.wrapped(toWidth: 10) == ["\u{1B}[1mbold\u{1B}[0m words", "here"])
    }

    @Test func neverProducesALineWiderThanTheWidthUnlessOneClusterIs() {
        let text = "The quick brown 狐 jumps over the lazy dog's 🐕‍🦺 and keeps going"
        for width in 2...30 {
            for line in text.wrapped(toWidth: width) {
                #expect(line.terminalWidth <= width, "width \(width): '\(line)'")
            }
        }
    }
}
