import Testing

@testable import kanban

@Suite struct UsageErrorTests {
    @Test func rendersMessageSuggestionUsageAndHint() throws {
        let error = try SampleCommands.error("list --colum x")
        #expect(
            error.rendered(width: 120) == """
                error: unknown option '--colum'
                Did you mean '--column'?
                Usage: kanban list [--column <id>]... [--label <id>]... [--archived | --all] [--limit <count>] [--verbose]
                  See 'kanban list --help'.

                """)
    }

    @Test func wrapsTheUsageUnderTheCommand() throws {
        let error = try SampleCommands.error("list --colum x")
        #expect(
            error.rendered(width: 60) == """
                error: unknown option '--colum'
                Did you mean '--column'?
                Usage: kanban list [--column <id>]... [--label <id>]...
                                   [--archived | --all] [--limit <count>]
                                   [--verbose]
                  See 'kanban list --help'.

                """)
    }

    @Test func leavesOutAMissingSuggestion() throws {
        let error = try SampleCommands.error("show")
        #expect(
            error.description == """
                error: missing argument '<card>'
                Usage: kanban show <card>
                  See 'kanban show --help'.

                """)
    }

    @Test func rendersTheUnknownCommandError() throws {
        let error = try SampleCommands.error("lsit")
        let lines = error.rendered(width: 200).split(separator: "\n")
        #expect(lines.first == "error: unknown command 'lsit'")
        #expect(lines.dropFirst().first == "Did you mean 'list'?")
        #expect(lines.last == "  See 'kanban --help'.")
    }

    @Test func stylesTheErrorLabelWhenColourIsOn() {
        let error = UsageError("bad", commandPath: ["kanban"])
        let text = error.rendered(stylist: Stylist(isEnabled: true))
        #expect(text.hasPrefix("\u{1B}[1;31merror:\u{1B}[0m bad\n"))
    }
}
