import Foundation
import Testing

/// `kanban serve DIR...` with several boards: one server and one token, each board under `/b/<index>/`, the list at
/// `/` and `/api/boards`, and every check applied to every board.
@Suite struct ServeBoardsTests {
    /// The sample board (`board`) and a second one beside it (`second`, columns todo and done, one card), served together.
    static func withTwoBoards(arguments: [String] = [], _ body: (TemporaryBoard, ServeProcess, String) throws -> Void) throws {
        try withTemporaryBoard(.sample) { board in
            let second = board.root + "/second"
            let made = try runKanban(["init", second, "--title", "Second <i>board</i>", "--columns", "todo:To Do,done:Done"], in: board.root)
            #expect(made.status == 0, "\(made)")
            let added = try runKanban(["add", "Only card", "--board", second], in: board.root)
            #expect(added.status == 0, "\(added)")
            let server = try ServeProcess(board: board, arguments: [board.path, second] + arguments)
            try body(board, server, second)
        }
    }

    @Test func listsTheBoardsAndServesEachUnderItsPrefix() throws {
        try Self.withTwoBoards { _, server, _ in
            #expect(server.process.stdoutLines.first == "serving 2 boards at \(server.url)")
            let boards = try server.get("/api/boards")
            #expect(boards.status == 200, "\(boards)")
            let list = try #require(boards.json?["boards"] as? [[String: Any]])
            #expect(list.map { $0["name"] as? String } == ["board", "second"])
            #expect(list.map { $0["url"] as? String } == ["/b/0/", "/b/1/"])
            #expect(list.last?["title"] as? String == "Second <i>board</i>")
            let page = try server.get("/")
            #expect(page.status == 200 && page.text.contains("href=\"/b/1/\"") && page.text.contains("Second &lt;i&gt;board&lt;/i&gt;"), "\(page)")
            #expect(!page.text.contains("<i>board"))
            let first = try server.get("/b/0/api/board")
            #expect(first.json?["title"] as? String == "Lumen 2.0 Launch", "\(first)")
            let second = try server.get("/b/1/api/board")
            #expect(second.json?["title"] as? String == "Second <i>board</i>", "\(second)")
            #expect(try server.get("/b/1/").text.contains("board-picker"))
            // The report's links are relative, so that they stay under the board's prefix.
            let report = try server.get("/b/1/report")
            #expect(report.text.contains("<a href=\"./\">← Board</a>") && report.text.contains("action=\"report\""), "\(report)")
            #expect(try server.get("/b/2/api/board").status == 404)
            // A board is looked up by its index in the list, never used as a path.
            for path in ["/b/01x/api/board", "/b/-1/api/board", "/b/99999999999999999999/api/board", "/b/1.0/api/board", "/b/",
                         "/b/board/api/board", "/b/%2e%2e/api/board", "/b/0%2F..%2F1/api/board", "/b/%00/api/board"] {
                let response = try server.get(path)
                #expect(response.status == 404 || response.status == 400, "\(path): \(response)")
            }
            #expect(try server.get("/api/board").status == 404)
        }
    }

    @Test func aChangeLandsInTheBoardItsPrefixNames() throws {
        try Self.withTwoBoards { board, server, second in
            let created = try server.request("POST", "/b/1/api/cards", json: #"{"title": "Second card"}"#)
            #expect(created.status == 201, "\(created)")
            #expect(FileManager.default.fileExists(atPath: second + "/cards/todo/second-card.md"))
            #expect(!board.exists("cards/backlog/second-card.md") && !board.exists("cards/todo/second-card.md"))
            let moved = try server.request("POST", "/b/1/api/cards/only-card/move", json: #"{"column": "done"}"#)
            #expect(moved.status == 200, "\(moved)")
            #expect(FileManager.default.fileExists(atPath: second + "/cards/done/only-card.md"))
        }
    }

    @Test func everyCheckAppliesToEveryBoard() throws {
        try Self.withTwoBoards(arguments: ["--read-only"]) { _, server, second in
            for path in ["/", "/api/boards", "/b/0/api/board", "/b/1/api/board", "/b/1/", "/b/1/api/events"] {
                #expect(try server.request("GET", path, authorized: false).status == 401, "\(path)")
                let connection = try ServeConnection(port: server.port)
                connection.send("GET \(path) HTTP/1.1\r\nHost: evil.example:\(server.port)\r\nAuthorization: Bearer \(server.token)\r\nConnection: close\r\n\r\n")
                #expect(connection.readResponse()?.status == 403, "\(path)")
            }
            let visit = try server.request("GET", "/b/1/?token=\(server.token)", authorized: false)
            #expect(visit.status == 303 && visit.header("Location") == "/b/1", "\(visit)")
            let crossSite = try server.request("POST", "/b/1/api/cards", json: #"{"title": "X"}"#, headers: ["Origin": "http://evil.example"])
            #expect(crossSite.status == 403, "\(crossSite)")
            let readOnly = try server.request("POST", "/b/1/api/cards", json: #"{"title": "X"}"#)
            #expect(readOnly.status == 403 && readOnly.json?["error"] as? String == "read-only", "\(readOnly)")
            #expect(!FileManager.default.fileExists(atPath: second + "/cards/todo/x.md"))
            let page = try server.get("/b/0/")
            #expect(page.header("Content-Security-Policy")?.contains("script-src 'self'") == true)
        }
    }

    @Test func oneBoardGivenIsServedAsWithoutArguments() throws {
        try withTemporaryBoard(.sample) { board in
            let server = try ServeProcess(board: board, arguments: [board.path])
            #expect(server.process.stdoutLines.first == "serving \"Lumen 2.0 Launch\" at \(server.url)")
            #expect(try server.get("/api/board").json?["title"] as? String == "Lumen 2.0 Launch")
            #expect(try server.get("/api/boards").status == 404)
        }
    }

    @Test func aDirectoryWithoutBoardsOrBoardWithArgumentsIsRefused() throws {
        try withTemporaryBoard(.sample) { board in
            try FileManager.default.createDirectory(atPath: board.root + "/empty", withIntermediateDirectories: true)
            let empty = try board.run(["serve", "--no-open", board.root + "/empty"])
            #expect(empty.status == 1 && empty.stderr.contains("no board"), "\(empty)")
            let both = try board.run(["serve", "--no-open", "--board", board.path, board.path])
            #expect(both.status == 64, "\(both)")
        }
    }
}
