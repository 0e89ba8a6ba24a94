import Testing

@testable import kanban

@Suite struct CommandDispatcherTests {
    let dispatcher = SampleCommands.dispatcher

    // MARK: Options

    @Test(arguments: ["list --limit 5", "list --limit=5", "list -n 5", "list -n5", "list -n=5"])
    func readsOptionValueInEverySpelling(line: String) throws {
        let arguments = try SampleCommands.run(line)
        #expect(arguments.value("limit") == "5")
    }

    @Test func combinesShortFlags() throws {
        let arguments = try SampleCommands.run("list -qjv")
        #expect(arguments.flag("quiet"))
        #expect(arguments.flag("json"))
        #expect(arguments.flag("verbose"))
    }

    @Test func letsTheLastShortOptionOfAGroupTakeAValue() throws {
        let separate = try SampleCommands.run("list -qc todo")
        #expect(separate.flag("quiet"))
        #expect(separate.values("column") == ["todo"])

        let attached = try SampleCommands.run("list -qctodo")
        #expect(attached.values("column") == ["todo"])
    }

    @Test func collectsRepeatedOptionsInOrder() throws {
        let arguments = try SampleCommands.run("list --column todo -c doing --label bug --column=done")
        #expect(arguments.values("column") == ["todo", "doing", "done"])
        #expect(arguments.values("label") == ["bug"])
        #expect(arguments.occurrences.map(\.name) == ["column", "column", "label", "column"])
        #expect(arguments.occurrences.map(\.spelling) == ["--column", "-c", "--label", "--column"])
    }

    @Test func countsRepeatedFlags() throws {
        let arguments = try SampleCommands.run("list -vv --verbose")
        #expect(arguments.flagCount("verbose") == 3)
    }

    @Test(arguments: ["list --limit -1", "list -n -1", "list --limit=-1", "list -n-1"])
    func acceptsNegativeNumbersAsValues(line: String) throws {
        let arguments = try SampleCommands.run(line)
        #expect(try arguments.value("limit", as: Int.self) == -1)
    }

    @Test func acceptsAnEmptyValueAfterAnEqualsSign() throws {
        let arguments = try SampleCommands.run("list --column=")
        #expect(arguments.values("column") == [""])
    }

    @Test func keepsEqualsSignsInsideValues() throws {
        let arguments = try SampleCommands.run("list --label=a=b")
        #expect(arguments.values("label") == ["a=b"])
    }

    @Test func acceptsHiddenOptions() throws {
        let arguments = try SampleCommands.run("list --debug-dump")
        #expect(arguments.flag("debug-dump"))
    }

    // MARK: Global options

    @Test(arguments: [
        "--board b -q list", "list --board b -q", "-q list --board=b", "--board=b list -q",
    ])
    func acceptsGlobalOptionsBeforeOrAfterTheSubcommand(line: String) throws {
        let arguments = try SampleCommands.run(line)
        #expect(arguments.commandPath == ["kanban", "list"])
        #expect(arguments.value("board") == "b")
        #expect(arguments.flag("quiet"))
    }

    @Test func acceptsGlobalOptionsInNestedSubcommands() throws {
        let arguments = try SampleCommands.run("--json column -q add --board b doing --after todo")
        #expect(arguments.commandPath == ["kanban", "column", "add"])
        #expect(arguments.subcommandPath == ["column", "add"])
        #expect(arguments.flag("json"))
        #expect(arguments.flag("quiet"))
        #expect(arguments.value("board") == "b")
        #expect(arguments.argument("name") == "doing")
        #expect(arguments.value("after") == "todo")
    }

    @Test func rejectsASubcommandOptionBeforeTheSubcommand() throws {
        let error = try SampleCommands.error("--column todo list")
        #expect(error.message == "unknown option '--column'")
        #expect(error.commandPath == ["kanban"])
    }

    // MARK: Positionals

    @Test func treatsEverythingAfterDoubleDashAsPositional() throws {
        let arguments = try SampleCommands.run("move -- --top -q")
        #expect(arguments.arguments("card") == ["--top"])
        #expect(arguments.argument("column") == "-q")
        #expect(!arguments.flag("top"))
        #expect(!arguments.flag("quiet"))
    }

    @Test func treatsALoneDashAsPositional() throws {
        let arguments = try SampleCommands.run("show -")
        #expect(arguments.argument("card") == "-")
        #expect(arguments.positionals == ["-"])
    }

    @Test func treatsANegativeNumberAsPositional() throws {
        let arguments = try SampleCommands.run("show -5")
        #expect(arguments.argument("card") == "-5")
    }

    @Test(
        arguments: [
            ("move a", ["a"], nil),
            ("move a done", ["a"], "done"),
            ("move a b c done", ["a", "b", "c"], "done"),
        ] as [(String, [String], String?)])
    func assignsOptionalArgumentsBeforeTheRepeatingOne(line: String, cards: [String], column: String?) throws {
        let arguments = try SampleCommands.run(line)
        #expect(arguments.arguments("card") == cards)
        #expect(arguments.argument("column") == column)
    }

    @Test func mixesOptionsAndPositionals() throws {
        let arguments = try SampleCommands.run("move a --top b")
        #expect(arguments.arguments("card") == ["a"])
        #expect(arguments.argument("column") == "b")
        #expect(arguments.flag("top"))
    }

    // MARK: Errors

    @Test func reportsAnUnknownLongOptionWithASuggestion() throws {
        let error = try SampleCommands.error("list --colum todo")
        #expect(error.message == "unknown option '--colum'")
        #expect(error.suggestion == "--column")
        #expect(error.commandPath == ["kanban", "list"])
        #expect(
            error.usage
                == "kanban list [--column <id>]... [--label <id>]... [--archived | --all] [--limit <count>] [--verbose]"
        )
    }

    @Test func suggestsAGlobalOptionFromASubcommand() throws {
        let error = try SampleCommands.error("list --bord x")
        #expect(error.suggestion == "--board")
    }

    @Test func neverSuggestsAHiddenOption() throws {
        let error = try SampleCommands.error("list --debug-dumb")
        #expect(error.suggestion == nil)
    }

    @Test func reportsAnUnknownShortOption() throws {
        let error = try SampleCommands.error("list -qx")
        #expect(error.message == "unknown option '-x'")
    }

    @Test func suggestsALongOptionForASingleDashWord() throws {
        let error = try SampleCommands.error("move a -bottom")
        #expect(error.message == "unknown option '-b'")
        #expect(error.suggestion == "--bottom")
    }

    @Test(arguments: ["list --quiet=1", "list --archived="])
    func rejectsAValueForAFlag(line: String) throws {
        let error = try SampleCommands.error(line)
        #expect(error.message.hasSuffix("' does not take a value"))
        #expect(error.message.hasPrefix("option '--"))
    }

    @Test func rejectsAValueForAShortFlag() throws {
        let error = try SampleCommands.error("list -q=1")
        #expect(error.message == "option '-q' does not take a value")
    }

    @Test(arguments: [
        ("list --limit", "missing value for option '--limit <count>'"),
        ("list -n", "missing value for option '-n <count>'"),
        ("list -qn", "missing value for option '-n <count>'"),
        ("list --column --archived", "missing value for option '--column <id>'"),
        ("list --column -q", "missing value for option '--column <id>'"),
        ("list --column --", "missing value for option '--column <id>'"),
    ])
    func reportsAMissingValue(line: String, message: String) throws {
        let error = try SampleCommands.error(line)
        #expect(error.message == message)
    }

    @Test func rejectsANonRepeatableOptionGivenTwice() throws {
        let error = try SampleCommands.error("move a --to x --to y")
        #expect(error.message == "option '--to' cannot be given more than once")
    }

    @Test func reportsAMissingArgument() throws {
        let error = try SampleCommands.error("show")
        #expect(error.message == "missing argument '<card>'")
        #expect(error.commandPath == ["kanban", "show"])
    }

    @Test(arguments: [("show a b", "b"), ("list extra", "extra"), ("column add a b", "b")])
    func reportsAnUnexpectedArgument(line: String, unexpected: String) throws {
        let error = try SampleCommands.error(line)
        #expect(error.message == "unexpected argument '\(unexpected)'")
    }

    @Test func reportsAnUnknownCommandWithASuggestion() throws {
        let error = try SampleCommands.error("lsit")
        #expect(error.message == "unknown command 'lsit'")
        #expect(error.suggestion == "list")
        #expect(error.commandPath == ["kanban"])
    }

    @Test func reportsAnUnknownNestedCommand() throws {
        let error = try SampleCommands.error("column ad x")
        #expect(error.message == "unknown command 'ad'")
        #expect(error.suggestion == "add")
        #expect(error.commandPath == ["kanban", "column"])
    }

    @Test func reportsAnUnknownCommandWithoutASuggestionWhenNothingIsClose() throws {
        let error = try SampleCommands.error("frobnicate")
        #expect(error.suggestion == nil)
    }

    @Test func neverSuggestsAHiddenCommand() throws {
        let error = try SampleCommands.error("column debg")
        #expect(error.suggestion == nil)
    }

    @Test func runsAHiddenCommand() throws {
        let arguments = try SampleCommands.run("column debug")
        #expect(arguments.commandPath == ["kanban", "column", "debug"])
    }

    @Test func reportsTheFirstMistakeOnTheLine() throws {
        let error = try SampleCommands.error("list --bogus --quiet=1 extra")
        #expect(error.message == "unknown option '--bogus'")
    }

    @Test func reportsAnUnknownOptionBeforeAnUnknownCommand() throws {
        let error = try SampleCommands.error("--bogus lsit")
        #expect(error.message == "unknown option '--bogus'")
    }

    @Test(arguments: [
        ("move a --top --bottom", "options '--top' and '--bottom' cannot be used together"),
        ("move a --after b --top", "options '--after' and '--top' cannot be used together"),
        ("list --all --archived", "options '--all' and '--archived' cannot be used together"),
    ])
    func enforcesExclusiveGroups(line: String, message: String) throws {
        let error = try SampleCommands.error(line)
        #expect(error.message == message)
    }

    @Test func allowsOneOptionOfAnExclusiveGroup() throws {
        let arguments = try SampleCommands.run("move a --before b")
        #expect(try arguments.exclusiveOption(among: ["top", "bottom", "before", "after"]) == "before")
    }

    @Test func throwsUsageErrorThroughExpect() {
        #expect(throws: UsageError.self) {
            try dispatcher.dispatch(["list", "--colum"])
        }
    }

    // MARK: Outcomes

    @Test(arguments: [
        (["--help"], ["kanban"]),
        (["-h"], ["kanban"]),
        (["list", "--help"], ["kanban", "list"]),
        (["--help", "list"], ["kanban", "list"]),
        (["list", "-qh"], ["kanban", "list"]),
        (["column", "add", "x", "--help"], ["kanban", "column", "add"]),
        (["column", "--help", "add"], ["kanban", "column", "add"]),
        (["list", "--colum", "--help"], ["kanban", "list"]),
        (["show", "--help"], ["kanban", "show"]),
        (["move", "--top", "--bottom", "-h"], ["kanban", "move"]),
    ])
    func asksForHelpWhereverHelpIsGiven(tokens: [String], path: [String]) throws {
        #expect(try dispatcher.dispatch(tokens) == .help(commandPath: path))
    }

    @Test func readsHelpAfterDoubleDashAsAnArgument() throws {
        let outcome = try dispatcher.dispatch(["show", "--", "--help"])
        guard case .run(let arguments) = outcome else {
            Issue.record("expected a command to run, got \(outcome)")
            return
        }
        #expect(arguments.argument("card") == "--help")
    }

    @Test func reportsAnUnknownCommandEvenWhenHelpIsAsked() throws {
        let error = try SampleCommands.error("lsit --help")
        #expect(error.message == "unknown command 'lsit'")
    }

    @Test(arguments: [
        (["help"], ["kanban"]),
        (["help", "list"], ["kanban", "list"]),
        (["help", "column", "add"], ["kanban", "column", "add"]),
        (["help", "help"], ["kanban", "help"]),
    ])
    func answersTheHelpCommand(tokens: [String], path: [String]) throws {
        #expect(try dispatcher.dispatch(tokens) == .help(commandPath: path))
    }

    @Test func reportsAnUnknownHelpTopic() throws {
        let error = try SampleCommands.error("help column ad")
        #expect(error.message == "unknown command 'ad'")
        #expect(error.suggestion == "add")
    }

    @Test func asksForHelpWhenAGroupIsNamedWithoutASubcommand() throws {
        #expect(try dispatcher.dispatch([]) == .help(commandPath: ["kanban"]))
        #expect(try dispatcher.dispatch(["column"]) == .help(commandPath: ["kanban", "column"]))
    }

    @Test func runsTheDefaultSubcommand() throws {
        let arguments = try SampleCommands.run("label -q")
        #expect(arguments.commandPath == ["kanban", "label", "list"])
        #expect(arguments.flag("quiet"))
    }

    @Test func answersVersionAtTheRoot() throws {
        #expect(try dispatcher.dispatch(["--version"]) == .version("1.2.3"))
    }

    @Test func rejectsVersionBelowTheRoot() throws {
        let error = try SampleCommands.error("list --version")
        #expect(error.message == "unknown option '--version'")
    }

    @Test func prefersHelpToVersion() throws {
        #expect(try dispatcher.dispatch(["--version", "--help"]) == .help(commandPath: ["kanban"]))
    }

    @Test func rejectsVersionWhenTheRootDeclaresNone() throws {
        let plain = CommandDispatcher(root: CommandSpec(name: "tool", abstract: "A tool."))
        #expect(throws: UsageError.self) { try plain.dispatch(["--version"]) }
    }

    @Test func runsARootWithoutSubcommands() throws {
        let tool = CommandDispatcher(
            root: CommandSpec(
                name: "tool", abstract: "A tool.",
                arguments: [.repeating("file", help: "Files.", isOptional: true)]))
        #expect(
            try tool.dispatch(["a", "help"])
                == .run(
                    ParsedArguments(
                        commandPath: ["tool"], positionals: ["a", "help"], occurrences: [],
                        argumentValues: ["file": ["a", "help"]], declaredOptions: [:], usage: "tool [<file>...]")))
    }

    // MARK: Help text lookup

    @Test func rendersHelpForACommandPath() throws {
        let text = try dispatcher.helpText(for: ["kanban", "column", "add"], width: 80)
        #expect(text.hasPrefix("OVERVIEW: Add a column.\n\nUSAGE: kanban column add <name> [--after <column>]\n"))
    }

    @Test func rejectsHelpForAnUnknownCommandPath() throws {
        #expect {
            try dispatcher.helpText(for: ["kanban", "colum"], width: 80)
        } throws: { error in
            (error as? UsageError)?.message == "unknown command 'colum'"
                && (error as? UsageError)?.suggestion == "column"
        }
    }
}

extension CommandDispatcherTests {
    @Test func givesTheUsageOfACommandPath() throws {
        #expect(try dispatcher.usage(for: ["kanban", "show"]) == "kanban show <card>")
        #expect(throws: UsageError.self) { try dispatcher.usage(for: ["git", "show"]) }
        #expect(throws: UsageError.self) { try dispatcher.usage(for: []) }
    }
}
