/// Parses command lines against a tree of `CommandSpec`s.
///
/// ```swift
/// let dispatcher = CommandDispatcher(root: kanbanSpec)
/// switch try dispatcher.dispatch(Array(CommandLine.arguments.dropFirst())) {
/// case .run(let arguments): try run(arguments)        // route on arguments.subcommandPath
/// case .help(let path): output.write(try dispatcher.helpText(for: path, width: width))
/// case .version(let version): output.writeLine(version)
/// }
/// ```
///
/// ## Syntax
/// - Long options: `--column todo` or `--column=todo`; `--column=` gives an empty value.
/// - Short options: `-c todo`, `-ctodo` or `-c=todo`; flags combine, and the last letter of
///   a group may take a value: `-qj`, `-qc todo`, `-qctodo`.
/// - The token after an option that takes a value is its value unless it looks like an
///   option: `--...`, or `-` and a letter. So `--limit -1` works, while `--column --json`
///   reports a missing value; write `--column=-x` for a value that starts with a dash.
///   A `-` followed by a digit is a value or positional unless a digit is a declared short name.
/// - `--` ends options: every later token is positional. A lone `-` is positional (stdin).
/// - Options of a command are accepted before or after its subcommand's name only if
///   they are global (`OptionSpec.isGlobal`); other options belong to their command's
///   level, before the next subcommand name.
/// - A flag may be repeated; a non-repeatable option given twice is an error.
/// - `-h`/`--help` anywhere before `--` asks for help on the command named so far, even
///   when the line has other mistakes; only an unknown command name is reported instead.
/// - The root gets a `help` subcommand when it has subcommands: `kanban help column add`.
/// - `--version` is accepted by the root when it declares a `version`.
///
/// The first mistake on the line is the one reported.
struct CommandDispatcher: Sendable {
    /// The root command, with the implicit `help` subcommand added.
    let root: CommandSpec

    /// Whether `root` got the implicit `help` subcommand.
    private let hasImplicitHelpCommand: Bool

    /// Creates a dispatcher for the command tree `root`.
    ///
    /// - Precondition: `root.validationProblems()` is empty: the specs are the program's own
    ///   code, so a mistake in them traps on first use.
    init(root: CommandSpec) {
        let problems = root.validationProblems()
        precondition(problems.isEmpty, "invalid command spec:\n" + problems.joined(separator: "\n"))
        var root = root
        hasImplicitHelpCommand = root.hasSubcommands
        if hasImplicitHelpCommand {
            root.subcommands.append(CommandDispatcher.helpCommand)
        }
        self.root = root
    }

    /// The implicit `help` subcommand.
    static let helpCommand = CommandSpec(
        name: CommandSpec.helpCommandName,
        abstract: "Show subcommand help information.",
        arguments: [.repeating("subcommand", help: "The command to show help for.", isOptional: true)])

    /// Finds what `arguments` ask for.
    ///
    /// - Parameter arguments: The command line without the program name
    ///   (`CommandLine.arguments.dropFirst()`).
    /// - Returns: The command to run with its arguments, or a request for help or the version.
    /// - Throws: `UsageError` for the first mistake on the line.
    func dispatch(_ arguments: [String]) throws(UsageError) -> DispatchOutcome {
        var parser = InvocationParser(root: root, tokens: arguments)
        try parser.parse()

        if parser.isHelpRequested {
            return .help(commandPath: parser.chain.map(\.name))
        }
        if let error = parser.firstError {
            throw error
        }
        if hasImplicitHelpCommand, parser.chain.count == 2, parser.chain[1].name == CommandSpec.helpCommandName {
            return .help(commandPath: try commandPath(forHelpTopics: parser.positionals))
        }
        if parser.isVersionRequested, let version = root.version {
            return .version(version)
        }
        guard let command = parser.chain.last else { return .help(commandPath: [root.name]) }
        if command.hasSubcommands {
            guard let name = command.defaultSubcommand, let subcommand = command.subcommand(named: name) else {
                return .help(commandPath: parser.chain.map(\.name))
            }
            parser.chain.append(subcommand)
        }
        return .run(try parser.makeArguments())
    }

    /// The help of the command at `commandPath`, wrapped to `width`.
    ///
    /// - Parameters:
    ///   - commandPath: The names from the root, such as `["kanban", "column", "add"]`,
    ///     as in `DispatchOutcome.help(commandPath:)`.
    ///   - width: The terminal width, usually `Terminal.width(environment:)`.
    /// - Throws: `UsageError` "unknown command 'x'" when the path names no command.
    func helpText(for commandPath: [String], width: Int) throws(UsageError) -> String {
        HelpFormatter.helpText(for: try chain(for: commandPath), width: width)
    }

    /// The usage of the command at `commandPath`, the text after `USAGE: `.
    ///
    /// - Throws: `UsageError` "unknown command 'x'" when the path names no command.
    func usage(for commandPath: [String]) throws(UsageError) -> String {
        HelpFormatter.usage(for: try chain(for: commandPath))
    }

    /// The commands along `commandPath`, which starts with the root's name.
    private func chain(for commandPath: [String]) throws(UsageError) -> [CommandSpec] {
        guard commandPath.first == root.name else {
            throw UsageError(
                "unknown command '\(commandPath.first ?? "")'", commandPath: [root.name],
                usage: HelpFormatter.usage(for: [root]))
        }
        return try resolve(Array(commandPath.dropFirst()), errorContext: [root])
    }

    /// The full command path named by the topics of `kanban help <topic>...`.
    private func commandPath(forHelpTopics topics: [String]) throws(UsageError) -> [String] {
        let helpChain = [root, CommandDispatcher.helpCommand]
        return try resolve(topics, errorContext: helpChain).map(\.name)
    }

    /// The chain of commands for `subcommandPath`, or an "unknown command" error with a suggestion.
    private func resolve(_ subcommandPath: [String], errorContext: [CommandSpec]) throws(UsageError) -> [CommandSpec] {
        var chain = [root]
        for name in subcommandPath {
            let parent = chain[chain.count - 1]
            guard let next = parent.subcommand(named: name) else {
                let candidates = parent.subcommands.filter { !$0.isHidden }.map(\.name)
                throw UsageError(
                    "unknown command '\(name)'", commandPath: errorContext.map(\.name),
                    suggestion: Suggestion.closest(to: name, among: candidates),
                    usage: HelpFormatter.usage(for: errorContext))
            }
            chain.append(next)
        }
        return chain
    }
}
