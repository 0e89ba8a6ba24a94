import Foundation
import KanbanTestSupport
import Testing

@testable import KanbanServer
@testable import kanban

/// Boundary values sent to every route of a running `kanban serve`: in the path (NUL, control characters, `..`,
/// huge segments) and in the body (0, -1, the largest and smallest integers, huge strings, wrong JSON types, NUL,
/// control characters, paths). Each request gets an answer below 500, the server lives through all of them, and a
/// refused request leaves the board's files as they were.
@Suite struct ServeBoundaryTests {
    /// Every route with the body members it reads: a route added without being listed here fails
    /// ``everyRouteIsListed``.
    static let routes: [String: [String]] = [
        "GET /": [], "GET /assets/*": [], "GET /report": [], "GET /favicon.ico": [],
        "GET /api/board": [], "GET /api/archive": [], "GET /api/events": [], "GET /api/search": [], "GET /api/status": [],
        "POST /api/sync": [],
        "POST /api/cards": ["title", "column", "labels", "body", "placement", "before", "after"],
        "POST /api/cards/restore": ["path", "text"],
        "GET /api/cards/:card": [],
        "PATCH /api/cards/:card": ["title", "labels", "addLabels", "removeLabels", "body", "fields", "version"],
        "DELETE /api/cards/:card": ["version"],
        "POST /api/cards/:card/move": ["column", "placement", "before", "after", "version"],
        "POST /api/cards/:card/archive": ["version"],
        "POST /api/cards/:card/unarchive": ["column"],
        "POST /api/columns": ["id", "name", "index"],
        "PATCH /api/columns/:column": ["name", "collapsed"],
        "POST /api/columns/:column/move": ["index"],
        "DELETE /api/columns/:column": ["moveCardsTo"],
        "POST /api/labels": ["id", "name", "color"],
        "PATCH /api/labels/:label": ["name", "color"],
        "POST /api/labels/:label/move": ["index"],
        "DELETE /api/labels/:label": ["strip"],
    ]

    /// JSON texts for a body member.
    static let values = [
        "0", "-1", "9223372036854775807", "-9223372036854775808", "1e400", "0.5", "true", "null", "[]", "[1]", "{}", #"{"k":1}"#,
        #"{"owner":"a\u001b[2Jb"}"#, "\"\(String(repeating: "x", count: 300_000))\"", #""""#, #""\u0000""#, #""nul\u0000tail""#,
        #""\u001b]0;pwned\u0007""#, #""\u009b2J""#, #""../../etc/passwd""#, #""cards/todo/.x.md""#, #""press-kit-and-screenshots""#,
        #""todo""#, #""done""#, #""bug""#, #"["bug"]"#, #"["\u0000"]"#, #""top""#, ##""#e74c3c""##, #""A title""#,
        #""---\ntitle: Back\n---\n""#,
    ]

    /// Path segments, percent-encoded as a client would send them.
    static let segments = [
        "press-kit-and-screenshots", "todo", "bug", "x", "%00", "nul%00tail", "%1B%5B2J", "..%2F..%2Fetc", "%2E%2E", "%5C",
        String(repeating: "a", count: 3_000), "9223372036854775807", "-1", "%C3%A9", "%FF",
    ]

    /// Requests with generated path parameters per route: 20 in CI, more with `KANBAN_BOUNDARY_ROUNDS` for a big run.
    static let generatedRounds = ProcessInfo.processInfo.environment["KANBAN_BOUNDARY_ROUNDS"].flatMap { Int($0) }.map { min(max($0, 1), 100_000) } ?? 20

    @Test func everyRouteIsListed() {
        #expect(Set(ServeApp.routes.map(\.signature)) == Set(Self.routes.keys), "a route was added or removed: list it in ServeBoundaryTests.routes")
    }

    /// A path parameter that names something on the sample board, so that the body is what is attacked.
    static func validParameter(_ part: Substring) -> String {
        switch part {
        case ":column": "todo"
        case ":label": "bug"
        case "*": "index.html"
        default: "press-kit-and-screenshots"
        }
    }

    /// Each route on a board of its own (a route that removes what the others name cannot spoil them): every body
    /// member with every boundary value, with path parameters that name something, then generated path parameters.
    @Test(arguments: routes.keys.sorted().filter { $0 != "GET /api/events" })
    func everyRouteAnswersBoundaryValuesAndARefusedRequestChangesNothing(_ signature: String) throws {
        try withTemporaryBoard(.sample) { board in
            let server = try ServeProcess(board: board)
            var generator = SeededGenerator(seed: UInt64(truncatingIfNeeded: signature.utf8.reduce(5_381) { $0 &* 33 &+ Int($1) }))
            let parts = signature.split(separator: " ", maxSplits: 1).map(String.init)
            let keys = Self.routes[signature] ?? []
            var files = try board.files()
            func attack(path: String, members: [String]) throws {
                let query = parts[1] == "/api/search" ? "?q=" + (Self.segments.randomElement(using: &generator) ?? "") : ""
                let json = "{" + members.joined(separator: ",") + "}"
                let described = "\(parts[0]) /\(path)\(query) \(json.prefix(300))"
                let response = try server.request(parts[0], "/" + path + query, json: parts[0] == "GET" ? nil : json)
                #expect(response.status < 500 || response.status == 503, "\(described): \(response)")
                let after = try board.files()
                if response.status >= 400 {
                    #expect(TemporaryBoard.changes(from: files, to: after).isEmpty, "a refused request changed files: \(described)")
                }
                files = after
            }
            let validPath = parts[1].split(separator: "/").map { $0.hasPrefix(":") || $0 == "*" ? Self.validParameter($0) : String($0) }
                .joined(separator: "/")
            for key in keys + ["unknown"] {
                for value in Self.values {
                    try attack(path: validPath, members: ["\"\(key)\":\(value)"])
                }
            }
            for _ in 0..<Self.generatedRounds {
                let path = parts[1].split(separator: "/").map { part -> String in
                    guard part.hasPrefix(":") || part == "*" else { return String(part) }
                    return Self.segments.randomElement(using: &generator) ?? "x"
                }.joined(separator: "/")
                var members: [String] = []
                for _ in 0..<(keys.isEmpty ? 0 : Int.random(in: 1...3, using: &generator)) {
                    members.append("\"\(keys.randomElement(using: &generator) ?? "x")\":\(Self.values.randomElement(using: &generator) ?? "0")")
                }
                try attack(path: path, members: members)
            }
            #expect(try server.get("/api/board").status == 200, "the server did not live: \(server.process)")
            let check = try board.run(["doctor"])
            #expect(!check.stdout.contains("error:") && !check.stderr.contains("error:"), "\(check)")
            #expect(try server.stop() == 0)
        }
    }

    @Test func theEventStreamAnswersToo() throws {
        try withTemporaryBoard(.sample) { board in
            let server = try ServeProcess(board: board)
            let events = try ServeConnection(port: server.port)
            events.send("GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nAuthorization: Bearer \(server.token)\r\n\r\n")
            #expect(events.readResponse()?.status == 200)
        }
    }
}
