import Testing
@testable import KanbanCore

/// Text read line by line, written with CRLF line ends (Windows editors, `core.autocrlf`): Swift's `"\r\n"` is one
/// Character, so splitting a String at `"\n"` does not split such text at all.
@Suite struct LineEndingTests {
    @Test func splitsAtEveryLineEnd() {
        #expect("a\r\nb\nc\r\n".lineSlices() == ["a\r", "b", "c\r", ""])
        #expect("a\r\nb\nc\r\n".lines() == ["a", "b", "c", ""])
        #expect("a\r\n\nb\n".lines(omittingEmpty: true) == ["a", "b"])
        #expect("x\r\n".endsWithLineBreak && "x\n".endsWithLineBreak && !"x\r".endsWithLineBreak && !"x".endsWithLineBreak)
    }

    @Test func findsTheHeadingOfACRLFBody() {
        #expect(CardReader.heading(in: "Intro\r\n# Fix the login\r\nMore\r\n") == "Fix the login")
    }

    @Test func trimsBlankCRLFLines() {
        #expect("\r\n \r\nkeep\r\nthis\r\n\r\n".trimmingBlankLines() == "keep\nthis")
    }

    @Test func findsKeptSectionsInACRLFBody() throws {
        let body = "Mine\r\n\r\n" + KeptText.Kind.conflict.startLine + "\r\nTheirs\r\n" + KeptText.Kind.conflict.endLine + "\r\n"
        let sections = try #require(KeptText.sections(of: .conflict, in: body))
        #expect(sections.texts == ["Theirs\r\n"])
        #expect(sections.rest == "Mine\r\n")
    }

    @Test func mergesCRLFBodiesBothSidesChangedWithoutMarkers() throws {
        let merged = CardMerge.mergeLines(base: "one\r\ntwo\r\nthree\r\n", ours: "one\r\nTWO by ana\r\nthree\r\n",
                                          theirs: "one\r\nTWO by ben\r\nthree\r\n", oursWins: true)
        #expect(merged.text == "one\r\nTWO by ana\r\nthree\r\n")
        #expect(merged.kept == "TWO by ben\r\n")
    }
}
