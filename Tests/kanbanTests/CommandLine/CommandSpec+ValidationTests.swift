import Testing

@testable import kanban

@Suite struct CommandSpecValidationTests {
    @Test func acceptsTheSampleTree() {
        #expect(SampleCommands.root.validationProblems().isEmpty)
    }

    @Test func reportsDuplicateOptionNames() {
        let spec = CommandSpec(
            name: "tool", abstract: "A tool.",
            options: [
                .flag("quiet", short: "q", help: "Quiet."),
                .flag("quiet", help: "Again."),
                .flag("query", short: "q", help: "Same short name."),
            ])
        #expect(
            spec.validationProblems() == [
                "'tool': more than one option is named '--quiet'",
                "'tool': more than one option is named '-q'",
            ])
    }

    @Test func reportsAClashWithTheBuiltInHelp() {
        let spec = CommandSpec(
            name: "tool", abstract: "A tool.", options: [.flag("hidden", short: "h", help: "Clash.")])
        #expect(spec.validationProblems() == ["'tool': more than one option is named '-h'"])
    }

    @Test func reportsAClashWithAnInheritedGlobalOption() {
        let spec = CommandSpec(
            name: "tool", abstract: "A tool.",
            options: [.flag("quiet", short: "q", help: "Quiet.", isGlobal: true)],
            subcommands: [
                CommandSpec(name: "run", abstract: "Run.", options: [.flag("quick", short: "q", help: "Quick.")])
            ])
        #expect(spec.validationProblems() == ["'tool run': more than one option is named '-q'"])
    }

    @Test func reportsMalformedDeclarations() {
        let spec = CommandSpec(
            name: "tool", abstract: "A tool.",
            options: [.flag("--bad", help: "Dashes."), .option("a=b", valueName: "x", help: "Equals.")],
            subcommands: [
                CommandSpec(
                    name: "run", abstract: "Run.",
                    arguments: [.repeating("a", help: "A."), .repeating("b", help: "B.")],
                    exclusiveOptions: [["nope"]]),
                CommandSpec(name: "run", abstract: "Again."),
                CommandSpec(name: "help", abstract: "Reserved."),
            ],
            defaultSubcommand: "missing")
        #expect(
            spec.validationProblems() == [
                "'tool': invalid option name '--bad'",
                "'tool': invalid option name 'a=b'",
                "'tool': more than one subcommand is named 'run'",
                "'tool': 'help' is reserved for the implicit help subcommand",
                "'tool': default subcommand 'missing' does not exist",
                "'tool run': more than one repeating argument",
                "'tool run': exclusive option '--nope' is not an option of this command",
            ])
    }

    @Test func reportsABackslashEndingADiscussionLine() {
        // `\\` at a line's end in a multi-line literal is a backslash, not the continuation `\` meant: --help printed it.
        let spec = CommandSpec(name: "tool", abstract: "A tool.", discussion: "First half \\\nsecond half.")
        #expect(spec.validationProblems() == ["'tool': a line of the discussion ends in a backslash (a line continuation written '\\\\')"])
        #expect(KanbanTool.root.validationProblems().isEmpty)
    }

    @Test func reportsArgumentsOnACommandGroup() {
        let spec = CommandSpec(
            name: "tool", abstract: "A tool.", arguments: [.required("x", help: "X.")],
            subcommands: [CommandSpec(name: "run", abstract: "Run.")])
        #expect(spec.validationProblems() == ["'tool': a command with subcommands cannot take arguments"])
    }
}
