import Testing
@testable import KanbanCore

/// `board.md` parsing, through ``BoardStore/loadBoard()`` as the CLI uses it.
@Suite struct BoardFileTests {
    private func loadBoard(_ text: String) throws -> Board {
        try withTemporaryBoard(.boardFile(text, columns: [])) { board in
            try board.store().loadBoard()
        }
    }

    private func loadError(_ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> KanbanError? {
        try withTemporaryBoard(.boardFile(text, columns: [])) { board in
            let store = try board.store()
            let error = expectKanbanError(.invalidBoard, sourceLocation: sourceLocation) { try store.loadBoard() }
            #expect(error?.location?.path == "board.md", sourceLocation: sourceLocation)
            return error
        }
    }

    @Test func parsesTheSimpleKanbanBoard() throws {
        let board = try withTemporaryBoard(.fixture("simplekanban")) { try $0.store().loadBoard() }
        #expect(board.title == "Website Redesign")
        #expect(board.columns == [Column(id: "todo", name: "To Do"), Column(id: "in-progress", name: "In Progress"),
                                  Column(id: "done", name: "Done")])
        #expect(board.labels == [Label(id: "bug", name: "Bug", color: "#e74c3c"),
                                 Label(id: "feature", name: "Feature", color: "#3498db")])
        #expect(board.body.hasPrefix("# Website Redesign\n\n"))
        #expect(board.body.hasSuffix("redesign of the company website."))
        #expect(board.fields.isEmpty)
    }

    @Test func parsesTheSampleBoard() throws {
        let board = try withTemporaryBoard(.sample) { try $0.store().loadBoard() }
        #expect(board.title == "Lumen 2.0 Launch")
        #expect(board.columns.map(\.id) == ["backlog", "todo", "in-progress", "review", "done"])
        #expect(board.columns.map(\.name) == ["Backlog", "To Do", "In Progress", "Review", "Done"])
        #expect(board.columns.map(\.isCollapsed) == [true, false, false, false, false])
        #expect(board.labels.map(\.id) == ["feature", "bug", "design", "docs", "infra", "marketing"])
        #expect(board.label(withID: "design") == Label(id: "design", name: "Design", color: "#9b59b6"))
        #expect(board.label(withID: "marketing")?.color == "#e91e63")
        #expect(board.body.contains("## Card Template"))
    }

    @Test func theSampleBoardTemplateIsItsThreeSections() throws {
        let board = try withTemporaryBoard(.sample) { try $0.store().loadBoard() }
        do {
            #expect(board.cardTemplate == "## Description\n\n## Acceptance criteria\n\n## Links")
        }
    }

    @Test func parsesTheMessyBoard() throws {
        let board = try withTemporaryBoard(.fixture("messy")) { try $0.store().loadBoard() }
        #expect(board.title == "Messy Board")
        #expect(board.columns.map(\.id) == ["todo", "doing", "done"])
        #expect(board.labels.map(\.id) == ["bug", "ui"])
    }

    @Test(arguments: [("true", true), ("yes", true), ("on", true), ("True", true), ("false", false), ("no", false)])
    func readsCollapsed(value: String, isCollapsed: Bool) throws {
        let board = try loadBoard("---\ntitle: B\ncolumns:\n  - id: todo\n    name: To Do\n    collapsed: \(value)\n---\n")
        #expect(board.columns.first?.isCollapsed == isCollapsed)
    }

    @Test func aColumnWithoutANameIsNamedByItsID() throws {
        let board = try loadBoard("---\ntitle: B\ncolumns:\n  - id: todo\n---\n")
        #expect(board.columns == [Column(id: "todo", name: "todo")])
    }

    @Test func aLabelNeedsOnlyAnID() throws {
        let board = try loadBoard("---\ntitle: B\ncolumns:\n  - id: todo\nlabels:\n  - id: bug\n---\n")
        #expect(board.labels == [Label(id: "bug", name: "bug", color: nil)])
    }

    @Test func keysItDoesNotKnowAreKeptInOrder() throws {
        let board = try loadBoard("---\nversion: 2\ntitle: B\nowner: sam\ncolumns:\n  - id: todo\nsettings:\n  theme: dark\n---\n")
        #expect(board.fields.map(\.key) == ["version", "owner", "settings"])
        #expect(board.fields.first { $0.key == "owner" }?.value.string == "sam")
    }

    @Test func aBoardWithoutLabelsHasNone() throws {
        #expect(try loadBoard("---\ntitle: B\ncolumns:\n  - id: todo\n---\n").labels.isEmpty)
        #expect(try loadBoard("---\ntitle: B\ncolumns:\n  - id: todo\nlabels:\n---\n").labels.isEmpty)
    }

    @Test func theBodyIsWhatFollowsTheFrontmatter() throws {
        let board = try loadBoard("---\ntitle: B\ncolumns:\n  - id: todo\n---\n\n# B\n\n## Card Template\n\nSteps:\n")
        #expect(board.body.contains("# B"))
        #expect(!board.body.contains("title:"))
        #expect(board.cardTemplate == "Steps:")
    }

    @Test func aBoardWrittenWithCRLFLineEndsHasTheSameTemplate() throws {
        let text = "---\r\ntitle: B\r\ncolumns:\r\n  - id: todo\r\n---\r\n\r\n# B\r\n\r\n## Card Template\r\n\r\nSteps:\r\n\r\n- [ ] one\r\n"
        let board = try loadBoard(text)
        #expect(board.title == "B")
        #expect(board.columns.map(\.id) == ["todo"])
        #expect(board.cardTemplate == "Steps:\n\n- [ ] one")
    }

    // MARK: Errors, each with board.md and a line

    @Test func aMissingTitleIsAnErrorOnLineOne() throws {
        let error = try loadError("---\ncolumns:\n  - id: todo\n    name: To Do\n---\n")
        #expect(error?.location?.line == 1)
        #expect(error?.message.contains("title") == true)
    }

    @Test func anEmptyTitleIsAnErrorOnItsLine() throws {
        let error = try loadError("---\ncolumns:\n  - id: todo\ntitle:\n---\n")
        #expect(error?.location?.line == 4)
    }

    @Test func theBoardsTitleIsReadAsSimpleKanbanReadsIt() throws {
        // The app never unquotes a board's title: `""` is a title of two quotes, and `Q3: launch` needs none.
        let quoted = try BoardFile(bytes: Array("---\ntitle: \"Lumen: 2.0\"\ncolumns:\n  - id: todo\n    name: To Do\n---\n".utf8)).board
        #expect(quoted.title == "\"Lumen: 2.0\"")
        let plain = try BoardFile(bytes: Array("---\ntitle: Lumen: 2.0 # final\ncolumns:\n  - id: todo\n    name: \"QA: \\\"final\\\"\"\n---\n".utf8)).board
        #expect(plain.title == "Lumen: 2.0 # final")
        // A column's name loses its surrounding quotes, and nothing is unescaped.
        #expect(plain.columns[0].name == "QA: \\\"final\\\"")
    }

    @Test func missingColumnsAreAnErrorOnLineOne() throws {
        let error = try loadError("---\ntitle: Board\n---\n")
        #expect(error?.location?.line == 1)
        #expect(error?.message.contains("columns") == true)
    }

    @Test func anEmptyColumnListIsAnErrorOnItsLine() throws {
        let error = try loadError("---\ntitle: Board\ncolumns: []\n---\n")
        #expect(error?.location?.line == 3)
    }

    @Test func columnsThatAreNotAListAreAnErrorOnTheirLine() throws {
        let error = try loadError("---\ntitle: Board\n\ncolumns: todo\n---\n")
        #expect(error?.location?.line == 4)
    }

    @Test(arguments: ["../x", "a/b", ".hidden", "has space", "-dash"])
    func anInvalidColumnIDIsAnErrorOnTheColumnsLine(id: String) throws {
        let error = try loadError("---\ntitle: Board\n# the columns\ncolumns:\n  - id: todo\n  - id: \"\(id)\"\n---\n")
        #expect(error?.location?.line == 4)
        #expect(error?.message.contains(id) == true)
    }

    @Test func aColumnWithoutAnIDIsAnError() throws {
        let error = try loadError("---\ntitle: Board\ncolumns:\n  - name: To Do\n---\n")
        #expect(error?.location?.line == 3)
    }

    @Test func aDuplicateColumnIDIsAnErrorOnTheColumnsLine() throws {
        let error = try loadError("---\ntitle: Board\ncolumns:\n  - id: todo\n  - id: done\n  - id: todo\n---\n")
        #expect(error?.location?.line == 3)
        #expect(error?.message.contains("'todo'") == true)
    }

    @Test func labelsThatAreNotAListAreAnErrorOnTheirLine() throws {
        let error = try loadError("---\ntitle: Board\ncolumns:\n  - id: todo\nlabels: bug\n---\n")
        #expect(error?.location?.line == 5)
    }

    @Test func aLabelWithoutAnIDIsAnError() throws {
        let error = try loadError("---\ntitle: Board\ncolumns:\n  - id: todo\nlabels:\n  - name: Bug\n---\n")
        #expect(error?.location?.line == 5)
    }

    @Test func aBoardWithoutFrontmatterIsAnErrorAtOneOne() throws {
        let error = try loadError("# Just notes\n\nNo frontmatter here.\n")
        #expect(error?.location?.line == 1)
        #expect(error?.location?.column == 1)
    }

    @Test func unclosedFrontmatterIsAnErrorAtOneOne() throws {
        let error = try loadError("---\ntitle: Board\ncolumns:\n  - id: todo\n")
        #expect(error?.location?.line == 1)
        #expect(error?.location?.column == 1)
    }

    @Test func malformedYAMLIsAnErrorOnItsLine() throws {
        let error = try loadError("---\ntitle: Board\ncolumns: [todo\n---\n")
        #expect(error?.location?.line == 3)
    }

    @Test func theErrorReadsLikeACompilerMessage() throws {
        let error = try #require(try loadError("---\ntitle: Board\ncolumns: []\n---\n"))
        #expect(error.description.hasPrefix("board.md:3"))
        #expect(error.description.contains(": error: "))
    }
}
