import Foundation
import KanbanCore

/// What `kanban serve` answers when it serves several boards: each board's ``ServeApp`` under `/b/<index>/` (its page,
/// its API, its events, its report), the list of boards at `/` and `/api/boards`, and the page's assets at `/assets/`.
///
/// Every request passes the same checks first (token, Host, Origin, read-only: ``ServeApp/admit(_:)``), whatever board
/// it is for; a board is looked up by its index in the served list, never by anything that becomes a path.
package final class ServeBoards: Sendable {
    /// One board served: the name `kanban boards` gives it, and its app.
    package struct Entry: Sendable {
        package var name: String
        package var app: ServeApp

        package init(name: String, app: ServeApp) {
            self.name = name
            self.app = app
        }
    }

    let entries: [Entry]

    /// Serves `entries` (at least one), in their order: the first at `/b/0/`.
    package init(_ entries: [Entry]) {
        precondition(!entries.isEmpty, "ServeBoards serves at least one board")
        self.entries = entries
    }

    /// The routes of this layer's own; `/assets/` and `/favicon.ico` are answered as by one board, and
    /// `/b/<index>/...` by that board's (``ServeApp/routes``).
    static let routes = ["GET /", "GET /api/boards"]

    /// Answers `request`; every response carries the security headers.
    package func handle(_ request: HTTPRequest) -> HTTPResponse {
        let first = entries[0].app
        if let refused = first.admit(request) { return ServeApp.secured(refused) }
        return ServeApp.secured(route(request))
    }

    private func route(_ request: HTTPRequest) -> HTTPResponse {
        let segments = request.pathSegments
        let isRead = request.method == "GET" || request.method == "HEAD"
        switch segments.first {
        case "b"?:
            guard segments.count >= 2, let entry = entry(segments[1]) else {
                return .error(.notFound, "board-not-found", "no board '\(segments.count >= 2 ? segments[1] : "")' here; GET /api/boards lists the boards served")
            }
            var inner = request
            inner.pathSegments = Array(segments.dropFirst(2))
            return entry.app.dispatch(inner)
        case nil:
            guard isRead else { return methodNotAllowed(request) }
            return boardsPage()
        case "api"? where segments == ["api", "boards"]:
            guard isRead else { return methodNotAllowed(request) }
            return .json(boardsJSON().rendered(pretty: false))
        case "assets"?, "favicon.ico"?:
            return entries[0].app.dispatch(request)
        default:
            let isAPI = segments.first == "api"
            return .error(.notFound, "not-found", isAPI
                ? "no API route \(request.method) \(request.path): this server serves several boards, each under /b/<index>/ (GET /api/boards lists them)"
                : "nothing at \(request.path)")
        }
    }

    /// The board a path segment names: a whole number from 0, within the list, written one way only (`1`, not `01`).
    private func entry(_ segment: String) -> Entry? {
        guard segment.utf8.count <= 6, segment.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
              segment == "0" || segment.utf8.first != 0x30, let index = Int(segment),
              index < entries.count else { return nil }
        return entries[index]
    }

    private func methodNotAllowed(_ request: HTTPRequest) -> HTTPResponse {
        var response = HTTPResponse.error(.methodNotAllowed, "method-not-allowed", "\(request.method) is not allowed on \(request.path)")
        response.headers.append(("Allow", "GET, HEAD"))
        return response
    }

    /// The boards' titles, read now (a board.md that does not read any more is named by its error).
    private func titles() -> [String] {
        entries.map { entry in
            do {
                return try entry.app.store.loadBoard().title
            } catch {
                return entry.name
            }
        }
    }

    /// `GET /api/boards`: `{"boards": [{"index", "name", "title", "url"}]}`, in the order served.
    func boardsJSON() -> JSON {
        let titles = titles()
        return .object(["boards": .array(entries.enumerated().map { index, entry in
            .object([
                "index": .number(String(index)), "name": .string(entry.name), "title": .string(titles[index]),
                "url": .string("/b/\(index)/"),
            ])
        })])
    }

    /// `GET /`: a page that links to each board's page; no script, everything from the boards escaped.
    func boardsPage() -> HTTPResponse {
        let titles = titles()
        var html = """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="referrer" content="no-referrer">
            <title>kanban: \(entries.count) boards</title>
            <link rel="icon" href="data:,">
            <link rel="stylesheet" href="/assets/app.css">
            </head>
            <body>
            <main class="boards-page">
            <h1>Boards</h1>
            <ul id="boards">

            """
        for (index, entry) in entries.enumerated() {
            html += "<li><a href=\"/b/\(index)/\" data-board=\"\(ReportDocument.escaped(entry.name))\">\(ReportDocument.escaped(titles[index]))</a>"
            html += "<span class=\"name\">\(ReportDocument.escaped(entry.name))</span></li>\n"
        }
        html += "</ul>\n</main>\n</body>\n</html>\n"
        return HTTPResponse(status: .ok, headers: [("Content-Type", "text/html; charset=utf-8")], body: Array(html.utf8))
    }
}
