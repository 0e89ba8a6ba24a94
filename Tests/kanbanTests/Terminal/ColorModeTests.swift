import Testing

@testable import kanban

@Suite struct ColorModeTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var isTerminal: Bool
        var noColor: String?
        var term: String?
        var mode: ColorMode
        var isColored: Bool

        var environment: [String: String] {
            var environment: [String: String] = ["HOME": "/nonexistent"]
            environment["NO_COLOR"] = noColor
            environment["TERM"] = term
            return environment
        }

        var testDescription: String {
            "tty=\(isTerminal) NO_COLOR=\(noColor ?? "unset") TERM=\(term ?? "unset") mode=\(mode) → \(isColored)"
        }
    }

    static let cases: [Case] = [
        // auto: the terminal, NO_COLOR and TERM decide.
        Case(isTerminal: true, noColor: nil, term: "xterm-256color", mode: .auto, isColored: true),
        Case(isTerminal: true, noColor: nil, term: nil, mode: .auto, isColored: true),
        Case(isTerminal: false, noColor: nil, term: "xterm-256color", mode: .auto, isColored: false),
        Case(isTerminal: true, noColor: "1", term: "xterm-256color", mode: .auto, isColored: false),
        Case(isTerminal: true, noColor: "0", term: "xterm", mode: .auto, isColored: false),
        Case(isTerminal: true, noColor: "false", term: "xterm", mode: .auto, isColored: false),
        Case(isTerminal: true, noColor: "", term: "xterm", mode: .auto, isColored: true),
        Case(isTerminal: true, noColor: nil, term: "dumb", mode: .auto, isColored: false),
        Case(isTerminal: false, noColor: "1", term: "dumb", mode: .auto, isColored: false),
        // never (--no-color) wins over everything.
        Case(isTerminal: true, noColor: nil, term: "xterm", mode: .never, isColored: false),
        Case(isTerminal: false, noColor: nil, term: "xterm", mode: .never, isColored: false),
        // always (--color always) is an explicit choice and wins over everything.
        Case(isTerminal: false, noColor: nil, term: "xterm", mode: .always, isColored: true),
        Case(isTerminal: true, noColor: "1", term: "dumb", mode: .always, isColored: true),
    ]

    @Test(arguments: cases)
    func decidesWhetherToColour(testCase: Case) {
        #expect(
            testCase.mode.isColorEnabled(isTerminal: testCase.isTerminal, environment: testCase.environment)
                == testCase.isColored)
    }

    @Test func parsesTheOptionValues() {
        #expect(ColorMode(rawValue: "auto") == .auto)
        #expect(ColorMode(rawValue: "always") == .always)
        #expect(ColorMode(rawValue: "never") == .never)
        #expect(ColorMode(rawValue: "Always") == nil)
    }
}
