import Foundation
import KanbanWatch
import Testing

@testable import kanban

/// The method table called with message values, in this process: no pipes, no threads.
@Suite struct MCPServerTests {
    /// A server on the board, and what it sent besides its answers.
    private func server(_ board: TemporaryBoard) throws -> (MCPServer, Locked<[JSON]>) {
        guard case .run(let arguments) = try CommandDispatcher(root: KanbanTool.root).dispatch(["--board", board.path, "mcp"]) else {
            throw CommandFailure(message: "kanban mcp did not parse")
        }
        let context = try CommandContext(arguments: arguments, environment: [:])
        let sent = Locked<[JSON]>([])
        let server = MCPServer(board: MCPBoard(context: context), send: { message in sent.withLock { $0.append(message) } })
        return (server, sent)
    }

    private func request(_ method: String, _ params: [String: JSON] = [:], id: Int = 1) -> JSONRPCMessage {
        .request(id: .number(String(id)), method: method, params: .object(params))
    }

    static let stateless: JSON = .object([
        "io.modelcontextprotocol/protocolVersion": .string("2026-07-28"),
        "io.modelcontextprotocol/clientCapabilities": .object([:]),
    ])

    @Test func initializeNegotiatesTheVersion() throws {
        try withTemporaryBoard(.sample) { board throws in
            let (server, _) = try self.server(board)
            for (asked, answered) in [("2024-11-05", "2024-11-05"), ("2025-11-25", "2025-11-25"), ("2026-07-28", "2025-11-25"), ("next", "2025-11-25")] {
                let answer = server.handle(request("initialize", ["protocolVersion": .string(asked), "capabilities": .object([:])]))
                #expect(answer?["result"]?["protocolVersion"] == .string(answered), "\(asked)")
            }
            #expect(server.handle(request("initialize"))?["error"]?["code"] == .number("-32602"))
        }
    }

    @Test func unknownMethodsAreAnsweredAndNotificationsAndStrayResponsesAreNot() throws {
        try withTemporaryBoard(.sample) { board throws in
            let (server, sent) = try self.server(board)
            #expect(server.handle(request("frobnicate"))?["error"]?["code"] == .number("-32601"))
            #expect(server.handle(.notification(method: "notifications/whatever", params: nil)) == nil)
            #expect(server.handle(.response(id: .string("never-sent"), result: .object([:]), error: nil)) == nil)
            #expect(server.handle(.request(id: .number("2"), method: "ping", params: .array([])))?["error"]?["code"] == .number("-32602"))
            #expect(sent.withLock { $0 }.isEmpty)
        }
    }

    @Test func statelessRequestsAreCheckedAndTheirResultsSayTheyAreComplete() throws {
        try withTemporaryBoard(.sample) { board throws in
            let (server, _) = try self.server(board)
            let tools = try #require(server.handle(request("tools/list", ["_meta": Self.stateless]))?["result"])
            #expect(tools["resultType"] == .string("complete") && tools["ttlMs"] == .number("0"))
            #expect(tools["_meta"]?[MCPServer.serverInfoKey]?["name"] == .string("kanban"))
            let call = try #require(server.handle(request("tools/call", ["_meta": Self.stateless, "name": .string("board")]))?["result"])
            #expect(call["resultType"] == .string("complete") && call["ttlMs"] == nil)
            #expect(call["structuredContent"]?["title"] == .string("Lumen 2.0 Launch"))

            // Without _meta, the same request is a handshake-era one.
            let plain = try #require(server.handle(request("tools/list"))?["result"])
            #expect(plain["resultType"] == nil)

            let unsupported = server.handle(request("ping", ["_meta": .object(["io.modelcontextprotocol/protocolVersion": .string("2030-01-01")])]))
            #expect(unsupported?["error"]?["code"] == .number("-32022"))
            #expect(unsupported?["error"]?["data"]?["requested"] == .string("2030-01-01"))
            let incomplete = server.handle(request("ping", ["_meta": .object(["io.modelcontextprotocol/protocolVersion": .string("2026-07-28")])]))
            #expect(incomplete?["error"]?["code"] == .number("-32602"))
        }
    }

    @Test func toolErrorsAreResultsAndUnknownToolsAreErrors() throws {
        try withTemporaryBoard(.sample) { board throws in
            let (server, _) = try self.server(board)
            let failed = try #require(server.handle(request("tools/call", ["name": .string("show_card"), "arguments": .object(["card": .string("zzz")])]))?["result"])
            #expect(failed["isError"] == .bool(true) && failed["structuredContent"] == nil)
            #expect(failed["content"]?.arrayValue?.first?["text"]?.stringValue?.hasPrefix("error: no card") == true)
            #expect(server.handle(request("tools/call", ["name": .string("nope")]))?["error"]?["code"] == .number("-32602"))
            #expect(server.handle(request("tools/call"))?["error"]?["code"] == .number("-32602"))
        }
    }

    @Test func watcherEventsReachSubscribersOfBothGenerations() throws {
        try withTemporaryBoard(.sample) { board throws in
            let (server, sent) = try self.server(board)
            _ = server.handle(request("initialize", ["protocolVersion": .string("2025-11-25")]))
            #expect(server.handle(request("resources/subscribe", ["uri": .string("kanban://card/new-app-icon")]))?["result"] == .object([:]))
            #expect(server.handle(request("resources/subscribe", ["uri": .string("mailto:x")]))?["error"]?["code"] == .number("-32002"))
            #expect(server.handle(request("subscriptions/listen", ["_meta": Self.stateless, "notifications": .object([
                "resourceSubscriptions": .array([.string("kanban://board")]), "toolsListChanged": .bool(true),
            ])], id: 9)) == nil, "a stream is answered when it ends")
            let acknowledgement = try #require(sent.withLock { $0 }.last)
            #expect(acknowledgement["method"] == .string("notifications/subscriptions/acknowledged"))
            sent.withLock { $0.removeAll() }

            // A move's from and to are columns, not cards.
            server.publish(WatchEvent(.moved, slug: "new-app-icon", column: "todo", from: "done", to: "todo"))
            let uris = sent.withLock { $0 }.filter { $0["method"] == .string("notifications/resources/updated") }.compactMap { $0["params"]?["uri"]?.stringValue }
            #expect(uris.sorted() == ["kanban://board", "kanban://card/new-app-icon"])
            let streamed = sent.withLock { $0 }.first { $0["params"]?["uri"] == .string("kanban://board") }
            #expect(streamed?["params"]?["_meta"]?[MCPServer.subscriptionKey] == .number("9"))
            sent.withLock { $0.removeAll() }

            server.publish(WatchEvent(.board))
            let methods = sent.withLock { $0 }.compactMap { $0["method"]?.stringValue }
            #expect(methods.filter { $0 == "notifications/tools/list_changed" }.count == 2, "one for the session, one for the stream: \(methods)")
            sent.withLock { $0.removeAll() }

            server.closeSubscriptions()
            let closing = try #require(sent.withLock { $0 }.first)
            #expect(closing["id"] == .number("9") && closing["result"]?["resultType"] == .string("complete"))
        }
    }
}
