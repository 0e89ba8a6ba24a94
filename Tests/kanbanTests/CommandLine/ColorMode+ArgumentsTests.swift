import Testing

@testable import kanban

@Suite struct ColorModeArgumentsTests {
    @Test(arguments: [
        ("list", ColorMode.auto),
        ("list --no-color", .never),
        ("--no-color list", .never),
        ("list --color always", .always),
        ("list --color=never", .never),
        ("list --no-color --color always", .always),
        ("list --color always --no-color", .never),
    ])
    func readsTheLastColourChoice(line: String, mode: ColorMode) throws {
        let arguments = try SampleCommands.run(line)
        #expect(try ColorMode(arguments: arguments) == mode)
    }

    @Test func reportsAnInvalidColourChoice() throws {
        let arguments = try SampleCommands.run("list --color sometimes")
        #expect {
            try ColorMode(arguments: arguments)
        } throws: { error in
            (error as? UsageError)?.message
                == "invalid value 'sometimes' for option '--color'; expected auto, always or never"
        }
    }
}
