import Testing
@testable import KanbanCore

@Suite struct BoardTests {
    private func board(body: String) -> Board {
        Board(title: "Board", columns: [Column(id: "todo", name: "To Do")], body: body)
    }

    // MARK: Card template

    @Test func theTemplateIsWhatStandsUnderTheCardTemplateHeading() {
        let body = "# Team Board\n\nNotes for the team.\n\n## Card Template\n\nWhat needs doing?\n\n- [ ] First step\n"
        #expect(board(body: body).cardTemplate == "What needs doing?\n\n- [ ] First step")
    }

    @Test func theTemplateHeadingIsFoundWhateverItsCase() {
        let body = "# Board\n\n##   card TEMPLATE  \n\nHello\n"
        #expect(board(body: body).cardTemplate == "Hello")
    }

    @Test func theTemplateEndsAtTheNextTopLevelHeading() {
        let body = "## Card Template\n\nHello\n\n# Appendix\n\nNot part of it.\n"
        #expect(board(body: body).cardTemplate == "Hello")
    }

    @Test func theTemplateKeepsDeeperHeadingsAndInnerBlankLines() {
        let body = "## Card Template\n\n### Steps\n\n\n- [ ] one\n\n### Notes\n"
        #expect(board(body: body).cardTemplate == "### Steps\n\n\n- [ ] one\n\n### Notes")
    }

    @Test func anEmptyTemplateSectionGivesAnEmptyTemplate() {
        #expect(board(body: "# Board\n\n## Card Template\n\n").cardTemplate == "")
        #expect(board(body: "").cardTemplate == "")
    }

    @Test func aTemplateMadeOfLevelTwoHeadingsIsKept() {
        // The sample board's template is three `##` sections; new cards should start with them.
        let body = "# Lumen\n\nNotes.\n\n## Card Template\n\n## Description\n\n## Acceptance criteria\n\n## Links"
        do {
            #expect(board(body: body).cardTemplate == "## Description\n\n## Acceptance criteria\n\n## Links")
        }
    }

    @Test func withoutATemplateHeadingTheWholeBodyIsTheTemplate() {
        // FORMAT.md (and SimpleKanban): with no `## Card Template` heading, new cards start with the whole body.
        let body = "# Website Redesign\n\nCards for the spring 2026 redesign of the company website."
        #expect(board(body: body).cardTemplate == body)
    }

    // MARK: Lookup

    @Test func findsColumnsAndLabelsByID() {
        let board = Board(title: "B", columns: [Column(id: "todo", name: "To Do"), Column(id: "done", name: "Done")],
                          labels: [Label(id: "bug", name: "Bug", color: "#e74c3c")])
        #expect(board.column(withID: "done")?.name == "Done")
        #expect(board.column(withID: "Done") == nil)
        #expect(board.label(withID: "bug")?.color == "#e74c3c")
        #expect(board.label(withID: "feature") == nil)
    }

    // MARK: Ids and colours

    @Test(arguments: ["todo", "in-progress", "v2.0", "a_b", "A", "9", String(repeating: "c", count: 64)])
    func validColumnIDs(id: String) {
        #expect(Column.isValidID(id))
    }

    @Test(arguments: ["", "../x", "..", ".", ".hidden", "-todo", "_todo", "a/b", "a b", "to do", "todo\n", "é",
                      "a\\b", "a:b", String(repeating: "c", count: 65)])
    func invalidColumnIDs(id: String) {
        #expect(!Column.isValidID(id))
    }

    @Test(arguments: ["bug", "feature", "needs-review", "v2", "ünïcödé", "p1_high", "a.b", "🐛"])
    func validLabelIDs(id: String) {
        #expect(Label.isValidID(id))
    }

    @Test(arguments: ["", "two words", "a,b", "[x]", "{x}", "\"q\"", "'q'", "#tag", "a:b", "tab\t", "new\nline",
                      "&anchor", "*alias", "!tag", "|", ">", "%", "@x", "`x`", String(repeating: "l", count: 65)])
    func invalidLabelIDs(id: String) {
        #expect(!Label.isValidID(id))
    }

    @Test(arguments: ["#e74c3c", "#3498DB", "#fff", "#000000"])
    func validColours(color: String) {
        #expect(Label.isValidColor(color))
    }

    @Test(arguments: ["", "red", "e74c3c", "#e74c3", "#e74c3cc", "#ggg", "#12", "# 123", "#e74c3c\n"])
    func invalidColours(color: String) {
        #expect(!Label.isValidColor(color))
    }
}
