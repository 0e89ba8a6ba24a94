extension CommandDispatcher {
    /// Dispatches `arguments` and does everything but running the command: prints help or
    /// the version to `output`, and usage errors (from parsing or thrown by `execute`) to
    /// `errorOutput`, wrapped to the stream's width and coloured as `--color` / `--no-color`
    /// and the environment allow.
    ///
    /// ```swift
    /// let code = try dispatcher.run(Array(CommandLine.arguments.dropFirst()), environment: environment) { arguments in
    ///     switch arguments.subcommandPath {
    ///     case ["list"]: return try ListCommand.run(arguments)
    ///     default: preconditionFailure("no handler for \(arguments.commandPath)")
    ///     }
    /// }
    /// exit(code.rawValue)
    /// ```
    ///
    /// - Parameters:
    ///   - arguments: The command line without the program name.
    ///   - environment: The process environment.
    ///   - output: Where help and the version go; standard output by default.
    ///   - errorOutput: Where usage errors go; standard error by default.
    ///   - execute: Runs the command; returns its exit code.
    /// - Returns: `.success` after help or the version, `.usage` after a usage error, else
    ///   what `execute` returned.
    /// - Throws: Whatever `execute` throws other than `UsageError`.
    func run(
        _ arguments: [String],
        environment: [String: String],
        output: BufferedOutput = .standardOutput,
        errorOutput: BufferedOutput = .standardError,
        execute: (ParsedArguments) throws -> ExitCode
    ) throws -> ExitCode {
        do {
            switch try dispatch(arguments) {
            case .help(let commandPath):
                let width = Terminal.width(of: output.descriptor, environment: environment)
                output.write(try helpText(for: commandPath, width: width))
                return .success
            case .version(let version):
                output.writeLine(version)
                return .success
            case .run(let parsed):
                return try execute(parsed)
            }
        } catch let error as UsageError {
            let width = Terminal.width(of: errorOutput.descriptor, environment: environment)
            let stylist = Stylist(
                descriptor: errorOutput.descriptor, mode: CommandDispatcher.colorMode(in: arguments),
                environment: environment)
            errorOutput.keepStyles(stylist.isEnabled)
            errorOutput.write(error.rendered(width: width, stylist: stylist))
            return .usage
        }
    }

    /// The colour choice on a command line that may not parse: the last `--no-color`,
    /// `--color <mode>` or `--color=<mode>` before `--`; `auto` otherwise or when unreadable.
    static func colorMode(in arguments: [String]) -> ColorMode {
        var mode = ColorMode.auto
        var index = 0
        while index < arguments.count, arguments[index] != "--" {
            let token = arguments[index]
            index += 1
            if token == "--no-color" {
                mode = .never
            } else if token.hasPrefix("--color=") {
                mode = ColorMode(rawValue: String(token.dropFirst("--color=".count))) ?? mode
            } else if token == "--color", index < arguments.count {
                mode = ColorMode(rawValue: arguments[index]) ?? mode
                index += 1
            }
        }
        return mode
    }
}
