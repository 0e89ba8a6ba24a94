import Foundation
import KanbanCore
import KanbanTestSupport
import Testing

@testable import KanbanServer
@testable import kanban

/// WIP limits through the page's API and the MCP tools: the limit in the board each gives, the warning of a change
/// that goes over it, and a strict board's refusal.
@Suite struct WIPLimitSurfaceTests {
    @Test func thePageSetsALimitSeesItAndIsWarned() throws {
        try withTemporaryBoard(.sample) { board in
            let server = try ServeProcess(board: board)
            let set = try server.request("PATCH", "/api/columns/review", json: #"{"limit":4,"queue":true}"#)
            #expect(set.status == 200, "\(set)")
            #expect(try board.text("board.md").contains("    name: Review\n    wip-limit: 4\n    queue: true\n"))
            let columns = try #require(try server.get("/api/board").json?["columns"] as? [[String: Any]])
            let review = try #require(columns.first { $0["id"] as? String == "review" })
            #expect(review["limit"] as? Int == 4 && review["queue"] as? Bool == true, "\(review)")
            let moved = try server.request("POST", "/api/cards/press-kit-and-screenshots/move", json: #"{"column":"review"}"#)
            #expect(moved.status == 200, "\(moved)")
            #expect(moved.json?["warning"] as? String == "column 'review' holds 5 cards, over its WIP limit of 4")
            // Numbers out of range are refused before anything is written.
            let before = try board.files()
            for body in [#"{"limit":0}"#, #"{"limit":-1}"#, #"{"limit":1e300}"#, #"{"limit":"4"}"#, #"{"limit":100001}"#, #"{"queue":"yes"}"#] {
                let refused = try server.request("PATCH", "/api/columns/review", json: body)
                #expect(refused.status == 400, "\(body): \(refused)")
            }
            #expect(try board.files() == before)
            let removed = try server.request("PATCH", "/api/columns/review", json: #"{"limit":null}"#)
            #expect(removed.status == 200, "\(removed)")
            #expect(!(try board.text("board.md").contains("wip-limit")))
        }
    }

    @Test func aStrictBoardRefusesThePageWithAConflict() throws {
        try withTemporaryBoard(.sample) { board in
            let text = try board.text("board.md").replacingOccurrences(of: "title: Lumen 2.0 Launch\n", with: "title: Lumen 2.0 Launch\nwip-limits: strict\n")
                .replacingOccurrences(of: "    name: Review\n", with: "    name: Review\n    wip-limit: 4\n")
            try board.write(text, to: "board.md")
            let server = try ServeProcess(board: board)
            let before = try board.files()
            let refused = try server.request("POST", "/api/cards", json: #"{"title":"More","column":"review"}"#)
            #expect(refused.status == 409 && refused.json?["error"] as? String == "over-limit", "\(refused)")
            #expect(try board.files() == before)
        }
    }

    @Test func anAgentSeesTheLimitAndIsTold() throws {
        try withTemporaryBoard(.sample) { board in
            try board.write(try board.text("board.md").replacingOccurrences(of: "    name: Review\n", with: "    name: Review\n    wip-limit: 4\n"), to: "board.md")
            let (server, _) = try MCPServerTests.server(board)
            func call(_ name: String, _ arguments: [String: JSON]) -> JSON? {
                server.handle(.request(id: .number("1"), method: "tools/call", params: .object([
                    "_meta": MCPServerTests.stateless, "name": .string(name), "arguments": .object(arguments),
                ])))?["result"]
            }
            let overview = call("board", [:])?["structuredContent"]?["columns"]
            let review = try #require(overview?.arrayValue?.first { $0["id"] == .string("review") })
            #expect(review["limit"] == .number("4") && review["count"] == .number("4"))
            let moved = call("move_card", ["card": .string("press-kit-and-screenshots"), "column": .string("review")])
            #expect(moved?["isError"] == .bool(false))
            #expect(moved?["structuredContent"]?["overLimit"] == .string("column 'review' holds 5 cards, over its WIP limit of 4"))
        }
    }
}
