import Testing

@testable import KanbanServer
@testable import kanban

@Suite struct StylistTests {
    let enabled = Stylist(isEnabled: true)

    @Test(arguments: [
        (TextStyle.bold, "\u{1B}[1mx\u{1B}[0m"),
        (.dim, "\u{1B}[2mx\u{1B}[0m"),
        (.inverse, "\u{1B}[7mx\u{1B}[0m"),
        (.red, "\u{1B}[31mx\u{1B}[0m"),
        (.green, "\u{1B}[32mx\u{1B}[0m"),
        (.yellow, "\u{1B}[33mx\u{1B}[0m"),
        (.blue, "\u{1B}[34mx\u{1B}[0m"),
        (.magenta, "\u{1B}[35mx\u{1B}[0m"),
        (.cyan, "\u{1B}[36mx\u{1B}[0m"),
        (.bold + .red, "\u{1B}[1;31mx\u{1B}[0m"),
        (.red + .green, "\u{1B}[32mx\u{1B}[0m"),
        (.foreground(hex: "#e74c3c"), "\u{1B}[38;2;231;76;60mx\u{1B}[0m"),
        (.tag(hex: "#ffffff"), "\u{1B}[30;48;2;255;255;255mx\u{1B}[0m"),
        (.tag(hex: "nonsense"), "\u{1B}[7mx\u{1B}[0m"),
        (.foreground(hex: "nonsense"), "x"),
        (.plain, "x"),
    ])
    func appliesStylesWhenEnabled(style: TextStyle, styled: String) {
        #expect(enabled.apply(style, to: "x") == styled)
    }

    @Test func leavesTextAloneWhenDisabled() {
        #expect(Stylist.plain.apply(.bold + .red, to: "x") == "x")
        #expect(Stylist(isEnabled: false).apply(.foreground(hex: "#e74c3c"), to: "x") == "x")
    }

    @Test func leavesEmptyTextEmpty() {
        #expect(enabled.apply(.bold, to: "") == "")
    }

    @Test func sendsHexColoursAtTheTerminalsDepth() {
        let stylist = Stylist(isEnabled: true, depth: .ansi256)
        #expect(stylist.apply(.foreground(hex: "#ff0000"), to: "x") == "\u{1B}[38;5;196mx\u{1B}[0m")
    }

    @Test func styledTextKeepsItsWidth() {
        #expect(enabled.apply(.bold + .tag(hex: "#e74c3c"), to: "bug").terminalWidth == 3)
    }

    @Test func neverColoursAPipe() throws {
        let pipe = try TestPipe()
        defer { pipe.close() }
        let stylist = Stylist(descriptor: pipe.writeEnd, mode: .auto, environment: ["TERM": "xterm"])
        #expect(!stylist.isEnabled)
        #expect(Stylist(descriptor: pipe.writeEnd, mode: .always, environment: [:]).isEnabled)
    }

    @Test func appendPadsInsideTheStyleAndAddsNothingWithoutColour() {
        var plain = ">"
        Stylist.plain.append(.cyan, "ab", paddedTo: 4, to: &plain)
        #expect(plain == ">ab  ")
        var styled = ""
        Stylist(isEnabled: true).append(.cyan, "ab", paddedTo: 4, to: &styled)
        #expect(styled == Stylist(isEnabled: true).apply(.cyan, to: "ab  "))
        var wide = ""
        Stylist.plain.append(.dim, "日本", paddedTo: 3, to: &wide)
        #expect(wide == "日本")
        var long = ""
        Stylist.plain.append(.dim, "x", paddedTo: 150, to: &long)
        #expect(long == "x" + String(repeating: " ", count: 149))
    }
}
