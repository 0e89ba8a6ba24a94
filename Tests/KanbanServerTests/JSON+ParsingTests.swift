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
        ("", "unexpected end of input", 0),
        ("{", "expected a member name in quotes", 1),
        ("[1,]", "unexpected character", 3),
        ("01", "a number may not start with 0", 0),
        ("\"abc", "a string is not closed", 4),
        ("\"\\ud800\"", "a lone surrogate", 7),
        ("\"\\x\"", "unknown escape", 2),
        ("\"a\u{01}\"", "a control character in a string must be escaped", 2),
        ("tru", "unexpected character", 0),
        ("{} {}", "unexpected text after the value", 3),
    ])
    func refusesWhatIsNotJSONWithTheOffset(_ text: String, _ message: String, _ offset: Int) {
        #expect {
            _ = try parse(text)
        } throws: { error in
            guard let error = error as? JSONParseError else { return false }
            return error.message.hasPrefix(message) && error.offset == offset
        }
    }

    @Test func refusesInvalidUTF8AndDeepNestingWithoutRecursingIntoIt() {
        #expect(throws: JSONParseError.self) { _ = try JSON(parsing: [0x22, 0xFF, 0x22]) }
        let deep = String(repeating: "[", count: 1_000_000) + String(repeating: "]", count: 1_000_000)
        #expect(throws: JSONParseError(message: "nested deeper than 64 levels", offset: 64)) { _ = try parse(deep) }
        let fine = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(throws: Never.self) { _ = try parse(fine) }
    }
}
