import Testing

@testable import kanban

@Suite struct KeyDecoderTests {
    private func decode(_ bytes: [UInt8]) -> [Key] {
        var decoder = KeyDecoder()
        return decoder.keys(from: bytes) + decoder.flush()
    }

    private static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test(arguments: [
        ("h", [Key.character("h")]),
        ("HJKL", [.character("H"), .character("J"), .character("K"), .character("L")]),
        ("\u{1B}[A", [.arrow(.up, isShifted: false)]),
        ("\u{1B}[B", [.arrow(.down, isShifted: false)]),
        ("\u{1B}[C", [.arrow(.right, isShifted: false)]),
        ("\u{1B}[D", [.arrow(.left, isShifted: false)]),
        ("\u{1B}OA", [.arrow(.up, isShifted: false)]),
        ("\u{1B}[1;2A", [.arrow(.up, isShifted: true)]),
        ("\u{1B}[1;2B", [.arrow(.down, isShifted: true)]),
        ("\u{1B}[1;2C", [.arrow(.right, isShifted: true)]),
        ("\u{1B}[1;2D", [.arrow(.left, isShifted: true)]),
        ("\u{1B}[1;6C", [.arrow(.right, isShifted: true)]),  // Ctrl+Shift
        ("\u{1B}[1;5C", [.arrow(.right, isShifted: false)]),  // Ctrl alone
        ("\u{1B}[c", [.arrow(.right, isShifted: true)]),  // rxvt
        ("\u{1B}[H", [.home]), ("\u{1B}[F", [.end]), ("\u{1B}[1~", [.home]), ("\u{1B}[4~", [.end]),
        ("\u{1B}OH", [.home]), ("\u{1B}[5~", [.pageUp]), ("\u{1B}[6~", [.pageDown]), ("\u{1B}[3~", [.delete]),
        ("\r", [.enter]), ("\n", [.enter]), ("\t", [.tab]), ("\u{7F}", [.backspace]), ("\u{8}", [.backspace]),
        ("\u{3}", [.control("c")]), ("\u{1A}", [.control("z")]), ("\u{C}", [.control("l")]),
        ("é", [.character("é")]), ("修", [.character("修")]), ("🙂", [.character("🙂")]),
        ("\u{1B}", [.escape]),
        ("\u{1B}j", [.escape, .character("j")]),
        ("\u{1B}\u{1B}[A", [.escape, .arrow(.up, isShifted: false)]),
        ("\u{1B}[200~", []),  // bracketed paste start: not a key
        ("\u{1B}[?1;2c", []),  // a terminal's answer: read whole, ignored
        ("a\u{0}b", [.character("a"), .character("b")]),
    ])
    func decodes(_ text: String, _ expected: [Key]) {
        #expect(decode(Self.bytes(text)) == expected)
    }

    @Test func aSequenceCutAnywhereIsDecodedOnceComplete() {
        let sequence = Self.bytes("x\u{1B}[1;2Cy")
        for cut in 1..<sequence.count {
            var decoder = KeyDecoder()
            let keys = decoder.keys(from: sequence[..<cut]) + decoder.keys(from: sequence[cut...])
            #expect(keys == [.character("x"), .arrow(.right, isShifted: true), .character("y")], "cut at \(cut)")
            #expect(!decoder.isWaitingForMore)
        }
    }

    @Test func aCharacterCutAnywhereIsDecodedOnceComplete() {
        let bytes = Self.bytes("🙂")
        for cut in 1..<bytes.count {
            var decoder = KeyDecoder()
            #expect(decoder.keys(from: bytes[..<cut]).isEmpty)
            #expect(decoder.isWaitingForMore)
            #expect(decoder.keys(from: bytes[cut...]) == [.character("🙂")])
        }
    }

    @Test func aLoneEscapeWaitsUntilFlushed() {
        var decoder = KeyDecoder()
        #expect(decoder.keys(from: [0x1B]).isEmpty)
        #expect(decoder.isWaitingForMore)
        #expect(decoder.flush() == [.escape])
        #expect(!decoder.isWaitingForMore)
        #expect(decoder.flush().isEmpty)
    }

    @Test func anUnfinishedSequenceFlushedIsEscapeThenWhatWasTyped() {
        var decoder = KeyDecoder()
        #expect(decoder.keys(from: Self.bytes("\u{1B}[")).isEmpty)
        #expect(decoder.flush() == [.escape, .character("[")])
    }

    @Test func invalidUTF8IsSkippedNotWaitedFor() {
        #expect(decode([0xC3, 0x41]) == [.character("A")])
        #expect(decode([0x80, 0xFF, 0x42]) == [.character("B")])
    }
}
