/// When to colour output: the value of `--color`, with `--no-color` meaning `never`.
enum ColorMode: String, CaseIterable, Hashable, Sendable {
    /// Colour when the stream is a terminal, `NO_COLOR` is not set and `TERM` is not `dumb`.
    case auto
    /// Colour whatever the stream and environment are.
    case always
    /// Never colour.
    case never

    /// Whether output should be coloured.
    ///
    /// In `auto` mode colour is used only when all of these hold: the stream is a terminal;
    /// `NO_COLOR` is absent or empty (no-color.org: "when present and not an empty string,
    /// regardless of its value"); `TERM` is not `dumb`. `always` and `never` are explicit
    /// choices on the command line and override the environment, as no-color.org asks.
    ///
    /// - Parameters:
    ///   - isTerminal: Whether the stream being written is a terminal.
    ///   - environment: The process environment, such as `ProcessInfo.processInfo.environment`.
    func isColorEnabled(isTerminal: Bool, environment: [String: String]) -> Bool {
        switch self {
        case .always:
            return true
        case .never:
            return false
        case .auto:
            guard isTerminal else { return false }
            if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
            if environment["TERM"] == "dumb" { return false }
            return true
        }
    }
}
