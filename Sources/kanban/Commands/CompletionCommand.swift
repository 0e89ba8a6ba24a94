/// `kanban completion bash|zsh|fish`: prints a shell completion script.
enum CompletionCommand: KanbanCommand {
    static let spec = CommandSpec(
        name: "completion",
        abstract: "Print a shell completion script for bash, zsh or fish.",
        discussion: """
            The script completes commands, subcommands and options, and, by running 'kanban __complete' as you \
            type, the column ids, label ids and card slugs of the board in use: the one named by a --board already \
            on the line, else $KANBAN_BOARD, else the board found from the current directory. Generate the script \
            again after upgrading kanban.

            bash (4 or later), for this shell or from ~/.bashrc:
              source <(kanban completion bash)
            or, with the bash-completion package, once:
              kanban completion bash > ~/.local/share/bash-completion/completions/kanban

            zsh: save it as _kanban in a directory of $fpath, for example
              mkdir -p ~/.zfunc && kanban completion zsh > ~/.zfunc/_kanban
            with 'fpath=(~/.zfunc $fpath)' in ~/.zshrc before compinit runs; or, after compinit:
              source <(kanban completion zsh)

            fish:
              kanban completion fish > ~/.config/fish/completions/kanban.fish
            """,
        arguments: [.required("shell", help: "bash, zsh or fish.")])

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let name = arguments.argument("shell") ?? ""
        guard let shell = CompletionScript.Shell(rawValue: name) else {
            let names = CompletionScript.Shell.allCases.map(\.rawValue)
            throw arguments.usageError(
                "unknown shell '\(name)'; expected \(ParsedArguments.list(names))",
                suggestion: Suggestion.closest(to: name, among: names))
        }
        let model = CompletionModel(root: KanbanTool.root)
        context.output.write(CompletionScript.script(for: shell, model: model, version: KanbanTool.version))
        return .success
    }
}
