extension ColorMode {
    /// The colour choice on the command line: `--color <mode>` and `--no-color`, the later
    /// one winning; `auto` when neither was given or neither is declared.
    ///
    /// Declare them with `OptionSpec.color` and `OptionSpec.noColor`.
    ///
    /// - Throws: `UsageError` when `--color` is given something other than `auto`,
    ///   `always` or `never`.
    init(arguments: ParsedArguments) throws(UsageError) {
        let last = arguments.occurrences.last { $0.name == "color" || $0.name == "no-color" }
        guard let last else {
            self = .auto
            return
        }
        if last.name == "no-color" {
            self = .never
            return
        }
        let text = last.value ?? ""
        guard let mode = ColorMode(rawValue: text) else {
            let names = ColorMode.allCases.map(\.rawValue)
            throw arguments.usageError(
                "invalid value '\(text)' for option '--color'; expected \(ParsedArguments.list(names))",
                suggestion: Suggestion.closest(to: text, among: names))
        }
        self = mode
    }
}
