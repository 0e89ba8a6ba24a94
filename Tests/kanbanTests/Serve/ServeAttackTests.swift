import Foundation
import KanbanTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// What an attacker found to crash, starve or trick `kanban serve` (and the trap that froze it), one test each: every
/// one of them failed before the fix.
@Suite struct ServeAttackTests {
    /// The response to raw `text` sent on a new connection.
    private func send(_ server: ServeProcess, _ text: String) throws -> ServeResponse? {
        let connection = try ServeConnection(port: server.port)
        connection.send(text)
        return connection.readResponse()
    }

    @Test func anIndexPastAnyIntegerIsRefusedAndTheServerLives() throws {
        try withTemporaryBoard(.sample) { board in
            let server = try ServeProcess(board: board)
            let before = try board.files()
            for (path, index) in [("/api/columns/todo/move", "9223372036854775807"), ("/api/labels/bug/move", "9223372036854775807"),
                                  ("/api/columns/todo/move", "-9223372036854775808"), ("/api/columns/todo/move", "1e300"),
                                  ("/api/columns", "9223372036854775807"), ("/api/columns", "-1"), ("/api/columns/todo/move", "7")] {
                let body = path == "/api/columns" ? #"{"id":"later","index":\#(index)}"# : #"{"index":\#(index)}"#
                let response = try server.request("POST", path, json: body)
                #expect(response.status == 400, "\(path) \(index): \(response)")
                #expect(response.json?["message"] as? String != nil)
            }
            #expect(TemporaryBoard.changes(from: before, to: try board.files()).isEmpty)
            #expect(try server.get("/api/board").status == 200)
            #expect(try server.stop() == 0)
        }
    }

    @Test func blankLinesBeforeARequestCountAgainstTheHeadLimit() throws {
        try withTemporaryBoard(.sample) { board in
            let server = try ServeProcess(board: board)
            let connection = try ServeConnection(port: server.port)
            connection.send(String(repeating: "\r\n", count: 9_000))
            let response = try #require(connection.readResponse())
            #expect(response.status == 431, "\(response)")
            #expect(connection.isClosedByServer())
            // A few blank lines are still allowed, as HTTP asks.
            let polite = try send(server, "\r\n\r\nGET /api/board HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nAuthorization: Bearer \(server.token)\r\n\r\n")
            #expect(polite?.status == 200)
        }
    }

    @Test func restoreRefusesANameCutAtNULOrHiddenAndWritesNothing() throws {
        try withTemporaryBoard(.sample) { board in
            let server = try ServeProcess(board: board)
            let before = try board.files()
            let text = #""---\ntitle: X\ncolumn: todo\n---\n""#
            for path in [#"cards/todo/nul\u0000tail.md"#, "cards/todo/.side-effect.md", "cards/../x.md", "cards/todo/a\\\\b.md", #"cards/todo/esc\u001b.md"#] {
                let response = try server.request("POST", "/api/cards/restore", json: #"{"path":"\#(path)","text":\#(text)}"#)
                #expect(response.status == 400, "\(path): \(response)")
            }
            let notACard = try server.request("POST", "/api/cards/restore", json: #"{"path":"cards/todo/ok.md","text":"---\ntitle: never closed\n"}"#)
            #expect(notACard.status == 400, "\(notACard)")
            #expect(TemporaryBoard.changes(from: before, to: try board.files()).isEmpty)
        }
    }

    @Test func controlCharactersInTitlesAreRefusedOnEverySurface() throws {
        try withTemporaryBoard(.sample) { board in
            let server = try ServeProcess(board: board)
            let before = try board.files()
            for title in [#"evil \u001b]0;pwned\u0007"#, #"nul \u0000 x"#, #"bell \u0007"#, #"csi \u009b2J"#] {
                let created = try server.request("POST", "/api/cards", json: #"{"title":"\#(title)"}"#)
                #expect(created.status == 400, "\(title): \(created)")
                let patched = try server.request("PATCH", "/api/cards/\(ServeCommandTests.card)", json: #"{"title":"\#(title)"}"#)
                #expect(patched.status == 400, "\(title): \(patched)")
                let field = try server.request("PATCH", "/api/cards/\(ServeCommandTests.card)", json: #"{"fields":{"owner":"\#(title)"}}"#)
                #expect(field.status == 400, "\(title): \(field)")
            }
            #expect(TemporaryBoard.changes(from: before, to: try board.files()).isEmpty)
            let command = try board.run(["add", "evil \u{1B}[2J"])
            #expect(command.status == 1 && command.stderr.contains("control character U+001B (ESC)"), "\(command)")
        }
    }

    @Test func aCardsOwnEscapeSequencesNeverReachATerminalEvenWithColourOn() throws {
        try withTemporaryBoard(.sample) { board in
            // Written by hand (YAML's escapes), as no command will write them now.
            try board.write("---\ntitle: Painted\ncolumn: todo\nposition: a\nowner: \"a\\e[31mred\\e]0;pwned\\a\"\n---\nbody \u{1B}[32mgreen\u{1B}[0m \u{1B}[2J\n",
                            to: "cards/todo/painted.md")
            for arguments in [["show", "painted"], ["list"], ["search", "green"]] {
                let shown = try board.run(arguments, stdoutIsTerminal: true)
                #expect(shown.status == 0, "\(shown)")
                #expect(shown.stdout.contains("\u{1B}[") , "colour is on: \(arguments)")
                for sequence in ["\u{1B}[31m", "\u{1B}[32m", "\u{1B}]0;", "\u{1B}[2J", "\u{7}"] {
                    #expect(!shown.stdout.contains(sequence), "\(arguments) sent the card's \(sequence.debugDescription) to the terminal")
                }
            }
            #expect(try board.run(["show", "painted"], stdoutIsTerminal: true).stdout.contains("^[[32mgreen"))
        }
    }

    @Test func theTokenRedirectCannotInjectHeadersOrLeaveTheSite() throws {
        try withTemporaryBoard(.sample) { board in
            let server = try ServeProcess(board: board)
            let host = "Host: 127.0.0.1:\(server.port)\r\n"
            let injected = try #require(try send(server, "GET /x%0d%0aSet-Cookie:%20evil=1?token=\(server.token) HTTP/1.1\r\n\(host)\r\n"))
            #expect(injected.status == 303)
            #expect(injected.header("Location") == "/x%0D%0ASet-Cookie%3A%20evil%3D1")
            #expect(!injected.headers.contains { $0.1.contains("evil=1") && $0.0.lowercased() == "set-cookie" })
            let offSite = try #require(try send(server, "GET /%5Cevil.example?token=\(server.token)&next=%2F%2Fevil HTTP/1.1\r\n\(host)\r\n"))
            #expect(offSite.header("Location") == "/%5Cevil.example?next=%2F%2Fevil")
            // A wrong token in the address does not beat the cookie the browser already has: it is only dropped.
            let cookie = "Cookie: kanban-token-\(server.port)=\(server.token)\r\n"
            let stale = try #require(try send(server, "GET /?token=0000 HTTP/1.1\r\n\(host)\(cookie)\r\n"))
            #expect(stale.status == 303 && stale.header("Location") == "/" && stale.header("Set-Cookie") == nil, "\(stale)")
            let noCookie = try #require(try send(server, "GET /?token=0000 HTTP/1.1\r\n\(host)\r\n"))
            #expect(noCookie.status == 401)
        }
    }

    @Test func theBrowserIsOpenedOnAPrivateFileNotOnTheTokenInArgv() throws {
        try withTemporaryBoard(.sample) { board in
            let bin = board.root + "/bin"
            try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
            let record = board.root + "/opened"
            let opener = bin + "/xdg-open"
            try "#!/bin/sh\nprintf '%s\\n' \"$@\" > \(record).tmp && cat \"${1#file://}\" >> \(record).tmp && mv \(record).tmp \(record)\n"
                .write(toFile: opener, atomically: true, encoding: .utf8)
            chmod(opener, 0o755)
            let runtime = board.root + "/runtime"
            mkdir(runtime, 0o700)
            let server = try ServeProcess(board: board, environment: [
                "DISPLAY": ":99", "PATH": bin + ":/usr/bin:/bin", "XDG_RUNTIME_DIR": runtime,
            ], opensBrowser: true)
            #expect(waitUntil { FileManager.default.fileExists(atPath: record) }, "the opener never ran: \(server.process)")
            let lines = try String(contentsOfFile: record, encoding: .utf8).split(separator: "\n").map(String.init)
            let argument = try #require(lines.first)
            #expect(argument.hasPrefix("file://\(runtime)/") && !argument.contains(server.token), "\(argument)")
            #expect(lines.dropFirst().joined().contains(server.url), "the file does not lead to the page: \(lines)")
            var status = stat()
            #expect(stat(String(argument.dropFirst(7)), &status) == 0 && status.st_mode & 0o777 == 0o600)
            #expect(try server.stop() == 0)
            #expect(!FileManager.default.fileExists(atPath: String(argument.dropFirst(7))), "the file outlived the server")
        }
    }

    @Test func aWildcardBindAnswersThisMachinesNamesAndNoOthers() throws {
        try withTemporaryBoard(.sample) { board in
            let server = try ServeProcess(board: board, arguments: ["--bind", "0.0.0.0"])
            for host in ["localhost", "127.0.0.1"] {
                let response = try send(server, "GET /api/board HTTP/1.1\r\nHost: \(host):\(server.port)\r\nAuthorization: Bearer \(server.token)\r\n\r\n")
                #expect(response?.status == 200, "\(host)")
            }
            for line in server.process.stdoutLines.dropFirst() where line.hasPrefix("  also at http://") {
                let host = try #require(line.firstMatch(of: /http:\/\/([^\/]+)\//)?.output.1)
                let response = try send(server, "GET /api/board HTTP/1.1\r\nHost: \(host)\r\nAuthorization: Bearer \(server.token)\r\n\r\n")
                #expect(response?.status == 200, "\(host)")
            }
            let evil = try send(server, "GET /api/board HTTP/1.1\r\nHost: evil.example:\(server.port)\r\nAuthorization: Bearer \(server.token)\r\n\r\n")
            #expect(evil?.status == 403)
        }
    }

    @Test func pastTheLimitABusyServerAnswersAWhole503() throws {
        try withTemporaryBoard(.sample) { board in
            // 120 descriptors leave room for 24 connections.
            let server = try ServeProcess(board: board, descriptorLimit: 120)
            var busy: [ServeConnection] = []
            for _ in 0..<24 {
                let connection = try ServeConnection(port: server.port)
                connection.send("GET /api/board HTTP/1.1\r\n")  // begun, so not idle: never closed to make room
                busy.append(connection)
            }
            usleep(300_000)  // each one's thread has read its line, so none is idle
            var refused: ServeResponse?
            #expect(waitUntil {
                guard let response = try? send(server, "GET /api/board HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n") else { return false }
                refused = response
                if response.status == 503 { return true }
                // On a busy machine a begun connection may not have been read yet, and so was closed to make room
                // as if idle: begin another in its place and look again.
                if let connection = try? ServeConnection(port: server.port) {
                    connection.send("GET /api/board HTTP/1.1\r\n")
                    busy.append(connection)
                }
                usleep(200_000)
                return false
            }, "no 503: \(String(describing: refused))")
            #expect(refused?.json?["error"] as? String == "busy", "\(String(describing: refused))")
            busy.removeAll()
            #expect(waitUntil { (try? server.get("/api/board").status) == 200 })
        }
    }

    @Test func idleConnectionsAreClosedToMakeRoomForARequest() throws {
        try withTemporaryBoard(.sample) { board in
            // 200 descriptors leave room for 104 connections; 250 idle ones are more than the process may even open.
            let server = try ServeProcess(board: board, descriptorLimit: 200)
            var idle: [ServeConnection] = []
            for _ in 0..<250 { idle.append(try ServeConnection(port: server.port)) }
            usleep(300_000)
            let started = Date()
            let response = try server.get("/api/board")
            #expect(response.status == 200, "\(response)")
            // Generous (the load test holds it to 1 s), but well inside the 30 s after which idle connections go anyway.
            #expect(Date().timeIntervalSince(started) < 10, "the request waited for the idle connections to time out")
            #expect(idle.first?.isClosedByServer() == true, "the connection idle longest was kept")
        }
    }

    @Test func expectContinueIsAnswered() throws {
        try withTemporaryBoard(.sample) { board in
            let server = try ServeProcess(board: board)
            let connection = try ServeConnection(port: server.port)
            let body = #"{"title":"Continued"}"#
            connection.send("POST /api/cards HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nAuthorization: Bearer \(server.token)\r\n"
                + "Content-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: \(body.utf8.count)\r\n\r\n")
            let interim = try #require(connection.readResponse())
            #expect(interim.status == 100)
            connection.send(body)
            let created = try #require(connection.readResponse())
            #expect(created.status == 201, "\(created)")
            let other = try send(server, "POST /api/cards HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nExpect: teapot\r\nContent-Length: 2\r\n\r\n{}")
            #expect(other?.status == 417)
        }
    }

    @Test func labelIdsAreCheckedLikeColumnIdsOnEverySurface() throws {
        try withTemporaryBoard(.sample) { board in
            let server = try ServeProcess(board: board)
            let before = try board.files()
            for id in ["../x", ".hidden", "a/b", #"esc\u001b"#] {
                let response = try server.request("POST", "/api/labels", json: #"{"id":"\#(id)"}"#)
                #expect(response.status == 400, "\(id): \(response)")
            }
            let command = try board.run(["label", "add", "../x"])
            #expect(command.status != 0 && command.stderr.contains("cannot be a label id"), "\(command)")
            #expect(TemporaryBoard.changes(from: before, to: try board.files()).isEmpty)
        }
    }

    @Test func aTrapEndsTheProcessAtOnceWithOneLine() throws {
        try withTemporaryDirectory { directory in
            let started = Date()
            let result = try KanbanProcess.run(["list"], in: directory, environment: ["KANBAN_TRAP_FOR_TESTS": "1"])
            #expect(result.status == 70, "\(result)")
            #expect(Date().timeIntervalSince(started) < 15, "the backtracer held the process")
            #expect(result.stderr.contains("kanban: internal error (a bug): stopped at once"), "\(result)")
        }
    }
}
