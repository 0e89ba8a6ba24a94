import Foundation
import KanbanTestSupport
import Testing

@testable import KanbanServer
@testable import kanban

/// Boundary values (0, -1, the largest and smallest integers, huge strings, wrong JSON types, NUL and control
/// characters, paths) sent to every tool and every method of `kanban mcp`: each gets an answer, nothing traps, and a
/// refused call leaves the board's files as they were.
@Suite struct MCPBoundaryTests {
    /// Every tool, as the tests know them: a tool added without being listed here fails ``everyToolAndMethodIsListed``.
    static let tools = ["boards", "board", "list_cards", "search_cards", "show_card", "add_card", "update_card", "move_card", "archive_card",
                        "unarchive_card", "delete_card", "ready_cards", "claim_card", "release_card", "board_status", "sync"]
    /// `sync` runs the kanban executable, which in this process is the test runner: it is attacked through a real
    /// `kanban mcp` in ``syncRefusesBoundaryValuesToo``.
    /// `boards` is offered only with several boards (MCPBoardsTests).
    static let toolsCalledInProcess = tools.filter { $0 != "sync" && $0 != "boards" }
    static let methods = ["initialize", "ping", "server/discover", "tools/list", "tools/call", "resources/list", "resources/templates/list",
                          "resources/read", "resources/subscribe", "resources/unsubscribe", "subscriptions/listen"]
    /// The parameter names the methods read.
    static let methodParameters = ["cursor", "uri", "name", "arguments", "protocolVersion", "capabilities", "notifications", "_meta"]

    static let values: [JSON] = [
        .number("0"), .number("-1"), .number("9223372036854775807"), .number("-9223372036854775808"), .number("1e400"), .number("0.5"),
        .string(String(repeating: "x", count: 200_000)), .string(""), .bool(true), .null, .array([]), .array([.number("1")]),
        .object([:]), .object(["k": .number("1")]), .object(["owner": .string("a\u{1B}[2Jb")]), .string("\u{0}"), .string("nul\u{0}tail"),
        .string("\u{1B}]0;pwned\u{7}"), .string("\u{9B}2J"), .string("../../etc/passwd"), .string("/etc/passwd"), .string("press-kit-and-screenshots"),
        .string("todo"), .string("done"), .string("bug"), .array([.string("bug")]), .array([.string("\u{0}")]), .string("9223372036854775000"),
        .string("-1"), .string("kanban://card/../../x"), .string("kanban://board"), .string("A title"),
    ]

    @Test func everyToolAndMethodIsListed() throws {
        #expect(Set(MCPTools.catalogue.map(\.name)) == Set(Self.tools), "a tool was added or removed: list it in MCPBoundaryTests.tools")
        #expect(Set(MCPServer.methods.keys) == Set(Self.methods), "a method was added or removed: list it in MCPBoundaryTests.methods")
    }

    @Test func everyToolAnswersBoundaryValuesAndARefusedCallChangesNothing() throws {
        try withTemporaryBoard(.sample) { board in
            let (server, _) = try MCPServerTests.server(board)
            var generator = SeededGenerator(seed: 3_434)
            var files = try board.files()
            var id = 1
            for name in Self.toolsCalledInProcess {
                let tool = try #require(MCPTools.catalogue.first { $0.name == name })
                let keys = tool.properties(nil).keys.sorted() + ["unknown"]
                for _ in 0..<(ServeBoundaryTests.generatedRounds * 5 / 2) {
                    var arguments: [String: JSON] = [:]
                    for _ in 0...Int.random(in: 0...3, using: &generator) {
                        arguments[keys.randomElement(using: &generator) ?? "unknown"] = Self.values.randomElement(using: &generator) ?? .null
                    }
                    id += 1
                    let answer = server.handle(.request(id: .number(String(id)), method: "tools/call",
                                                        params: .object(["name": .string(name), "arguments": .object(arguments)])))
                    let described = "\(name) \(JSON.object(arguments).rendered(pretty: false).prefix(300))"
                    let result = try #require(answer?["result"], "no result for \(described): \(String(describing: answer))")
                    let after = try board.files()
                    if result["isError"] == .bool(true) {
                        #expect(TemporaryBoard.changes(from: files, to: after).isEmpty, "a refused call changed files: \(described)")
                    }
                    files = after
                }
            }
            let check = try board.run(["doctor"])
            #expect(!check.stdout.contains("error:") && !check.stderr.contains("error:"), "\(check)")
        }
    }

    @Test func everyMethodAnswersBoundaryValues() throws {
        try withTemporaryBoard(.sample) { board in
            let (server, _) = try MCPServerTests.server(board)
            var generator = SeededGenerator(seed: 3_435)
            let files = try board.files()
            var id = 1
            for method in Self.methods where method != "tools/call" {
                for _ in 0..<(ServeBoundaryTests.generatedRounds * 2) {
                    var params: [String: JSON] = [:]
                    for _ in 0...Int.random(in: 0...3, using: &generator) {
                        params[Self.methodParameters.randomElement(using: &generator) ?? "cursor"] = Self.values.randomElement(using: &generator) ?? .null
                    }
                    id += 1
                    let answer = server.handle(.request(id: .number(String(id)), method: method, params: .object(params)))
                    let described = "\(method) \(JSON.object(params).rendered(pretty: false).prefix(300))"
                    if method == "subscriptions/listen" && answer == nil { continue }  // answered when the stream ends
                    #expect(answer?["result"] != nil || answer?["error"]?["code"] != nil, "no answer to \(described): \(String(describing: answer))")
                }
            }
            #expect(TemporaryBoard.changes(from: files, to: try board.files()).isEmpty, "a method that changes nothing changed files")
        }
    }

    @Test func aCursorPastAnyIntegerIsRefusedNotTrapped() throws {
        try withTemporaryBoard(.sample) { board in
            let (server, _) = try MCPServerTests.server(board)
            for cursor in ["9223372036854775000", "9223372036854775807", "99999999999999999999", "-1", "0", "x", "1001"] {
                let answer = server.handle(.request(id: .number("1"), method: "resources/list", params: .object(["cursor": .string(cursor)])))
                #expect(answer?["error"]?["code"] == .number("-32602"), "\(cursor): \(String(describing: answer))")
            }
            let first = server.handle(.request(id: .number("2"), method: "resources/list", params: .object([:])))
            #expect(first?["result"]?["resources"] != nil)
        }
    }

    @Test func argumentsOfTheWrongTypeAreRefusedAsTheSchemaSays() throws {
        try withTemporaryBoard(.sample) { board in
            let (server, _) = try MCPServerTests.server(board)
            let files = try board.files()
            for (tool, arguments) in [
                ("add_card", ["title": JSON.string("Typed"), "labels": .string("bug")]),
                ("update_card", ["card": .string("press-kit-and-screenshots"), "fields": .object(["points": .number("3")])]),
                ("update_card", ["card": .string("press-kit-and-screenshots"), "fields": .object(["done": .bool(true)])]),
                ("update_card", ["card": .string("press-kit-and-screenshots"), "title": .string("bell \u{7}")]),
                ("add_card", ["title": .string("esc \u{1B}[2J")]),
            ] {
                let answer = server.handle(.request(id: .number("1"), method: "tools/call",
                                                    params: .object(["name": .string(tool), "arguments": .object(arguments)])))
                #expect(answer?["result"]?["isError"] == .bool(true), "\(tool) \(arguments): \(String(describing: answer))")
            }
            #expect(TemporaryBoard.changes(from: files, to: try board.files()).isEmpty)
        }
    }

    @Test func syncRefusesBoundaryValuesToo() throws {
        try withTemporaryBoard(.sample) { board in
            let client = try MCPProcess(board: board)
            try client.initialize()
            for value in [9_223_372_036_854_775_807 as Any, "\u{0}", [1], ["x": 1], NSNull()] {
                let result = try client.callTool("sync", ["no_push": value])
                #expect(result["isError"] as? Bool == true, "\(value): \(result)")
            }
            #expect(try client.callTool("board")["isError"] as? Bool == false, "the server did not live: \(client)")
        }
    }
}
