import Testing

@testable import KanbanServer

@Suite struct JSONParsingTests {
    private func parse(_ text: String) throws -> JSON { try JSON(parsing: Array(text.utf8)) }

    @Test func readsEveryKindOfValue() throws {
        let value = try parse(#" {"a": [1, -2.50, 3e2, true, false, null], "b": {"c": "d"}, "e": ""} "#)
        #expect(value == .object([
            "a": .array([.number("1"), .number("-2.50"), .number("3e2"), .bool(true), .bool(false), .null]),
            "b": .object(["c": .string("d")]),
            "e": .string(""),
        ]))
        #expect(value["a"]?.arrayValue?.first?.integerValue == 1)
        #expect(value["b"]?["c"]?.stringValue == "d")
        #expect(value["missing"] == nil)
    }

    @Test func keepsNumbersAsTheirTextSoIdsAreEchoedAsTheyCame() throws {
        #expect(try parse("7").rendered() == "7")
        #expect(try parse("12345678901234567890").rendered() == "12345678901234567890")
        #expect(try parse("1.0").integerValue == 1)
        #expect(try parse("1.5").integerValue == nil)
    }

    @Test func decodesEscapesAndSurrogatePairs() throws {
        #expect(try parse(#""a\"b\\c\/d\n\t\u00e9\ud83d\ude00""#) == .string("a\"b\\c/d\n\té😀"))
        #expect(try parse("\"é 😀\"") == .string("é 😀"))
    }

    @Test(arguments: [
        ("", "the text is empty, not JSON", 0),
        ("{", "truncated JSON: the text ends inside an object", 1),
        ("[1,]", "']' cannot start a JSON value", 3),
        ("01", "a number cannot start with 0", 0),
        ("\"abc", "truncated JSON: the text ends inside text", 4),
        ("\"\\ud800\"", "\\u escapes a lone surrogate", 7),
        ("\"\\x\"", "\\'x' is not a JSON escape", 2),
        ("\"a\u{01}\"", "a control character inside text", 2),
        ("tru", "truncated JSON: the text ends inside 'true'", 3),
        ("{} {}", "text after the end of the JSON value", 3),
    ])
    func refusesWhatIsNotJSONWithTheOffset(_ text: String, _ message: String, _ offset: Int) {
        #expect {
            _ = try parse(text)
        } throws: { error in
            guard let error = error as? JSONParseError else { return false }
            return error.message.hasPrefix(message) && error.offset == offset
        }
    }

    @Test func keepsTheLastOfAKeyGivenTwice() throws {
        #expect(try parse(#"{"a": 1, "a": 2}"#) == .object(["a": .number("2")]))
    }

    @Test func refusesInvalidUTF8AndDeepNestingWithoutRecursingIntoIt() {
        #expect(throws: JSONParseError(message: "the text is not UTF-8 text", offset: 1)) { _ = try JSON(parsing: [0x22, 0xFF, 0x22]) }
        let deep = String(repeating: "[", count: 1_000_000) + String(repeating: "]", count: 1_000_000)
        #expect(throws: JSONParseError(message: "lists and objects nest more than 64 deep", offset: 64)) { _ = try parse(deep) }
        let fine = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(throws: Never.self) { _ = try parse(fine) }
    }
}
