import Foundation
import Testing

@Suite struct AgentsCommandTests {
    @Test func printsASectionForAgentsNamingTheBoardsColumnsAndLabels() throws {
        try withTemporaryBoard(.sample) { board throws in
            let result = try board.run(["agents"])
            #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
            let text = result.stdout
            #expect(text.hasPrefix("## The kanban board\n"))
            #expect(text.contains("`in-progress` (In Progress)") && text.contains("`marketing`"), "\(text)")
            for command in ["kanban search --json", "kanban show --json CARD", "kanban claim --next --sync --json", "kanban move CARD review", "kanban set CARD --body-file",
                            "kanban add \"TITLE\" --json", "kanban ready --json", "label:ID", "-TERM", "Never:", "autocommit: true"] {
                #expect(text.contains(command), "missing \(command)")
            }
            // Every command it tells an agent to run exists.
            for name in ["board", "list", "show", "move", "set", "add", "archive", "search", "status", "sync", "claim", "ready", "release", "depend"] {
                #expect(try board.run([name, "--help"]).status == 0, "kanban \(name)")
            }
        }
    }

    @Test func outsideABoardItStillPrintsTheSection() throws {
        try withTemporaryBoard(.sample) { board throws in
            let result = try KanbanProcess.run(["agents"], in: board.root)
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.hasPrefix("## The kanban board\n") && !result.stdout.contains("This board"))
        }
    }

    @Test func mcpPrintsRegistrationsWithThisBinaryAndTheBoard() throws {
        try withTemporaryBoard(.sample) { board throws in
            let result = try board.run(["agents", "--mcp"])
            #expect(result.status == 0, "\(result)")
            let text = result.stdout
            let binary = URL(fileURLWithPath: try KanbanProcess.binaryPath()).resolvingSymlinksInPath().path
            #expect(text.contains("claude mcp add kanban -- \(binary) mcp --board \(board.path)"), "\(text)")
            #expect(text.contains("[mcp_servers.kanban]"))
            // The first JSON block is a client configuration that parses, with the command and its arguments.
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            let start = try #require(lines.firstIndex { $0 == "{" })
            let end = try #require(lines[start...].firstIndex { $0 == "}" })
            let block = lines[start...end].joined(separator: "\n")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(block.utf8)) as? [String: Any])
            let server = try #require((object["mcpServers"] as? [String: Any])?["kanban"] as? [String: Any])
            #expect(server["command"] as? String == binary)
            #expect(server["args"] as? [String] == ["mcp", "--board", board.path])

            let elsewhere = try KanbanProcess.run(["agents", "--mcp"], in: board.root)
            #expect(elsewhere.stdout.contains("/path/to/board") && elsewhere.stdout.contains("no board was found here"), "\(elsewhere)")
        }
    }

    @Test func helpShowsTheUsage() throws {
        let result = try KanbanProcess.run(["agents", "--help"])
        #expect(result.status == 0 && result.stdout.contains("USAGE: kanban agents [--mcp]"), "\(result)")
        #expect(try KanbanProcess.run(["agents", "--json"]).status == 64)
    }
}
