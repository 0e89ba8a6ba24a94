import Foundation
import KanbanCore
import KanbanGit
import Testing

@testable import KanbanServer

/// `kanban mcp` serving several boards: every tool takes `board` (an enum of the names, required), the boards tool
/// lists them, resources are per board; with one board, tools/list is as it always was.
@Suite struct MCPBoardsTests {
    /// Two boards, `team/alpha` and `beta`, in a temporary directory, served by one MCP server.
    private func withServer(_ body: (MCPServer, [String: BoardStore]) throws -> Void) throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("mcp-boards-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let columns = [Column(id: "todo", name: "To Do"), Column(id: "done", name: "Done")]
        let alpha = try BoardStore.create(at: root + "/team/alpha", board: Board(title: "Alpha", columns: columns))
        let beta = try BoardStore.create(at: root + "/beta", board: Board(title: "Beta", columns: [Column(id: "next", name: "Next")]))
        _ = try alpha.createCard(title: "Alpha card", in: "todo")
        let settings = MCPBoard.Settings(isBoardNamed: true, git: GitConfiguration(executable: "git", environment: [:]))
        let named = [MCPNamedBoard(name: "team/alpha", board: MCPBoard(settings: settings, store: alpha)),
                     MCPNamedBoard(name: "beta", board: MCPBoard(settings: settings, store: beta))]
        let server = MCPServer(board: named[0].board, named: named, send: { _ in })
        try body(server, ["team/alpha": alpha, "beta": beta])
    }

    private func call(_ server: MCPServer, _ method: String, _ params: [String: JSON] = [:]) throws -> JSON {
        let answer = try #require(server.handle(.request(id: .number("1"), method: method, params: .object(params))))
        return try #require(answer["result"], "\(answer.rendered(pretty: false))")
    }

    private func tool(_ server: MCPServer, _ name: String, _ arguments: [String: JSON]) throws -> JSON {
        try call(server, "tools/call", ["name": .string(name), "arguments": .object(arguments)])
    }

    @Test func everyToolTakesARequiredBoardNamedByAnEnumAndTheBoardsToolListsThem() throws {
        try withServer { server, _ in
            let tools = try #require(try call(server, "tools/list")["tools"]?.arrayValue)
            #expect(tools.first?["name"]?.stringValue == "boards")
            for tool in tools where tool["name"]?.stringValue != "boards" {
                let schema = try #require(tool["inputSchema"])
                #expect(schema["properties"]?["board"]?["enum"] == .array([.string("team/alpha"), .string("beta")]), "\(tool["name"]!)")
                #expect(schema["required"]?.arrayValue?.first == .string("board"), "\(tool["name"]!)")
            }
            let initialized = try call(server, "initialize", ["protocolVersion": .string("2025-06-18"), "capabilities": .object([:])])
            #expect(initialized["instructions"]?.stringValue?.contains("This server serves 2 boards: team/alpha, beta.") == true)
            let listed = try tool(server, "boards", [:])
            let boards = try #require(listed["structuredContent"]?["boards"]?.arrayValue)
            #expect(boards.map { $0["name"]?.stringValue } == ["team/alpha", "beta"])
            #expect(boards.map { $0["title"]?.stringValue } == ["Alpha", "Beta"])
            #expect(boards.map { $0["cards"] } == [.number("1"), .number("0")])
        }
    }

    @Test func aCallWorksOnTheBoardItNamesOnly() throws {
        try withServer { server, stores in
            let added = try tool(server, "add_card", ["board": .string("beta"), "title": .string("Beta card")])
            #expect(added["isError"] == .bool(false), "\(added.rendered(pretty: false))")
            let beta = try #require(stores["beta"])
            let alpha = try #require(stores["team/alpha"])
            #expect(try beta.load().cards.map(\.slug) == ["beta-card"])
            #expect(try alpha.load().cards.map(\.slug) == ["alpha-card"])
            let overview = try tool(server, "board", ["board": .string("team/alpha")])
            #expect(overview["structuredContent"]?["title"]?.stringValue == "Alpha")
            let moved = try tool(server, "move_card", ["board": .string("team/alpha"), "card": .string("alpha-card"), "column": .string("done")])
            #expect(moved["isError"] == .bool(false), "\(moved.rendered(pretty: false))")
            #expect(try alpha.load().cards.first?.column == "done")
        }
    }

    @Test(arguments: [
        (JSON.null, "'board' is required: this server serves several boards: team/alpha, beta"),
        (JSON.string("gamma"), "no board 'gamma'; the boards are: team/alpha, beta"),
        (JSON.number("1"), "'board' must be a string, one of: team/alpha, beta"),
        (JSON.string("../beta"), "no board '../beta'; the boards are: team/alpha, beta"),
    ])
    func aMissingOrWrongBoardIsAnErrorThatListsTheNames(board: JSON, message: String) throws {
        try withServer { server, stores in
            var arguments: [String: JSON] = ["title": .string("Stray")]
            if board != .null { arguments["board"] = board }
            let answer = try tool(server, "add_card", arguments)
            #expect(answer["isError"] == .bool(true))
            #expect(answer["content"]?.arrayValue?.first?["text"]?.stringValue == "error: " + message)
            for store in stores.values { #expect(try store.load().cards.allSatisfy { $0.slug != "stray" }) }
        }
    }

    @Test func resourcesArePerBoard() throws {
        try withServer { server, _ in
            let listed = try #require(try call(server, "resources/list")["resources"]?.arrayValue)
            #expect(listed.compactMap { $0["uri"]?.stringValue } == [
                "kanban://boards/team%2Falpha/board", "kanban://boards/team%2Falpha/card/alpha-card", "kanban://boards/beta/board",
            ])
            let card = try call(server, "resources/read", ["uri": .string("kanban://boards/team%2Falpha/card/alpha-card")])
            #expect(card["contents"]?.arrayValue?.first?["text"]?.stringValue?.contains("title: Alpha card") == true)
            let board = try call(server, "resources/read", ["uri": .string("kanban://boards/beta/board")])
            #expect(board["contents"]?.arrayValue?.first?["text"]?.stringValue?.hasPrefix("# Beta\n") == true)
            for uri in ["kanban://board", "kanban://card/alpha-card", "kanban://boards/gamma/board", "kanban://boards/beta/card/alpha-card"] {
                let answer = try #require(server.handle(.request(id: .number("2"), method: "resources/read", params: .object(["uri": .string(uri)]))))
                #expect(answer["error"]?["code"] == .number("-32002"), "\(uri): \(answer.rendered(pretty: false))")
            }
            let templates = try call(server, "resources/templates/list")
            #expect(templates["resourceTemplates"]?.arrayValue?.first?["uriTemplate"]?.stringValue == "kanban://boards/{board}/card/{slug}")
        }
    }

    @Test func withOneBoardNothingChanges() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("mcp-board-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = try BoardStore.create(at: root, board: Board(title: "Solo", columns: [Column(id: "todo", name: "To Do")]))
        let settings = MCPBoard.Settings(isBoardNamed: true, git: GitConfiguration(executable: "git", environment: [:]))
        let server = MCPServer(board: MCPBoard(settings: settings, store: store), send: { _ in })
        let tools = try #require(try call(server, "tools/list")["tools"]?.arrayValue)
        #expect(!tools.contains { $0["name"]?.stringValue == "boards" })
        let initialized = try call(server, "initialize", ["protocolVersion": .string("2025-06-18"), "capabilities": .object([:])])
        #expect(initialized["instructions"]?.stringValue == MCPInstructions.text)
        #expect(tools.allSatisfy { $0["inputSchema"]?["properties"]?["board"] == nil })
        let added = try call(server, "tools/call", ["name": .string("add_card"), "arguments": .object(["title": .string("Solo card")])])
        #expect(added["isError"] == .bool(false))
        let unknown = try #require(server.handle(.request(id: .number("3"), method: "tools/call", params: .object(["name": .string("boards")]))))
        #expect(unknown["error"] != nil)
        #expect(try call(server, "resources/list")["resources"]?.arrayValue?.first?["uri"]?.stringValue == "kanban://board")
    }
}
