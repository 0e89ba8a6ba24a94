import Testing
@testable import KanbanCore

/// What `kanban doctor` says about values SimpleKanban, kanban and YAML readers read differently, labels the app
/// drops, and names a case-insensitive disk cannot tell apart (issue 14).
@Suite struct AppDialectChecksTests {
    private func card(_ title: String, extra: String = "") -> String {
        "---\ntitle: \(title)\ncolumn: todo\nposition: n\n\(extra)---\n\nBody.\n"
    }

    /// The diagnostics of `code` after adding `files` to a copy of the SimpleKanban fixture board.
    private func findings(_ code: Diagnostic.Code, adding files: [(String, String)], board boardText: String? = nil) throws -> [Diagnostic] {
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            if let boardText { try board.write(boardText, to: "board.md") }
            for (path, text) in files { try board.write(text, to: path) }
            return try board.store().check().filter { $0.code == code }
        }
    }

    @Test func aTitleYAMLReadsAsACommentIsReportedWithAWayToWriteIt() throws {
        let found = try findings(.readsDifferently, adding: [("cards/todo/bug.md", card("Fix bug #123"))])
        let warning = try #require(found.first)
        #expect(found.count == 1)
        #expect(warning.severity == .warning)
        #expect(warning.location == SourceLocation(path: "cards/todo/bug.md", line: 2, column: 8))
        #expect(warning.message.contains("'Fix bug #123' in SimpleKanban and kanban, but as 'Fix bug' in YAML"), "\(warning.message)")
        #expect(warning.message.contains("write it as 'title: \"Fix bug #123\"'"), "\(warning.message)")
    }

    @Test func aQuotedTitleWithABackslashHasNoWayToAgree() throws {
        let warning = try #require(try findings(.readsDifferently, adding: [("cards/todo/path.md", card(#""Path: C:\temp""#))]).first)
        #expect(warning.message.contains(#"'Path: C:\temp' in SimpleKanban"#), "\(warning.message)")
        #expect(warning.message.contains("no way of writing it"), "\(warning.message)")
    }

    @Test(arguments: [
        ("~", "null"),
        ("[WIP] login", "nothing (it is not valid YAML)"),
        ("[WIP, login]", "a list"),
        ("'It''s done'", "'It's done'"),
        ("&anchor thing", "nothing"),
    ])
    func titlesYAMLReadsOtherwiseAreReported(title: String, yaml: String) throws {
        let warning = try #require(try findings(.readsDifferently, adding: [("cards/todo/a.md", card(title))]).first)
        #expect(warning.message.contains("but as \(yaml)"), "\(warning.message)")
    }

    @Test(arguments: ["Plain title", "Fix: login", "\"Fix: login\"", "C:\\temp", "100% done", "a, b and c", "\"#42 crash\""])
    func valuesEveryReaderReadsAlikeAreNotReported(title: String) throws {
        #expect(try findings(.readsDifferently, adding: [("cards/todo/a.md", card(title, extra: "labels: [bug, ui]\n"))]).isEmpty)
    }

    @Test func labelsNotWrittenInBracketsAreReported() throws {
        let found = try findings(.readsDifferently, adding: [("cards/todo/a.md", card("A", extra: "labels:\n  - bug\n"))])
        let warning = try #require(found.first)
        #expect(warning.location.line == 5)
        #expect(warning.message.contains("labels only written [a, b]"))
    }

    @Test func aLabelYAMLReadsAsNullIsReportedAsNull() throws {
        let found = try findings(.readsDifferently, adding: [("cards/todo/a.md", card("A", extra: "labels: [~, bug]\n"))])
        let warning = try #require(found.first)
        #expect(warning.message.contains("reads as ['~', 'bug'] in SimpleKanban and kanban, but as [null, 'bug'] in YAML"), "\(warning.message)")
    }

    @Test(arguments: ["[null, bug]", "[bug, NULL]", "[~]"])
    func aLabelYAMLReadsAsNullIsReportedHoweverPlainTheCard(labels: String) throws {
        // `[null, bug]` is what the fast reader reads; it leaves the check to the full reader, as for `title: null`.
        let text = "---\ntitle: A\ncolumn: todo\nposition: n\ncreated: 2026-01-05T10:00:00Z\nmodified: 2026-01-05T10:00:00Z\nlabels: \(labels)\n---\n\nBody"
        #expect(try findings(.readsDifferently, adding: [("cards/todo/a.md", text)]).map(\.location.line) == [7])
    }

    @Test func aValueOverSeveralLinesIsReported() throws {
        let text = "---\ntitle: A long\n  title\ncolumn: todo\nposition: n\n---\n"
        let warning = try #require(try findings(.readsDifferently, adding: [("cards/todo/a.md", text)]).first)
        #expect(warning.message.contains("SimpleKanban reads only 'A long'"), "\(warning.message)")
    }

    private static let boardWithQuirks = """
        ---
        title: "Lumen: 2.0"
        columns:
          - id: todo
            name: "QA: \\"final\\""
          - id: done
            name: Done
        labels:
          - id: bug
            name: Bug
            color: "#e74c3c"
          - id: urgent
            name: Urgent
        ---

        """

    @Test func boardValuesAndALabelWithoutColourAreReported() throws {
        let readings = try findings(.readsDifferently, adding: [], board: Self.boardWithQuirks)
        #expect(readings.map(\.location.line) == [2, 5], "\(readings.map(\.description))")
        #expect(readings.first?.message.contains("'\"Lumen: 2.0\"' in SimpleKanban and kanban, but as 'Lumen: 2.0' in YAML") == true,
                "\(readings.map(\.description))")
        let colourless = try findings(.labelWithoutColor, adding: [], board: Self.boardWithQuirks)
        #expect(colourless.map(\.location) == [SourceLocation(path: "board.md", line: 12, column: 1)])
        #expect(colourless.first?.message.contains("'urgent'") == true)
    }

    @Test func fileNamesDifferingOnlyInCaseInOneColumnAreAnError() throws {
        let found = try findings(.slugCaseCollision, adding: [
            ("cards/todo/add-vim-0-G-navigation.md", card("Add vim 0 G navigation")),
            ("cards/todo/add-vim-0-g-navigation.md", card("Add vim 0 G navigation")),
        ])
        #expect(found.count == 1)
        #expect(found.first?.severity == .error)
        #expect(found.first?.message.contains("add-vim-0-") == true)
    }

    @Test func slugsDifferingOnlyInCaseAcrossColumnsAreAWarning() throws {
        let found = try findings(.slugCaseCollision, adding: [
            ("cards/todo/Release-notes.md", card("Release notes")),
            ("cards/done/release-notes.md", card("Release notes").replacingOccurrences(of: "column: todo", with: "column: done")),
        ])
        #expect(found.map(\.severity) == [.warning])
    }

    @Test func columnIDsDifferingOnlyInCaseAreAnError() throws {
        let text = "---\ntitle: B\ncolumns:\n  - id: todo\n    name: To Do\n  - id: UPPER\n    name: Upper\n  - id: upper\n    name: Lower\n---\n"
        let found = try findings(.columnCaseCollision, adding: [], board: text)
        #expect(found.map(\.severity) == [.error])
        #expect(found.first?.location == SourceLocation(path: "board.md", line: 8, column: 9))
        #expect(found.first?.message.contains("'upper' differs from 'UPPER' only in case") == true, "\(found.map(\.description))")
    }

    @Test func slugsDifferingOnlyInNormalisationAreOneSlug() throws {
        // Swift strings compare canonically: `café` (NFC) and `café` (NFD) are the same slug, reported as a duplicate.
        let found = try findings(.duplicateSlug, adding: [
            ("cards/todo/caf\u{E9}.md", card("Café")),
            ("cards/done/cafe\u{301}.md", card("Café").replacingOccurrences(of: "column: todo", with: "column: done")),
        ])
        #expect(found.map(\.severity) == [.error])
    }

    @Test func theSampleBoardsHaveNoneOfThese() throws {
        for source in [TemporaryBoard.Source.sample, .fixture("simplekanban")] {
            let codes: Set<Diagnostic.Code> = [.readsDifferently, .labelWithoutColor, .slugCaseCollision]
            let found = try withTemporaryBoard(source) { board in try board.store().check().filter { codes.contains($0.code) } }
            #expect(found.isEmpty, "\(found.map(\.description))")
        }
    }
}
