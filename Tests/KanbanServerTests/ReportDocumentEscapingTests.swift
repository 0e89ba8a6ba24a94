import Testing

@testable import KanbanServer

/// What the report's HTML and SVG make of text from the board and from a request.
@Suite struct ReportDocumentEscapingTests {
    /// A `"` or `<` joined into one Character with the scalar after or before it (a combining mark, an Arabic
    /// prefix) is escaped all the same: escaping by Character let them through.
    @Test(arguments: ["\"\u{301} onmouseover=x", "\u{600}<meta http-equiv=refresh content=0;url=//evil>", "a'b", "<&>\u{7}"])
    func everyMarkupCharacterIsEscapedWhateverItJoins(_ text: String) {
        let escaped = ReportDocument.escaped(text)
        #expect(!escaped.unicodeScalars.contains { "<>\"'".unicodeScalars.contains($0) }, "\(escaped.debugDescription)")
        #expect(!escaped.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" && $0 != "\t" })
    }
}
