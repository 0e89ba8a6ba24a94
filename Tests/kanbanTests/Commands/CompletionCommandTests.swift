import Foundation
import Testing

@testable import kanban

/// `kanban completion bash|zsh|fish` and the hidden `kanban __complete`, run as the built binary.
@Suite struct CompletionCommandTests {
    /// The sample board's active card slugs, from its files.
    static func sampleSlugs(_ board: TemporaryBoard) throws -> Set<String> {
        var slugs: Set<String> = []
        for column in try board.entries("cards") {
            for name in try board.entries("cards/" + column) where name.hasSuffix(".md") {
                slugs.insert(String(name.dropLast(3)))
            }
        }
        return slugs
    }

    /// The full path of `name` on the runner's `PATH`, if the shell is installed.
    static func installedShell(_ name: String) -> String? {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return (directories + ["/usr/bin", "/bin", "/usr/local/bin", "/opt/homebrew/bin"])
            .map { "\($0)/\(name)" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs `shell` with `arguments`, in `directory`, with the built kanban's directory first on `PATH`.
    static func runShell(_ shell: String, _ arguments: [String], in directory: String, environment: [String: String] = [:]) throws
        -> (status: Int32, stdout: String, stderr: String)
    {
        let binaryDirectory = (try KanbanProcess.binaryPath() as NSString).deletingLastPathComponent
        let process = Process()
        process.executableURL = URL(fileURLWithPath: shell)
        process.arguments = arguments
        var variables = KanbanProcess.baseEnvironment(home: directory)
        variables["PATH"] = binaryDirectory + ":" + (variables["PATH"] ?? "/usr/bin:/bin")
        variables.merge(environment) { _, new in new }
        process.environment = variables
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        // The outputs are small, so reading them after exit cannot block the child on a full pipe for long;
        // read both before waiting anyway.
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: outputData, as: UTF8.self), String(decoding: errorData, as: UTF8.self))
    }

    // MARK: The scripts

    @Test(arguments: ["bash", "zsh", "fish"])
    func printsAScriptThatCallsCompleteForValues(shell: String) throws {
        let result = try runKanban(["completion", shell])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty)
        #expect(result.stdout.count > 1000)
        #expect(result.stdout.contains("__complete"))
        // Every visible command is in the script, as generated from the command tree.
        for command in KanbanTool.root.subcommands where !command.isHidden {
            #expect(result.stdout.contains(command.name), "\(shell) script lacks '\(command.name)'")
        }
        #expect(!result.stdout.contains("'__complete'"), "the hidden command is not offered")
    }

    @Test func rejectsAnUnknownShell() throws {
        let result = try runKanban(["completion", "tcsh"])
        #expect(result.status == 64, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("unknown shell 'tcsh'"))
        #expect(result.stderr.contains("bash, zsh or fish"))
        let missing = try runKanban(["completion"])
        #expect(missing.status == 64, "\(missing)")
    }

    @Test func helpExplainsInstallation() throws {
        let result = try runKanban(["completion", "--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("source <(kanban completion bash)"))
        #expect(result.stdout.contains("_kanban"))
        #expect(result.stdout.contains("~/.config/fish/completions/kanban.fish"))
    }

    @Test func bashScriptHasValidSyntax() throws {
        let bash = try #require(Self.installedShell("bash"), "bash is needed for this test")
        try withTemporaryDirectory { directory throws in
            let script = try runKanban(["completion", "bash"])
            try Data(script.stdout.utf8).write(to: URL(fileURLWithPath: directory + "/kanban.bash"))
            let check = try Self.runShell(bash, ["-n", directory + "/kanban.bash"], in: directory)
            #expect(check.status == 0, "bash -n: \(check.stderr)")
            #expect(check.stderr.isEmpty)
        }
    }

    @Test(.enabled(if: CompletionCommandTests.installedShell("zsh") != nil, "zsh is not installed: its script's syntax is not checked"))
    func zshScriptHasValidSyntax() throws {
        let zsh = try #require(Self.installedShell("zsh"))
        try withTemporaryDirectory { directory throws in
            let script = try runKanban(["completion", "zsh"])
            try Data(script.stdout.utf8).write(to: URL(fileURLWithPath: directory + "/_kanban"))
            let check = try Self.runShell(zsh, ["-n", directory + "/_kanban"], in: directory)
            #expect(check.status == 0, "zsh -n: \(check.stderr)")
            #expect(check.stderr.isEmpty)
        }
    }

    @Test(.enabled(if: CompletionCommandTests.installedShell("fish") != nil, "fish is not installed: its script's syntax is not checked"))
    func fishScriptHasValidSyntax() throws {
        let fish = try #require(Self.installedShell("fish"))
        try withTemporaryDirectory { directory throws in
            let script = try runKanban(["completion", "fish"])
            try Data(script.stdout.utf8).write(to: URL(fileURLWithPath: directory + "/kanban.fish"))
            let check = try Self.runShell(fish, ["--no-config", "-n", directory + "/kanban.fish"], in: directory)
            #expect(check.status == 0, "fish -n: \(check.stderr)")
            #expect(check.stderr.isEmpty)
        }
    }

    // MARK: Completing in bash

    /// What the bash script offers for the words of `line` (the last one being completed, "" after a space).
    static func bashCompletions(_ line: [String], in directory: String, environment: [String: String] = [:]) throws -> [String] {
        let bash = try #require(installedShell("bash"), "bash is needed for this test")
        let words = line.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let program = """
            source <(kanban completion bash) || exit 3
            COMP_WORDS=(\(words))
            COMP_CWORD=\(line.count - 1)
            COMP_LINE="${COMP_WORDS[*]}"
            COMP_POINT=${#COMP_LINE}
            _kanban
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let result = try runShell(bash, ["-c", program], in: directory, environment: environment)
        #expect(result.status == 0, "bash: \(result.stderr)")
        #expect(result.stderr.isEmpty, "bash: \(result.stderr)")
        return result.stdout.lines.filter { !$0.isEmpty }
    }

    @Test func bashCompletesCardSlugsForMove() throws {
        try withTemporaryBoard(.sample) { board throws in
            let offered = try Self.bashCompletions(["kanban", "move", "fix"], in: board.path)
            #expect(offered == ["fix-exif-orientation-for-rotated-iphone-photos"])
            // A column after the card, and cards again once --to names the column.
            #expect(try Self.bashCompletions(["kanban", "move", "new-app-icon", "re"], in: board.path) == ["review"])
            #expect(try Self.bashCompletions(["kanban", "move", "new-app-icon", "--to", "done", "bet"], in: board.path)
                == ["beta-1-release-to-testers", "beta-feedback-survey"])
        }
    }

    @Test func bashCompletesCommandsOptionsColumnsAndLabels() throws {
        try withTemporaryBoard(.sample) { board throws in
            #expect(try Self.bashCompletions(["kanban", "col"], in: board.path) == ["column"])
            #expect(try Self.bashCompletions(["kanban", "column", "re"], in: board.path) == ["rename", "remove"])
            #expect(try Self.bashCompletions(["kanban", "column", "remove", ""], in: board.path) == ColumnCommandTests.sampleOrder)
            #expect(try Self.bashCompletions(["kanban", "column", "remove", "review", "--move-cards-to", "d"], in: board.path) == ["done"])
            #expect(try Self.bashCompletions(["kanban", "list", "-c", "in"], in: board.path) == ["in-progress"])
            #expect(try Self.bashCompletions(["kanban", "set", "new-app-icon", "--add-label", "d"], in: board.path) == ["design", "docs"])
            #expect(try Self.bashCompletions(["kanban", "label", "rename", "ma"], in: board.path) == ["marketing"])
            #expect(try Self.bashCompletions(["kanban", "list", "--arch"], in: board.path) == ["--archived"])
            #expect(try Self.bashCompletions(["kanban", "unarchive", "pick"], in: board.path) == ["pick-the-launch-date"])
            #expect(try Self.bashCompletions(["kanban", "completion", ""], in: board.path) == ["bash", "zsh", "fish"])
        }
    }

    @Test func bashCompletionFollowsABoardOnTheLine() throws {
        try withTemporaryBoard(.sample) { board throws in
            // From outside the board, nothing is offered until --board names it.
            #expect(try Self.bashCompletions(["kanban", "move", "fix"], in: board.root) == [])
            #expect(try Self.bashCompletions(["kanban", "--board", board.path, "move", "fix"], in: board.root)
                == ["fix-exif-orientation-for-rotated-iphone-photos"])
            #expect(try Self.bashCompletions(["kanban", "-C", "board", "list", "--column", "rev"], in: board.root) == ["review"])
        }
    }

    // MARK: __complete

    @Test func completeListsTheSampleBoardsValues() throws {
        try withTemporaryBoard(.sample) { board throws in
            let cards = try board.run(["__complete", "cards"])
            #expect(cards.status == 0, "\(cards)")
            #expect(cards.stderr.isEmpty)
            #expect(Set(cards.stdout.lines) == (try Self.sampleSlugs(board)))
            #expect(cards.stdout.lines.count == 25)

            let columns = try board.run(["__complete", "columns"])
            #expect(columns.stdout.lines == ColumnCommandTests.sampleOrder)
            let labels = try board.run(["__complete", "labels"])
            #expect(labels.stdout.lines == LabelCommandTests.sampleLabels)
            let archived = try board.run(["__complete", "archived-cards"])
            #expect(archived.stdout.lines == [
                "internal-alpha-for-dogfooding", "pick-the-launch-date", "remove-legacy-flickr-uploader", "tooltip-flicker-on-hover",
            ])
            let described = try board.run(["__complete", "columns", "--describe"])
            #expect(described.stdout.lines.first == "backlog\tBacklog")
        }
    }

    @Test(arguments: ["columns", "labels", "cards", "archived-cards", "nonsense"])
    func completePrintsNothingOutsideABoard(kind: String) throws {
        try withTemporaryDirectory { directory throws in
            let result = try runKanban(["__complete", kind], in: directory)
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.isEmpty)
            let missing = try runKanban(["__complete", kind, "--board", directory + "/missing"], in: directory)
            #expect(missing.status == 0, "\(missing)")
            #expect(missing.stdout.isEmpty)
            #expect(missing.stderr.isEmpty)
        }
    }

    @Test func completeIsHiddenFromHelp() throws {
        let result = try runKanban(["--help"])
        #expect(result.status == 0)
        #expect(!result.stdout.contains("__complete"))
        #expect(result.stdout.contains("completion"))
    }
}
