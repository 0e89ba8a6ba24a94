import Foundation
import KanbanCore
import KanbanServer

/// `kanban agents [--mcp]`: what to tell a coding agent about the board, and how to register `kanban mcp`.
enum AgentsCommand: KanbanCommand {
    static let spec = CommandSpec(
        name: "agents",
        abstract: "Print instructions for coding agents, to paste into AGENTS.md or CLAUDE.md.",
        discussion: """
            Prints a markdown section for AGENTS.md, CLAUDE.md or a skill file: the format in brief, how to find and \
            name cards, the search language, the --json commands an agent uses to pick, start, note and finish a card, \
            and what never to do. When run inside a board, it names the board's columns and labels.

            With --mcp, prints how to register 'kanban mcp' (the MCP server, for clients without a shell) in common \
            clients, with this kanban's path and the board's directory filled in.

            Examples:
              kanban agents >> AGENTS.md
              kanban agents --mcp
            """,
        usage: "kanban agents [--mcp]",
        options: [.flag("mcp", help: "Print how to register 'kanban mcp' in MCP clients instead.")])

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        // The board is optional here: without one the text says so instead of naming columns.
        let board: (directory: String, board: Board)? = {
            guard let store = try? context.store(), let board = try? store.loadBoard() else { return nil }
            return (store.directory, board)
        }()
        if arguments.flag("mcp") {
            context.output.write(registration(executable: executablePath(), board: board?.directory))
        } else {
            context.output.write(instructions(board: board?.board))
        }
        return .success
    }

    /// This executable's absolute path (desktop apps do not see the PATH of a shell), else `kanban`.
    static func executablePath() -> String {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return path }
        let first = CommandLine.arguments.first ?? "kanban"
        guard first.contains("/") else { return "kanban" }
        return first.hasPrefix("/") ? first : FileManager.default.currentDirectoryPath + "/" + first
    }

    /// The AGENTS.md section.
    static func instructions(board: Board?) -> String {
        var thisBoard = ""
        if let board {
            let columns = board.columns.map { "`\($0.id)` (\($0.name))" }.joined(separator: ", ")
            let labels = board.labels.isEmpty ? "none" : board.labels.map { "`\($0.id)`" }.joined(separator: ", ")
            thisBoard = "\nThis board, \"\(board.title)\": columns, left to right: \(columns); labels: \(labels).\n"
        }
        return """
            ## The kanban board

            This project's board is kept as markdown files in git and changed with the `kanban` command \
            (`kanban help` lists every command). `board.md` holds the title, the columns (left to right) and the \
            labels; each card is one file, `cards/<column>/<slug>.md`: a YAML frontmatter (`title`, `position`, \
            `labels`, `created`, `modified`, other fields) and a markdown body. Archived cards live in `archive/`.
            \(thisBoard)
            Names: a card is its slug (the file name without `.md`), a unique prefix of the slug, or its path; \
            columns and labels are their ids, never their display names. An unknown or ambiguous name fails and \
            lists the candidates.

            Search: `kanban search --json WORDS...` matches every word (ignoring case and accents) in titles, bodies \
            and labels; `"quoted phrases"`, `label:ID`, `column:ID`, `title:WORD`, and `-TERM` to exclude, e.g. \
            `kanban search --json login '"error page"' label:bug -column:done`. It exits 1 when nothing matches.

            Working on a card (every command prints JSON with `--json`; errors go to stderr with exit status 1):

            1. Pick: `kanban board --json` (columns and their cards), `kanban list --json --column todo`, or a search.
            2. Read: `kanban show --json CARD` (with its `body`).
            3. Start: `kanban move CARD in-progress --json` (use the board's column id), so others see it is taken.
            4. Note: `kanban set CARD --body-file notes.md` replaces the body (read it first and keep what is there); \
            `--add-label ID`, `--field assignee=NAME` and `--title T` change only those lines.
            5. Finish: `kanban move CARD review --json` (or `done`); `kanban archive CARD --json` takes finished cards off the board.
            New work: `kanban add "TITLE" --json [--column ID] [--label ID] [--body TEXT]`.

            Never:
            - rewrite, reorder or retitle cards your task is not about, or edit card files by hand when a command does it;
            - delete a card to finish it (archive it);
            - skip the board's commit settings: when `board.md` says `autocommit: true` or `KANBAN_COMMIT=1` is set, \
            let `kanban` commit its own changes; do not commit board files some other way, and do not run \
            `kanban sync` (pull and push) unless asked;
            - leave a card a merge marked for tidying (`kanban status` names it) without merging the kept text.

            """
    }

    /// How to register `kanban mcp` in common clients.
    static func registration(executable: String, board: String?) -> String {
        let directory = board ?? "/path/to/board"
        let arguments: [JSON] = [.string("mcp"), .string("--board"), .string(directory)]
        let server: JSON = .object(["command": .string(executable), "args": .array(arguments)])
        func indented(_ json: JSON) -> String { json.rendered(pretty: true) }
        let quotedBoard = directory.contains(" ") ? "'\(directory)'" : directory
        return """
            kanban mcp serves the board over the Model Context Protocol on standard input and output. Register it \
            with the command and arguments below\(board == nil ? " (no board was found here: replace /path/to/board)" : "").

            Claude Code:
              claude mcp add kanban -- \(executable) mcp --board \(quotedBoard)

            Claude Desktop (claude_desktop_config.json), Cursor (.cursor/mcp.json), Windsurf, Gemini CLI (settings.json):
            \(indented(.object(["mcpServers": .object(["kanban": server])])))

            VS Code (.vscode/mcp.json):
            \(indented(.object(["servers": .object(["kanban": .object(["type": .string("stdio"), "command": .string(executable), "args": .array(arguments)])])])))

            Codex CLI (~/.codex/config.toml):
              [mcp_servers.kanban]
              command = \(JSON.string(executable).rendered())
              args = [\(arguments.map { $0.rendered() }.joined(separator: ", "))]

            Add "--commit" to the arguments (or set KANBAN_COMMIT=1 in the server's environment) to commit every change \
            with git, as 'kanban --commit' does. Without --board, the board is $KANBAN_BOARD, else found from the \
            server's working directory upwards, else from the client's roots.

            """
    }
}
