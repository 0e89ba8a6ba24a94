import Testing

@testable import kanban

@Suite struct ParsedArgumentsTests {
    @Test func returnsTheDeclaredDefaultWhenAnOptionIsNotGiven() throws {
        let arguments = try SampleCommands.run("list")
        #expect(arguments.value("limit") == "50")
        #expect(!arguments.isGiven("limit"))
        #expect(arguments.value("board") == nil)
        #expect(arguments.values("column").isEmpty)
    }

    @Test func returnsTheLastValueOfARepeatableOption() throws {
        let arguments = try SampleCommands.run("list -c a -c b")
        #expect(arguments.value("column") == "b")
        #expect(arguments.isGiven("column"))
    }

    @Test func convertsValues() throws {
        let arguments = try SampleCommands.run("list --limit 12")
        #expect(try arguments.value("limit", as: Int.self) == 12)
        #expect(try arguments.value("board", as: Int.self) == nil)
    }

    @Test func reportsAValueThatDoesNotConvert() throws {
        let arguments = try SampleCommands.run("list --limit many")
        #expect {
            try arguments.value("limit", as: Int.self)
        } throws: { error in
            let usageError = error as? UsageError
            return usageError?.message == "invalid value 'many' for option '--limit'"
                && usageError?.commandPath == ["kanban", "list"]
                && usageError?.usage == arguments.usage
        }
    }

    @Test func readsAChoice() throws {
        let arguments = try SampleCommands.run("list --color never")
        #expect(try arguments.choice("color", as: ColorMode.self) == .never)
    }

    @Test func reportsAnInvalidChoiceWithASuggestion() throws {
        let arguments = try SampleCommands.run("list --color allways")
        #expect {
            try arguments.choice("color", as: ColorMode.self)
        } throws: { error in
            let usageError = error as? UsageError
            return usageError?.message == "invalid value 'allways' for option '--color'; expected auto, always or never"
                && usageError?.suggestion == "always"
        }
    }

    @Test func listsGivenOptionsInTheOrderGiven() throws {
        let arguments = try SampleCommands.run("move a --to x --after b")
        #expect(arguments.givenOptions(among: ["top", "after", "to"]) == ["to", "after"])
    }

    @Test func reportsConflictingOptionsInTheOrderGiven() throws {
        // Parsed without the spec's group so that the helper is what finds the conflict.
        var spec = SampleCommands.move
        spec.exclusiveOptions = []
        let dispatcher = CommandDispatcher(root: spec)
        guard case .run(let arguments) = try dispatcher.dispatch(["a", "--bottom", "--top", "--bottom"]) else {
            Issue.record("expected a command to run")
            return
        }
        #expect {
            try arguments.exclusiveOption(among: ["top", "bottom", "before", "after"])
        } throws: { error in
            (error as? UsageError)?.message == "options '--bottom' and '--top' cannot be used together"
        }
    }

    @Test func returnsNoExclusiveOptionWhenNoneIsGiven() throws {
        let arguments = try SampleCommands.run("move a")
        #expect(try arguments.exclusiveOption(among: ["top", "bottom"]) == nil)
    }

    @Test func makesUsageErrorsAboutItsCommand() throws {
        let arguments = try SampleCommands.run("column add x")
        let error = arguments.usageError("column 'x' already exists", suggestion: "y")
        #expect(
            error
                == UsageError(
                    "column 'x' already exists", commandPath: ["kanban", "column", "add"], suggestion: "y",
                    usage: "kanban column add <name> [--after <column>]"))
    }

    @Test func readsAnOmittedOptionalArgumentAsNil() throws {
        let arguments = try SampleCommands.run("move a")
        #expect(arguments.argument("column") == nil)
        #expect(arguments.arguments("column").isEmpty)
    }

    @Test(arguments: [
        ([], ""), (["a"], "a"), (["a", "b"], "a or b"), (["a", "b", "c"], "a, b or c"),
    ])
    func listsNames(names: [String], text: String) {
        #expect(ParsedArguments.list(names) == text)
    }
}
