/// What a command line asks for, as found by `CommandDispatcher.dispatch(_:)`.
enum DispatchOutcome: Hashable, Sendable {
    /// Run the command `arguments.commandPath` with these arguments.
    case run(ParsedArguments)

    /// Print the help of the command at `commandPath` (from the root) to standard output
    /// and exit with `ExitCode.success`: `--help` or `-h` was given, `help <command>` was
    /// run, or a command group was named without a subcommand.
    case help(commandPath: [String])

    /// Print this version to standard output and exit with `ExitCode.success`.
    case version(String)
}
