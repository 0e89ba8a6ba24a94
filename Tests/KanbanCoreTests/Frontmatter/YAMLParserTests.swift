import Testing

@testable import KanbanCore

/// One YAML snippet (the lines between `---` and `---`) and the value of its key `a`.
struct ScalarCase: Sendable, CustomTestStringConvertible {
    var yaml: String
    var value: String
    var style: YAMLScalar.Style
    var testDescription: String { yaml.debugDescription }

    init(_ yaml: String, _ value: String, _ style: YAMLScalar.Style = .plain) {
        self.yaml = yaml
        self.value = value
        self.style = style
    }
}

/// A snippet that must be rejected, with the file line and column and the message expected.
struct RejectionCase: Sendable, CustomTestStringConvertible {
    var yaml: String
    var line: Int
    var column: Int
    var message: String
    var testDescription: String { yaml.debugDescription }

    init(_ yaml: String, _ line: Int, _ column: Int, _ message: String) {
        self.yaml = yaml
        self.line = line
        self.column = column
        self.message = message
    }
}

@Suite struct YAMLParserTests {
    static let scalarCases: [ScalarCase] = [
        // Plain.
        ScalarCase("a: hello world\n", "hello world"),
        ScalarCase("a:    spaced   \n", "spaced"),
        ScalarCase("a:\thello\n", "hello"),
        ScalarCase("a: hello # comment\n", "hello"),
        ScalarCase("a: hello\t# comment\n", "hello"),
        ScalarCase("a: http://x.org/a#b\n", "http://x.org/a#b"),
        ScalarCase("a: Fix: login bug\n", "Fix: login bug"),
        ScalarCase("a: key:value\n", "key:value"),
        ScalarCase("a: -1\n", "-1"),
        ScalarCase("a: -x\n", "-x"),
        ScalarCase("a: ?x\n", "?x"),
        ScalarCase("a: :x\n", ":x"),
        ScalarCase("a: 2026-01-05T10:00:00Z\n", "2026-01-05T10:00:00Z"),
        ScalarCase("a: it's\n", "it's"),
        ScalarCase("a: say \"hi\"\n", "say \"hi\""),
        ScalarCase("a: ~\n", "~"),
        ScalarCase("a:\n", ""),
        ScalarCase("a: # only a comment\n", ""),
        ScalarCase("a: one\n  two\n", "one two"),
        ScalarCase("a: one\n  two\n\n  three\n", "one two\nthree"),
        ScalarCase("a: one\n  two # end\n", "one two"),
        ScalarCase("a:\n  on its own line\n", "on its own line"),
        ScalarCase("a: café 😀\n", "café 😀"),
        // Single-quoted.
        ScalarCase("a: 'x'\n", "x", .singleQuoted),
        ScalarCase("a: ''\n", "", .singleQuoted),
        ScalarCase("a: 'it''s'\n", "it's", .singleQuoted),
        ScalarCase("a: '  # not a comment: really \\n'\n", "  # not a comment: really \\n", .singleQuoted),
        ScalarCase("a: 'one\n  two'\n", "one two", .singleQuoted),
        ScalarCase("a: 'one  \n\n  two'\n", "one\ntwo", .singleQuoted),
        ScalarCase("a: 'x' # c\n", "x", .singleQuoted),
        // Double-quoted and every escape.
        ScalarCase("a: \"x\"\n", "x", .doubleQuoted),
        ScalarCase("a: \"\"\n", "", .doubleQuoted),
        ScalarCase(
            "a: \"\\0\\a\\b\\t\\\t\\n\\v\\f\\r\\e\\ \\\"\\/\\\\\"\n",
            "\u{0}\u{7}\u{8}\t\t\n\u{B}\u{C}\r\u{1B} \"/\\", .doubleQuoted),
        ScalarCase("a: \"\\N\\_\\L\\P\"\n", "\u{85}\u{A0}\u{2028}\u{2029}", .doubleQuoted),
        ScalarCase("a: \"\\x41\\u00e9\\u00E9\\U0001F600\"\n", "Aéé😀", .doubleQuoted),
        ScalarCase("a: \"one\n  two\"\n", "one two", .doubleQuoted),
        ScalarCase("a: \"one \\\n  two\"\n", "one two", .doubleQuoted),
        ScalarCase("a: \"one\\\n  two\"\n", "onetwo", .doubleQuoted),
        ScalarCase("a: \"one\\t\n  two\"\n", "one\t two", .doubleQuoted),
        ScalarCase("a: \"one\n\n\n  two\"\n", "one\n\ntwo", .doubleQuoted),
        ScalarCase("a: \"# not: a comment\" # comment\n", "# not: a comment", .doubleQuoted),
        // Literal block scalars.
        ScalarCase("a: |\n  one\n  two\n", "one\ntwo\n", .literal),
        ScalarCase("a: |-\n  one\n  two\n", "one\ntwo", .literal),
        ScalarCase("a: |+\n  one\n\n\nb: x\n", "one\n\n\n", .literal),
        ScalarCase("a: |\n  one\n\n\nb: x\n", "one\n", .literal),
        ScalarCase("a: |\n  one\n    two\n\n  three\n", "one\n  two\n\nthree\n", .literal),
        ScalarCase("a: |\n\n  after blank\n", "\nafter blank\n", .literal),
        ScalarCase("a: |2\n   one\n  two\n", " one\ntwo\n", .literal),
        ScalarCase("a: |-2\n   one\n", " one", .literal),
        ScalarCase("a: |2-\n   one\n", " one", .literal),
        ScalarCase("a: | # comment\n  one\n", "one\n", .literal),
        ScalarCase("a: |\n  # not a comment\n", "# not a comment\n", .literal),
        ScalarCase("a: |\nb: x\n", "", .literal),
        ScalarCase("a: |+\n\n\nb: x\n", "\n\n", .literal),
        ScalarCase("a: |\n  tab\there\n  \tleading tab\n", "tab\there\n\tleading tab\n", .literal),
        ScalarCase("a: |\n  ---\n  ...\n", "---\n...\n", .literal),
        ScalarCase("a: |\n  one\n# comment\n", "one\n", .literal),
        ScalarCase("a: |\n  x\n   \n  y\n", "x\n \ny\n", .literal),
        // Folded block scalars.
        ScalarCase("a: >\n  one\n  two\n\n  three\n", "one two\nthree\n", .folded),
        ScalarCase("a: >-\n  one\n  two\n", "one two", .folded),
        ScalarCase("a: >\n  one\n    two\n  three\n", "one\n  two\nthree\n", .folded),
        ScalarCase("a: >\n  one\n\n\n  two\n", "one\n\ntwo\n", .folded),
        ScalarCase("a: >+\n  one\n\n", "one\n\n", .folded),
        ScalarCase("a: >\n\n  one\n", "\none\n", .folded),
    ]

    @Test(arguments: scalarCases)
    func parsesScalar(_ testCase: ScalarCase) throws {
        let value = try parsedFrontmatter(testCase.yaml)
        #expect(value["a"] == .scalar(YAMLScalar(testCase.value, style: testCase.style)))
    }

    @Test func crlfLinesParseLikeLF() throws {
        let yaml = "a: |\n  one\n  two\nb: \"x\n  y\"\nc:\n  - d\n"
        let lf = try parsedFrontmatter(yaml)
        let crlf = try frontmatterDocument("---\r\n" + yaml.replacing("\n", with: "\r\n") + "---\r\n")
        #expect(.map(crlf.entries) == lf)
        #expect(lf["a"]?.string == "one\ntwo\n")
    }

    @Test func parsesNestedMaps() throws {
        let value = try parsedFrontmatter("a:\n  b:\n    c: 1\n    d: 2\n  e: 3\nf: 4\n")
        #expect(
            value
                == .map([
                    YAMLMapEntry(
                        key: "a",
                        value: .map([
                            YAMLMapEntry(
                                key: "b",
                                value: .map([
                                    YAMLMapEntry(key: "c", value: .string("1")),
                                    YAMLMapEntry(key: "d", value: .string("2")),
                                ])),
                            YAMLMapEntry(key: "e", value: .string("3")),
                        ])),
                    YAMLMapEntry(key: "f", value: .string("4")),
                ]))
    }

    @Test(arguments: [
        "a:\n  - x\n  - y\nb: z\n",
        "a:\n- x\n- y\nb: z\n",
        "a:\n    -   x\n    -   y\nb: z\n",
        "a:\n  - x\n  # a comment between items\n\n  - y\nb: z\n",
        "a: [x, y]\nb: z\n",
        "a: [ x , y , ]\nb: z\n",
        "a: [x,\n  y]\nb: z\n",
        "a: [\n  x,  # first\n  y\n  ]\nb: z\n",
        "a: [\n  x\n  ,\n  y\n\n  ]\nb: z\n",
    ])
    func parsesListsOfTwoItems(_ yaml: String) throws {
        let value = try parsedFrontmatter(yaml)
        #expect(value["a"] == .list([.string("x"), .string("y")]))
        #expect(value["b"] == .string("z"))
    }

    @Test func parsesBlockListOfMaps() throws {
        let value = try parsedFrontmatter("a:\n  - id: x\n    name: X\n  - id: y\n  -\n    id: z\n")
        let items = try #require(value["a"]?.list)
        #expect(items.count == 3)
        #expect(
            items[0]
                == .map([YAMLMapEntry(key: "id", value: .string("x")), YAMLMapEntry(key: "name", value: .string("X"))]))
        #expect(items[1]["id"] == .string("y"))
        #expect(items[2]["id"] == .string("z"))
    }

    @Test func parsesCompactNestedLists() throws {
        let value = try parsedFrontmatter("a:\n  - - x\n    - y\n  - z\n  -\n")
        #expect(value["a"] == .list([.list([.string("x"), .string("y")]), .string("z"), .string("")]))
    }

    @Test func parsesMultiLinePlainScalarsInFlowCollections() throws {
        let value = try parsedFrontmatter("a: [one\n  two,\n  three\n\n  four five\n  six, {k: v\n   w}]\n")
        #expect(
            value["a"]
                == .list([
                    .string("one two"), .string("three\nfour five six"),
                    .map([YAMLMapEntry(key: "k", value: .string("v w"))]),
                ]))
    }

    @Test func parsesFlowCollections() throws {
        let value = try parsedFrontmatter(
            "a: [x, \"y, z\", 'w', [1, 2], {k: v}, \"\"]\nb: {k: [1], \"q\": 2, bare, e: , 'f':x}\nc: []\nd: {}\n")
        #expect(
            value["a"]
                == .list([
                    .string("x"), .scalar(YAMLScalar("y, z", style: .doubleQuoted)),
                    .scalar(YAMLScalar("w", style: .singleQuoted)), .list([.string("1"), .string("2")]),
                    .map([YAMLMapEntry(key: "k", value: .string("v"))]), .scalar(YAMLScalar("", style: .doubleQuoted)),
                ]))
        #expect(
            value["b"]
                == .map([
                    YAMLMapEntry(key: "k", value: .list([.string("1")])),
                    YAMLMapEntry(key: "q", value: .string("2")),
                    YAMLMapEntry(key: "bare", value: .string("")),
                    YAMLMapEntry(key: "e", value: .string("")),
                    YAMLMapEntry(key: "f", value: .string("x")),
                ]))
        #expect(value["c"] == .list([]))
        #expect(value["d"] == .map([]))
    }

    @Test func parsesKeysOfEveryStyle() throws {
        let value = try parsedFrontmatter("plain key: 1\n\"double: key\": 2\n'single # key': 3\nspaced   : 4\n")
        #expect(value.map?.map(\.key) == ["plain key", "double: key", "single # key", "spaced"])
    }

    @Test func skipsCommentsAndBlankLines() throws {
        let value = try parsedFrontmatter("# heading\n\na: 1 # one\n   # indented comment\n\nb: 2\n#tail\n")
        #expect(
            value == .map([YAMLMapEntry(key: "a", value: .string("1")), YAMLMapEntry(key: "b", value: .string("2"))]))
    }

    @Test func nullValues() throws {
        let value = try parsedFrontmatter("a:\nb: ~\nc: null\nd: NULL\ne: \"null\"\nf: ''\n")
        #expect(value["a"]?.isNull == true)
        #expect(value["b"]?.isNull == true)
        #expect(value["c"]?.isNull == true)
        #expect(value["d"]?.isNull == true)
        #expect(value["e"]?.isNull == false)
        #expect(value["f"]?.isNull == false)
        #expect(YAMLValue.list([]).isNull == false)
    }

    @Test func valueAccessors() {
        let map = YAMLValue.map([YAMLMapEntry(key: "k", value: .list([.string("v")]))])
        #expect(map["k"]?.list == [.string("v")])
        #expect(map["missing"] == nil)
        #expect(map.string == nil)
        #expect(map.list == nil)
        #expect(map.map?.count == 1)
        #expect(YAMLValue.string("s").string == "s")
        #expect(YAMLValue.string("s")["k"] == nil)
        #expect(YAMLValue.string("s").map == nil)
    }

    static let rejectionCases: [RejectionCase] = [
        RejectionCase("a:\n\tb: 1\n", 3, 1, "tab character used for indentation"),
        RejectionCase("a:\n  - x\n \t- y\n", 4, 2, "tab character used for indentation"),
        RejectionCase("\ta: 1\n", 2, 1, "tab character used for indentation"),
        RejectionCase("a: &anchor 1\n", 2, 4, "anchors ('&') are not supported"),
        RejectionCase("a: *alias\n", 2, 4, "aliases ('*') are not supported"),
        RejectionCase("a: !!str 1\n", 2, 4, "tags ('!') are not supported"),
        RejectionCase("a: [x, !t y]\n", 2, 8, "tags ('!') are not supported"),
        RejectionCase("a:\n  - &x y\n", 3, 5, "anchors ('&') are not supported"),
        RejectionCase("&a key: 1\n", 2, 1, "anchors ('&') are not supported"),
        RejectionCase("? complex\n: key\n", 2, 1, "complex keys ('? ') are not supported"),
        RejectionCase("a: [? x]\n", 2, 5, "complex keys ('? ') are not supported"),
        RejectionCase("a: 1\n...\nb: 2\n", 3, 1, "multiple documents are not supported"),
        RejectionCase("a: 1\n--- b\n", 3, 1, "multiple documents are not supported"),
        RejectionCase("%YAML 1.2\na: 1\n", 2, 1, "directives ('%') are not supported"),
        RejectionCase("a: @x\n", 2, 4, "reserved indicator '@' cannot start a plain scalar"),
        RejectionCase("a: `x`\n", 2, 4, "reserved indicator '`' cannot start a plain scalar"),
        RejectionCase("a: \"abc\nb: 1\n", 2, 4, "double-quoted scalar is not closed"),
        RejectionCase("a: \"abc\n", 2, 4, "double-quoted scalar is not closed"),
        RejectionCase("a: 'abc\n", 2, 4, "single-quoted scalar is not closed"),
        RejectionCase("a: x\nb: 'it's'\n", 3, 8, "unexpected text after single-quoted scalar"),
        RejectionCase("a: \"x\" y\n", 2, 8, "unexpected text after double-quoted scalar"),
        RejectionCase("\"key: 1\n", 2, 1, "quoted key is not closed on its line"),
        RejectionCase("a: [x, y\nb: 1\n", 2, 4, "flow list '[' is not closed"),
        RejectionCase("a: [x, y\n", 2, 4, "flow list '[' is not closed"),
        RejectionCase("a: {x: 1\n", 2, 4, "flow map '{' is not closed"),
        RejectionCase("a: [x, {y: 1]\n", 2, 13, "expected ',' or '}' in flow map"),
        RejectionCase("a: [\"x\" y, z]\n", 2, 9, "expected ',' or ']' in flow list"),
        RejectionCase("a: [\"x\"\n  y]\n", 3, 3, "expected ',' or ']' in flow list"),
        RejectionCase("a: [x,\n y\nb: 1\n", 2, 4, "flow list '[' is not closed"),
        RejectionCase("a: [x, , y]\n", 2, 8, "unexpected ','"),
        RejectionCase("a: [k: v]\n", 2, 6, "single-pair maps inside flow lists are not supported"),
        RejectionCase("a: [|]\n", 2, 5, "block scalars are not allowed inside flow collections"),
        RejectionCase("a: {[k]: v}\n", 2, 5, "flow collections cannot be used as keys"),
        RejectionCase("a: {k: 1, k: 2}\n", 2, 11, "duplicate key 'k'"),
        RejectionCase("a: [x] y\n", 2, 8, "unexpected text after flow list"),
        RejectionCase("a:\n  b: 1\n   c: 2\n", 4, 4, "unexpected indentation"),
        RejectionCase("a:\n    b: 1\n  c: 2\n", 4, 3, "unexpected indentation"),
        RejectionCase("a: 1\n  b: 2\n", 3, 3, "unexpected indentation"),
        RejectionCase("a:\n  - x\n    b: y\n", 4, 5, "unexpected indentation"),
        RejectionCase("a:\n  - x\n y: 1\n", 4, 2, "unexpected indentation"),
        RejectionCase("a: 1\nb: 2\na: 3\n", 4, 1, "duplicate key 'a' (first on line 2)"),
        RejectionCase("a:\n  b: 1\n  b: 2\n", 4, 3, "duplicate key 'b' (first on line 3)"),
        RejectionCase("just some text\n", 2, 1, "expected 'key: value'"),
        RejectionCase("a: 1\nkey:value\n", 3, 1, "expected 'key: value'"),
        RejectionCase("a:\n  b: 1\n  text\n", 4, 3, "expected 'key: value'"),
        RejectionCase("- item\n", 2, 1, "expected 'key: value', found a list item"),
        RejectionCase("a: 1\n- item\n", 3, 1, "expected 'key: value', found a list item"),
        RejectionCase("[a, b]\n", 2, 1, "expected 'key: value', found a flow collection"),
        RejectionCase(": value\n", 2, 1, "missing key before ':'"),
        RejectionCase("a: - b\n", 2, 4, "a block list cannot start on the same line as its key"),
        RejectionCase("a: |x\n  y\n", 2, 5, "invalid block scalar header"),
        RejectionCase("a: |#\n  y\n", 2, 5, "invalid block scalar header"),
        RejectionCase("a: |\n\n    \n  y\n", 4, 5, "empty line in block scalar is indented more than its first line"),
        RejectionCase("a: \"\\q\"\n", 2, 5, "invalid escape '\\q' in double-quoted scalar"),
        RejectionCase("a: \"\\x4\"\n", 2, 5, "escape '\\x' needs 2 hexadecimal digits"),
        RejectionCase("a: \"\\uD800\"\n", 2, 5, "escape is not a Unicode scalar value (U+D800)"),
        RejectionCase("a: \"\\U00110000\"\n", 2, 5, "escape is not a Unicode scalar value (U+110000)"),
        RejectionCase("a: b\u{1}c\n", 2, 5, "control character U+0001 is not allowed in frontmatter"),
        RejectionCase("a: b\rc\n", 2, 5, "control character U+000D is not allowed in frontmatter"),
        RejectionCase("a: 1\nb: \u{7F}\n", 3, 4, "control character U+007F is not allowed in frontmatter"),
        RejectionCase("a: ,x\n", 2, 4, "unexpected ','"),
        RejectionCase(
            "a: 1\n<<<<<<< HEAD\nb: 2\n=======\nb: 3\n>>>>>>> branch\n", 3, 1,
            "unresolved merge conflict ('<<<<<<<')"),
        RejectionCase("a: 1\n=======\n", 3, 1, "unresolved merge conflict ('=======')"),
        RejectionCase("a: 1\n>>>>>>> x\n", 3, 1, "unresolved merge conflict ('>>>>>>>')"),
    ]

    @Test(arguments: rejectionCases)
    func rejects(_ testCase: RejectionCase) {
        let error = #expect(throws: FrontmatterError.self) { try parsedFrontmatter(testCase.yaml) }
        #expect(error?.message == testCase.message)
        #expect(error?.line == testCase.line)
        #expect(error?.column == testCase.column)
    }

    @Test func rejectsDeepNesting() {
        let flow = "a: " + String(repeating: "[", count: 200) + "\n"
        let error = #expect(throws: FrontmatterError.self) { try parsedFrontmatter(flow) }
        #expect(error?.message == "nesting is deeper than 64 levels")
        #expect(error?.line == 2)

        var block = ""
        for level in 0..<200 { block += String(repeating: " ", count: level) + "k:\n" }
        let blockError = #expect(throws: FrontmatterError.self) { try parsedFrontmatter(block) }
        #expect(blockError?.message == "nesting is deeper than 64 levels")

        var list = "a:\n"
        for level in 1...200 { list += String(repeating: " ", count: level) + "-\n" }
        let listError = #expect(throws: FrontmatterError.self) { try parsedFrontmatter(list + "   x\n") }
        #expect(listError?.message == "nesting is deeper than 64 levels")
    }

    @Test func errorLinesCountFromTheFileAfterABOM() {
        let error = #expect(throws: FrontmatterError.self) {
            try frontmatterDocument("\u{FEFF}---\ntitle: x\n\tbad: 1\n---\n")
        }
        #expect(error?.line == 3)
        #expect(error?.column == 1)
    }

    @Test func manyKeysStillDetectDuplicates() {
        var yaml = ""
        for index in 0..<40 { yaml += "key\(index): \(index)\n" }
        let error = #expect(throws: FrontmatterError.self) { try parsedFrontmatter(yaml + "key7: again\n") }
        #expect(error?.message == "duplicate key 'key7' (first on line 9)")
        #expect(error?.line == 42)
    }
}
