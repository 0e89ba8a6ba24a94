/// The declaration of one named option or flag of a command.
///
/// A flag takes no value (`--quiet`); an option takes exactly one (`--column <id>`).
/// Names are written without dashes: `OptionSpec.flag("quiet", short: "q", ...)`.
struct OptionSpec: Hashable, Sendable {
    /// The long name, without the leading `--`.
    var name: String

    /// The single-letter short name, without the leading `-`.
    var shortName: Character?

    /// The value placeholder shown as `<valueName>`, or `nil` for a flag.
    var valueName: String?

    /// One sentence for the `OPTIONS:` section.
    var help: String

    /// Whether the option may be given more than once; values are collected in order.
    ///
    /// A flag may always be repeated (`-vv`); a non-repeatable option given twice is a usage error.
    var isRepeatable: Bool

    /// The value `ParsedArguments.value(_:)` returns when the option is not given; shown in help.
    var defaultValue: String?

    /// Whether the option is left out of help, usage and suggestions but still accepted.
    var isHidden: Bool

    /// Whether the option is accepted anywhere on the command line, before or after the
    /// subcommand, by this command and every subcommand beneath it.
    var isGlobal: Bool

    /// Creates an option declaration; prefer `flag(...)` and `option(...)`.
    init(
        name: String,
        shortName: Character? = nil,
        valueName: String? = nil,
        help: String,
        isRepeatable: Bool = false,
        defaultValue: String? = nil,
        isHidden: Bool = false,
        isGlobal: Bool = false
    ) {
        self.name = name
        self.shortName = shortName
        self.valueName = valueName
        self.help = help
        self.isRepeatable = isRepeatable
        self.defaultValue = defaultValue
        self.isHidden = isHidden
        self.isGlobal = isGlobal
    }

    /// A flag, which takes no value: `--quiet`, `-q`.
    static func flag(
        _ name: String,
        short: Character? = nil,
        help: String,
        isHidden: Bool = false,
        isGlobal: Bool = false
    ) -> OptionSpec {
        OptionSpec(name: name, shortName: short, help: help, isHidden: isHidden, isGlobal: isGlobal)
    }

    /// An option, which takes one value: `--column <id>`, `--column=<id>`, `-c <id>`, `-c<id>`.
    static func option(
        _ name: String,
        short: Character? = nil,
        valueName: String,
        help: String,
        isRepeatable: Bool = false,
        defaultValue: String? = nil,
        isHidden: Bool = false,
        isGlobal: Bool = false
    ) -> OptionSpec {
        OptionSpec(
            name: name, shortName: short, valueName: valueName, help: help,
            isRepeatable: isRepeatable, defaultValue: defaultValue,
            isHidden: isHidden, isGlobal: isGlobal)
    }

    /// Whether the option takes no value.
    var isFlag: Bool { valueName == nil }

    /// The long spelling, `--name`.
    var longSpelling: String { "--" + name }

    /// How the option appears in a usage line: `--quiet` or `--column <id>`.
    var usageText: String {
        guard let valueName else { return longSpelling }
        return "\(longSpelling) <\(valueName)>"
    }

    /// How the option is labelled in the `OPTIONS:` section: `-c, --column <id>`.
    var helpLabel: String {
        guard let shortName else { return usageText }
        return "-\(shortName), \(usageText)"
    }

    /// The built-in `-h, --help` flag every command accepts.
    static let help = OptionSpec.flag("help", short: "h", help: "Show help information.")

    /// The built-in `--version` flag the root command accepts when it declares a version.
    static let version = OptionSpec.flag("version", help: "Show the version.")
}
