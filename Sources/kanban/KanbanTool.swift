import Foundation
import KanbanCore
import KanbanServer

/// The `kanban` command: its command tree and the table of what runs each command.
enum KanbanTool {
    static let version = KanbanVersion.current

    /// Every command, with the function that runs it.
    /// The top-level commands in help order; a command with subcommands routes them itself.
    static let commands: [any KanbanCommand.Type] = [
        InitCommand.self, AddCommand.self, ListCommand.self, ShowCommand.self, BoardCommand.self, BoardsCommand.self,
        SearchCommand.self, EditCommand.self, SetCommand.self, MoveCommand.self, ArchiveCommand.self,
        UnarchiveCommand.self, DeleteCommand.self, ColumnCommand.self, LabelCommand.self, DoctorCommand.self,
        ExportCommand.self, ImportCommand.self, StatusCommand.self, SyncCommand.self, LogCommand.self, ReportCommand.self, GitSetupCommand.self, MergeDriverCommand.self,
        CommitMsgHookCommand.self, CompletionCommand.self, CompleteCommand.self, WatchCommand.self, TUICommand.self,
        ServeCommand.self, MCPCommand.self, AgentsCommand.self, ReadyCommand.self, ClaimCommand.self, ReleaseCommand.self,
        DependCommand.self,
    ]

    static let root = CommandSpec(
        name: "kanban",
        abstract: "Kanban boards kept as plain markdown files in git.",
        discussion: """
            A board is a directory: board.md holds the title, columns and labels; each card is a markdown file \
            in cards/<column>/; archived cards live in archive/. The board is found from --board, else \
            $KANBAN_BOARD, else the first directory holding board.md from here upwards.

            Cards are named by slug (the file name without .md), a unique slug prefix, or a path.
            """,
        options: [
            .option("board", short: "C", valueName: "directory", help: "The board directory (default: $KANBAN_BOARD, else found from the current directory upwards).", isGlobal: true),
            .flag("quiet", short: "q", help: "Print nothing but results and errors.", isGlobal: true),
            .flag("commit", help: "Commit the change with git (also KANBAN_COMMIT=1, or 'autocommit: true' in board.md).", isGlobal: true),
            .color,
            .noColor,
        ],
        subcommands: commands.map { $0.spec },
        version: "kanban \(version)")

    /// Runs the command line and returns the exit status; never traps on input.
    static func main(arguments: [String], environment: [String: String]) -> ExitCode {
        // An index a command's load is still writing, on another thread while the command printed, is finished
        // before the command is: the next one finds it.
        defer { BoardStore.waitForIndexWrites() }
        let dispatcher = CommandDispatcher(root: root)
        let errorOutput = BufferedOutput.standardError
        do {
            return try dispatcher.run(preparing(arguments), environment: environment) { parsed in
                let context = try CommandContext(arguments: parsed, environment: environment)
                do {
                    guard let command = commands.first(where: { $0.spec.name == parsed.subcommandPath.first }) else {
                        throw parsed.usageError("no command given")
                    }
                    // A change committed with git holds the board's lock from the change to the commit, and one
                    // that cannot be committed is refused before it is made (`kanban tui` does the same per change).
                    if command.changesBoard(parsed) {
                        return try context.session().withChange { try command.run(parsed, context) }
                    }
                    return try command.run(parsed, context)
                } catch let error as KanbanError {
                    context.report(error)
                    return .failure
                } catch let error as SyncError {
                    context.report(error)
                    return .failure
                } catch let error as CommandFailure {
                    context.reportFailure(error.message)
                    return error.status
                }
            }
        } catch {
            errorOutput.writeLine("error: \(error)")
            return .failure
        }
    }
}

extension KanbanTool {
    /// The command line with the two spellings the parser cannot tell apart on its own made plain:
    /// negated search terms (`-label:bug`) and a label colour given as `--color '#e74c3c'` (the global
    /// `--color` takes only auto, always or never, so a `#` value is meant for the label's `--colour`).
    static func preparing(_ arguments: [String]) -> [String] {
        var result: [String] = []
        var index = 0
        while index < arguments.count {
            let token = arguments[index]
            if token == "--" {
                result += arguments[index...]
                break
            }
            if token == "--color", index + 1 < arguments.count, arguments[index + 1].hasPrefix("#") {
                result += ["--colour", arguments[index + 1]]
                index += 2
                continue
            }
            if token.hasPrefix("--color=#") {
                result.append("--colour=" + token.dropFirst("--color=".count))
            } else {
                result.append(token)
            }
            index += 1
        }
        return SearchCommand.preparing(result)
    }
}

/// A top-level command: its declaration and what runs it.
protocol KanbanCommand: Sendable {
    static var spec: CommandSpec { get }
    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws -> ExitCode
    /// Whether this invocation changes the board (and so, when committing, holds the board's lock until its
    /// commit is made). Not for commands that wait on a person or run for long (an editor, the watcher).
    static func changesBoard(_ arguments: ParsedArguments) -> Bool
}

extension KanbanCommand {
    static func changesBoard(_ arguments: ParsedArguments) -> Bool { false }
}

/// A failure a command reports in its own words (the message is printed after `error: `).
struct CommandFailure: Error {
    var message: String
    var status: ExitCode = .failure
}
