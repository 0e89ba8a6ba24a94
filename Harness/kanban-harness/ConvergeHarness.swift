/// `converge`: see the command's help.
enum ConvergeHarness {
    static let command = HarnessCommand(name: "converge", help: "kanban-harness converge: not built yet", run: { _ in .skipped })
}
