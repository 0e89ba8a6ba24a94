import Testing

@testable import KanbanServer

@Suite struct TerminalTextPieceTests {
    @Test func separatesEscapeSequencesFromText() {
        let pieces = TerminalTextPiece.pieces(of: "\u{1B}[1;31mhi\u{1B}[0m")
        #expect(
            pieces == [
                .escape("\u{1B}[1;31m"), .character("h", width: 1), .character("i", width: 1), .escape("\u{1B}[0m"),
            ])
    }

    @Test(arguments: [
        "\u{1B}[38;2;231;76;60m",  // 24-bit colour
        "\u{1B}[2K",  // erase line
        "\u{1B}[?25l",  // hide cursor
        "\u{1B}]8;;https://example.com\u{1B}\\",  // hyperlink, ST-terminated
        "\u{1B}]0;title\u{07}",  // window title, BEL-terminated
        "\u{1B}7",  // save cursor
        "\u{1B}",  // a lone escape at the end
        "\u{1B}[31",  // a sequence cut short
    ])
    func readsOneEscapeSequence(sequence: String) {
        #expect(TerminalTextPiece.pieces(of: sequence) == [.escape(sequence)])
    }

    @Test func keepsACombiningMarkAfterASequenceOutOfIt() {
        let pieces = TerminalTextPiece.pieces(of: "\u{1B}[1m\u{301}e")
        #expect(pieces == [.escape("\u{1B}[1m"), .character("\u{301}", width: 0), .character("e", width: 1)])
    }

    @Test func endsACutSequenceAtTheFirstByteThatCannotBelongToIt() {
        let pieces = TerminalTextPiece.pieces(of: "\u{1B}[1\u{7}x")
        #expect(pieces == [.escape("\u{1B}[1"), .character("\u{7}", width: 0), .character("x", width: 1)])
    }
}
