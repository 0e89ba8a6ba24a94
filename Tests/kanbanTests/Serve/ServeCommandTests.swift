import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `kanban serve` run as a process and spoken to over real sockets: the security checks, every API route on success
/// and failure, the live events, and traffic that must not stop it.
@Suite struct ServeCommandTests {
    static let card = "press-kit-and-screenshots"

    @Test func printsItsAddressAndStopsWithExitZeroOnSIGTERMAndSIGINT() throws {
        for signal in [SIGTERM, SIGINT] {
            try withTemporaryBoard(.sample) { board in
                let server = try ServeProcess(board: board)
                #expect(server.process.stdoutLines.first == "serving \"Lumen 2.0 Launch\" at \(server.url)")
                #expect(server.url.hasPrefix("http://127.0.0.1:"))
                #expect(server.token.count == 64)
                #expect(try server.stop(signal) == 0)
            }
        }
    }

    // MARK: Security

    @Test func theTokenInTheAddressBecomesACookieAndLeavesTheAddress() throws {
        try withTemporaryBoard(.sample) { board in
            let server = try ServeProcess(board: board)
            let visit = try server.request("GET", "/?token=\(server.token)", authorized: false)
            #expect(visit.status == 303, "\(visit)")
            #expect(visit.header("Location") == "/")
            let cookie = try #require(visit.header("Set-Cookie"))
            #expect(cookie.contains("kanban-token-\(server.port)=\(server.token)") && cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"))
            let page = try server.request("GET", "/", headers: ["Cookie": "kanban-token-\(server.port)=\(server.token)"], authorized: false)
            #expect(page.status == 200 && page.header("Content-Type")?.hasPrefix("text/html") == true, "\(page)")
            let csp = try #require(page.header("Content-Security-Policy"))
            #expect(csp.contains("script-src 'self'") && !csp.contains("unsafe-inline"))
            #expect(page.header("X-Content-Type-Options") == "nosniff")
            let wrong = try server.request("GET", "/?token=0000", authorized: false)
            #expect(wrong.status == 401)
        }
    }

    @Test func withoutTheTokenNothingOfTheBoardIsGiven() throws {
        try withTemporaryBoard(.sample) { board in
            let server = try ServeProcess(board: board)
            for path in ["/", "/api/board", "/api/cards/\(Self.card)", "/api/events", "/assets/index.html"] {
                let response = try server.request("GET", path, authorized: false)
                #expect(response.status == 401, "\(path): \(response)")
                #expect(!response.text.contains("Lumen") && !response.text.contains("Press kit"), "\(path): \(response)")
            }
            let wrongBearer = try server.request("GET", "/api/board", headers: ["Authorization": "Bearer nope"], authorized: false)
            #expect(wrongBearer.status == 401)
        }
    }

    @Test func aHostThatIsNotTheServedAddressIsRefused() throws {
        try withTemporaryBoard(.sample) { board in
            let server = try ServeProcess(board: board)
            for host in ["evil.example:\(server.port)", "127.0.0.1:1", "localhost.evil.example:\(server.port)"] {
                let connection = try ServeConnection(port: server.port)
                connection.send("GET /api/board HTTP/1.1\r\nHost: \(host)\r\nAuthorization: Bearer \(server.token)\r\n\r\n")
                let response = try #require(connection.readResponse())
                #expect(response.status == 403, "\(host): \(response)")
                #expect(!response.text.contains("Lumen"))
            }
            let localhost = try ServeConnection(port: server.port)
            localhost.send("GET /api/board HTTP/1.1\r\nHost: localhost:\(server.port)\r\nAuthorization: Bearer \(server.token)\r\n\r\n")
            #expect(localhost.readResponse()?.status == 200)
        }
    }

    @Test func aChangeMustBeJSONFromThePagesOwnOrigin() throws {
        try withTemporaryBoard(.sample) { board in
            let server = try ServeProcess(board: board)
            let form = try server.request("POST", "/api/cards", headers: ["Content-Type": "application/x-www-form-urlencoded"])
            #expect(form.status == 415, "\(form)")
            let foreign = try server.request("POST", "/api/cards", json: #"{"title":"x"}"#, headers: ["Origin": "http://evil.example"])
            #expect(foreign.status == 403, "\(foreign)")
            let crossSite = try server.request("POST", "/api/cards", json: #"{"title":"x"}"#, headers: ["Sec-Fetch-Site": "cross-site"])
            #expect(crossSite.status == 403, "\(crossSite)")
            let own = try server.request("POST", "/api/cards", json: #"{"title":"Mine"}"#, headers: ["Origin": "http://127.0.0.1:\(server.port)"])
            #expect(own.status == 201, "\(own)")
            #expect(board.exists("cards/backlog/mine.md"))
            #expect(!board.exists("cards/backlog/x.md"))
        }
    }

    @Test func readOnlyRefusesEveryChange() throws {
        try withTemporaryBoard(.sample) { board in
            let before = try board.files()
            let server = try ServeProcess(board: board, arguments: ["--read-only"])
            #expect(try server.get("/api/board").json?["readOnly"] as? Bool == true)
            for (method, path) in [("POST", "/api/cards"), ("PATCH", "/api/cards/\(Self.card)"), ("DELETE", "/api/cards/\(Self.card)"),
                                   ("POST", "/api/cards/\(Self.card)/move"), ("POST", "/api/columns"), ("POST", "/api/sync")] {
                let response = try server.request(method, path, json: #"{"title":"x","column":"done","id":"x"}"#)
                #expect(response.status == 403 && response.json?["error"] as? String == "read-only", "\(method) \(path): \(response)")
            }
            #expect(try board.files() == before)
        }
    }

    @Test func boardTextIsDataNeverMarkup() throws {
        try withTemporaryBoard(.sample) { board in
            let server = try ServeProcess(board: board)
            let created = try server.request("POST", "/api/cards", json: #"{"title":"<img src=x onerror=alert(1)>","body":"<script>alert(2)</script>"}"#)
            #expect(created.status == 201, "\(created)")
            #expect(created.header("Content-Type") == "application/json; charset=utf-8")
            #expect(created.json?["title"] as? String == "<img src=x onerror=alert(1)>")
            // The page is a fixed file: nothing of the board is in it.
            let page = try server.get("/")
            #expect(!page.text.contains("onerror"))
        }
    }

    // MARK: The API

    @Test func theBoardAsBoardJSONWithExcerptsTemplateAndProblems() throws {
        try withTemporaryBoard(.sample) { board in
            try board.write("---\ntitle: x\nlabels: [a\n", to: "cards/todo/broken.md")
            let server = try ServeProcess(board: board)
            let response = try server.get("/api/board")
            #expect(response.status == 200)
            let json = try #require(response.json)
            #expect(json["title"] as? String == "Lumen 2.0 Launch")
            let columns = try #require(json["columns"] as? [[String: Any]])
            #expect(columns.map { $0["id"] as? String } == ["backlog", "todo", "in-progress", "review", "done"])
            let cards = columns.flatMap { ($0["cards"] as? [[String: Any]]) ?? [] }
            #expect(cards.count == 25)
            #expect(cards.allSatisfy { $0["excerpt"] is String && $0["slug"] is String && $0["body"] == nil })
            #expect((json["labels"] as? [[String: Any]])?.count == 6)
            #expect((json["template"] as? String)?.contains("## Description") == true)
            let problems = try #require(json["problems"] as? [[String: Any]])
            #expect(problems.first?["path"] as? String == "cards/todo/broken.md", "\(problems)")
            let archive = try server.get("/api/archive").json?["cards"] as? [[String: Any]]
            #expect(archive?.count == 4)
        }
    }

    @Test func aCardWithItsBodyAndVersionAndNotFound() throws {
        try withTemporaryBoard(.sample) { board in
            let server = try ServeProcess(board: board)
            let card = try server.get("/api/cards/press-kit")
            #expect(card.status == 200, "\(card)")
            #expect(card.json?["slug"] as? String == Self.card)
            #expect((card.json?["body"] as? String)?.isEmpty == false)
            #expect((card.json?["version"] as? String)?.hasPrefix("v") == true)
            let missing = try server.get("/api/cards/no-such-card")
            #expect(missing.status == 404 && missing.json?["error"] as? String == "card-not-found", "\(missing)")
            #expect((missing.json?["message"] as? String)?.isEmpty == false)
            let escape = try server.get("/api/cards/..%2F..%2Fboard")
            #expect(escape.status == 400, "\(escape)")
            let unknown = try server.get("/api/nothing")
            #expect(unknown.status == 404 && unknown.json?["error"] as? String == "not-found")
        }
    }

    @Test func createUpdateMoveArchiveUnarchiveDeleteAndRestore() throws {
        try withTemporaryBoard(.sample) { board in
            let server = try ServeProcess(board: board)
            let created = try server.request("POST", "/api/cards", json: #"{"title":"Write the tour","column":"todo","labels":["docs"],"placement":"top"}"#)
            #expect(created.status == 201, "\(created)")
            #expect(board.exists("cards/todo/write-the-tour.md"))
            let version = try #require(created.json?["version"] as? String)

            let patched = try server.request("PATCH", "/api/cards/write-the-tour",
                                             json: #"{"version":"\#(version)","title":"Write the README tour","body":"Steps.\n","fields":{"assignee":"mei"}}"#)
            #expect(patched.status == 200, "\(patched)")
            let text = try board.text("cards/todo/write-the-tour.md")
            #expect(text.contains("title: Write the README tour") && text.contains("assignee: mei") && text.hasSuffix("Steps.\n"), "\(text)")

            // The first version is stale now: the edit is refused and the card as it is comes back.
            let stale = try server.request("PATCH", "/api/cards/write-the-tour", json: #"{"version":"\#(version)","title":"Lost?"}"#)
            #expect(stale.status == 409, "\(stale)")
            #expect((stale.json?["card"] as? [String: Any])?["title"] as? String == "Write the README tour")
            #expect(try board.text("cards/todo/write-the-tour.md") == text)

            let moved = try server.request("POST", "/api/cards/write-the-tour/move", json: #"{"column":"review","after":"onboarding-flow-redesign"}"#)
            #expect(moved.status == 200, "\(moved)")
            #expect(board.exists("cards/review/write-the-tour.md") && !board.exists("cards/todo/write-the-tour.md"))
            let review = try #require((try server.get("/api/board").json?["columns"] as? [[String: Any]])?.first { $0["id"] as? String == "review" })
            let order = (review["cards"] as? [[String: Any]])?.compactMap { $0["slug"] as? String } ?? []
            #expect(order.prefix(2) == ["onboarding-flow-redesign", "write-the-tour"], "\(order)")

            let archived = try server.request("POST", "/api/cards/write-the-tour/archive", json: "{}")
            #expect(archived.status == 200 && (archived.json?["path"] as? String)?.hasPrefix("archive/") == true, "\(archived)")
            let unarchived = try server.request("POST", "/api/cards/write-the-tour/unarchive", json: #"{"column":"done"}"#)
            #expect(unarchived.status == 200 && unarchived.json?["path"] as? String == "cards/done/write-the-tour.md", "\(unarchived)")

            let before = try board.text("cards/done/write-the-tour.md")
            let deleted = try server.request("DELETE", "/api/cards/write-the-tour")
            #expect(deleted.status == 200 && deleted.json?["text"] as? String == before, "\(deleted)")
            #expect(!board.exists("cards/done/write-the-tour.md"))
            let restored = try server.request("POST", "/api/cards/restore", json: String(decoding: try JSONSerialization.data(withJSONObject: [
                "path": "cards/done/write-the-tour.md", "text": before]), as: UTF8.self))
            #expect(restored.status == 201, "\(restored)")
            #expect(try board.text("cards/done/write-the-tour.md") == before)
        }
    }

    @Test func badArgumentsAreClearErrorsAndChangeNothing() throws {
        try withTemporaryBoard(.sample) { board in
            let before = try board.files()
            let server = try ServeProcess(board: board)
            let cases: [(String, String, String, Int)] = [
                ("POST", "/api/cards", "not json", 400),
                ("POST", "/api/cards", "[1]", 400),
                ("POST", "/api/cards", "{}", 400),
                ("POST", "/api/cards", #"{"title":"x","column":"nope"}"#, 400),
                ("POST", "/api/cards", #"{"title":"x","labels":"bug"}"#, 400),
                ("POST", "/api/cards", #"{"title":"x","placement":"middle"}"#, 400),
                ("POST", "/api/cards/\(Self.card)/move", #"{"column":"nope"}"#, 400),
                ("POST", "/api/cards/\(Self.card)/move", "{}", 400),
                ("PATCH", "/api/cards/\(Self.card)", #"{"fields":{"title":"x"}}"#, 400),
                ("POST", "/api/cards/restore", #"{"path":"../../etc/passwd","text":"x"}"#, 400),
                ("POST", "/api/columns", #"{"id":"../x"}"#, 400),
                ("DELETE", "/api/columns/done", "{}", 409),
                ("POST", "/api/labels", #"{"id":"bad label"}"#, 400),
            ]
            for (method, path, body, status) in cases {
                let response = try server.request(method, path, json: body)
                #expect(response.status == status, "\(method) \(path) \(body): \(response)")
                #expect(response.json?["error"] is String && response.json?["message"] is String, "\(response)")
            }
            let search = try server.get("/api/search?q=%22unclosed")
            #expect(search.status == 400, "\(search)")
            #expect(try board.files() == before)
        }
    }

    @Test func columnsLabelsSearchAndStatus() throws {
        try withTemporaryBoard(.sample) { board in
            let server = try ServeProcess(board: board)
            #expect(try server.request("POST", "/api/columns", json: #"{"id":"qa","name":"QA","index":4}"#).status == 200)
            #expect(try server.request("PATCH", "/api/columns/qa", json: #"{"name":"Quality","collapsed":true}"#).status == 200)
            let moved = try server.request("POST", "/api/columns/qa/move", json: #"{"index":0}"#)
            let columns = (moved.json?["columns"] as? [[String: Any]])?.compactMap { $0["id"] as? String }
            #expect(columns?.first == "qa", "\(moved)")
            #expect(try server.request("DELETE", "/api/columns/qa", json: "{}").status == 200)
            #expect(try server.request("POST", "/api/labels", json: ##"{"id":"ux","name":"UX","color":"#112233"}"##).status == 200)
            #expect(try server.request("PATCH", "/api/labels/ux", json: ##"{"color":"#445566"}"##).status == 200)
            let labels = try server.request("POST", "/api/labels/ux/move", json: #"{"index":0}"#).json?["labels"] as? [[String: Any]]
            #expect(labels?.first?["id"] as? String == "ux" && labels?.first?["color"] as? String == "#445566", "\(String(describing: labels))")
            #expect(try server.request("DELETE", "/api/labels/ux", json: #"{"strip":true}"#).status == 200)
            #expect(!(try board.text("board.md")).contains("ux"))
            let hits = try server.get("/api/search?q=thumbnail%20-column:done").json?["slugs"] as? [String]
            #expect(hits?.contains("crash-on-launch-corrupted-thumbnail-cache") == true, "\(String(describing: hits))")
            let status = try server.get("/api/status")
            #expect(status.status == 200 && status.json?["state"] as? String == "not-a-repository", "\(status)")
        }
    }

    @Test func withCommitEachChangeIsOneCommit() throws {
        try withTemporaryBoard(.sample) { board in
            let environment = KanbanProcess.baseEnvironment(home: board.root)
            func git(_ arguments: [String]) throws -> String {
                try runProgram("/usr/bin/env", ["git", "-C", board.path] + arguments, environment: environment.merging([
                    "GIT_AUTHOR_NAME": "T", "GIT_AUTHOR_EMAIL": "t@e", "GIT_COMMITTER_NAME": "T", "GIT_COMMITTER_EMAIL": "t@e",
                ]) { $1 }).output
            }
            _ = try git(["init", "-q"])
            _ = try git(["add", "-A"])
            _ = try git(["commit", "-qm", "Board"])
            let server = try ServeProcess(board: board, arguments: ["--commit"],
                                          environment: ["GIT_AUTHOR_NAME": "T", "GIT_AUTHOR_EMAIL": "t@e", "GIT_COMMITTER_NAME": "T", "GIT_COMMITTER_EMAIL": "t@e"])
            let moved = try server.request("POST", "/api/cards/\(Self.card)/move", json: #"{"column":"done"}"#)
            #expect(moved.status == 200, "\(moved)")
            let log = try git(["log", "--format=%s"])
            #expect(log.hasPrefix("Move \"Press kit and screenshots\" from To Do to Done\n"), "\(log)")
            #expect(try git(["status", "--porcelain"]).isEmpty)
            // The Report view: kanban report's HTML, which may style itself but run nothing.
            let report = try server.get("/report")
            #expect(report.status == 200 && report.text.contains("<svg"), "\(report)")
            let policy = try #require(report.header("Content-Security-Policy"))
            #expect(policy.hasPrefix("default-src 'none'") && !policy.contains("script"), "\(policy)")
        }
    }

    @Test func theReportViewNeedsGitHistory() throws {
        try withTemporaryBoard(.sample) { board in
            let server = try ServeProcess(board: board)
            let report = try server.get("/report")
            #expect(report.status == 422 && report.text.contains("git history"), "\(report)")
        }
    }

    @Test func anExternalEditArrivesOverTheEventStream() throws {
        try withTemporaryBoard(.sample) { board in
            let server = try ServeProcess(board: board)
            let stream = try ServeConnection(port: server.port)
            stream.send("GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nAuthorization: Bearer \(server.token)\r\n\r\n")
            let head = try #require(stream.readResponse())
            #expect(head.status == 200 && head.header("Content-Type")?.hasPrefix("text/event-stream") == true, "\(head)")
            _ = stream.readStream { $0.contains(": connected") }
            let path = "cards/todo/press-kit-and-screenshots.md"
            try board.write(try board.text(path).replacingOccurrences(of: "title: Press kit and screenshots", with: "title: Press kit, final"), to: path)
            let text = stream.readStream { $0.contains("\"event\":\"modified\"") && $0.contains("\n\n") }
            let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("data: ") && $0.contains("modified") }, "\(text)")
            let event = try #require(try JSONSerialization.jsonObject(with: Data(line.dropFirst(6).utf8)) as? [String: Any])
            #expect(event["slug"] as? String == Self.card)
            #expect((event["card"] as? [String: Any])?["title"] as? String == "Press kit, final")
            #expect((event["changes"] as? [String])?.contains("title") == true)
        }
    }

    // MARK: Bad traffic

    @Test func garbageOversizeAndSlowClientsNeverStopTheServer() throws {
        try withTemporaryBoard(.sample) { board in
            let server = try ServeProcess(board: board, arguments: ["--request-timeout", "1"])
            // Garbage: 400, and the connection is closed.
            let garbage = try ServeConnection(port: server.port)
            garbage.send([0x00, 0xFF, 0x13, 0x37] + Array("\r\n\r\n".utf8))
            #expect(garbage.readResponse()?.status == 400)
            // A header block over 16 KiB: 431 before it ends.
            let big = try ServeConnection(port: server.port)
            big.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX: " + String(repeating: "a", count: 20_000))
            #expect(big.readResponse()?.status == 431)
            // A body over the limit: 413 without reading it.
            let huge = try ServeConnection(port: server.port)
            huge.send("POST /api/cards HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nContent-Type: application/json\r\nContent-Length: 999999999\r\n\r\n")
            #expect(huge.readResponse()?.status == 413)
            // A client that sends a byte and stops: closed after the request timeout, while others are served.
            let slow = try ServeConnection(port: server.port)
            slow.send("G")
            #expect(try server.get("/api/board").status == 200)
            #expect(slow.readResponse()?.status == 408)
            // Clients that vanish mid-stream.
            for _ in 0..<5 {
                let stream = try ServeConnection(port: server.port)
                stream.send("GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nAuthorization: Bearer \(server.token)\r\n\r\n")
                _ = stream.readResponse()
            }
            #expect(try server.get("/api/board").status == 200)
            #expect(try server.stop() == 0)
        }
    }

    @Test func fiveHundredConnectionsAtOnceAreAllAnswered() throws {
        try withTemporaryBoard(.sample) { board in
            let server = try ServeProcess(board: board)
            var connections: [ServeConnection] = []
            for _ in 0..<500 { connections.append(try ServeConnection(port: server.port)) }
            for connection in connections {
                connection.send("GET /api/status HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nAuthorization: Bearer \(server.token)\r\nConnection: close\r\n\r\n")
            }
            var answered = 0
            for connection in connections where connection.readResponse()?.status == 200 { answered += 1 }
            #expect(answered == 500)
            #expect(try server.get("/api/board").status == 200)
        }
    }

    @Test func keepAliveServesSeveralRequestsOnOneConnection() throws {
        try withTemporaryBoard(.sample) { board in
            let server = try ServeProcess(board: board)
            let connection = try ServeConnection(port: server.port)
            let request = "GET /api/status HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nAuthorization: Bearer \(server.token)\r\n\r\n"
            connection.send(request + request)
            #expect(connection.readResponse()?.status == 200)
            #expect(connection.readResponse()?.status == 200)
            connection.send(request)
            #expect(connection.readResponse()?.header("Connection") == "keep-alive")
        }
    }

    @Test(arguments: [(["--port", "70000"], "--port"), (["--port", "x"], "--port"), (["--bind", "not-an-address"], "not-an-address")])
    func badOptionsAreErrors(arguments: [String], mentions: String) throws {
        try withTemporaryBoard(.sample) { board in
            let result = try board.run(["serve", "--no-open"] + arguments)
            #expect(result.status != 0, "\(result)")
            #expect(result.stderr.contains(mentions), "\(result)")
            #expect(result.stdout.isEmpty)
        }
    }

    @Test func helpDescribesTheCommand() throws {
        try withTemporaryBoard(.sample) { board in
            let result = try board.run(["serve", "--help"])
            #expect(result.status == 0)
            #expect(result.stdout.contains("USAGE: kanban serve") && result.stdout.contains("--read-only") && result.stdout.contains("token"))
        }
    }
}
