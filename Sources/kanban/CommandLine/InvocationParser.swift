/// The state of one pass over a command line; see `CommandDispatcher` for the syntax.
///
/// Mistakes are recorded, not thrown, so that parsing goes on to find `--help` later on
/// the line; only an unknown command name stops it, because nothing after it can be read.
struct InvocationParser {
    /// The commands named so far, from the root.
    var chain: [CommandSpec]

    /// Options and flags in the order given.
    private(set) var occurrences: [ParsedArguments.Occurrence] = []

    /// Positional tokens of the last command in `chain`.
    private(set) var positionals: [String] = []

    /// The first mistake found.
    private(set) var firstError: UsageError?

    /// Whether `-h` or `--help` was given.
    private(set) var isHelpRequested = false

    /// Whether `--version` was given to the root.
    private(set) var isVersionRequested = false

    private let tokens: [String]
    private var index = 0

    /// Prepares to read `tokens` (the command line without the program name) against `root`.
    init(root: CommandSpec, tokens: [String]) {
        self.chain = [root]
        self.tokens = tokens
    }

    // MARK: Scanning

    /// Reads every token.
    ///
    /// - Throws: `UsageError` for an unknown command name (or the first mistake before it).
    mutating func parse() throws(UsageError) {
        var isAfterTerminator = false
        while index < tokens.count {
            let token = tokens[index]
            index += 1
            if !isAfterTerminator {
                if token == "--" {
                    isAfterTerminator = true
                    continue
                }
                if token.hasPrefix("--") {
                    parseLongOption(token)
                    continue
                }
                if looksLikeOption(token) {
                    parseShortOptions(token)
                    continue
                }
            }
            try takePositional(token)
        }
    }

    private mutating func parseLongOption(_ token: String) {
        let body = token.dropFirst(2)
        let name: Substring
        let inlineValue: String?
        if let equals = body.firstIndex(of: "=") {
            name = body[..<equals]
            inlineValue = String(body[body.index(after: equals)...])
        } else {
            name = body
            inlineValue = nil
        }
        guard let option = optionsInScope.first(where: { $0.name == name }) else {
            let suggestion = Suggestion.closest(to: String(name), among: visibleLongNames)
            record(error("unknown option '--\(name)'", suggestion: suggestion.map { "--" + $0 }))
            return
        }
        take(option, spelling: "--" + name, attachedValue: inlineValue)
    }

    private mutating func parseShortOptions(_ token: String) {
        let letters = Array(token.dropFirst())
        var position = 0
        while position < letters.count {
            let letter = letters[position]
            position += 1
            guard let option = optionsInScope.first(where: { $0.shortName == letter }) else {
                // `-colum` is more likely a long option with one dash than a group of flags.
                let suggestion =
                    letters.count > 1
                    ? Suggestion.closest(to: String(letters), among: visibleLongNames).map { "--" + $0 }
                    : nil
                record(error("unknown option '-\(letter)'", suggestion: suggestion))
                return
            }
            let rest = letters[position...]
            if option.isFlag {
                if rest.first == "=" {
                    record(error("option '-\(letter)' does not take a value"))
                    return
                }
                take(option, spelling: "-\(letter)", attachedValue: nil)
            } else {
                let attached = rest.isEmpty ? nil : String(rest.first == "=" ? rest.dropFirst() : rest)
                take(option, spelling: "-\(letter)", attachedValue: attached)
                return
            }
        }
    }

    /// Records `option`, reading its value from `attachedValue` or the next token.
    private mutating func take(_ option: OptionSpec, spelling: String, attachedValue: String?) {
        if option.isFlag {
            guard attachedValue == nil else {
                record(error("option '\(spelling)' does not take a value"))
                return
            }
            if option == .help {
                isHelpRequested = true
            } else if option == .version, chain.count == 1 {
                isVersionRequested = true
            } else {
                occurrences.append(.init(name: option.name, value: nil, spelling: spelling))
            }
            return
        }

        let value: String
        if let attachedValue {
            value = attachedValue
        } else if index < tokens.count, !looksLikeOption(tokens[index]), tokens[index] != "--" {
            value = tokens[index]
            index += 1
        } else {
            record(error("missing value for option '\(spelling) <\(option.valueName ?? "value")>'"))
            return
        }
        if !option.isRepeatable, occurrences.contains(where: { $0.name == option.name }) {
            record(error("option '--\(option.name)' cannot be given more than once"))
            return
        }
        occurrences.append(.init(name: option.name, value: value, spelling: spelling))
    }

    private mutating func takePositional(_ token: String) throws(UsageError) {
        let command = chain[chain.count - 1]
        guard command.hasSubcommands else {
            positionals.append(token)
            return
        }
        guard let subcommand = command.subcommand(named: token) else {
            if let firstError { throw firstError }
            let candidates = command.subcommands.filter { !$0.isHidden }.map(\.name)
            throw error("unknown command '\(token)'", suggestion: Suggestion.closest(to: token, among: candidates))
        }
        chain.append(subcommand)
    }

    /// Whether `token` is an option rather than a value: `--x`, or `-` and a letter.
    /// Anything else after a dash (`-1`, `-.5`, `- item`) is a value unless it is a declared short name.
    private func looksLikeOption(_ token: String) -> Bool {
        guard token.count >= 2, token.hasPrefix("-") else { return false }
        let second = token[token.index(after: token.startIndex)]
        if second == "-" { return token.count > 2 }
        if second.isLetter && second.isASCII { return true }
        return optionsInScope.contains { $0.shortName == second }
    }

    // MARK: Scope

    /// The options the current command accepts: its own, global options of the commands
    /// above it (nearest first), `--help`, and at the root `--version` when declared.
    private var optionsInScope: [OptionSpec] {
        var options = chain[chain.count - 1].options
        for ancestor in chain.dropLast().reversed() {
            options += ancestor.options.filter(\.isGlobal)
        }
        options.append(.help)
        if chain.count == 1, chain[0].version != nil {
            options.append(.version)
        }
        return options
    }

    private var visibleLongNames: [String] {
        optionsInScope.filter { !$0.isHidden }.map(\.name)
    }

    // MARK: Results

    /// Assigns positional tokens to the declared arguments and checks exclusive groups.
    ///
    /// - Throws: `UsageError` for a missing or unexpected argument, or conflicting options.
    func makeArguments() throws(UsageError) -> ParsedArguments {
        let command = chain[chain.count - 1]
        let declared = command.arguments
        var counts = Array(repeating: 0, count: declared.count)
        var available = positionals.count

        for (number, argument) in declared.enumerated() where !argument.isOptional {
            guard available > 0 else {
                throw error("missing argument '<\(argument.name)>'")
            }
            counts[number] = 1
            available -= 1
        }
        for (number, argument) in declared.enumerated() where argument.isOptional && !argument.isRepeating {
            if available > 0 {
                counts[number] = 1
                available -= 1
            }
        }
        if let repeating = declared.firstIndex(where: \.isRepeating) {
            counts[repeating] += available
            available = 0
        }

        var values: [String: [String]] = [:]
        var next = 0
        for (number, argument) in declared.enumerated() {
            values[argument.name] = Array(positionals[next..<next + counts[number]])
            next += counts[number]
        }
        if next < positionals.count {
            throw error("unexpected argument '\(positionals[next])'")
        }

        // Options of every level can appear in `occurrences`, so every level's are readable;
        // the nearest declaration of a name wins.
        var declaredOptions: [String: OptionSpec] = [:]
        for option in chain.flatMap(\.options) {
            declaredOptions[option.name] = option
        }
        let arguments = ParsedArguments(
            commandPath: chain.map(\.name), positionals: positionals, occurrences: occurrences,
            argumentValues: values, declaredOptions: declaredOptions,
            usage: HelpFormatter.usage(for: chain))

        for command in chain {
            for group in command.exclusiveOptions {
                _ = try arguments.exclusiveOption(among: group)
            }
        }
        return arguments
    }

    // MARK: Errors

    private func error(_ message: String, suggestion: String? = nil) -> UsageError {
        UsageError(
            message, commandPath: chain.map(\.name), suggestion: suggestion,
            usage: HelpFormatter.usage(for: chain))
    }

    private mutating func record(_ error: UsageError) {
        if firstError == nil { firstError = error }
    }
}
