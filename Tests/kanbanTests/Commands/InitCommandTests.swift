import Foundation
import Testing

/// `kanban init`, run as a person runs it.
@Suite struct InitCommandTests {
    @Test func createsABoardWithTheDefaultColumns() throws {
        try withTemporaryDirectory { directory in
            let result = try KanbanProcess.run(["init", "roadmap"], in: directory)
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout == "created board 'roadmap' in \(directory)/roadmap with columns To Do, In Progress, Done\n")
            #expect(result.stderr.isEmpty)

            let board = directory + "/roadmap"
            for column in ["todo", "in-progress", "done"] {
                #expect(isDirectory(board + "/cards/" + column), "cards/\(column)/ is missing")
            }
            #expect(isDirectory(board + "/archive"))
            let text = try String(contentsOfFile: board + "/board.md", encoding: .utf8)
            #expect(text.hasPrefix("---\n"))
            #expect(text.contains("title: roadmap\n"))
            #expect(text.contains("- id: todo\n    name: To Do\n"))
            #expect(text.contains("- id: in-progress\n    name: In Progress\n"))
            #expect(text.contains("- id: done\n    name: Done\n"))
            #expect(text.contains("## Card Template"))
            #expect(try FileManager.default.contentsOfDirectory(atPath: board + "/cards").sorted() == ["done", "in-progress", "todo"])

            // The new board works at once.
            let list = try KanbanProcess.run(["list", "--json"], in: board)
            #expect(list.status == 0, "\(list)")
            #expect(list.stdout == "[]\n")
            let doctor = try KanbanProcess.run(["doctor"], in: board)
            #expect(doctor.status == 0, "\(doctor)")
            #expect(doctor.stdout.isEmpty)
        }
    }

    @Test func createsTheBoardInTheCurrentDirectoryNamedAfterIt() throws {
        try withTemporaryDirectory { directory in
            let here = directory + "/Team Board"
            try FileManager.default.createDirectory(atPath: here, withIntermediateDirectories: false)
            let result = try KanbanProcess.run(["init"], in: here)
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout == "created board 'Team Board' in \(here) with columns To Do, In Progress, Done\n")
            #expect(try String(contentsOfFile: here + "/board.md", encoding: .utf8).contains("title: Team Board\n"))
        }
    }

    @Test func takesColumnsAndTitle() throws {
        try withTemporaryDirectory { directory in
            let result = try KanbanProcess.run(["init", "plan", "--columns", "a:A,b:Bee Sting", "--title", "Q3 Plan"], in: directory)
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout == "created board 'Q3 Plan' in \(directory)/plan with columns A, Bee Sting\n")
            #expect(result.stderr.isEmpty)

            let board = directory + "/plan"
            #expect(try FileManager.default.contentsOfDirectory(atPath: board + "/cards").sorted() == ["a", "b"])
            #expect(isDirectory(board + "/archive"))
            let text = try String(contentsOfFile: board + "/board.md", encoding: .utf8)
            #expect(text.contains("title: Q3 Plan\n"))
            #expect(text.contains("- id: a\n    name: A\n"))
            #expect(text.contains("- id: b\n    name: Bee Sting\n"))

            // Cards go to the first column given.
            let add = try KanbanProcess.run(["add", "First"], in: board)
            #expect(add.status == 0, "\(add)")
            #expect(add.stdout == "cards/a/first.md\n")
        }
    }

    @Test func aColumnWithoutANameIsNamedByItsID() throws {
        try withTemporaryDirectory { directory in
            let result = try KanbanProcess.run(["init", "b", "--columns", "inbox, later:Later"], in: directory)
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.hasSuffix("with columns inbox, Later\n"))
            #expect(isDirectory(directory + "/b/cards/inbox"))
            #expect(isDirectory(directory + "/b/cards/later"))
        }
    }

    @Test func aTitleThatLooksLikeYAMLRoundTrips() throws {
        try withTemporaryBoard(.initialized(["--title", "Launch: \"v2\" # final"])) { board throws in
            // Written as it is, which is how SimpleKanban reads a board's title (it never unquotes it); kanban reads
            // it the same way, and doctor warns that a YAML reader would not.
            let doctor = try board.run(["doctor"])
            #expect(doctor.status == 0, "\(doctor)")
            let text = try board.text("board.md")
            #expect(text.contains("title: Launch: \"v2\" # final\n"), "\(text)")
            let json = try board.run(["board", "--json"])
            #expect(json.stdout.contains("\"title\" : \"Launch: \\\"v2\\\" # final\"") || json.stdout.contains("\"title\": \"Launch: \\\"v2\\\" # final\""), "\(json)")
        }
    }

    @Test func refusesADirectoryThatHoldsABoard() throws {
        try withTemporaryBoard(.sample) { board throws in
            let before = try board.files()
            let directoriesBefore = board.directories()

            let here = try board.run(["init", "--columns", "x:X"])
            #expect(here.status == 1, "\(here)")
            #expect(here.stdout.isEmpty)
            #expect(here.stderr == "error: '.' already holds a board (board.md); nothing was changed\n")

            let named = try KanbanProcess.run(["init", "board", "--title", "Other"], in: board.root)
            #expect(named.status == 1, "\(named)")
            #expect(named.stdout.isEmpty)
            #expect(named.stderr == "error: 'board' already holds a board (board.md); nothing was changed\n")

            #expect(try board.files() == before)
            #expect(board.directories() == directoriesBefore)
        }
    }

    @Test(arguments: [
        ["--columns", ""],
        ["--columns", ",,,"],
        ["--columns", " : "],
        ["--columns"],
    ])
    func malformedColumnsAreAUsageError(arguments: [String]) throws {
        try withTemporaryDirectory { directory in
            let result = try KanbanProcess.run(["init", "new"] + arguments, in: directory)
            #expect(result.status == 64, "\(result)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.hasPrefix("Error: "), "\(result)")
            #expect(result.stderr.contains("Usage: kanban init"), "\(result)")
            #expect(!FileManager.default.fileExists(atPath: directory + "/new"), "nothing may be created")
        }
    }

    /// A pair without an id is refused, not read as a column whose id is the name.
    @Test(arguments: [
        ["--columns", ":Name"],
        ["--columns", "todo:To Do,:Nameless"],
    ])
    func aColumnWithoutAnIDIsAUsageError(arguments: [String]) throws {
        try withTemporaryDirectory { directory throws in
            let result = try KanbanProcess.run(["init", "new"] + arguments, in: directory)
            do {
                #expect(result.status == 64, "\(result)")
                #expect(!FileManager.default.fileExists(atPath: directory + "/new"), "nothing may be created")
            }
        }
    }

    /// Column ids that cannot be directory names, or repeat, are as much a mistake on the command line as an empty
    /// one: a usage error (64), and nothing created.
    @Test(arguments: [
        ["--columns", "../escape:Escape"],
        ["--columns", "to do:To Do"],
        ["--columns", "a:A,a:Again"],
        ["--columns", "UPPER:Upper,upper:Lower"],  // one directory on macOS's default disk (issue 20)
    ])
    func invalidColumnIDsAreAUsageError(arguments: [String]) throws {
        try withTemporaryDirectory { directory in
            let result = try KanbanProcess.run(["init", "new"] + arguments, in: directory)
            #expect(result.status == 64, "\(result)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.hasPrefix("Error: "), "\(result)")
            #expect(!FileManager.default.fileExists(atPath: directory + "/new"), "nothing may be created")
            #expect(!FileManager.default.fileExists(atPath: directory + "/escape"), "nothing may be created outside")
        }
    }

    @Test func unexpectedArgumentIsAUsageError() throws {
        try withTemporaryDirectory { directory in
            let result = try KanbanProcess.run(["init", "one", "two"], in: directory)
            #expect(result.status == 64, "\(result)")
            #expect(result.stderr.contains("unexpected argument 'two'"), "\(result)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
        }
    }
}

private func isDirectory(_ path: String) -> Bool {
    var isDirectory: ObjCBool = false
    return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
}
