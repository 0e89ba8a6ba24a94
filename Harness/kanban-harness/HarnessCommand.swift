/// One adversary: its name, its help, and how it runs.
struct HarnessCommand: Sendable {
    var name: String
    var help: String
    var run: @Sendable (HarnessOptions) throws -> HarnessStatus

    /// Every adversary. Each lives in its own file and adds itself here.
    static let all: [HarnessCommand] = [CrashHarness.command, StressHarness.command, ConvergeHarness.command, AgentsHarness.command]

    static var usage: String {
        "usage: kanban-harness <\(all.map(\.name).joined(separator: "|"))> [--kanban PATH] [options]; kanban-harness <name> --help"
    }
}

/// How a run ended, as the exit status.
enum HarnessStatus: Int32 {
    /// Every check held.
    case passed = 0
    /// A check failed: the output says which, with what is needed to reproduce it (the seed).
    case failed = 1
    /// The harness could not run (a bad option, no `kanban` binary).
    case cannotRun = 2
    /// A tool the harness needs (strace, git) is missing; the output says which. Tests read this as a skip.
    case skipped = 77
}

/// A reason the harness cannot go on.
struct HarnessError: Error {
    var message: String
    var status: HarnessStatus = .cannotRun
}
