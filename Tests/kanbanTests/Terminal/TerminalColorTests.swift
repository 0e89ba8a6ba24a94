import Testing

@testable import kanban

@Suite struct TerminalColorTests {
    @Test(arguments: [
        ("#e74c3c", TerminalColor.rgb(red: 0xE7, green: 0x4C, blue: 0x3C)),
        ("E74C3C", .rgb(red: 0xE7, green: 0x4C, blue: 0x3C)),
        ("#fff", .rgb(red: 255, green: 255, blue: 255)),
        (" #000000 ", .rgb(red: 0, green: 0, blue: 0)),
    ])
    func parsesHexColours(hex: String, color: TerminalColor) {
        #expect(TerminalColor(hex: hex) == color)
    }

    @Test(arguments: ["", "#", "#12", "#12345", "#1234567", "#gggggg", "red", "#-12345", "#１２３"])
    func rejectsWhatIsNotAHexColour(hex: String) {
        #expect(TerminalColor(hex: hex) == nil)
    }

    @Test(arguments: [
        (TerminalColor.red, false, ColorDepth.trueColor, "31"),
        (.red, true, .trueColor, "41"),
        (.brightCyan, false, .ansi16, "96"),
        (.brightCyan, true, .ansi16, "106"),
        (.rgb(red: 231, green: 76, blue: 60), false, .trueColor, "38;2;231;76;60"),
        (.rgb(red: 231, green: 76, blue: 60), true, .trueColor, "48;2;231;76;60"),
        (.rgb(red: 255, green: 0, blue: 0), false, .ansi256, "38;5;196"),
        (.rgb(red: 128, green: 128, blue: 128), false, .ansi256, "38;5;244"),
        (.rgb(red: 250, green: 10, blue: 10), false, .ansi16, "91"),
        (.rgb(red: 0, green: 0, blue: 0), true, .ansi16, "40"),
    ])
    func choosesParametersForTheDepth(color: TerminalColor, isBackground: Bool, depth: ColorDepth, parameters: String) {
        #expect(color.sgrParameters(isBackground: isBackground, depth: depth) == parameters)
    }

    @Test func picksAReadableForeground() throws {
        #expect(try #require(TerminalColor(hex: "#f1c40f")).contrastingForeground == .black)
        #expect(try #require(TerminalColor(hex: "#2c3e50")).contrastingForeground == .white)
    }
}
