/// The result of parsing a command line: which command runs, with which options and arguments.
///
/// Options are looked up by long name without dashes. Asking for a name the command does
/// not declare (or inherit as a global option) is a programmer error and traps, so a typo
/// in a command fails its first test rather than silently reading `false`.
///
/// ```swift
/// let columns = arguments.values("column")            // ["todo", "doing"]
/// let limit = try arguments.value("limit", as: Int.self) ?? 20
/// let placement = try arguments.exclusiveOption(among: ["top", "bottom", "before", "after"])
/// ```
struct ParsedArguments: Hashable, Sendable {
    /// One option as it appeared on the command line.
    struct Occurrence: Hashable, Sendable {
        /// The option's long name, without dashes, however it was spelled.
        var name: String
        /// The value given, or `nil` for a flag.
        var value: String?
        /// How it was spelled: `--column`, `-c`.
        var spelling: String
    }

    /// The command that runs, from the root: `["kanban", "column", "add"]`.
    var commandPath: [String]

    /// All positional tokens, in order.
    var positionals: [String]

    /// Every option and flag given, in the order given, across all command levels.
    var occurrences: [Occurrence]

    /// The positional tokens assigned to each declared argument name.
    var argumentValues: [String: [String]]

    /// The options in scope for the command, by name: its own and inherited global ones.
    var declaredOptions: [String: OptionSpec]

    /// The command's usage, for errors the command reports itself.
    var usage: String?

    /// The command path without the root, for routing: `["column", "add"]`.
    var subcommandPath: [String] { Array(commandPath.dropFirst()) }

    // MARK: Options

    /// Whether the flag `name` was given at least once.
    func flag(_ name: String) -> Bool {
        flagCount(name) > 0
    }

    /// How many times the flag `name` was given: `-vv` counts 2.
    func flagCount(_ name: String) -> Int {
        checkDeclared(name)
        return occurrences.count(where: { $0.name == name })
    }

    /// Whether the option or flag `name` was given, as opposed to taking its default.
    func isGiven(_ name: String) -> Bool {
        checkDeclared(name)
        return occurrences.contains { $0.name == name }
    }

    /// The value of the option `name`: the last one given, else its declared default, else `nil`.
    func value(_ name: String) -> String? {
        checkDeclared(name)
        return occurrences.last { $0.name == name }?.value ?? declaredOptions[name]?.defaultValue
    }

    /// Every value given for the repeatable option `name`, in order; its default alone when
    /// none was given and it has one.
    func values(_ name: String) -> [String] {
        checkDeclared(name)
        let given = occurrences.compactMap { $0.name == name ? $0.value : nil }
        if given.isEmpty, let defaultValue = declaredOptions[name]?.defaultValue {
            return [defaultValue]
        }
        return given
    }

    /// The value of the option `name` converted to `type`, such as `Int`.
    ///
    /// - Returns: `nil` when the option was not given and has no default.
    /// - Throws: `UsageError` "invalid value 'x' for option '--limit'" when it does not convert.
    func value<Value: LosslessStringConvertible>(_ name: String, as type: Value.Type) throws(UsageError) -> Value? {
        guard let text = value(name) else { return nil }
        guard let converted = Value(text) else {
            throw usageError("invalid value '\(text)' for option '--\(name)'")
        }
        return converted
    }

    /// The value of the option `name` as one of the cases of `type`, matched by raw value.
    ///
    /// - Returns: `nil` when the option was not given and has no default.
    /// - Throws: `UsageError` "invalid value 'x' for option '--color'; expected auto, always
    ///   or never", suggesting the closest case.
    func choice<Choice: RawRepresentable & CaseIterable>(
        _ name: String, as type: Choice.Type
    ) throws(UsageError) -> Choice? where Choice.RawValue == String {
        guard let text = value(name) else { return nil }
        if let choice = Choice(rawValue: text) { return choice }
        let names = Choice.allCases.map(\.rawValue)
        throw usageError(
            "invalid value '\(text)' for option '--\(name)'; expected \(ParsedArguments.list(names))",
            suggestion: Suggestion.closest(to: text, among: names))
    }

    /// The names among `names` that were given, in the order they first appeared.
    func givenOptions(among names: [String]) -> [String] {
        names.forEach(checkDeclared)
        var seen: [String] = []
        for occurrence in occurrences where names.contains(occurrence.name) && !seen.contains(occurrence.name) {
            seen.append(occurrence.name)
        }
        return seen
    }

    /// The one option among `names` that was given, for mutually exclusive choices such as
    /// `--top`, `--bottom`, `--before`, `--after`.
    ///
    /// Giving the same option twice is not a conflict; that is for `isRepeatable` to decide.
    ///
    /// - Returns: The name given, or `nil` when none was.
    /// - Throws: `UsageError` "options '--top' and '--bottom' cannot be used together",
    ///   naming the first two in the order they were given.
    func exclusiveOption(among names: [String]) throws(UsageError) -> String? {
        let given = givenOptions(among: names)
        if given.count > 1 {
            throw usageError("options '--\(given[0])' and '--\(given[1])' cannot be used together")
        }
        return given.first
    }

    // MARK: Arguments

    /// The first token given for the positional argument `name`, or `nil` when left out.
    func argument(_ name: String) -> String? {
        arguments(name).first
    }

    /// Every token given for the positional argument `name`, in order.
    func arguments(_ name: String) -> [String] {
        precondition(
            argumentValues[name] != nil, "'\(name)' is not an argument of '\(commandPath.joined(separator: " "))'")
        return argumentValues[name] ?? []
    }

    // MARK: Errors

    /// A usage error about this command, for problems the parser cannot see, such as a
    /// value out of range or an option that needs another.
    ///
    /// - Parameters:
    ///   - message: What is wrong, without a trailing period: `"'--limit' must be positive"`.
    ///   - suggestion: The name probably meant, shown as "Did you mean '...'?".
    func usageError(_ message: String, suggestion: String? = nil) -> UsageError {
        UsageError(message, commandPath: commandPath, suggestion: suggestion, usage: usage)
    }

    private func checkDeclared(_ name: String) {
        precondition(
            declaredOptions[name] != nil, "'--\(name)' is not an option of '\(commandPath.joined(separator: " "))'")
    }

    /// `a`, `a or b`, `a, b or c`.
    static func list(_ names: [String]) -> String {
        guard let last = names.last else { return "" }
        guard names.count > 1 else { return last }
        return names.dropLast().joined(separator: ", ") + " or " + last
    }
}
