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
            and labels; `"quoted phrases"`, `label:ID`, `column:ID`, `title:WORD`, `claimed:NAME`, `ready:`, and \
            `-TERM` to exclude, e.g. \
            `kanban search --json login '"error page"' label:bug -column:done`. It exits 1 when nothing matches.

            The loop (every command prints JSON with `--json`; errors go to stderr, exit status 1 unless said):

            1. Claim: `kanban claim --next --sync --json` takes the first ready card (before the start column, every \
            card in its `depends-on` done, held by no one), records you (`--as NAME`, else `$KANBAN_AGENT`, else \
            git's `user.name`) and moves it to the start column; `--sync` shares the claim with other clones. Exit 4: \
            nothing is ready; exit 3: another agent holds it (named). `kanban ready --json` lists the queue.
            2. Read: `kanban show --json CARD` (its `body`, and `work`: what it waits for and blocks).
            3. Work, and note: `kanban set CARD --body-file notes.md` replaces the body (read it first and keep what is \
            there); `--add-label ID`, `--field KEY=VALUE` and `--title T` change only those lines.
            4. Before finishing: `kanban sync`, then check `work.claimedBy` is still you (a clone that claimed it \
            first wins; `kanban sync` says so). If not, leave the card.
            5. Finish: `kanban move CARD review --json` (or `done`), then `kanban sync`; `kanban archive CARD --json` \
            takes finished cards off the board. Give a card back with `kanban release CARD`.
            New work: `kanban add "TITLE" --json [--column ID] [--label ID] [--body TEXT]`; \
            `kanban depend CARD OTHER...` makes CARD wait for OTHER.

            Never:
            - rewrite, reorder or retitle cards your task is not about, or edit card files by hand when a command does it;
            - delete a card to finish it (archive it);
            - skip the board's commit settings: when `board.md` says `autocommit: true` or `KANBAN_COMMIT=1` is set, \
            let `kanban` commit its own changes; do not commit board files some other way, and do not run \
            `kanban sync` (pull and push) unless asked or working through claims;
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
        let current = board.flatMap { try? BoardStore(directory: $0).loadBoard() }
        func listing(_ selection: MCPToolSelection) -> String {
            let bytes = MCPTools.listingBytes(selection, board: current)
            return "\(bytes) bytes, about \(bytes / 4) tokens"
        }
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

            The tools cost the agent's context: tools/list is \(listing(.all)) for all \(MCPTools.catalogue.count) tools; \
            add "--tools", "core" to the arguments for the agent loop alone (ready_cards, claim_card, show_card, \
            move_card, release_card, sync): \(listing(.core)).

            Add "--commit" to the arguments (or set KANBAN_COMMIT=1 in the server's environment) to commit every change \
            with git, as 'kanban --commit' does. Without --board, the board is $KANBAN_BOARD, else found from the \
            server's working directory upwards, else from the client's roots.

            """
    }
}
