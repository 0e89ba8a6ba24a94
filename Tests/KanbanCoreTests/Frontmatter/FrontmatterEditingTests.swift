import Testing

@testable import KanbanCore

/// An edit of one key and the lines it must change.
struct EditCase: Sendable, CustomTestStringConvertible {
    var name: String
    var file: String
    var key: String
    var value: YAMLValue
    var removed: [String]
    var added: [String]
    var testDescription: String { name }
}

@Suite struct FrontmatterEditingTests {
    static let card = FrontmatterDocumentTests.simpleKanbanCard
    static let board = FrontmatterDocumentTests.board

    static let editCases: [EditCase] = [
        EditCase(
            name: "plain stays plain", file: card, key: "column", value: .string("done"),
            removed: ["column: in-progress\n"], added: ["column: done\n"]),
        EditCase(
            name: "plain becomes quoted when unsafe", file: card, key: "title", value: .string("Fix: login"),
            removed: ["title: Implement user authentication\n"], added: ["title: \"Fix: login\"\n"]),
        EditCase(
            name: "plain timestamp stays plain", file: card, key: "modified", value: .string("2026-01-06T09:00:00Z"),
            removed: ["modified: 2026-01-05T14:30:00Z\n"], added: ["modified: 2026-01-06T09:00:00Z\n"]),
        EditCase(
            name: "plain string becomes a quoted timestamp", file: card, key: "column", value: .string("2026-01-06"),
            removed: ["column: in-progress\n"], added: ["column: \"2026-01-06\"\n"]),
        EditCase(
            name: "flow list stays flow", file: card, key: "labels",
            value: .list([.string("feature"), .string("urgent"), .string("needs review")]),
            removed: ["labels: [feature, urgent]\n"], added: ["labels: [feature, urgent, needs review]\n"]),
        EditCase(
            name: "flow list quotes flow indicators", file: card, key: "labels",
            value: .list([.string("a, b"), .string("c")]),
            removed: ["labels: [feature, urgent]\n"], added: ["labels: [\"a, b\", c]\n"]),
        EditCase(
            name: "empty list", file: card, key: "labels", value: .list([]),
            removed: ["labels: [feature, urgent]\n"], added: ["labels: []\n"]),
        EditCase(
            name: "new key is appended before the closing line", file: card, key: "due", value: .string("2026-02-01"),
            removed: [], added: ["due: \"2026-02-01\"\n"]),
        EditCase(
            name: "new key that needs quoting", file: card, key: "needs: quotes", value: .string("x"),
            removed: [], added: ["\"needs: quotes\": x\n"]),
        EditCase(
            name: "new list of maps is a block", file: card, key: "checklist",
            value: .list([
                .map([
                    YAMLMapEntry(key: "item", value: .string("write")),
                    YAMLMapEntry(key: "done", value: .string("yes")),
                ])
            ]),
            removed: [], added: ["checklist:\n", "  - item: write\n", "    done: \"yes\"\n"]),
        EditCase(
            name: "new null", file: card, key: "assignee", value: .string(""),
            removed: [], added: ["assignee:\n"]),
        EditCase(
            name: "scalar replaced by a nested map", file: card, key: "position",
            value: .map([
                YAMLMapEntry(key: "lane", value: .string("a")), YAMLMapEntry(key: "rank", value: .string("7")),
            ]),
            removed: ["position: n\n"], added: ["position:\n", "  lane: a\n", "  rank: \"7\"\n"]),
        EditCase(
            name: "block list of maps keeps untouched items byte for byte", file: board, key: "columns",
            value: .list([
                .map([
                    YAMLMapEntry(key: "id", value: .string("todo")), YAMLMapEntry(key: "name", value: .string("To Do")),
                ]),
                .map([
                    YAMLMapEntry(key: "id", value: .string("doing")),
                    YAMLMapEntry(key: "name", value: .string("Doing")),
                    YAMLMapEntry(key: "collapsed", value: .string("false")),
                ]),
                .map([
                    YAMLMapEntry(key: "id", value: .string("done")), YAMLMapEntry(key: "name", value: .string("Done")),
                ]),
            ]),
            removed: ["    collapsed: true\n"],
            added: ["    collapsed: false\n", "  - id: done\n", "    name: Done\n"]),
        EditCase(
            name: "double-quoted stays double-quoted", file: board, key: "labels",
            value: .list([
                .map([
                    YAMLMapEntry(key: "id", value: .string("bug")), YAMLMapEntry(key: "name", value: .string("Bug")),
                    YAMLMapEntry(key: "color", value: .string("red")),
                ])
            ]),
            removed: ["    color: \"#e74c3c\"\n"], added: ["    color: \"red\"\n"]),
    ]

    @Test(arguments: editCases)
    func setValueChangesOnlyTheExpectedLines(_ testCase: EditCase) throws {
        var file = try frontmatterDocument(testCase.file)
        file.setValue(testCase.value, forKey: testCase.key)
        let change = changedLines(from: testCase.file, to: fileText(of: file))
        #expect(change.removed == testCase.removed)
        #expect(change.added == testCase.added)
        #expect(reparsesToSameModel(file))
        let reparsed = try FrontmatterDocument(bytes: file.bytes())
        #expect(reparsed.value(forKey: testCase.key).map(Self.withoutStyles) == Self.withoutStyles(testCase.value))
    }

    /// The value with every scalar in plain style, to compare content regardless of quoting.
    static func withoutStyles(_ value: YAMLValue) -> YAMLValue {
        switch value {
        case .scalar(let scalar): .string(scalar.value)
        case .list(let items): .list(items.map(withoutStyles))
        case .map(let entries): .map(entries.map { YAMLMapEntry(key: $0.key, value: withoutStyles($0.value)) })
        }
    }

    /// An original line, the value set, and the line expected.
    @Test(arguments: [
        ("a: plain", YAMLValue.string("new"), "a: new"),
        ("a: plain", .string("yes"), "a: \"yes\""),
        ("a: 'single'", .string("it's"), "a: 'it''s'"),
        ("a: 'single'", .string("two\nlines"), "a: \"two\\nlines\""),
        ("a: 'single'", .string("true"), "a: 'true'"),
        ("a: \"double\"", .string("plain-safe"), "a: \"plain-safe\""),
        ("a: \"double\"", .string("tab\there \"q\" \\"), "a: \"tab\\there \\\"q\\\" \\\\\""),
        ("a: plain  # keep me", .string("other"), "a: other  # keep me"),
        ("a:   spaced # c", .string("x"), "a:   x # c"),
        ("a: [x] # c", .list([.string("z")]), "a: [z] # c"),
        ("a: [x]", .list([.string("y")]), "a: [\"y\"]"),
        ("a: # c", .string("x"), "a: x # c"),
        ("\"quoted key\": v", .string("w"), "\"quoted key\": w"),
        ("a: 2", .string("3"), "a: 2".replacing("2", with: "3")),
        ("a: true", .string("false"), "a: false"),
        ("a: 1.5", .string("2.5e3"), "a: 2.5e3"),
        ("a: x", .scalar(YAMLScalar("x", style: .doubleQuoted)), "a: \"x\""),
        ("a: \"x\"", .scalar(YAMLScalar("y", style: .singleQuoted)), "a: 'y'"),
        ("a: x", .string("~"), "a: \"~\""),
        ("a: ~", .string("null"), "a: null"),
        ("a: 'x'", .string(""), "a: ''"),
        ("a: |\n  x", .string(""), "a:"),
        ("a: x", .scalar(YAMLScalar("null", style: .doubleQuoted)), "a: \"null\""),
        ("a: ['x', \"y\"]", .list([.string("y"), .string("z")]), "a: [\"y\", z]"),
        ("a: ['x', 'y']", .list([.string("z")]), "a: ['z']"),
        ("a: [2026-01-01]", .list([.string("2026-01-01"), .string("2026-02-01")]), "a: [2026-01-01, 2026-02-01]"),
        (
            "a: {k: 1}",
            .map([YAMLMapEntry(key: "k", value: .string("2")), YAMLMapEntry(key: "l", value: .string(""))]),
            "a: {k: 2, l: \"\"}"
        ),
    ])
    func setValueKeepsTheLineStyle(_ original: String, _ value: YAMLValue, _ expected: String) throws {
        var file = try frontmatterDocument("---\n\(original)\nb: keep\n---\nbody\n")
        file.setValue(value, forKey: file.entries[0].key)
        #expect(fileText(of: file) == "---\n\(expected)\nb: keep\n---\nbody\n")
        #expect(reparsesToSameModel(file))
    }

    @Test func newKeysThatLookLikeDocumentMarkersAreQuoted() throws {
        var file = try frontmatterDocument("---\na: 1\n---\n")
        file.setValue(.string("x"), forKey: "... more")
        file.setValue(.string("z"), forKey: "--- more")
        #expect(fileText(of: file) == "---\na: 1\n\"... more\": x\n\"--- more\": z\n---\n")
        #expect(reparsesToSameModel(file))
    }

    @Test(arguments: ["~", "null", "Null", "NULL", "yes", "2"])
    func nullAndOtherTypedWordsAreWrittenAsText(_ input: String) throws {
        var file = try frontmatterDocument("---\ntitle: Old\n---\n")
        file.setValue(.string(input), forKey: "title")
        #expect(fileText(of: file) == "---\ntitle: \"\(input)\"\n---\n")
        #expect(file.value(forKey: "title") == .scalar(YAMLScalar(input, style: .doubleQuoted)))
        #expect(reparsesToSameModel(file))
    }

    @Test func unquotedValuesStayPlainWhereSyntaxAllows() throws {
        var file = FrontmatterDocument(
            entries: [
                YAMLMapEntry(key: "created", value: .unquoted("2026-01-05T10:00:00Z")),
                YAMLMapEntry(key: "position", value: .unquoted("n")),
                YAMLMapEntry(key: "flags", value: .list([.unquoted("true"), .unquoted("1e3"), .unquoted("a, b")])),
                YAMLMapEntry(key: "odd", value: .unquoted("a: b")),
            ], body: "")
        file.setValue(.map([YAMLMapEntry(key: "collapsed", value: .unquoted("true"))]), forKey: "column")
        #expect(
            fileText(of: file)
                == "---\ncreated: 2026-01-05T10:00:00Z\nposition: n\nflags: [true, 1e3, \"a, b\"]\nodd: \"a: b\"\n"
                + "column:\n  collapsed: true\n---\n")
        #expect(file.value(forKey: "position") == .string("n"))
        #expect(reparsesToSameModel(file))
    }

    @Test func emptyStringIsWrittenAsAnEmptyValue() throws {
        var file = try frontmatterDocument("---\ntitle: Old\n---\n")
        file.setValue(.string(""), forKey: "title")
        #expect(fileText(of: file) == "---\ntitle:\n---\n")
        #expect(file.value(forKey: "title")?.string == "")
        #expect(file.value(forKey: "title")?.isNull == true)
        file.setValue(.scalar(YAMLScalar("", style: .doubleQuoted)), forKey: "title")
        #expect(fileText(of: file) == "---\ntitle: \"\"\n---\n")
        #expect(file.value(forKey: "title")?.isNull == false)
        #expect(reparsesToSameModel(file))
    }

    @Test func blockListKeepsItsLayout() throws {
        var file = try frontmatterDocument("---\nlabels:\n    -   a\n    -   b  # bee\nnext: x\n---\n")
        file.setValue(.list([.string("a"), .string("b"), .string("c: d")]), forKey: "labels")
        #expect(fileText(of: file) == "---\nlabels:\n    -   a\n    -   b  # bee\n    -   \"c: d\"\nnext: x\n---\n")
        file.setValue(.list([.string("b")]), forKey: "labels")
        #expect(fileText(of: file) == "---\nlabels:\n    -   b  # bee\nnext: x\n---\n")
        #expect(reparsesToSameModel(file))
    }

    @Test func indentlessBlockListStaysIndentless() throws {
        var file = try frontmatterDocument("---\nsteps:\n- one\n- two\ndone: no\n---\n")
        file.setValue(.list([.string("one"), .string("2")]), forKey: "steps")
        #expect(fileText(of: file) == "---\nsteps:\n- one\n- \"2\"\ndone: no\n---\n")
        #expect(reparsesToSameModel(file))
    }

    @Test func nestedMapKeepsUnchangedEntriesAndComments() throws {
        let original =
            "---\nmeta:\n    # who\n    owner: 'Ann'   # lead\n    team: [core]\n    size: 3\ntitle: x\n---\n"
        var file = try frontmatterDocument(original)
        var meta = try #require(file.value(forKey: "meta")?.map)
        meta[2].value = .string("4")
        file.setValue(.map(meta), forKey: "meta")
        #expect(changedLines(from: original, to: fileText(of: file)) == (["    size: 3\n"], ["    size: 4\n"]))
        #expect(reparsesToSameModel(file))
    }

    @Test func literalBlockScalarStaysLiteral() throws {
        let original = "---\nnotes: |\n    first\n    second\nnext: x\n---\n"
        var file = try frontmatterDocument(original)
        file.setValue(.string("one\n  two\n\nthree"), forKey: "notes")
        #expect(fileText(of: file) == "---\nnotes: |-\n    one\n      two\n\n    three\nnext: x\n---\n")
        file.setValue(.string(" leading space\n\n\n"), forKey: "notes")
        #expect(fileText(of: file) == "---\nnotes: |4+\n     leading space\n\n\nnext: x\n---\n")
        #expect(file.value(forKey: "notes")?.string == " leading space\n\n\n")
        #expect(reparsesToSameModel(file))
        file.setValue(.string("bell\u{7}"), forKey: "notes")
        #expect(fileText(of: file) == "---\nnotes: \"bell\\u0007\"\nnext: x\n---\n")
        #expect(reparsesToSameModel(file))
    }

    @Test func foldedBlockScalarStaysFolded() throws {
        var file = try frontmatterDocument("---\nsummary: > # short\n  old text\nnext: x\n---\n")
        file.setValue(.string("one\ntwo\n\nthree\n"), forKey: "summary")
        #expect(fileText(of: file) == "---\nsummary: > # short\n  one\n\n  two\n\n\n  three\nnext: x\n---\n")
        #expect(file.value(forKey: "summary")?.string == "one\ntwo\n\nthree\n")
        #expect(reparsesToSameModel(file))
        file.setValue(.string("  indented\n"), forKey: "summary")
        #expect(fileText(of: file) == "---\nsummary: |2 # short\n    indented\nnext: x\n---\n")
        #expect(reparsesToSameModel(file))
    }

    @Test func keepChompedScalarIsReplacedWhole() throws {
        var file = try frontmatterDocument("---\na: |+\n  x\n\n\nb: y\n---\n")
        file.setValue(.string("z"), forKey: "a")
        #expect(fileText(of: file) == "---\na: |-\n  z\nb: y\n---\n")
        #expect(reparsesToSameModel(file))
    }

    @Test func multiLineValuesAreReplacedWhole() throws {
        var file = try frontmatterDocument("---\na: [x,\n  y]\nb: \"one\n  two\"\nc: plain\n  more\nd: z\n---\n")
        file.setValue(.list([.string("q")]), forKey: "a")
        file.setValue(.string("r"), forKey: "b")
        file.setValue(.string("s"), forKey: "c")
        #expect(fileText(of: file) == "---\na: [q]\nb: \"r\"\nc: s\nd: z\n---\n")
        #expect(reparsesToSameModel(file))
    }

    @Test func crlfFileGetsCRLFLines() throws {
        let original = Self.card.replacing("\n", with: "\r\n")
        var file = try frontmatterDocument(original)
        file.setValue(.string("done"), forKey: "column")
        file.setValue(
            .list([.map([YAMLMapEntry(key: "k", value: .string("v"))])]), forKey: "extra")
        let expected =
            original
            .replacing("column: in-progress\r\n", with: "column: done\r\n")
            .replacing("urgent]\r\n---", with: "urgent]\r\nextra:\r\n  - k: v\r\n---")
        #expect(fileText(of: file) == expected)
        #expect(reparsesToSameModel(file))
    }

    @Test func bomAndMissingFinalNewlineSurviveEdits() throws {
        let original = "\u{FEFF}" + Self.card
        var file = try frontmatterDocument(original)
        file.setValue(.string("x"), forKey: "title")
        file.removeValue(forKey: "labels")
        let result = fileText(of: file)
        #expect(result.hasPrefix("\u{FEFF}---\ntitle: x\n"))
        #expect(result.hasSuffix("Add OAuth2."))
        #expect(!result.contains("labels"))
        #expect(reparsesToSameModel(file))
    }

    @Test func removeValueRemovesOnlyThatKeysLines() throws {
        var file = try frontmatterDocument(Self.board)
        file.removeValue(forKey: "columns")
        #expect(
            fileText(of: file)
                == "---\ntitle: My Project Board\nlabels:\n  - id: bug\n    name: Bug\n    color: \"#e74c3c\"\n---\n")
        file.removeValue(forKey: "missing")
        file.removeValue(forKey: "title")
        file.removeValue(forKey: "labels")
        #expect(fileText(of: file) == "---\n---\n")
        #expect(file.entries.isEmpty)
        #expect(reparsesToSameModel(file))
    }

    @Test func removeKeepsSurroundingComments() throws {
        var file = try frontmatterDocument("---\n# the title\ntitle: x # inline\n# the column\ncolumn: y\n---\n")
        file.removeValue(forKey: "title")
        #expect(fileText(of: file) == "---\n# the title\n# the column\ncolumn: y\n---\n")
        #expect(file.location(ofKey: "column").map { [$0.line, $0.column] } == [4, 9])
    }

    @Test func editsKeepLocationsAndLaterEntriesInStep() throws {
        var file = try frontmatterDocument(Self.board + "Body\n")
        file.setValue(.list([.string("a"), .string("b")]), forKey: "title")
        file.setValue(.string("new"), forKey: "added")
        file.removeValue(forKey: "columns")
        file.setValue(.string("again"), forKey: "title")
        #expect(reparsesToSameModel(file))
        #expect(file.body == "Body\n")
        #expect(file.bodyStartLine == 9)
    }

    @Test(arguments: ["Body text\n", "Body text", "", "\n\nStarts with blank lines"])
    func setValueOnFileWithoutFrontmatterAddsOne(_ original: String) throws {
        var file = try frontmatterDocument(original)
        file.setValue(.string("x"), forKey: "title")
        let expected = original.isEmpty ? "---\ntitle: x\n---\n" : "---\ntitle: x\n---\n\n" + original
        #expect(fileText(of: file) == expected)
        #expect(file.hasFrontmatter)
        #expect(file.body == original)
        #expect(reparsesToSameModel(file))
    }

    @Test func setValueOnCRLFFileWithoutFrontmatterUsesCRLF() throws {
        var file = try frontmatterDocument("\u{FEFF}line one\r\nline two\r\n")
        file.setValue(.string("x"), forKey: "title")
        #expect(fileText(of: file) == "\u{FEFF}---\r\ntitle: x\r\n---\r\n\r\nline one\r\nline two\r\n")
        #expect(reparsesToSameModel(file))
    }

    @Test func setValueOnEmptyIndentedFrontmatter() throws {
        var file = try frontmatterDocument("---\n  a: 1\n  b: 2\n---\n")
        file.setValue(.string("3"), forKey: "c")
        file.setValue(.list([.map([YAMLMapEntry(key: "k", value: .string("v"))])]), forKey: "a")
        #expect(fileText(of: file) == "---\n  a:\n    - k: v\n  b: 2\n  c: \"3\"\n---\n")
        #expect(reparsesToSameModel(file))
    }

    // MARK: - setBody

    /// Original file, new body, expected file: the body is written as given, byte for byte (a CRLF file writes each
    /// line feed as CRLF), so that it reads back exactly.
    @Test(arguments: [
        ("---\na: 1\n---\n\nold\n", "new", "---\na: 1\n---\n\nnew"),
        ("---\na: 1\n---\n\nold\n", "new\n\n", "---\na: 1\n---\n\nnew\n\n"),
        ("---\na: 1\n---\n\nold", "new\n\n", "---\na: 1\n---\n\nnew\n\n"),
        ("---\na: 1\n---\nold\n", "new\nlines", "---\na: 1\n---\nnew\nlines"),
        ("---\na: 1\n---\nold\n", "\nstarts blank", "---\na: 1\n---\n\n\nstarts blank"),
        ("---\r\na: 1\r\n---\r\n\r\nold\r\n", "new\nlines", "---\r\na: 1\r\n---\r\n\r\nnew\r\nlines"),
        ("---\r\na: 1\r\n---\r\n\r\nold", "new\r\nlines\n", "---\r\na: 1\r\n---\r\n\r\nnew\r\r\nlines\r\n"),
        ("---\na: 1\n---\n", "new", "---\na: 1\n---\n\nnew"),
        ("---\na: 1\n---", "new", "---\na: 1\n---\n\nnew"),
        ("---\na: 1\n---\n\nold\n", "", "---\na: 1\n---\n"),
        ("plain old\n", "new", "new"),
        ("\u{FEFF}plain old", "new\n", "\u{FEFF}new\n"),
        ("", "new", "new"),
    ])
    func setBody(_ original: String, _ body: String, _ expected: String) throws {
        var file = try frontmatterDocument(original)
        file.setBody(body)
        #expect(fileText(of: file) == expected)
        #expect(file.body == body)
        #expect(reparsesToSameModel(file))
    }

    @Test func setBodyThenSetValueAndBack() throws {
        var file = try frontmatterDocument(Self.card)
        file.setBody("")
        file.setValue(.string("x"), forKey: "title")
        file.setBody("Later\n")
        #expect(fileText(of: file).hasSuffix("labels: [feature, urgent]\n---\n\nLater\n"))
        #expect(file.body == "Later\n")
        #expect(file.bodyStartLine == 10)
        #expect(reparsesToSameModel(file))
    }

    // MARK: - New documents

    @Test func newDocumentMatchesSimpleKanbanLayout() throws {
        let file = FrontmatterDocument(
            entries: [
                YAMLMapEntry(key: "title", value: .string("Implement user authentication")),
                YAMLMapEntry(key: "column", value: .string("in-progress")),
                YAMLMapEntry(key: "position", value: .string("m")),
                YAMLMapEntry(key: "labels", value: .list([.string("feature"), .string("urgent")])),
            ],
            body: "## Description\nAdd OAuth2.")
        #expect(
            fileText(of: file)
                == "---\ntitle: Implement user authentication\ncolumn: in-progress\nposition: m\n"
                + "labels: [feature, urgent]\n---\n\n## Description\nAdd OAuth2.")
        #expect(reparsesToSameModel(file))
        #expect(file.body == "## Description\nAdd OAuth2.")
    }

    @Test func newDocumentWithEmptyBodyEndsAfterClosingLine() throws {
        let file = FrontmatterDocument(
            entries: [
                YAMLMapEntry(key: "title", value: .string("Board")),
                YAMLMapEntry(
                    key: "columns",
                    value: .list([
                        .map([
                            YAMLMapEntry(key: "id", value: .string("todo")),
                            YAMLMapEntry(key: "name", value: .string("To Do")),
                        ])
                    ])),
                YAMLMapEntry(key: "title", value: .string("duplicate is dropped")),
                YAMLMapEntry(key: "empty", value: .map([])),
            ],
            body: "")
        #expect(fileText(of: file) == "---\ntitle: Board\ncolumns:\n  - id: todo\n    name: To Do\nempty: {}\n---\n")
        #expect(reparsesToSameModel(file))
    }

    @Test func newDocumentThenSetBodyKeepsTheBodyAsGiven() throws {
        var file = FrontmatterDocument(entries: [YAMLMapEntry(key: "title", value: .string("x"))], body: "")
        file.setBody("Hello\n")
        #expect(fileText(of: file) == "---\ntitle: x\n---\n\nHello\n")
    }
}
