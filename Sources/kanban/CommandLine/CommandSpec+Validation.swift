extension CommandSpec {
    /// Mistakes in the declaration of this command tree, one sentence each; empty when it is sound.
    ///
    /// Checked: option names are non-empty words without `=` or spaces, short names are
    /// single non-dash characters; no command sees two options with one long or short name
    /// (counting inherited global options, `-h`/`--help`, and `--version` on the root);
    /// at most one repeating argument; no arguments on a command with subcommands;
    /// subcommand names are unique and the root leaves `help` to the dispatcher;
    /// `defaultSubcommand` and `exclusiveOptions` name what exists; no line of a discussion ends in a backslash (a
    /// line continuation written `\\`, which `--help` would print).
    func validationProblems() -> [String] {
        validationProblems(path: [name], inherited: [], isRoot: true)
    }

    private func validationProblems(path: [String], inherited: [OptionSpec], isRoot: Bool) -> [String] {
        var problems: [String] = []
        let location = "'\(path.joined(separator: " "))'"
        if let discussion, discussion.contains("\\\n") || discussion.hasSuffix("\\") {
            problems.append("\(location): a line of the discussion ends in a backslash (a line continuation written '\\\\')")
        }

        var scope = options + inherited + [.help]
        if isRoot, version != nil { scope.append(.version) }

        for option in options {
            if option.name.isEmpty || option.name.hasPrefix("-") || option.name.contains("=")
                || option.name.contains(" ")
            {
                problems.append("\(location): invalid option name '\(option.name)'")
            }
            if let short = option.shortName, short == "-" || short == "=" || short.isWhitespace {
                problems.append("\(location): invalid short name '\(short)' for '--\(option.name)'")
            }
        }
        var seenNames = Set<String>()
        var seenShortNames = Set<Character>()
        for option in scope {
            if !seenNames.insert(option.name).inserted {
                problems.append("\(location): more than one option is named '--\(option.name)'")
            }
            if let short = option.shortName, !seenShortNames.insert(short).inserted {
                problems.append("\(location): more than one option is named '-\(short)'")
            }
        }

        if arguments.filter(\.isRepeating).count > 1 {
            problems.append("\(location): more than one repeating argument")
        }
        if hasSubcommands && !arguments.isEmpty {
            problems.append("\(location): a command with subcommands cannot take arguments")
        }
        var seenArguments = Set<String>()
        for argument in arguments where !seenArguments.insert(argument.name).inserted {
            problems.append("\(location): more than one argument is named '<\(argument.name)>'")
        }

        var seenSubcommands = Set<String>()
        for subcommand in subcommands where !seenSubcommands.insert(subcommand.name).inserted {
            problems.append("\(location): more than one subcommand is named '\(subcommand.name)'")
        }
        if isRoot, seenSubcommands.contains(CommandSpec.helpCommandName) {
            problems.append("\(location): 'help' is reserved for the implicit help subcommand")
        }
        if let defaultSubcommand, subcommand(named: defaultSubcommand) == nil {
            problems.append("\(location): default subcommand '\(defaultSubcommand)' does not exist")
        }
        for group in exclusiveOptions {
            for name in group where !options.contains(where: { $0.name == name }) {
                problems.append("\(location): exclusive option '--\(name)' is not an option of this command")
            }
        }

        let passedDown = inherited + options.filter(\.isGlobal)
        for subcommand in subcommands {
            problems += subcommand.validationProblems(
                path: path + [subcommand.name], inherited: passedDown, isRoot: false)
        }
        return problems
    }
}
