import Foundation
import KanbanCore
import KanbanGit
import KanbanTestSupport
import KanbanWatch
import Testing

@testable import KanbanServer
@testable import kanban

/// The method table called with message values, in this process: no pipes, no threads.
@Suite struct MCPServerTests {
    /// A server on the board, and what it sent besides its answers.
    static func server(_ board: TemporaryBoard) throws -> (MCPServer, Locked<[JSON]>) {
        let settings = MCPBoard.Settings(isBoardNamed: true, git: GitConfiguration(executable: "git", environment: [:]))
        let sent = Locked<[JSON]>([])
        let server = MCPServer(board: MCPBoard(settings: settings, store: try BoardStore(directory: board.path)),
                               send: { message in sent.withLock { $0.append(message) } })
        return (server, sent)
    }

    private func server(_ board: TemporaryBoard) throws -> (MCPServer, Locked<[JSON]>) { try Self.server(board) }

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

    @Test func mangledMessagesNeverTrapAndAreAlwaysAnsweredWithJSONRPC() throws {
        try withTemporaryBoard(.sample) { board throws in
            let (server, sent) = try self.server(board)
            let seeds = [
                #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"roots":{}}}}"#,
                #"{"jsonrpc":"2.0","id":"x","method":"resources/read","params":{"uri":"kanban://card/new-app-icon"}}"#,
                #"{"jsonrpc":"2.0","id":3,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#,
                #"{"jsonrpc":"2.0","id":4,"method":"resources/subscribe","params":{"uri":"kanban://board"}}"#,
                #"[{"jsonrpc":"2.0","id":5,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":5}}]"#,
                #"{"jsonrpc":"2.0","id":6,"result":{"roots":[{"uri":"file:///"}]}}"#,
            ].map { Array($0.utf8) }
            let alphabet = Array(#"{}[]",:\"0123456789-.eEtrufalsn "#.utf8) + [0x00, 0xC3, 0xFF]
            var random = SeededGenerator(seed: 23)
            for round in 0..<3_000 {
                var bytes = seeds[round % seeds.count]
                for _ in 0..<Int.random(in: 1...4, using: &random) {
                    let index = Int.random(in: 0..<bytes.count, using: &random)
                    switch Int.random(in: 0..<3, using: &random) {
                    case 0: bytes[index] = alphabet.randomElement(using: &random) ?? 0
                    case 1: bytes.insert(alphabet.randomElement(using: &random) ?? 0, at: index)
                    default: bytes = Array(bytes.prefix(max(1, index)))
                    }
                }
                server.receive(bytes)
            }
            let messages = sent.withLock { $0 }
            #expect(messages.count > 1_000)
            for message in messages {
                for item in message.arrayValue ?? [message] {
                    #expect(item["jsonrpc"] == .string("2.0"), "\(item.rendered(pretty: false))")
                    #expect(item["result"] != nil || item["error"] != nil || item["method"] != nil, "\(item.rendered(pretty: false))")
                }
            }
        }
    }

    @Test func subscribingToACardThatIsNotThereIsRefused() throws {
        try withTemporaryBoard(.sample) { board throws in
            let (server, _) = try server(board)
            let missing = server.handle(request("resources/subscribe", ["uri": .string("kanban://card/no-such-card")]))
            #expect(missing?["error"]?["code"] == .number("-32002"), "\(String(describing: missing))")
            let present = server.handle(request("resources/subscribe", ["uri": .string("kanban://card/press-kit-and-screenshots")]))
            #expect(present?["result"] == .object([:]), "\(String(describing: present))")
        }
    }

    @Test func aCardPlacedBetweenTiedNeighboursSaysWhichNeighboursWereRekeyed() throws {
        try withTemporaryBoard(.sample) { board throws in
            let (server, _) = try server(board)
            // Two backlog cards share position 'n': a card between them needs one of them re-keyed.
            let answer = server.handle(request("tools/call", ["name": .string("add_card"), "arguments": .object([
                "title": .string("Between the ties"), "after": .string("dark-mode-for-the-print-dialog"),
            ])]))
            let result = try #require(answer?["result"]?["structuredContent"], "\(String(describing: answer))")
            let rekeyed = try #require(result["rekeyed"]?.arrayValue, "the result does not say a neighbour changed: \(result)")
            #expect(!rekeyed.isEmpty && rekeyed.allSatisfy { $0.stringValue?.hasPrefix("cards/backlog/") == true }, "\(rekeyed)")
        }
    }

    @Test func aCardPathIsTheBoardsNeverTheServersWorkingDirectorys() throws {
        try withTemporaryBoard(.sample) { board throws in
            let (server, _) = try server(board)
            func show(_ card: String) -> JSON? {
                server.handle(request("tools/call", ["name": .string("show_card"), "arguments": .object(["card": .string(card)])]))?["result"]
            }
            let byPath = show("cards/todo/press-kit-and-screenshots.md")
            #expect(byPath?["structuredContent"]?["slug"] == .string("press-kit-and-screenshots"), "\(String(describing: byPath))")
            let outside = show("../../etc/passwd")
            #expect(outside?["isError"] == .bool(true))
            let message = outside?["content"]?.arrayValue?.first?["text"]?.stringValue ?? ""
            #expect(message.contains("'../../etc/passwd'") && !message.contains(FileManager.default.currentDirectoryPath), "\(message)")
        }
    }
}
