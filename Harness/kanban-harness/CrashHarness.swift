/// `crash`: see the command's help.
enum CrashHarness {
    static let command = HarnessCommand(name: "crash", help: "kanban-harness crash: not built yet", run: { _ in .skipped })
}
