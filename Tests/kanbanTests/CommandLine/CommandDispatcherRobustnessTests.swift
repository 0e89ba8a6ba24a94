import KanbanTestSupport
import Testing

@testable import KanbanServer
@testable import kanban

/// Bad input never traps: odd tokens, in any order, give a result or a usage error.
@Suite struct CommandDispatcherRobustnessTests {
    static let oddTokens = [
        "", " ", "-", "--", "---", "-=", "--=", "=", "-h=", "--help=", "-q=", "--quiet=",
        "-1", "-.5", "-e\u{301}", "-日", "--日本", "-👨‍👩‍👧", "--\u{1B}[31m", "\u{1B}", "\u{0}",
        "list", "lsit", "move", "column", "add", "help", "label", "--column", "-c", "-cq", "-qc",
        "--limit", "-n", "--top", "--bottom", "--before", "--board", "--color", "--no-color",
        "--version", "-qjv", "a", "b", String(repeating: "x", count: 5_000),
        "--" + String(repeating: "y", count: 5_000),
    ]

    @Test func neverTrapsOnRandomLines() throws {
        var generator = SeededGenerator(seed: 42)
        let dispatcher = SampleCommands.dispatcher
        for _ in 0..<3_000 {
            let count = Int.random(in: 0...6, using: &generator)
            let tokens = (0..<count).map { _ in Self.oddTokens.randomElement(using: &generator) ?? "" }
            do {
                switch try dispatcher.dispatch(tokens) {
                case .help(let path):
                    _ = try dispatcher.helpText(for: path, width: Int.random(in: 0...120, using: &generator))
                case .run(let arguments):
                    #expect(arguments.commandPath.first == "kanban")
                case .version(let version):
                    #expect(version == "1.2.3")
                }
            } catch {
                let text = error.rendered(width: Int.random(in: 0...120, using: &generator))
                #expect(text.hasPrefix("error: "), "\(tokens)")
            }
        }
    }

    @Test func neverTrapsOnOddText() {
        var generator = SeededGenerator(seed: 7)
        let pieces = [
            "a", " ", "\n", "\u{1B}", "[", "3", "m", "\u{301}", "日", "👨‍👩‍👧", "🇫", "\u{200D}", "\t", "…", "\u{7}", "]",
        ]
        for _ in 0..<2_000 {
            let text = (0..<Int.random(in: 0...24, using: &generator))
                .map { _ in pieces.randomElement(using: &generator) ?? "" }.joined()
            let width = Int.random(in: -1...12, using: &generator)
            #expect(text.truncated(toWidth: width).terminalWidth <= max(width, 0) || width < 1)
            _ = text.padded(toWidth: width, alignment: .center)
            _ = text.wrapped(toWidth: width)
        }
    }
}
