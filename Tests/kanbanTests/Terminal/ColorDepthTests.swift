import Testing

@testable import kanban

@Suite struct ColorDepthTests {
    @Test(
        arguments: [
            ([:], ColorDepth.ansi16),
            (["TERM": "xterm"], .ansi16),
            (["TERM": "xterm-256color"], .ansi256),
            (["TERM": "xterm-256color", "COLORTERM": "truecolor"], .trueColor),
            (["COLORTERM": "24bit"], .trueColor),
            (["TERM": "xterm-direct"], .trueColor),
        ] as [([String: String], ColorDepth)])
    func readsTheDepthFromTheEnvironment(environment: [String: String], depth: ColorDepth) {
        #expect(ColorDepth(environment: environment) == depth)
    }
}
