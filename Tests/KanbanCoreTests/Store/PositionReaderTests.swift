@testable import KanbanCore
import Testing

/// The quick `position:` reader must agree with the full parser whenever it answers, and hand over when unsure.
@Suite struct PositionReaderTests {
    @Test(arguments: [
        ("---\ntitle: A\nposition: a1\n---\nbody", PositionReader.QuickLook.known("a1")),
        ("\u{FEFF}---\r\ntitle: A\r\nposition: n\r\n---\r\n", .known("n")),
        ("---\ntitle: A\n---\n\nposition: body-not-frontmatter", .known(nil)),
        ("# No frontmatter\n\nposition: a1\n", .known(nil)),
        ("", .known(nil)),
        ("---\nposition: \"on\"\n---\n", .undecided),
        ("---\nposition: a1 # moved\n---\n", .undecided),
        ("---\nposition: a1\n", .undecided),
        ("---\nposition: a1\nposition: a2\n---\n", .undecided),
        ("---\n<<<<<<< HEAD\nposition: a1\n=======\nposition: a2\n>>>>>>> b\n---\n", .undecided),
        ("----\nposition: a1\n---\n", .undecided),
        ("---\nposition: a1\n  b2\n---\n", .undecided),
    ])
    func readsPlainPositionsAndHandsOverTheRest(text: String, expected: PositionReader.QuickLook) {
        #expect(PositionReader.quickPosition(in: Array(text.utf8)) == expected)
    }

    @Test(arguments: [
        "---\ntitle: A\nposition: a1\n---\nbody",
        "\u{FEFF}---\r\ntitle: A\r\nposition: n\r\n---\r\n",
        "---\ntitle: A\n---\n\nposition: x",
        "# No frontmatter\n",
        "---\ntitle: A\nposition:    zz9   \nlabels: []\n---\n",
    ])
    func agreesWithTheParser(text: String) throws {
        try expectAgreement(text)
    }

    /// The parser reads a position as SimpleKanban does (the rest of the line, `#` and all; double quotes removed);
    /// the quick reader, when it answers, says the same.
    @Test(arguments: [
        ("---\nposition: a1 # moved\n---\n", "a1 # moved"),
        ("---\nposition: \"on\"\n---\n", "on"),
        ("---\nposition: [n]\n---\n", "[n]"),
        ("---\nposition: a1\n  b2\n---\n", "a1 b2"),
    ])
    func readsPositionsAsSimpleKanbanDoes(text: String, position: String) throws {
        let file = CardFile.active(name: "a.md", column: "todo")
        #expect(try CardReader.read(Array(text.utf8), file: file, includeBody: false).0.position == position)
    }

    private func expectAgreement(_ text: String) throws {
        let bytes = Array(text.utf8)
        let file = CardFile.active(name: "a.md", column: "todo")
        let parsed = try CardReader.read(bytes, file: file, includeBody: false).0.position
        #expect(PositionReader.quickPosition(in: bytes) == .known(parsed))
    }
}
