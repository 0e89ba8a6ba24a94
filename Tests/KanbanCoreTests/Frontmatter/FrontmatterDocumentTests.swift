import Testing

@testable import KanbanCore

@Suite struct FrontmatterDocumentTests {
    static let simpleKanbanCard = """
        ---
        title: Implement user authentication
        column: in-progress
        position: n
        created: 2026-01-05T10:00:00Z
        modified: 2026-01-05T14:30:00Z
        labels: [feature, urgent]
        ---

        ## Description
        Add OAuth2.
        """

    static let board = """
        ---
        title: My Project Board
        columns:
          - id: todo
            name: To Do
          - id: doing
            name: Doing
            collapsed: true
        labels:
          - id: bug
            name: Bug
            color: "#e74c3c"
        ---

        """

    static let roundTripFixtures: [String] = [
        simpleKanbanCard,
        simpleKanbanCard + "\n",
        simpleKanbanCard.replacing("\n", with: "\r\n"),
        simpleKanbanCard.replacing("\n", with: "\r\n") + "\r\n",
        "\u{FEFF}" + simpleKanbanCard,
        "\u{FEFF}" + simpleKanbanCard.replacing("\n", with: "\r\n"),
        board,
        "---\n---\n",
        "---\n---\n\nBody only.\n",
        "---\n---",
        "---   \n# only a comment\n---\t\n",
        "---\ntitle: x\n---",
        "---\ntitle: x\n---\n",
        "---\ntitle: x\n---\nno blank line\n",
        "---\ntitle: x\n---\n\n\ntwo blank lines",
        "No frontmatter at all.\n",
        "",
        "\u{FEFF}",
        "\u{FEFF}plain body\r\nsecond line",
        "----\nnot frontmatter\n",
        "--- title\nnot frontmatter either\n",
        """
        ---
        # leading comment
        title: "Quoted \\"title\\""   # trailing comment
        assignee: 'Ann O''Neil'
        due: 2026-02-01
        priority: 2
        empty:
        tilde: ~
        notes: |
          First line
            indented

          after a blank
        summary: >-
          folded text
          continues here
        keep: |+
          kept

        meta:
          owner:
            name: Ann
            team: [core, "web, mobile"]
          flags: {a: 1, b: [x, y]}
        steps:
        - one
        - two: 2
          three: 3
        -   - nested
            - list
        multi: [a,
          b, c]
        plain: this value
          continues on the next line
        ---

        Body with --- inside
        ---
        and more
        """,
    ]

    @Test(arguments: roundTripFixtures)
    func roundTripIsByteIdentical(_ fixture: String) throws {
        let bytes = Array(fixture.utf8)
        let document = try FrontmatterDocument(bytes: bytes)
        #expect(document.bytes() == bytes)
    }

    @Test func readsSimpleKanbanCard() throws {
        let card = try frontmatterDocument(Self.simpleKanbanCard)
        #expect(card.hasFrontmatter)
        #expect(!card.usesCRLF)
        #expect(!card.hasBOM)
        #expect(card.entries.map(\.key) == ["title", "column", "position", "created", "modified", "labels"])
        #expect(card.value(forKey: "title") == .string("Implement user authentication"))
        #expect(card.value(forKey: "position") == .string("n"))
        #expect(card.value(forKey: "labels") == .list([.string("feature"), .string("urgent")]))
        #expect(card.value(forKey: "missing") == nil)
        #expect(card.body == "## Description\nAdd OAuth2.")
        #expect(card.bodyStartLine == 10)
        let location = try #require(card.location(ofKey: "labels"))
        #expect(location.line == 7)
        #expect(location.column == 9)
    }

    @Test func readsBoard() throws {
        let board = try frontmatterDocument(Self.board)
        let columns = try #require(board.value(forKey: "columns")?.list)
        #expect(columns.count == 2)
        #expect(columns[0]["id"] == .string("todo"))
        #expect(columns[1]["collapsed"] == .string("true"))
        #expect(
            board.value(forKey: "labels")?.list?.first?["color"]
                == .scalar(YAMLScalar("#e74c3c", style: .doubleQuoted)))
        #expect(board.body == "")
        let location = try #require(board.location(ofKey: "columns"))
        #expect(location.line == 3)
        #expect(location.column == 9)
    }

    @Test func crlfFileHasLFBody() throws {
        let card = try frontmatterDocument(Self.simpleKanbanCard.replacing("\n", with: "\r\n") + "\r\n")
        #expect(card.usesCRLF)
        #expect(card.body == "## Description\nAdd OAuth2.\n")
        #expect(card.value(forKey: "title") == .string("Implement user authentication"))
    }

    @Test func bomIsNotPartOfTheText() throws {
        let card = try frontmatterDocument("\u{FEFF}" + Self.simpleKanbanCard)
        #expect(card.hasBOM)
        #expect(card.entries.count == 6)
        let location = try #require(card.location(ofKey: "title"))
        #expect(location.line == 2)
        #expect(location.column == 8)
    }

    @Test(arguments: [
        ("Just a body.\n", "Just a body.\n"),
        ("", ""),
        ("\u{FEFF}Body", "Body"),
        ("line\r\nline\r\n", "line\nline\n"),
        ("----\nx", "----\nx"),
    ])
    func fileWithoutFrontmatterIsAllBody(_ input: String, _ expectedBody: String) throws {
        let file = try frontmatterDocument(input)
        #expect(!file.hasFrontmatter)
        #expect(file.entries.isEmpty)
        #expect(file.body == expectedBody)
        #expect(file.bodyStartLine == 1)
    }

    @Test(arguments: [
        ("---\n---\n", "", 3),
        ("---\n---", "", 3),
        ("---\n---\n\n", "", 4),
        ("---\na: 1\n---\nbody", "body", 4),
        ("---\na: 1\n---\n\nbody\n", "body\n", 5),
        ("---\na: 1\n---\n\n\nbody", "\nbody", 5),
        ("---\r\na: 1\r\n---\r\n\r\nbody\r\nmore", "body\nmore", 5),
    ])
    func bodyAndItsStartLine(_ input: String, _ expectedBody: String, _ expectedLine: Int) throws {
        let file = try frontmatterDocument(input)
        #expect(file.hasFrontmatter)
        #expect(file.body == expectedBody)
        #expect(file.bodyStartLine == expectedLine)
    }

    @Test func closingLineMayHaveTrailingBlanks() throws {
        let file = try frontmatterDocument("--- \t\ntitle: x\n---  \nbody")
        #expect(file.value(forKey: "title") == .string("x"))
        #expect(file.body == "body")
    }

    @Test func blockScalarContentCannotHideTheClosingLine() throws {
        let file = try frontmatterDocument("---\nnotes: |\n  ---\n  text\n---\nbody")
        #expect(file.value(forKey: "notes")?.string == "---\ntext\n")
        #expect(file.body == "body")
    }

    @Test(arguments: [
        "---\ntitle: x\n",
        "---\n",
        "---",
        "--- \r\ntitle: x\r\n",
        "\u{FEFF}---\ntitle: x\n",
        "---\ntitle: x\n--- more\n",
    ])
    func unclosedFrontmatterIsReportedAtLineOne(_ input: String) {
        let error = #expect(throws: FrontmatterError.self) { try frontmatterDocument(input) }
        #expect(error?.line == 1)
        #expect(error?.column == 1)
        #expect(error?.message == "frontmatter opened by '---' on line 1 is not closed")
    }

    @Test(arguments: [
        ([0x2D, 0x2D, 0x2D, 0x0A, 0x61, 0x3A, 0x20, 0xFF, 0x0A, 0x2D, 0x2D, 0x2D, 0x0A], 2, 4),
        ([0x61, 0x62, 0xC3], 1, 3),
        ([0xEF, 0xBB, 0xBF, 0x61, 0xC3, 0x28], 1, 2),
        ([0x0A, 0x0A, 0xED, 0xA0, 0x80], 3, 1),
        ([0x61, 0xC0, 0xAF], 1, 2),
        ([0x61, 0x0A, 0x62, 0x62, 0xF4, 0x90, 0x80, 0x80], 2, 3),
        (Array("---\ntitle: ok\n---\n\nbody ".utf8) + [0x80], 5, 6),
    ])
    func invalidUTF8IsReportedAtTheFirstBadByte(_ bytes: [UInt8], _ line: Int, _ column: Int) {
        let error = #expect(throws: FrontmatterError.self) { try FrontmatterDocument(bytes: bytes) }
        #expect(error?.line == line)
        #expect(error?.column == column)
        #expect(error?.message.hasPrefix("invalid UTF-8 byte") == true)
    }

    @Test func errorDescriptionHasLineAndColumn() {
        let error = FrontmatterError(line: 3, column: 1, message: "frontmatter is not closed")
        #expect(error.description == "3:1: error: frontmatter is not closed")
    }

    @Test func validMultibyteUTF8IsAccepted() throws {
        let file = try frontmatterDocument("---\ntitle: Café 日本 😀\n---\nΑλφα\n")
        #expect(file.value(forKey: "title") == .string("Café 日本 😀"))
        #expect(file.body == "Αλφα\n")
    }

    @Test func locationsOfValues() throws {
        let file = try frontmatterDocument(
            """
            ---
            title:   spaced
            empty:
            block: |
              text
            list:
            - a
            nested:
                key: value
            ---

            """)
        #expect(file.location(ofKey: "title").map { [$0.line, $0.column] } == [2, 10])
        #expect(file.location(ofKey: "empty").map { [$0.line, $0.column] } == [3, 7])
        #expect(file.location(ofKey: "block").map { [$0.line, $0.column] } == [4, 8])
        #expect(file.location(ofKey: "list").map { [$0.line, $0.column] } == [6, 6])
        #expect(file.location(ofKey: "nested").map { [$0.line, $0.column] } == [8, 8])
        #expect(file.location(ofKey: "absent") == nil)
    }
}
