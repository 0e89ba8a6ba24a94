/// What a shell completes at each command of the tree, derived from the `CommandSpec`s so that the scripts
/// follow the commands as they change.
///
/// The kind of value an option or argument takes is read from its name and value name (`--column <id>`,
/// `--before <card>`, `<card>...`), so a new option named like the existing ones completes without any change
/// here.
struct CompletionModel: Sendable {
    /// What can be offered for a value.
    enum ValueKind: Hashable, Sendable {
        /// Free text: nothing to offer.
        case text
        /// Column ids, label ids, active card slugs or archived card slugs, from `kanban __complete`.
        case columns, labels, cards, archivedCards
        /// Directories, or any path.
        case directories, files
        /// A fixed set of words.
        case words([String])

        /// The kind as the scripts spell it: `columns`, `archived-cards`, `words:auto,always,never`, ...
        var token: String {
            switch self {
            case .text: "text"
            case .columns: "columns"
            case .labels: "labels"
            case .cards: "cards"
            case .archivedCards: "archived-cards"
            case .directories: "directories"
            case .files: "files"
            case .words(let words): "words:" + words.joined(separator: ",")
            }
        }
    }

    /// One option as a command sees it (its own and the global ones it inherits).
    struct Option: Sendable {
        /// `--column`.
        var long: String
        /// `-c`, if it has a short name.
        var short: String?
        /// The help sentence.
        var help: String
        /// What its value is; nil for a flag.
        var kind: ValueKind?

        /// The spellings a person may type.
        var spellings: [String] { [long] + (short.map { [$0] } ?? []) }
    }

    /// One command of the tree.
    struct Command: Sendable {
        /// The subcommand names from the root, such as `["column", "add"]`; empty for the root.
        var path: [String]
        /// The visible subcommands with their abstracts.
        var subcommands: [(name: String, abstract: String)]
        /// The visible options, including inherited global ones and `--help`.
        var options: [Option]
        /// The kinds of the first positional arguments, in order.
        var fixedArguments: [ValueKind]
        /// The kind of every positional argument after the fixed ones.
        var restArgument: ValueKind
        /// When one of these option spellings is on the line, the later arguments are of `alternativeKind`
        /// instead: `kanban move a b --to done` names cards only, `kanban move a done` a card then a column.
        var alternativeSpellings: [String]
        var alternativeKind: ValueKind

        /// The path as the scripts match it: words joined by a space, empty for the root.
        var key: String { path.joined(separator: " ") }

        /// The options that take a value, each spelling with its kind.
        var valueOptions: [(spelling: String, kind: ValueKind)] {
            options.flatMap { option in option.kind.map { kind in option.spellings.map { ($0, kind) } } ?? [] }
        }
    }

    /// Every visible command, the root first, parents before their subcommands.
    var commands: [Command]

    /// The spellings of the option naming the board (`--board`, `-C`), which the scripts pass on to `__complete`.
    var boardSpellings: [String]

    /// The model of the command tree under `root`. The root gets the dispatcher's implicit `help` subcommand.
    init(root: CommandSpec) {
        commands = []
        let boardOption = root.options.first { $0.name == "board" }
        boardSpellings = boardOption.map { ["--" + $0.name] + ($0.shortName.map { ["-" + String($0)] } ?? []) } ?? []
        collect(root, path: [], inherited: [])
    }

    private mutating func collect(_ spec: CommandSpec, path: [String], inherited: [OptionSpec]) {
        var optionSpecs = spec.options + inherited + [.help]
        if path.isEmpty, spec.version != nil { optionSpecs.append(.version) }
        let visibleSubcommands = spec.subcommands.filter { !$0.isHidden }
        var subcommands = visibleSubcommands.map { (name: $0.name, abstract: $0.abstract) }
        if path.isEmpty, spec.hasSubcommands {
            subcommands.append((name: CommandSpec.helpCommandName, abstract: "Show help for a command."))
        }
        var command = Command(
            path: path, subcommands: subcommands,
            options: optionSpecs.filter { !$0.isHidden }.map { option in
                Option(
                    long: option.longSpelling, short: option.shortName.map { "-" + String($0) }, help: option.help,
                    kind: option.isFlag ? nil : CompletionModel.kind(of: option))
            },
            fixedArguments: [], restArgument: .text, alternativeSpellings: [], alternativeKind: .text)
        CompletionModel.plan(spec.arguments, path: path, into: &command)
        commands.append(command)
        let passedDown = inherited + spec.options.filter(\.isGlobal)
        for subcommand in visibleSubcommands {
            collect(subcommand, path: path + [subcommand.name], inherited: passedDown)
        }
    }

    /// Which kind each positional argument of a command is.
    private static func plan(_ arguments: [ArgumentSpec], path: [String], into command: inout Command) {
        var fixed: [ValueKind] = []
        for (index, argument) in arguments.enumerated() {
            let kind = CompletionModel.kind(of: argument, path: path)
            guard argument.isRepeating else {
                fixed.append(kind)
                continue
            }
            // `<card>... [<column>]`: the first is a card, the later ones the trailing argument's kind, unless an
            // option giving that value is on the line.
            if let trailing = arguments.dropFirst(index + 1).first {
                let trailingKind = CompletionModel.kind(of: trailing, path: path)
                command.fixedArguments = fixed + [kind]
                command.restArgument = trailingKind
                command.alternativeSpellings = command.options.filter { $0.kind == trailingKind }.flatMap(\.spellings)
                command.alternativeKind = kind
            } else {
                command.fixedArguments = fixed
                command.restArgument = kind
            }
            return
        }
        command.fixedArguments = fixed
    }

    /// The kind of an option's value, from its name and value name.
    static func kind(of option: OptionSpec) -> ValueKind {
        switch (option.name, option.valueName ?? "") {
        case ("board", _): .directories
        case ("color", "when"): .words(ColorMode.allCases.map(\.rawValue))
        case ("label", _), ("add-label", _), ("remove-label", _): .labels
        case ("column", _), ("move-cards-to", _), (_, "column"): .columns
        case (_, "card"): .cards
        case (_, "file"), (_, "directory"): option.valueName == "file" ? .files : .directories
        default: .text
        }
    }

    /// The kind of a positional argument, from its name and the command it belongs to.
    static func kind(of argument: ArgumentSpec, path: [String]) -> ValueKind {
        switch argument.name {
        case "card": path.last == "unarchive" ? .archivedCards : .cards
        case "column": .columns
        case "id" where path.count == 2 && path[1] != "add":
            path[0] == "column" ? .columns : path[0] == "label" ? .labels : .text
        case "shell": .words(CompletionScript.Shell.allCases.map(\.rawValue))
        case "directory": .directories
        case "file": .files
        default: .text
        }
    }
}
