import Testing

@testable import KanbanServer
@testable import kanban

@Suite struct HelpFormatterTests {
    let dispatcher = SampleCommands.dispatcher

    // MARK: Snapshots

    @Test func rendersACommandWithArgumentsAndOptions() throws {
        let text = try dispatcher.helpText(for: ["kanban", "move"], width: 80)
        #expect(
            text == """
                OVERVIEW: Move cards to another column or place.

                USAGE: kanban move <card>... [<column>]
                                   [--top | --bottom | --before <card> | --after <card>]
                                   [--to <column>]

                ARGUMENTS:
                  <card>...               A slug, a unique slug prefix or a path.
                  <column>                The column to move the cards to.

                OPTIONS:
                  --top                   Place at the top of the column.
                  --bottom                Place at the bottom of the column.
                  --before <card>         Place before this card.
                  --after <card>          Place after this card.
                  --to <column>           The column to move the cards to.
                  -h, --help              Show help information.

                GLOBAL OPTIONS:
                  --board <directory>     The board directory.
                  -q, --quiet             Print nothing but errors.
                  -j, --json              Print JSON.
                  --no-color              Do not colour output.
                  --color <when>          Colour output: auto, always or never. (default: auto)

                EXIT STATUS:
                  0                       Success.
                  1                       Failure; the reason was written to standard error.
                  64                      Usage error: unknown option or command, missing or
                                          extra argument.

                """)
    }

    @Test func rendersTheRootWithSubcommandsAndVersion() throws {
        let text = try dispatcher.helpText(for: ["kanban"], width: 80)
        #expect(
            text == """
                OVERVIEW: Kanban boards kept as markdown files in git.

                USAGE: kanban [--board <directory>] [--quiet] [--json] [--no-color]
                              [--color <when>] <subcommand>

                OPTIONS:
                  --board <directory>     The board directory.
                  -q, --quiet             Print nothing but errors.
                  -j, --json              Print JSON.
                  --no-color              Do not colour output.
                  --color <when>          Colour output: auto, always or never. (default: auto)
                  -h, --help              Show help information.
                  --version               Show the version.

                SUBCOMMANDS:
                  list                    List cards.
                  move                    Move cards to another column or place.
                  show                    Show one card.
                  column                  Manage columns.
                  label                   Manage labels.
                  help                    Show subcommand help information.

                  See 'kanban help <subcommand>' for detailed help.

                EXIT STATUS:
                  0                       Success.
                  1                       Failure; the reason was written to standard error.
                  64                      Usage error: unknown option or command, missing or
                                          extra argument.

                """)
    }

    @Test func wrapsAtANarrowWidth() throws {
        let text = try dispatcher.helpText(for: ["kanban", "list"], width: 44)
        #expect(
            text == """
                OVERVIEW: List cards.

                USAGE: kanban list [--column <id>]...
                                   [--label <id>]...
                                   [--archived | --all]
                                   [--limit <count>]
                                   [--verbose]

                OPTIONS:
                  -c, --column <id>
                      Only cards in this column.
                  -l, --label <id>
                      Only cards with this label.
                  --archived
                      Only archived cards.
                  --all
                      Cards in every column, archived ones
                      too.
                  -n, --limit <count>
                      Show at most this many cards.
                      (default: 50)
                  -v, --verbose
                      Say more.
                  -h, --help
                      Show help information.

                GLOBAL OPTIONS:
                  --board <directory>
                      The board directory.
                  -q, --quiet
                      Print nothing but errors.
                  -j, --json
                      Print JSON.
                  --no-color
                      Do not colour output.
                  --color <when>
                      Colour output: auto, always or never.
                      (default: auto)

                EXIT STATUS:
                  0   Success.
                  1   Failure; the reason was written to
                      standard error.
                  64  Usage error: unknown option or
                      command, missing or extra argument.

                """)
        for line in text.split(separator: "\n") {
            #expect(line.count <= 44, "'\(line)'")
        }
    }

    @Test(arguments: [24, 30, 40, 50, 60, 70, 100, 120])
    func staysWithinTheWidth(width: Int) throws {
        for path in [["kanban"], ["kanban", "move"], ["kanban", "list"], ["kanban", "column", "add"]] {
            let text = try dispatcher.helpText(for: path, width: width)
            for line in text.split(separator: "\n") {
                #expect(String(line).terminalWidth <= width, "\(path) at \(width): '\(line)'")
            }
        }
    }

    @Test(arguments: [-1, 0, 1, 5, 19])
    func laysOutATinyWidthAsTheMinimum(width: Int) throws {
        let text = try dispatcher.helpText(for: ["kanban", "move"], width: width)
        #expect(text == (try dispatcher.helpText(for: ["kanban", "move"], width: HelpFormatter.minimumWidth)))
    }

    @Test func listsANestedGroupsSubcommandsButNotHiddenOnes() throws {
        let text = try dispatcher.helpText(for: ["kanban", "column"], width: 80)
        #expect(
            text.contains(
                """
                SUBCOMMANDS:
                  add                     Add a column.
                  remove                  Remove an empty column.

                  See 'kanban help column <subcommand>' for detailed help.
                """))
        #expect(!text.contains("debug"))
        #expect(text.contains("USAGE: kanban column <subcommand>\n"))
    }

    @Test func addsACommandsOwnSectionsAfterItsOptions() {
        let command = CommandSpec(
            name: "tui", abstract: "Show the board.",
            helpSections: [HelpSection(title: "KEYS:", rows: [HelpSection.Row("q, Ctrl-C", "quit"), HelpSection.Row("?", "this help")])])
        let text = HelpFormatter.helpText(for: [CommandSpec(name: "kanban", abstract: "Boards.", subcommands: [command]), command], width: 80)
        #expect(text.contains("""
            OPTIONS:
              -h, --help              Show help information.

            KEYS:
              q, Ctrl-C               quit
              ?                       this help

            EXIT STATUS:
            """), "\(text)")
    }

    @Test func marksTheDefaultSubcommand() throws {
        let text = try dispatcher.helpText(for: ["kanban", "label"], width: 80)
        #expect(text.contains("USAGE: kanban label [<subcommand>]\n"))
        #expect(text.contains("  list (default)          List labels.\n"))
    }

    @Test func leavesOutHiddenOptions() throws {
        let text = try dispatcher.helpText(for: ["kanban", "list"], width: 80)
        #expect(!text.contains("debug-dump"))
    }

    // MARK: Layout details

    @Test func rendersDiscussionUsageOverrideLongLabelsAndCustomExitStatuses() {
        let spec = CommandSpec(
            name: "sync",
            abstract: "Pull, merge and push the board.",
            discussion: """
                Runs git for you.

                Examples:
                  kanban sync
                  kanban sync --remote upstream
                """,
            usage: "kanban sync [--remote <name>]\nkanban sync --abort",
            options: [
                .option("remote-repository-name", valueName: "name", help: "The remote to use."),
                .flag("abort", help: ""),
            ],
            exitStatuses: ExitStatusHelp.standard + [ExitStatusHelp(2, "A merge conflict needs a person.")])
        let text = HelpFormatter.helpText(for: [spec], width: 80)
        #expect(
            text == """
                OVERVIEW: Pull, merge and push the board.

                Runs git for you.

                Examples:
                  kanban sync
                  kanban sync --remote upstream

                USAGE: kanban sync [--remote <name>]
                       kanban sync --abort

                OPTIONS:
                  --remote-repository-name <name>
                                          The remote to use.
                  --abort
                  -h, --help              Show help information.

                EXIT STATUS:
                  0                       Success.
                  1                       Failure; the reason was written to standard error.
                  64                      Usage error: unknown option or command, missing or
                                          extra argument.
                  2                       A merge conflict needs a person.

                """)
    }

    @Test func wrapsTheOverviewUnderItsText() {
        let spec = CommandSpec(
            name: "tool", abstract: "A tool with a rather long abstract that cannot fit on one line.",
            exitStatuses: [])
        let text = HelpFormatter.helpText(for: [spec], width: 40)
        #expect(
            text.hasPrefix(
                """
                OVERVIEW: A tool with a rather long
                          abstract that cannot fit on
                          one line.

                """))
    }

    // MARK: Usage

    /// A command for the usage table, described by its expected usage in test output.
    struct UsageCase: CustomTestStringConvertible, Sendable {
        var command: CommandSpec
        var usage: String
        var testDescription: String { usage }
    }

    @Test(arguments: [
        UsageCase(command: CommandSpec(name: "a", abstract: ""), usage: "t a"),
        UsageCase(
            command: CommandSpec(name: "a", abstract: "", arguments: [.required("x", help: "")]), usage: "t a <x>"),
        UsageCase(
            command: CommandSpec(name: "a", abstract: "", arguments: [.optional("x", help: "")]), usage: "t a [<x>]"),
        UsageCase(
            command: CommandSpec(name: "a", abstract: "", arguments: [.repeating("x", help: "")]), usage: "t a <x>..."),
        UsageCase(
            command: CommandSpec(name: "a", abstract: "", arguments: [.repeating("x", help: "", isOptional: true)]),
            usage: "t a [<x>...]"),
        UsageCase(
            command: CommandSpec(
                name: "a", abstract: "",
                options: [.flag("f", help: ""), .option("o", valueName: "v", help: "", isRepeatable: true)]),
            usage: "t a [--f] [--o <v>]..."),
        UsageCase(
            command: CommandSpec(
                name: "a", abstract: "", options: [.flag("secret", help: "", isHidden: true), .flag("f", help: "")]),
            usage: "t a [--f]"),
        UsageCase(command: CommandSpec(name: "a", abstract: "", usage: "t a whatever"), usage: "t a whatever"),
    ])
    func generatesUsage(usageCase: UsageCase) {
        let root = CommandSpec(name: "t", abstract: "", options: [.flag("g", help: "", isGlobal: true)])
        #expect(HelpFormatter.usage(for: [root, usageCase.command]) == usageCase.usage)
    }

    @Test func splitsUsageIntoElementsOutsideBrackets() {
        #expect(
            HelpFormatter.usageUnits(of: "k m <a>... [--x | --y <z>] [--w <v>]...") == [
                "k", "m", "<a>...", "[--x | --y <z>]", "[--w <v>]...",
            ])
    }
}
