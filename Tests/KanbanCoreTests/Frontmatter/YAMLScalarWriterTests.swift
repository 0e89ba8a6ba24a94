import KanbanTestSupport
import Testing

@testable import KanbanCore

@Suite struct YAMLScalarWriterTests {
    /// Strings and how `render` writes them.
    @Test(arguments: [
        ("todo", "todo"),
        ("Implement user authentication", "Implement user authentication"),
        ("in-progress", "in-progress"),
        ("a:b", "a:b"),
        ("http://x.org/a#b", "http://x.org/a#b"),
        ("C#", "C#"),
        ("it's", "it's"),
        ("say \"hi\"", "say \"hi\""),
        ("café 😀", "café 😀"),
        ("v1.2", "v1.2"),
        ("1st", "1st"),
        ("+", "+"),
        ("", "\"\""),
        (" leading", "\" leading\""),
        ("trailing ", "\"trailing \""),
        ("a: b", "\"a: b\""),
        ("ends:", "\"ends:\""),
        ("a #b", "\"a #b\""),
        ("-", "\"-\""),
        ("- item", "\"- item\""),
        ("-1", "\"-1\""),
        ("?", "\"?\""),
        (":x", "\":x\""),
        (",", "\",\""),
        ("[x]", "\"[x]\""),
        ("{x}", "\"{x}\""),
        ("#x", "\"#x\""),
        ("&x", "\"&x\""),
        ("*x", "\"*x\""),
        ("!x", "\"!x\""),
        ("|", "\"|\""),
        (">", "\">\""),
        ("'x'", "\"'x'\""),
        ("\"x\"", "\"\\\"x\\\"\""),
        ("%x", "\"%x\""),
        ("@x", "\"@x\""),
        ("`x`", "\"`x`\""),
        ("y", "\"y\""), ("Y", "\"Y\""), ("n", "\"n\""), ("N", "\"N\""),
        ("yes", "\"yes\""), ("Yes", "\"Yes\""), ("YES", "\"YES\""),
        ("no", "\"no\""), ("No", "\"No\""), ("NO", "\"NO\""),
        ("true", "\"true\""), ("True", "\"True\""), ("TRUE", "\"TRUE\""),
        ("false", "\"false\""), ("False", "\"False\""), ("FALSE", "\"FALSE\""),
        ("on", "\"on\""), ("On", "\"On\""), ("ON", "\"ON\""),
        ("off", "\"off\""), ("Off", "\"Off\""), ("OFF", "\"OFF\""),
        ("null", "\"null\""), ("Null", "\"Null\""), ("NULL", "\"NULL\""), ("~", "\"~\""),
        ("<<", "\"<<\""), ("=", "\"=\""),
        ("123", "\"123\""), ("0", "\"0\""), ("017", "\"017\""), ("0x1F", "\"0x1F\""), ("0o17", "\"0o17\""),
        ("0b101", "\"0b101\""), ("1_000", "\"1_000\""), ("1e3", "\"1e3\""), ("1.5", "\"1.5\""), (".5", "\".5\""),
        ("+1", "\"+1\""), ("1.", "\"1.\""), ("6.8523015e+5", "\"6.8523015e+5\""),
        (".inf", "\".inf\""), ("-.Inf", "\"-.Inf\""), ("+.INF", "\"+.INF\""), (".NaN", "\".NaN\""), (".", "\".\""),
        ("1:20", "\"1:20\""), ("190:20:30.15", "\"190:20:30.15\""),
        ("2026-01-05", "\"2026-01-05\""), ("2026-01-05T10:00:00Z", "\"2026-01-05T10:00:00Z\""),
        ("2001-12-14 21:59:43.10 -5", "\"2001-12-14 21:59:43.10 -5\""),
        ("line\nbreak", "\"line\\nbreak\""),
        ("tab\there", "\"tab\\there\""),
        ("back\\slash", "back\\slash"),
        ("quote \" and \\", "quote \" and \\"),
        ("\"quote\" \\ \n", "\"\\\"quote\\\" \\\\ \\n\""),
        ("cr\r", "\"cr\\r\""),
        ("nul\u{0}", "\"nul\\u0000\""),
        ("bell\u{7}", "\"bell\\u0007\""),
        ("esc\u{1B}", "\"esc\\u001B\""),
        ("del\u{7F}", "\"del\\u007F\""),
        ("nel\u{85}", "\"nel\\u0085\""),
        ("ls\u{2028}", "\"ls\\u2028\""),
        ("bom\u{FEFF}", "\"bom\\uFEFF\""),
        ("nbsp\u{A0}x", "nbsp\u{A0}x"),
        ("... more", "\"... more\""),
        ("---x", "\"---x\""),
    ])
    func renders(_ input: String, _ expected: String) throws {
        let rendered = YAMLScalarWriter.render(input)
        #expect(rendered == expected)
        let parsed = try parsedFrontmatter("a: \(rendered)\n")
        #expect(parsed["a"]?.string == input)
    }

    @Test func rendersFlowValues() {
        #expect(
            YAMLScalarWriter.render(.list([.string("a"), .string("b, c"), .string("d:e")])) == "[a, \"b, c\", \"d:e\"]")
        #expect(YAMLScalarWriter.render(.list([])) == "[]")
        #expect(YAMLScalarWriter.render(.map([])) == "{}")
        #expect(
            YAMLScalarWriter.render(
                .map([
                    YAMLMapEntry(key: "k", value: .list([.string("1")])), YAMLMapEntry(key: "a b", value: .string("")),
                ]))
                == "{k: [\"1\"], a b: \"\"}")
        #expect(
            YAMLScalarWriter.render(
                .list([.string("x")]), style: .list([.scalar(YAMLScalar("y", style: .singleQuoted))]))
                == "['x']")
    }

    /// SimpleKanban's reader only strips surrounding double quotes and unescapes `\"`; for
    /// strings without other escapes it must see the same text.
    @Test(arguments: ["Fix: login", "yes", "2026-01-05", "say \"hi\"", "  padded  ", "#tag"])
    func naiveReaderSeesTheSameText(_ input: String) {
        var text = YAMLScalarWriter.render(input)
        if text.hasPrefix("\""), text.hasSuffix("\""), text.count >= 2 {
            text = String(text.dropFirst().dropLast()).replacing("\\\"", with: "\"")
        }
        #expect(text == input)
    }

    @Test func randomStringsReadBackExactly() throws {
        var generator = SeededGenerator(seed: 0x5EED_0001)
        for _ in 0..<3000 {
            let input = randomTrickyString(using: &generator)
            let rendered = YAMLScalarWriter.render(input)
            let parsed = try parsedFrontmatter("a: \(rendered)\n")
            #expect(parsed["a"]?.string == input, "rendered \(rendered.debugDescription)")
            let flow = YAMLScalarWriter.render(.list([.string(input), .string("next")]))
            let parsedFlow = try parsedFrontmatter("a: \(flow)\n")
            #expect(
                parsedFlow["a"]?.list?.compactMap(\.string) == [input, "next"],
                "rendered \(flow.debugDescription)")
        }
    }

    /// Sets random strings over originals of every style and checks what a reader sees.
    @Test(arguments: [
        "a: plain", "a: 'single'", "a: \"double\"", "a: |\n  literal", "a: >\n  folded", "a: |-\n    deep",
        "a: [x, 'y']", "a:\n  - x\n  - y", "a:\n  k: v",
    ])
    func randomStringsSurviveSetValue(_ original: String) throws {
        var generator = SeededGenerator(seed: 0x5EED_0002)
        var file = try frontmatterDocument("---\n\(original)\nb: after\n---\nbody")
        for _ in 0..<500 {
            let input = randomTrickyString(using: &generator)
            let value: YAMLValue
            switch Int.random(in: 0..<4, using: &generator) {
            case 0: value = .string(input)
            case 1: value = .list([.string(input), .string(randomTrickyString(using: &generator))])
            case 2: value = .map([YAMLMapEntry(key: input, value: .string(randomTrickyString(using: &generator)))])
            default:
                value = .scalar(
                    YAMLScalar(
                        input,
                        style: [.singleQuoted, .doubleQuoted, .literal, .folded][
                            Int.random(in: 0..<4, using: &generator)]))
            }
            file.setValue(value, forKey: "a")
            let reparsed = try FrontmatterDocument(bytes: file.bytes())
            #expect(reparsed.entries == file.entries, "\(fileText(of: file).debugDescription)")
            #expect(reparsed.value(forKey: "b") == .string("after"))
            #expect(reparsed.body == "body")
            if case .scalar = value {
                #expect(reparsed.value(forKey: "a")?.string == input)
            }
            if reparsed.entries != file.entries { break }
            file = try frontmatterDocument("---\n\(original)\nb: after\n---\nbody")
        }
    }

    @Test func blockScalarExpressibility() {
        #expect(YAMLScalarWriter.canWriteBlock("a\nb\n", folded: false))
        #expect(YAMLScalarWriter.canWriteBlock("  indented", folded: false))
        #expect(!YAMLScalarWriter.canWriteBlock("  indented", folded: true))
        #expect(!YAMLScalarWriter.canWriteBlock("", folded: false))
        #expect(!YAMLScalarWriter.canWriteBlock("\n\n", folded: false))
        #expect(!YAMLScalarWriter.canWriteBlock("cr\r\n", folded: false))
        #expect(YAMLScalarWriter.canWriteBlock("tab\tinside", folded: true))
    }
}
