/// The declaration of a command: its name, help, arguments, options and subcommands.
///
/// A tool is one root `CommandSpec` whose `subcommands` nest as deep as needed
/// (`kanban column add ...`). Declarations are plain values; `CommandDispatcher` parses a
/// command line against them and `CommandSpec.helpText(...)` renders their help.
///
/// ```swift
/// let move = CommandSpec(
///     name: "move",
///     abstract: "Move cards to another column or place.",
///     arguments: [
///         .repeating("card", help: "A slug, a unique slug prefix or a path."),
///         .optional("column", help: "The column to move to."),
///     ],
///     options: [
///         .flag("top", help: "Place at the top of the column."),
///         .flag("bottom", help: "Place at the bottom of the column."),
///         .option("before", valueName: "card", help: "Place before this card."),
///     ],
///     exclusiveOptions: [["top", "bottom", "before"]])
/// ```
struct CommandSpec: Hashable, Sendable {
    /// The word that selects the command on the command line; for the root, the tool's name.
    var name: String

    /// One sentence for `OVERVIEW:` and for the parent's `SUBCOMMANDS:` section.
    var abstract: String

    /// Longer text shown under the overview; paragraphs are separated by blank lines, and
    /// a line's leading spaces are kept (for examples).
    var discussion: String?

    /// Replaces the generated usage: the whole text after `USAGE: `, command name included.
    /// Several lines are allowed, one usage form per line.
    var usage: String?

    /// The positional arguments, in order; at most one may repeat.
    var arguments: [ArgumentSpec]

    /// The options and flags; `-h, --help` is added implicitly.
    var options: [OptionSpec]

    /// The nested commands. A command with subcommands takes no positional arguments of its own.
    var subcommands: [CommandSpec]

    /// The subcommand run when none is named; when `nil`, naming none asks for help.
    var defaultSubcommand: String?

    /// Groups of option names of which at most one may be given,
    /// such as `[["top", "bottom", "before", "after"]]`; they are enforced by the parser and
    /// shown as `[--top | --bottom | ...]` in the usage line.
    var exclusiveOptions: [[String]]

    /// The `EXIT STATUS:` section; the three standard statuses unless replaced.
    var exitStatuses: [ExitStatusHelp]

    /// Sections of the help after the options, such as `kanban tui`'s `KEYS:`.
    var helpSections: [HelpSection]

    /// The version printed by `--version`; only meaningful on the root command.
    var version: String?

    /// Whether the command is left out of its parent's help and suggestions but still runs.
    var isHidden: Bool

    /// Creates a command declaration.
    init(
        name: String,
        abstract: String,
        discussion: String? = nil,
        usage: String? = nil,
        arguments: [ArgumentSpec] = [],
        options: [OptionSpec] = [],
        subcommands: [CommandSpec] = [],
        defaultSubcommand: String? = nil,
        exclusiveOptions: [[String]] = [],
        exitStatuses: [ExitStatusHelp] = ExitStatusHelp.standard,
        helpSections: [HelpSection] = [],
        version: String? = nil,
        isHidden: Bool = false
    ) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.usage = usage
        self.arguments = arguments
        self.options = options
        self.subcommands = subcommands
        self.defaultSubcommand = defaultSubcommand
        self.exclusiveOptions = exclusiveOptions
        self.exitStatuses = exitStatuses
        self.helpSections = helpSections
        self.version = version
        self.isHidden = isHidden
    }

    /// The direct subcommand called `name`, if any.
    func subcommand(named name: String) -> CommandSpec? {
        subcommands.first { $0.name == name }
    }

    /// Whether the command is a group of subcommands.
    var hasSubcommands: Bool { !subcommands.isEmpty }
}

extension CommandSpec {
    /// The name of the subcommand the root gets implicitly when it has subcommands:
    /// `kanban help <command> [<subcommand>]`.
    static let helpCommandName = "help"
}
