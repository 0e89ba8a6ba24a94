import Foundation
import Testing

/// What every command shares: help, the version, usage errors, finding the board, paths, colour.
@Suite struct GlobalBehaviourTests {
    // MARK: Help and version

    @Test func rootHelpListsTheCommands() throws {
        try withTemporaryDirectory { directory in
            let result = try KanbanProcess.run(["--help"], in: directory)
            #expect(result.status == 0, "\(result)")
            #expect(result.stderr.isEmpty)
            let text = result.stdout
            for section in ["OVERVIEW: ", "USAGE: kanban", "OPTIONS:", "SUBCOMMANDS:"] {
                #expect(text.contains(section), "missing \(section) in\n\(text)")
            }
            for command in ["init", "add", "list", "show", "search", "edit", "set", "move", "archive", "unarchive", "delete", "doctor"] {
                #expect(text.lines.contains { $0.hasPrefix("  \(command) ") }, "help does not list '\(command)'")
            }
            #expect(text.contains("--board"))
            #expect(!containsEscape(text))
            #expect(text.lines.allSatisfy { $0.count <= 100 }, "help is wrapped to COLUMNS")

            // `kanban` alone and `kanban help` show the same.
            #expect(try KanbanProcess.run([], in: directory).stdout == text)
            #expect(try KanbanProcess.run(["help"], in: directory).stdout == text)
            #expect(try KanbanProcess.run(["-h"], in: directory).stdout == text)
        }
    }

    @Test func commandHelpHasTheFamiliarSections() throws {
        try withTemporaryDirectory { directory in
            let help = try KanbanProcess.run(["help", "move"], in: directory)
            #expect(help.status == 0, "\(help)")
            #expect(help.stderr.isEmpty)
            let text = help.stdout
            #expect(text.hasPrefix("OVERVIEW: Move cards to another column and/or place."), "\(text)")
            #expect(text.contains("USAGE: kanban move <card> [<column>]"), "\(text)")
            #expect(text.contains("ARGUMENTS:"))
            #expect(text.contains("OPTIONS:"))
            for option in ["--to", "--top", "--bottom", "--before", "--after", "--help"] {
                #expect(text.contains(option), "missing \(option)")
            }

            #expect(try KanbanProcess.run(["move", "--help"], in: directory).stdout == text)
            #expect(try KanbanProcess.run(["move", "-h"], in: directory).stdout == text)
            // Help wins over the other mistakes on the line.
            let withMistakes = try KanbanProcess.run(["move", "--bogus", "--help"], in: directory)
            #expect(withMistakes.status == 0, "\(withMistakes)")
            #expect(withMistakes.stdout == text)
        }
    }

    @Test(arguments: ["init", "add", "list", "show", "search", "edit", "set", "move", "archive", "unarchive", "delete", "doctor"])
    func everyCommandHasHelp(command: String) throws {
        try withTemporaryDirectory { directory in
            let result = try KanbanProcess.run([command, "--help"], in: directory)
            #expect(result.status == 0, "\(result)")
            #expect(result.stderr.isEmpty)
            #expect(result.stdout.hasPrefix("OVERVIEW: "), "\(result)")
            #expect(result.stdout.contains("USAGE: kanban \(command)"), "\(result)")
            #expect(result.stdout.contains("OPTIONS:"), "\(result)")
            #expect(try KanbanProcess.run(["help", command], in: directory).stdout == result.stdout)
        }
    }

    @Test func helpForAnUnknownCommandIsAUsageError() throws {
        try withTemporaryDirectory { directory in
            let result = try KanbanProcess.run(["help", "mvoe"], in: directory)
            #expect(result.status == 64, "\(result)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.hasPrefix("error: unknown command 'mvoe'\nDid you mean 'move'?\n"), "\(result)")
        }
    }

    @Test func printsTheVersion() throws {
        try withTemporaryDirectory { directory in
            let result = try KanbanProcess.run(["--version"], in: directory)
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout == "kanban 0.1.0\n")
            #expect(result.stderr.isEmpty)
        }
    }

    // MARK: Usage errors

    @Test func anUnknownCommandGetsASuggestion() throws {
        try withTemporaryBoard(.sample) { board throws in
            let result = try board.run(["lsit"])
            #expect(result.status == 64, "\(result)")
            #expect(result.stdout.isEmpty)
            let lines = result.stderr.lines
            #expect(lines.first == "error: unknown command 'lsit'")
            #expect(lines.dropFirst().first == "Did you mean 'list'?")
            #expect(lines.contains { $0.hasPrefix("Usage: kanban ") }, "\(result)")
            #expect(lines.last == "  See 'kanban --help'.")
            #expect(!containsEscape(result.stderr))
        }
    }

    @Test func anUnknownOptionGetsASuggestionAndTheUsage() throws {
        try withTemporaryBoard(.sample) { board throws in
            let result = try board.run(["list", "--colum", "x"])
            #expect(result.status == 64, "\(result)")
            #expect(result.stdout.isEmpty)
            let lines = result.stderr.lines
            #expect(lines.first == "error: unknown option '--colum'")
            #expect(lines.dropFirst().first == "Did you mean '--column'?")
            #expect(lines.dropFirst(2).first?.hasPrefix("Usage: kanban list [--column <id>]") == true, "\(result)")
            #expect(lines.last == "  See 'kanban list --help'.")

            let suggestionOnly = try board.run(["list", "--lable", "bug"])
            #expect(suggestionOnly.status == 64, "\(suggestionOnly)")
            #expect(suggestionOnly.stderr.lines.dropFirst().first == "Did you mean '--label'?", "\(suggestionOnly)")
        }
    }

    @Test func optionMistakesAreUsageErrors() throws {
        try withTemporaryBoard(.sample) { board throws in
            let before = try board.files()
            for arguments in [
                ["list", "--column"],  // missing value
                ["list", "--json=yes"],  // a flag with a value
                ["show", "a", "b"],  // unexpected argument
                ["add", "X", "--column", "todo", "--column", "done"],  // not repeatable
                ["list", "--color", "sometimes"],
            ] {
                let result = try board.run(arguments)
                #expect(result.status == 64, "\(arguments): \(result)")
                #expect(result.stdout.isEmpty, "\(arguments)")
                #expect(result.stderr.hasPrefix("error: "), "\(arguments): \(result)")
            }
            #expect(try board.files() == before)
        }
    }

    // MARK: Finding the board

    @Test func withoutABoardSaysHowToMakeOne() throws {
        try withTemporaryDirectory { directory in
            for arguments in [["list"], ["add", "X"], ["show", "x"], ["doctor"]] {
                let result = try KanbanProcess.run(arguments, in: directory)
                #expect(result.status == 1, "\(arguments): \(result)")
                #expect(result.stdout.isEmpty)
                #expect(result.stderr.hasPrefix("error: no board.md in '\(directory)' or any parent directory\n"), "\(result)")
                #expect(result.stderr.contains("kanban init"), "\(result)")
                #expect(result.stderr.contains("--board"), "\(result)")
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty, "nothing is created")
        }
    }

    @Test func aBoardOptionThatNamesNoBoardFails() throws {
        try withTemporaryDirectory { directory in
            let result = try KanbanProcess.run(["list", "--board", "nowhere"], in: directory)
            #expect(result.status == 1, "\(result)")
            #expect(result.stderr.hasPrefix("error: no board at "), "\(result)")
            #expect(result.stderr.contains("kanban init"), "\(result)")
        }
    }

    @Test func findsTheBoardFromTheBoardOption() throws {
        try withTemporaryBoard(.sample) { board throws in
            // Relative to the current directory, absolute, short, and after the command name.
            for arguments in [
                ["--board", "board", "list", "--json"], ["-C", "board", "list", "--json"], ["list", "--json", "--board", board.path],
                ["--board=board", "list", "--json"],
            ] {
                let result = try KanbanProcess.run(arguments, in: board.root)
                #expect(result.status == 0, "\(arguments): \(result)")
                #expect(try decodeJSON([CardJSON].self, from: result.stdout).count == 25, "\(arguments)")
            }
            // The option wins over KANBAN_BOARD.
            let wins = try KanbanProcess.run(["--board", "board", "list", "--json"], in: board.root, environment: ["KANBAN_BOARD": "/nonexistent"])
            #expect(wins.status == 0, "\(wins)")
        }
    }

    @Test func findsTheBoardFromTheEnvironment() throws {
        try withTemporaryBoard(.sample) { board throws in
            let absolute = try KanbanProcess.run(["list", "--json"], in: board.root, environment: ["KANBAN_BOARD": board.path])
            #expect(absolute.status == 0, "\(absolute)")
            #expect(try decodeJSON([CardJSON].self, from: absolute.stdout).count == 25)

            let relative = try KanbanProcess.run(["add", "From elsewhere"], in: board.root, environment: ["KANBAN_BOARD": "board"])
            #expect(relative.status == 0, "\(relative)")
            #expect(relative.stdout == "board/cards/backlog/from-elsewhere.md\n")
            #expect(board.exists("cards/backlog/from-elsewhere.md"))
        }
    }

    @Test func namesKANBAN_BOARDWhenItNamesNoBoard() throws {
        try withTemporaryBoard(.sample) { board throws in
            let result = try KanbanProcess.run(["list"], in: board.root, environment: ["KANBAN_BOARD": "/nonexistent"])
            #expect(result.status == 1, "\(result)")
            #expect(result.stderr.hasPrefix("error: KANBAN_BOARD names no board: no board at '/nonexistent': the directory does not exist"), "\(result)")
        }
    }

    @Test func findsTheBoardFromASubdirectory() throws {
        try withTemporaryBoard(.sample) { board throws in
            let list = try board.run(["list", "--json"], in: "cards/todo")
            #expect(list.status == 0, "\(list)")
            #expect(try decodeJSON([CardJSON].self, from: list.stdout).count == 25)

            // Paths are shown relative to the current directory, as git does.
            let add = try board.run(["add", "Here", "--column", "todo"], in: "cards/todo")
            #expect(add.status == 0, "\(add)")
            #expect(add.stdout == "here.md\n")
            let show = try board.run(["show", "here"], in: "cards/todo")
            #expect(show.stdout.lines.contains("path:     here.md"), "\(show)")

            try FileManager.default.createDirectory(atPath: board.absolute("notes/deep"), withIntermediateDirectories: true)
            let deep = try board.run(["move", "here", "done"], in: "notes/deep")
            #expect(deep.status == 0, "\(deep)")
            #expect(deep.stdout == "moved here: To Do → Done\n")
        }
    }

    // MARK: Paths

    @Test func aCardPathRelativeToTheCurrentDirectoryWorks() throws {
        try withTemporaryBoard(.sample) { board throws in
            for (directory, reference) in [
                ("cards/todo", "press-kit-and-screenshots.md"), ("cards/todo", "./press-kit-and-screenshots.md"),
                ("cards", "todo/press-kit-and-screenshots.md"), ("cards/done", "../todo/press-kit-and-screenshots.md"),
                ("", "cards/todo/press-kit-and-screenshots.md"),
            ] {
                let result = try board.run(["show", "--json", reference], in: directory.isEmpty ? nil : directory)
                #expect(result.status == 0, "\(reference) from \(directory): \(result)")
                #expect(try decodeJSON(CardJSON.self, from: result.stdout).slug == "press-kit-and-screenshots")
            }
            let fromOutside = try KanbanProcess.run(["-C", "board", "show", "--json", "board/cards/todo/press-kit-and-screenshots.md"], in: board.root)
            #expect(fromOutside.status == 0, "\(fromOutside)")

            let move = try board.run(["move", "press-kit-and-screenshots.md", "done"], in: "cards/todo")
            #expect(move.status == 0, "\(move)")
            #expect(board.exists("cards/done/press-kit-and-screenshots.md"))
        }
    }

    @Test func pathsOutsideTheBoardAreRefused() throws {
        try withTemporaryBoard(.sample) { board throws in
            let outside = board.root + "/outside.md"
            try Data("---\ntitle: Outside\ncolumn: todo\n---\n\nSecret.".utf8).write(to: URL(fileURLWithPath: outside))
            let before = try board.files()
            for reference in ["../../etc/passwd", "/etc/passwd", outside, "../outside.md", "cards/../../outside.md"] {
                for command in [["show"], ["show", "--raw"], ["edit"], ["set", "--title", "x"], ["archive"], ["move", "--to", "done"]] {
                    var arguments = command
                    arguments.insert(reference, at: 1)
                    let result = try board.run(arguments)
                    #expect(result.status == 1, "\(arguments): \(result)")
                    #expect(result.stdout.isEmpty, "\(arguments): \(result)")
                    #expect(!result.stdout.contains("Secret") && !result.stdout.contains("root:"), "\(arguments)")
                    #expect(result.stderr.hasPrefix("error: "), "\(arguments): \(result)")
                    #expect(result.stderr.contains("outside the board"), "\(arguments): \(result)")
                }
            }
            #expect(try board.files() == before)
            #expect(try String(contentsOfFile: outside, encoding: .utf8).hasSuffix("Secret."))
        }
    }

    @Test func aLinkOutOfTheBoardIsNotFollowed() throws {
        try withTemporaryBoard(.sample) { board throws in
            let outside = board.root + "/outside.md"
            try Data("---\ntitle: Outside\ncolumn: todo\nposition: a\n---\n\nSecret.".utf8).write(to: URL(fileURLWithPath: outside))
            try FileManager.default.createSymbolicLink(atPath: board.absolute("cards/todo/linked.md"), withDestinationPath: outside)

            // By slug the link is not a card at all; by path it is refused as pointing outside.
            let show = try board.run(["show", "linked"])
            #expect(show.status == 1, "\(show)")
            #expect(!show.stdout.contains("Secret"))
            let byPath = try board.run(["show", "--raw", "cards/todo/linked.md"])
            #expect(byPath.status == 1, "\(byPath)")
            #expect(!byPath.stdout.contains("Secret"))
            #expect(byPath.stderr.contains("outside the board"), "\(byPath)")

            let list = try board.run(["list"])
            #expect(list.status == 0, "\(list)")
            #expect(!list.stdout.contains("linked"))
            #expect(list.stderr.contains("cards/todo/linked.md: error: link points outside the board directory"), "\(list)")

            let set = try board.run(["set", "linked", "--title", "Changed"])
            #expect(set.status == 1, "\(set)")
            #expect(try String(contentsOfFile: outside, encoding: .utf8).contains("title: Outside"))
        }
    }

    @Test func anInvalidCardFileIsReportedWithItsLocation() throws {
        try withTemporaryBoard(.fixture("messy")) { board throws in
            for arguments in [["show", "unclosed"], ["set", "unclosed", "--title", "x"], ["move", "unclosed", "done"], ["archive", "unclosed"]] {
                let before = try board.files()
                let result = try board.run(arguments)
                #expect(result.status == 1, "\(arguments): \(result)")
                #expect(result.stdout.isEmpty)
                let first = try #require(result.stderr.lines.first, "\(arguments)")
                #expect(first.hasPrefix("cards/doing/unclosed.md:1:1: error: "), "\(arguments): \(result)")
                #expect(isDiagnosticLine(first))
                #expect(try board.files() == before, "\(arguments) changed a file")
            }
        }
    }

    // MARK: Colour

    @Test func pipedOutputHasNoColour() throws {
        try withTemporaryBoard(.sample) { board throws in
            for arguments in [["list"], ["list", "--all"], ["show", "localise"], ["search", "thumbnail"], ["doctor"], ["list", "--colum"]] {
                let result = try board.run(arguments)
                #expect(!containsEscape(result.stdout), "\(arguments)")
                #expect(!containsEscape(result.stderr), "\(arguments)")
            }
            let forced = try board.run(["list", "--color", "always"])
            #expect(containsEscape(forced.stdout), "--color always colours even a pipe")
            let forcedError = try board.run(["list", "--color", "always", "--column", "nope"])
            #expect(containsEscape(forcedError.stderr), "\(forcedError)")
        }
    }

    @Test func aTerminalGetsColourUnlessNoColorIsSet() throws {
        try withTemporaryBoard(.sample) { board throws in
            let terminal = try board.run(["list"], stdoutIsTerminal: true)
            #expect(terminal.status == 0, "\(terminal)")
            #expect(containsEscape(terminal.stdout), "a terminal gets colour: \(terminal.stdout.prefix(200).debugDescription)")

            for environment in [["NO_COLOR": "1"], ["NO_COLOR": "anything"], ["TERM": "dumb"]] {
                let result = try board.run(["list"], environment: environment, stdoutIsTerminal: true)
                #expect(result.status == 0, "\(result)")
                #expect(!result.stdout.isEmpty)
                #expect(!containsEscape(result.stdout), "\(environment)")
            }
            let flag = try board.run(["list", "--no-color"], stdoutIsTerminal: true)
            #expect(!containsEscape(flag.stdout))
            let never = try board.run(["--color", "never", "show", "localise"], stdoutIsTerminal: true)
            #expect(!containsEscape(never.stdout))
            // An empty NO_COLOR does not count (no-color.org).
            let empty = try board.run(["list"], environment: ["NO_COLOR": ""], stdoutIsTerminal: true)
            #expect(containsEscape(empty.stdout))
        }
    }

    // MARK: Streams

    @Test func resultsGoToStandardOutputAndDiagnosticsToStandardError() throws {
        try withTemporaryBoard(.fixture("messy")) { board throws in
            let json = try board.run(["list", "--json"])
            #expect(json.status == 0, "\(json)")
            // Standard output stays valid JSON while warnings go to standard error.
            #expect(try decodeJSON([CardJSON].self, from: json.stdout).count == 9)
            #expect(json.stderr.hasPrefix("cards/doing/unclosed.md:1:1: error: "), "\(json)")

            let failure = try board.run(["show", "--json", "nope"])
            #expect(failure.status == 1)
            #expect(failure.stdout.isEmpty, "errors stay on standard error in --json mode")
        }
    }
}
