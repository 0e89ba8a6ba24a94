/// One line of the `EXIT STATUS:` section of a command's help.
struct ExitStatusHelp: Hashable, Sendable {
    /// The documented status.
    var code: ExitCode

    /// What the status means, as one sentence.
    var meaning: String

    /// Creates the help line for `code`.
    init(_ code: ExitCode, _ meaning: String) {
        self.code = code
        self.meaning = meaning
    }

    /// The statuses every `kanban` command shares: success, failure and usage error.
    static let standard: [ExitStatusHelp] = [
        ExitStatusHelp(.success, "Success."),
        ExitStatusHelp(.failure, "Failure; the reason was written to standard error."),
        ExitStatusHelp(.usage, "Usage error: unknown option or command, missing or extra argument."),
    ]
}
