import Foundation
import KanbanTestSupport
import Testing

@testable import kanban

/// `kanban serve DIR...` with several boards, attacked as ``ServeBoundaryTests`` and ``ServeAttackTests`` attack one:
/// every route of every board behind the token, Host and Origin checks; hostile board segments refused with nothing
/// written; a change kept to the board its prefix names; each board's events on its own stream; the list of boards
/// escaped.
@Suite struct ServeBoardsAttackTests {
    /// Three boards beside one another in one temporary directory, served together, and how to look at their files.
    struct Boards {
        let root: String
        /// The boards' directories, in the order served (`/b/0/`, `/b/1/`, `/b/2/`).
        let directories: [String]
        let server: ServeProcess

        /// Every file of every board (and anything else under the temporary directory), by path under it; but for the
        /// boards' indexes in `~/.cache/kanban`, which the server writes on a thread of its own whenever it reads a board.
        func files() throws -> [String: [UInt8]] { try TemporaryBoard.files(under: root).filter { !$0.key.hasPrefix(".cache/kanban/") } }

        /// The files of board `index` only.
        func files(ofBoard index: Int) throws -> [String: [UInt8]] { try TemporaryBoard.files(under: directories[index]) }
    }

    /// The title of the second board and the name of the third: what a hostile repository could hold.
    static let hostileTitle = "<script>alert(1)</script>"
    static let hostileName = #"we"<>&'ird"#

    /// Serves the sample board (`/b/0/`), a copy of it titled ``hostileTitle`` (`/b/1/`) and an empty board in a
    /// directory named ``hostileName`` (`/b/2/`).
    /// - Parameter prepare: What to do in the temporary directory before the server starts (make it a repository).
    static func withThreeBoards(arguments: [String] = [], environment: [String: String] = [:], prepare: (String) throws -> Void = { _ in },
                                _ body: (Boards) throws -> Void) throws {
        try withTemporaryBoard(.sample) { board in
            let second = board.root + "/second"
            try FileManager.default.copyItem(atPath: board.path, toPath: second)
            let settings = second + "/board.md"
            let text = try String(contentsOfFile: settings, encoding: .utf8)
            try #require(text.contains("title: Lumen 2.0 Launch\n"))
            try text.replacingOccurrences(of: "title: Lumen 2.0 Launch\n", with: "title: \(hostileTitle)\n")
                .write(toFile: settings, atomically: true, encoding: .utf8)
            let third = board.root + "/" + hostileName
            let made = try runKanban(["init", third, "--title", "Third", "--columns", "todo:To Do,done:Done"], in: board.root)
            try #require(made.status == 0, "\(made)")
            try prepare(board.root)
            let server = try ServeProcess(board: board, arguments: [board.path, second, third] + arguments, environment: environment)
            let listed = try #require(try server.get("/api/boards").json?["boards"] as? [[String: Any]])
            try #require(listed.map { $0["name"] as? String } == ["board", "second", hostileName], "\(listed)")
            try body(Boards(root: board.root, directories: [board.path, second, third], server: server))
            #expect(try server.stop() == 0)
        }
    }

    /// A body that a route would accept on the sample board (the card, column and label named by
    /// ``ServeBoundaryTests/validParameter(_:)``).
    static let validBodies: [String: String] = [
        "POST /api/sync": "{}",
        "POST /api/cards": #"{"title":"Landed here"}"#,
        "POST /api/cards/restore": #"{"path":"cards/todo/restored-here.md","text":"---\ntitle: Restored here\ncolumn: todo\n---\n"}"#,
        "PATCH /api/cards/:card": #"{"title":"Renamed here"}"#,
        "DELETE /api/cards/:card": "{}",
        "POST /api/cards/:card/move": #"{"column":"done"}"#,
        "POST /api/cards/:card/archive": "{}",
        "POST /api/cards/:card/unarchive": #"{"column":"todo"}"#,
        "POST /api/columns": #"{"id":"later","name":"Later"}"#,
        "PATCH /api/columns/:column": #"{"name":"Next up"}"#,
        "POST /api/columns/:column/move": #"{"index":0}"#,
        "DELETE /api/columns/:column": #"{"moveCardsTo":"backlog"}"#,
        "POST /api/labels": #"{"id":"urgent","name":"Urgent"}"#,
        "PATCH /api/labels/:label": #"{"name":"Defect"}"#,
        "POST /api/labels/:label/move": #"{"index":0}"#,
        "DELETE /api/labels/:label": #"{"strip":true}"#,
    ]

    /// Every route of one board as `(method, path under the board's prefix)`, its parameters naming something on the
    /// sample board.
    static let boardRoutes: [(method: String, path: String)] = ServeBoundaryTests.routes.keys.sorted().map { signature in
        let parts = signature.split(separator: " ", maxSplits: 1).map(String.init)
        let path = parts[1].split(separator: "/").map { $0.hasPrefix(":") || $0 == "*" ? ServeBoundaryTests.validParameter($0) : String($0) }
            .joined(separator: "/")
        return (parts[0], path)
    }

    /// Every path the server answers: each board's routes under its prefix, and the list of boards.
    static func everyRoute(boards: Int) -> [(method: String, path: String)] {
        [("GET", "/"), ("GET", "/api/boards")] + (0..<boards).flatMap { index in
            boardRoutes.map { ($0.method, "/b/\(index)/" + $0.path) }
        }
    }

    /// Sends raw `lines` (the head, without its end) and `body` on a new connection.
    static func send(_ server: ServeProcess, _ lines: [String], body: String = "") throws -> ServeResponse? {
        let connection = try ServeConnection(port: server.port)
        let head = (lines + ["Connection: close", "Content-Length: \(body.utf8.count)"]).joined(separator: "\r\n")
        connection.send(head + "\r\n\r\n" + body)
        return connection.readResponse()
    }

    @Test(arguments: [false, true])
    func everyRouteOfEveryBoardRefusesAStranger(readOnly: Bool) throws {
        try Self.withThreeBoards(arguments: readOnly ? ["--read-only"] : []) { boards in
            let server = boards.server
            let before = try boards.files()
            let host = "Host: 127.0.0.1:\(server.port)"
            let bearer = "Authorization: Bearer \(server.token)"
            for (method, path) in Self.everyRoute(boards: 3) {
                let changes = method != "GET"
                let body = changes ? "{}" : ""
                let json = changes ? ["Content-Type: application/json"] : []
                let described = "\(method) \(path)"
                let missing = try Self.send(server, ["\(method) \(path) HTTP/1.1", host] + json, body: body)
                #expect(missing?.status == 401, "no token: \(described): \(String(describing: missing))")
                let wrong = try Self.send(server, ["\(method) \(path) HTTP/1.1", host, "Authorization: Bearer \(String(server.token.reversed()))"] + json,
                                          body: body)
                #expect(wrong?.status == 401, "a wrong token: \(described): \(String(describing: wrong))")
                let cookie = try Self.send(server, ["\(method) \(path) HTTP/1.1", host, "Cookie: kanban-token-\(server.port)=\(server.token.prefix(63))"] + json,
                                           body: body)
                #expect(cookie?.status == 401, "a cut token in the cookie: \(described): \(String(describing: cookie))")
                for foreign in ["evil.example:\(server.port)", "127.0.0.1:\(server.port).evil.example", "127.0.0.1", "127.0.0.1:\(server.port + 1)"] {
                    let response = try Self.send(server, ["\(method) \(path) HTTP/1.1", "Host: \(foreign)", bearer] + json, body: body)
                    #expect(response?.status == 403, "Host \(foreign): \(described): \(String(describing: response))")
                }
                if method == "GET" {
                    let inAddress = try Self.send(server, ["GET \(path)?token=\(String(server.token.reversed())) HTTP/1.1", host])
                    #expect(inAddress?.status == 401, "a wrong token in the address: \(described): \(String(describing: inAddress))")
                } else {
                    for origin in ["http://evil.example", "null", "http://127.0.0.1:\(server.port).evil.example", "https://127.0.0.1:\(server.port)"] {
                        let response = try Self.send(server, ["\(method) \(path) HTTP/1.1", host, bearer, "Origin: \(origin)"] + json, body: body)
                        #expect(response?.status == 403, "Origin \(origin): \(described): \(String(describing: response))")
                    }
                    let crossSite = try Self.send(server, ["\(method) \(path) HTTP/1.1", host, bearer, "Sec-Fetch-Site: cross-site"] + json, body: body)
                    #expect(crossSite?.status == 403, "cross-site: \(described): \(String(describing: crossSite))")
                    let form = try Self.send(server, ["\(method) \(path) HTTP/1.1", host, bearer, "Content-Type: text/plain"], body: body)
                    #expect(form?.status == 415, "not JSON: \(described): \(String(describing: form))")
                    if readOnly {
                        let bare = "/" + path.split(separator: "/").dropFirst(2).joined(separator: "/")
                        let signature = ServeBoundaryTests.routes.keys.first { $0 == "\(method) \(bare)" }
                            ?? ServeBoundaryTests.routes.keys.first { Self.matches($0, "\(method) \(bare)") }
                        let valid = signature.flatMap { Self.validBodies[$0] } ?? "{}"
                        let refused = try server.request(method, path, json: valid)
                        #expect(refused.status == 403 && refused.json?["error"] as? String == "read-only", "read-only: \(described): \(refused)")
                    }
                }
            }
            #expect(TemporaryBoard.changes(from: before, to: try boards.files()).isEmpty, "a refused request wrote")
            #expect(try server.get("/api/boards").status == 200, "the server did not live: \(server.process)")
        }
    }

    /// A script that calls a board's API with no token or a wrong one is answered as the API answers errors
    /// (`{"error", "message"}`), as it is with one board; this failed before: under `/b/<index>/api/` the answer was
    /// the page's plain-text note.
    @Test func aBoardsAPIRefusesAStrangerInJSON() throws {
        try Self.withThreeBoards { boards in
            let server = boards.server
            let routes = Self.everyRoute(boards: 3).filter { $0.path.hasPrefix("/api/") || $0.path.contains("/api/") }
            #expect(routes.count > 3 * 20)
            for (method, path) in routes {
                for headers in [[:], ["Authorization": "Bearer \(String(server.token.reversed()))"]] {
                    let response = try server.request(method, path, json: method == "GET" ? nil : "{}", headers: headers, authorized: false)
                    #expect(response.status == 401 && response.json?["error"] as? String == "unauthorized"
                            && response.header("Content-Type")?.hasPrefix("application/json") == true, "\(method) \(path): \(response)")
                }
            }
            // The pages are still answered for a person, in words.
            for path in ["/", "/b/1/", "/b/1/report"] {
                let response = try server.request("GET", path, authorized: false)
                #expect(response.status == 401 && response.header("Content-Type")?.hasPrefix("text/plain") == true, "\(path): \(response)")
            }
        }
    }

    /// Whether `request` (`METHOD /path`) is the route `signature` with its parameters filled in.
    static func matches(_ signature: String, _ request: String) -> Bool {
        let pattern = signature.split(separator: "/", omittingEmptySubsequences: false)
        let given = request.split(separator: "/", omittingEmptySubsequences: false)
        return pattern.count == given.count && zip(pattern, given).allSatisfy { $0 == $1 || $0.hasPrefix(":") }
    }

    /// Board segments that name no board: negative, past the list, not decimal, dot segments, encoded separators,
    /// huge, signed, spaced, or digits of another script.
    static let hostileSegments = [
        "-1", "3", "99", "01", "00", "001", "1e3", "0x1", "0b1", "1.0", "%2e%2e", "..", ".", "0/../1", "0%2F..%2F1", "1%2F", "%00", "0%00",
        String(repeating: "9", count: 40), "1" + String(repeating: "0", count: 19), "18446744073709551616", "9223372036854775807",
        "+1", "%2B1", "%201", "1%20", "%091", "%D9%A1", "١", "%EF%BC%91", "%E2%91%A0", "%F0%9D%9F%8F", "0,1", "0;1", "1#",
        "%FF", "%", "%2", "board", "second", "b", "%2e", "~1", "1.", String(repeating: "1", count: 7),
    ]

    @Test func hostileBoardSegmentsAreRefusedWithNothingWritten() throws {
        try Self.withThreeBoards { boards in
            let server = boards.server
            let before = try boards.files()
            let requests: [(String, String, String?)] = [
                ("GET", "", nil), ("GET", "api/board", nil), ("GET", "api/events", nil), ("GET", "report", nil), ("GET", "assets/app.css", nil),
                ("POST", "api/cards", #"{"title":"Stray"}"#), ("PATCH", "api/cards/press-kit-and-screenshots", #"{"title":"Stray"}"#),
                ("DELETE", "api/cards/press-kit-and-screenshots", "{}"), ("POST", "api/cards/press-kit-and-screenshots/move", #"{"column":"done"}"#),
                ("POST", "api/columns", #"{"id":"stray"}"#), ("DELETE", "api/labels/bug", "{}"), ("POST", "api/sync", "{}"),
            ]
            for segment in Self.hostileSegments {
                for (method, rest, json) in requests {
                    let path = "/b/\(segment)/\(rest)"
                    let response = try Self.send(server, ["\(method) \(path) HTTP/1.1", "Host: 127.0.0.1:\(server.port)", "Authorization: Bearer \(server.token)",
                                                          "Content-Type: application/json"], body: json ?? "")
                    let status = try #require(response?.status, "no answer to \(method) \(path): \(server.process)")
                    #expect(status == 404 || status == 400, "\(method) \(path): \(String(describing: response))")
                }
            }
            // And the prefix alone, or with nothing after it.
            for path in ["/b", "/b/", "/b//api/board", "/b/%2F/api/board"] {
                let response = try server.request("POST", path, json: #"{"title":"Stray"}"#)
                #expect(response.status == 404 || response.status == 400 || response.status == 405, "\(path): \(response)")
            }
            #expect(TemporaryBoard.changes(from: before, to: try boards.files()).isEmpty, "a refused request wrote")
            for index in 0..<3 { #expect(try server.get("/b/\(index)/api/board").status == 200, "the server did not live: \(server.process)") }
        }
    }

    @Test func aChangeSentToOneBoardLandsInThatBoardOnly() throws {
        try Self.withThreeBoards { boards in
            let server = boards.server
            // In this order, each on the board as the ones before left it.
            let changes = [
                "POST /api/cards", "POST /api/cards/restore", "PATCH /api/cards/:card", "POST /api/cards/:card/move", "POST /api/cards/:card/archive",
                "POST /api/cards/:card/unarchive", "DELETE /api/cards/:card", "POST /api/columns", "PATCH /api/columns/:column",
                "POST /api/columns/:column/move", "DELETE /api/columns/:column", "POST /api/labels", "PATCH /api/labels/:label",
                "POST /api/labels/:label/move", "DELETE /api/labels/:label", "POST /api/sync",
            ]
            #expect(Set(changes) == Set(ServeBoundaryTests.routes.keys.filter { !$0.hasPrefix("GET ") }), "a change route is not tried here")
            for target in [1, 0] {
                for signature in changes {
                    let parts = signature.split(separator: " ", maxSplits: 1).map(String.init)
                    let path = parts[1].split(separator: "/").map { $0.hasPrefix(":") ? ServeBoundaryTests.validParameter($0) : String($0) }
                        .joined(separator: "/")
                    let others = try (0..<3).filter { $0 != target }.map { try boards.files(ofBoard: $0) }
                    let mine = try boards.files(ofBoard: target)
                    let response = try server.request(parts[0], "/b/\(target)/\(path)", json: Self.validBodies[signature] ?? "{}")
                    let described = "\(signature) on board \(target)"
                    if signature == "POST /api/sync" {
                        #expect(response.status < 500, "\(described): \(response)")
                    } else {
                        #expect(response.status < 300, "\(described): \(response)")
                        #expect(!TemporaryBoard.changes(from: mine, to: try boards.files(ofBoard: target)).isEmpty, "\(described) changed nothing there")
                    }
                    for (index, files) in zip((0..<3).filter { $0 != target }, others) {
                        #expect(TemporaryBoard.changes(from: files, to: try boards.files(ofBoard: index)).isEmpty, "\(described) changed board \(index)")
                    }
                }
            }
        }
    }

    /// Three boards in one repository, served with `--commit`: a change on board 1 commits board 1's file only,
    /// and leaves what was staged and changed on board 0 as it was (staged, uncommitted).
    @Test func withCommitAChangeCommitsItsOwnBoardOnlyInASharedRepository() throws {
        let identity = ["GIT_AUTHOR_NAME": "T", "GIT_AUTHOR_EMAIL": "t@e", "GIT_COMMITTER_NAME": "T", "GIT_COMMITTER_EMAIL": "t@e"]
        var root = ""
        func git(_ arguments: [String]) throws -> String {
            try runProgram("/usr/bin/env", ["git", "-C", root] + arguments,
                           environment: KanbanProcess.baseEnvironment(home: root).merging(identity) { $1 }).output
        }
        let staged = "board/cards/todo/\(ServeBoundaryTests.validParameter(":card")).md"
        try Self.withThreeBoards(arguments: ["--commit"], environment: identity, prepare: { directory in
            root = directory
            _ = try git(["init", "-q"])
            _ = try git(["add", "-A"])
            _ = try git(["commit", "-qm", "Boards"])
            let card = directory + "/" + staged
            try (try String(contentsOfFile: card, encoding: .utf8) + "\nStaged on board 0.\n").write(toFile: card, atomically: true, encoding: .utf8)
            _ = try git(["add", staged])
            let settings = directory + "/board/board.md"
            try (try String(contentsOfFile: settings, encoding: .utf8) + "\nChanged on board 0.\n").write(toFile: settings, atomically: true, encoding: .utf8)
        }) { boards in
            let before = try boards.files(ofBoard: 0)
            for (method, path, json) in [("POST", "/b/1/api/cards", #"{"title":"Committed on one"}"#),
                                         ("POST", "/b/1/api/cards/press-kit-and-screenshots/move", #"{"column":"done"}"#),
                                         ("POST", "/b/1/api/labels", #"{"id":"urgent","name":"Urgent"}"#)] {
                let response = try boards.server.request(method, path, json: json)
                #expect(response.status < 300, "\(path): \(response)")
                let committed = try git(["show", "--name-only", "--format=", "HEAD"]).split(separator: "\n").map(String.init)
                #expect(!committed.isEmpty && committed.allSatisfy { $0.hasPrefix("second/") }, "\(path) committed \(committed)")
            }
            #expect(TemporaryBoard.changes(from: before, to: try boards.files(ofBoard: 0)).isEmpty)
            #expect(try git(["diff", "--cached", "--name-only"]) == staged + "\n", "board 0's staged change was committed or dropped")
            #expect(try git(["status", "--porcelain", "--", "second", Self.hostileName]).isEmpty)
        }
    }

    @Test func eachEventStreamCarriesOnlyItsOwnBoardsEvents() throws {
        try Self.withThreeBoards { boards in
            let server = boards.server
            let streams = try (0..<3).map { index in
                let connection = try ServeConnection(port: server.port)
                connection.send("GET /b/\(index)/api/events HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nAuthorization: Bearer \(server.token)\r\n\r\n")
                let opened = try #require(connection.readResponse(), "no event stream for board \(index)")
                #expect(opened.status == 200 && opened.header("Content-Type")?.hasPrefix("text/event-stream") == true, "\(opened)")
                return connection
            }
            // Through the page's API on board 1, then by hand on board 2's disk, then through the API on board 0.
            let created = try server.request("POST", "/b/1/api/cards", json: #"{"title":"Only on one"}"#)
            #expect(created.status == 201, "\(created)")
            try "---\ntitle: Only on two\ncolumn: todo\nposition: a\n---\n".write(toFile: boards.directories[2] + "/cards/todo/only-on-two.md",
                                                                                    atomically: true, encoding: .utf8)
            let moved = try server.request("POST", "/b/0/api/cards/press-kit-and-screenshots/move", json: #"{"column":"done"}"#)
            #expect(moved.status == 200, "\(moved)")
            let marks = ["press-kit-and-screenshots", "only-on-one", "only-on-two"]
            var seen: [String] = []
            for (index, stream) in streams.enumerated() {
                let text = stream.readStream { $0.contains(marks[index]) }
                #expect(text.contains(marks[index]), "board \(index)'s stream missed its event: \(text.suffix(2000))")
                seen.append(text)
            }
            // Each stream saw its own event; one more change on board 0 makes sure any stray event had time to arrive.
            let again = try server.request("POST", "/b/0/api/cards", json: #"{"title":"Last on zero"}"#)
            #expect(again.status == 201, "\(again)")
            seen[0] = streams[0].readStream { $0.contains("last-on-zero") }
            usleep(300_000)
            seen[1] = streams[1].readStream { _ in true }
            seen[2] = streams[2].readStream { _ in true }
            for (index, text) in seen.enumerated() {
                for (other, mark) in marks.enumerated() where other != index && mark != "press-kit-and-screenshots" {
                    #expect(!text.contains(mark), "board \(index)'s stream carried board \(other)'s event: \(text.suffix(2000))")
                }
                if index != 0 {
                    #expect(!text.contains("last-on-zero"), "board \(index)'s stream carried board 0's event")
                }
            }
        }
    }

    @Test func theListOfBoardsEscapesTheirTitlesAndNames() throws {
        try Self.withThreeBoards { boards in
            let server = boards.server
            let page = try server.get("/")
            #expect(page.status == 200 && page.header("Content-Type") == "text/html; charset=utf-8", "\(page)")
            #expect(page.text.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), "\(page)")
            #expect(!page.text.contains("<script"), "the page holds a script: \(page)")
            #expect(page.text.contains("we&quot;&lt;&gt;&amp;&#39;ird") || page.text.contains("we&quot;&lt;&gt;&amp;&#x27;ird"), "\(page)")
            #expect(!page.text.contains(Self.hostileName) && !page.text.contains("we\""), "the name reached the page raw: \(page)")
            #expect(page.header("Content-Security-Policy")?.contains("default-src 'none'") == true)
            let head = try server.request("HEAD", "/")
            #expect(head.status == 200)
            let list = try #require(try server.get("/api/boards").json?["boards"] as? [[String: Any]])
            #expect(list.map { $0["title"] as? String } == ["Lumen 2.0 Launch", Self.hostileTitle, "Third"])
            #expect(list.map { $0["url"] as? String } == ["/b/0/", "/b/1/", "/b/2/"])
            // The board's own page and report, where the page's scripts and the report's template put the title.
            let report = try server.get("/b/1/report")
            #expect(!report.text.contains(Self.hostileTitle), "\(report)")
            let printed = boards.server.process.stdoutLines.joined(separator: "\n")
            #expect(printed.contains(Self.hostileName), "\(printed)")
        }
    }
}
