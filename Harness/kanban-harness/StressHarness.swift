/// `stress`: see the command's help.
enum StressHarness {
    static let command = HarnessCommand(name: "stress", help: "kanban-harness stress: not built yet", run: { _ in .skipped })
}
