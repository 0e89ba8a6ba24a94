/// The declaration of one positional argument of a command.
///
/// Positional tokens are assigned to arguments in declaration order: every required
/// argument takes one token, then optional arguments take one each while tokens remain,
/// and the repeating argument (at most one per command) takes whatever is left. So
/// `<card>... [<column>]` reads `a b c done` as cards `a b c` and column `done`, the way
/// `mv source... destination` does.
struct ArgumentSpec: Hashable, Sendable {
    /// The name shown as `<name>` in usage and help, and used by `ParsedArguments.argument(_:)`.
    var name: String

    /// One sentence for the `ARGUMENTS:` section.
    var help: String

    /// Whether the argument may be left out.
    var isOptional: Bool

    /// Whether the argument collects any number of tokens (one or more, or zero or more if optional).
    var isRepeating: Bool

    /// Creates an argument declaration.
    init(_ name: String, help: String, isOptional: Bool = false, isRepeating: Bool = false) {
        self.name = name
        self.help = help
        self.isOptional = isOptional
        self.isRepeating = isRepeating
    }

    /// A single argument that must be given.
    static func required(_ name: String, help: String) -> ArgumentSpec {
        ArgumentSpec(name, help: help)
    }

    /// A single argument that may be left out.
    static func optional(_ name: String, help: String) -> ArgumentSpec {
        ArgumentSpec(name, help: help, isOptional: true)
    }

    /// An argument that collects one or more tokens, or zero or more when `isOptional` is true.
    static func repeating(_ name: String, help: String, isOptional: Bool = false) -> ArgumentSpec {
        ArgumentSpec(name, help: help, isOptional: isOptional, isRepeating: true)
    }

    /// How the argument appears in a usage line: `<card>`, `[<column>]`, `<card>...`, `[<card>...]`.
    var usageText: String {
        let core = "<\(name)>" + (isRepeating ? "..." : "")
        return isOptional ? "[\(core)]" : core
    }
}
