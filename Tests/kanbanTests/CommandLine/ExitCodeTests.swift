import Testing

@testable import kanban

@Suite struct ExitCodeTests {
    @Test func matchesTheDocumentedStatuses() {
        #expect(ExitCode.success.rawValue == 0)
        #expect(ExitCode.failure.rawValue == 1)
        #expect(ExitCode.usage.rawValue == 64)
        #expect(ExitStatusHelp.standard.map(\.code) == [.success, .failure, .usage])
    }

    @Test func readsAnIntegerLiteral() {
        let code: ExitCode = 2
        #expect(code == ExitCode(rawValue: 2))
    }
}
