import Testing

@testable import kanban

@Suite struct TerminalTests {
    @Test func seesThatAPipeIsNotATerminal() throws {
        let pipe = try TestPipe()
        defer { pipe.close() }
        #expect(!Terminal.isTerminal(pipe.writeEnd))
        #expect(!Terminal.isTerminal(-1))
    }

    @Test(
        arguments: [
            ([:], 80),
            (["COLUMNS": "120"], 120),
            (["COLUMNS": "0"], 80),
            (["COLUMNS": "-5"], 80),
            (["COLUMNS": "wide"], 80),
            (["COLUMNS": ""], 80),
        ] as [([String: String], Int)])
    func fallsBackToColumnsThenEighty(environment: [String: String], width: Int) throws {
        let pipe = try TestPipe()
        defer { pipe.close() }
        #expect(Terminal.width(of: pipe.writeEnd, environment: environment) == width)
    }
}

extension TerminalTests {
    @Test func capsAHugeColumnsValue() throws {
        let pipe = try TestPipe()
        defer { pipe.close() }
        #expect(
            Terminal.width(of: pipe.writeEnd, environment: ["COLUMNS": "9223372036854775807"]) == Terminal.maximumWidth)
    }
}
