import Foundation
import KanbanCore
import KanbanGit
import KanbanWatch

/// What `kanban serve` answers: the page and its assets, and the JSON API the page uses, behind the token, Host and
/// Origin checks. One layer below is ``HTTPServer`` (bytes to requests); here requests become store calls, the same
/// calls the matching commands make, committed as they commit.
package final class ServeApp: @unchecked Sendable {
    /// How the server was started.
    package struct Settings: Sendable {
        /// The token every request must carry.
        package var token: String
        /// The `Host` values the server answers to (`127.0.0.1:8080`, `localhost:8080`).
        package var allowedHosts: Set<String>
        /// Whether changes are refused.
        package var isReadOnly: Bool
        /// The port served; it names the cookie, since browsers share cookies between the ports of one host and a
        /// second `kanban serve` must not log the first one's pages out.
        package var port: UInt16 = 0

        package init(token: String, allowedHosts: Set<String>, isReadOnly: Bool, port: UInt16 = 0) {
            self.token = token
            self.allowedHosts = allowedHosts
            self.isReadOnly = isReadOnly
            self.port = port
        }
    }

    /// The cookie that carries the token: `kanban-token-PORT`.
    var cookieName: String { "kanban-token-\(settings.port)" }
    static let contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
        + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    let settings: Settings
    /// The board, changed as every surface changes it (one change of this process at a time).
    let session: BoardSession
    /// The board's git, for its status, history and sync; nil for a board that is not synced with git.
    let git: GitSyncProvider?
    let hub: EventHub
    /// The board `GET /api/board` answers with, kept from the watcher's events (``apply(_:)``).
    let served: ServedBoard
    var store: BoardStore { session.store }

    package init(settings: Settings, session: BoardSession, git: GitSyncProvider?, hub: EventHub) {
        self.settings = settings
        self.session = session
        self.git = git
        self.hub = hub
        served = ServedBoard(store: session.store) { card, body in Self.cardJSON(card, excerpt: BoardText.excerpt(of: body ?? "")).rendered(pretty: false) }
    }

    /// Reads the board `GET /api/board` answers with, before the first request asks (start the watcher first, so that
    /// nothing that changes meanwhile is missed).
    package func warmUp() {
        _ = try? boardAnswer()
    }

    /// Follows a watcher event: the kept board, then the page's event stream.
    package func apply(_ event: WatchEvent) {
        let card = served.apply(event)
        hub.publish(eventJSON(event, card: card))
    }

    /// Answers `request`; every response carries the security headers.
    package func handle(_ request: HTTPRequest) -> HTTPResponse {
        Self.secured(admit(request) ?? dispatch(request))
    }

    /// `response` with the security headers every response carries.
    static func secured(_ response: HTTPResponse) -> HTTPResponse {
        var response = response
        if response.header("Content-Security-Policy") == nil {
            response.headers.append(("Content-Security-Policy", Self.contentSecurityPolicy))
        }
        response.headers += [
            ("X-Content-Type-Options", "nosniff"),
            ("Referrer-Policy", "no-referrer"),
            ("X-Frame-Options", "DENY"),
            ("Cross-Origin-Resource-Policy", "same-origin"),
            ("Cross-Origin-Opener-Policy", "same-origin"),
        ]
        if response.header("Cache-Control") == nil { response.headers.append(("Cache-Control", "no-store")) }
        return response
    }

    // MARK: Checks

    /// The answer to a request that may not go on (no token, another Host, a cross-site change, a change to a
    /// read-only board) or the redirect that trades the token in the address for a cookie; nil when it may go on.
    /// ``ServeBoards`` asks it for every request, whichever board it is for.
    func admit(_ request: HTTPRequest) -> HTTPResponse? {
        // A page on another site that rebinds its DNS name to 127.0.0.1 still names its own host.
        guard let host = request.header("Host"), settings.allowedHosts.contains(host.lowercased()) else {
            return .error(.forbidden, "forbidden", "this server answers only to \(settings.allowedHosts.sorted().joined(separator: " or "))")
        }
        if request.method == "GET" || request.method == "HEAD", let given = request.query["token"] {
            // The token leaves the address (and the history) for a cookie only this site's requests carry. A request
            // that already carries the token (an old bookmark, a second window) is sent on without the one it names.
            let isValid = Self.constantTimeEquals(given, settings.token)
            guard isValid || isAuthorized(request) else {
                return .error(.unauthorized, "unauthorized", "the token in the address is not this server's; use the address 'kanban serve' printed")
            }
            var headers = [("Location", Self.location(request.pathSegments, query: request.query.filter { $0.key != "token" }))]
            if isValid { headers.append(("Set-Cookie", "\(cookieName)=\(settings.token); Path=/; HttpOnly; SameSite=Strict")) }
            return HTTPResponse(status: .seeOther, headers: headers)
        }
        guard isAuthorized(request) else {
            if Self.isAPI(request.pathSegments) {
                return .error(.unauthorized, "unauthorized", "open the address 'kanban serve' printed (with its ?token=), or send 'Authorization: Bearer TOKEN'")
            }
            return HTTPResponse(status: .unauthorized, headers: [("Content-Type", "text/plain; charset=utf-8")],
                                body: Array("Open the address that 'kanban serve' printed, with its ?token=...\n".utf8))
        }
        let changes = !["GET", "HEAD", "OPTIONS"].contains(request.method)
        if changes {
            // Cross-site forms cannot send JSON, and cross-site scripts cannot send it without a CORS preflight,
            // which this server never answers.
            let type = request.header("Content-Type")?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
            guard type == "application/json" else {
                return .error(.unsupportedMediaType, "unsupported-media-type", "a request that changes anything must be JSON (Content-Type: application/json)")
            }
            if let origin = request.header("Origin"), origin != "http://" + host.lowercased() && origin != "http://" + host {
                return .error(.forbidden, "forbidden", "requests from \(origin) are not accepted")
            }
            if request.header("Sec-Fetch-Site").map({ $0 == "cross-site" || $0 == "same-site" }) == true {
                return .error(.forbidden, "forbidden", "cross-site requests are not accepted")
            }
            if settings.isReadOnly {
                return .error(.forbidden, "read-only", "the board is served read-only ('kanban serve --read-only')")
            }
        }
        return nil
    }

    /// Whether a path is the JSON API's, answered in JSON even when refused: `/api/...`, or a board's own under its
    /// prefix when several are served (`/b/1/api/...`, which ``admit(_:)`` sees whole).
    static func isAPI(_ segments: [String]) -> Bool {
        segments.first == "api" || (segments.count > 2 && segments[0] == "b" && segments[2] == "api")
    }

    /// Whether `request` carries the token: the cookie the first visit set, or `Authorization: Bearer`.
    private func isAuthorized(_ request: HTTPRequest) -> Bool {
        if let authorization = request.header("Authorization"), authorization.hasPrefix("Bearer "),
           Self.constantTimeEquals(String(authorization.dropFirst(7)).trimmingCharacters(in: .whitespaces), settings.token) {
            return true
        }
        for cookie in (request.header("Cookie") ?? "").split(separator: ";") {
            let parts = cookie.split(separator: "=", maxSplits: 1)
            if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == cookieName,
               Self.constantTimeEquals(parts[1].trimmingCharacters(in: .whitespaces), settings.token) {
                return true
            }
        }
        return false
    }

    /// Compares without returning early, so the time taken says nothing about where two strings differ.
    static func constantTimeEquals(_ left: String, _ right: String) -> Bool {
        let a = Array(left.utf8)
        let b = Array(right.utf8)
        var difference = UInt8(a.count == b.count ? 0 : 1)
        for index in 0..<max(a.count, b.count) {
            difference |= (index < a.count ? a[index] : 0) ^ (index < b.count ? b[index] : 0)
        }
        return difference == 0
    }

    /// A `Location` for a path on this server made only of percent-encoded segments, so that nothing a request held
    /// (a line end, a `\\`, another host) can leave the header or the site: `/a%20b?q=x`.
    static func location(_ segments: [String], query: [String: String]) -> String {
        let path = "/" + segments.map(percentEncoded).joined(separator: "/")
        let rest = query.keys.sorted().map { "\(percentEncoded($0))=\(percentEncoded(query[$0] ?? ""))" }.joined(separator: "&")
        return rest.isEmpty ? path : path + "?" + rest
    }

    /// `text` with every byte but ASCII letters, digits and `-._~` written `%XX`.
    static func percentEncoded(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        for byte in text.utf8 {
            switch byte {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                bytes.append(byte)
            default:
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    // MARK: Report

    /// `GET /report`: `kanban report --html`, with the command's options from the address (`start`, `done`, `since`,
    /// `until`, `label`, several labels separated by commas, `sle`, `forecast`, `forecast-by`, `window`, `seed`) and a
    /// form to change them; a page of inline SVG and CSS
    /// with no script, so its policy allows inline styles, the form's GET to itself, and nothing else. Unlike
    /// `kanban report`, a shallow history is drawn with a note rather than refused: a page has no flag to give.
    func report(_ query: [String: String] = [:]) -> HTTPResponse {
        let policy = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
        func page(_ status: HTTPStatus, _ html: String) -> HTTPResponse {
            HTTPResponse(status: status, headers: [("Content-Type", "text/html; charset=utf-8"), ("Content-Security-Policy", policy)],
                         body: Array(html.utf8))
        }
        let board: Board
        do {
            board = try store.loadBoard()
        } catch {
            return page(.internalError, ReportDocument.message("Cannot read the board: \(error)"))
        }
        let given = { (name: String) -> String? in query[name].flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 } }
        let form = ReportDocument.Form(board: board, start: given("start"), done: given("done"), since: given("since"), until: given("until"),
                                       labels: given("label")?.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } ?? [],
                                       forecast: given("forecast"), forecastBy: given("forecast-by"), window: given("window"),
                                       seed: given("seed"), sle: given("sle"))
        do {
            let options = try form.options(now: Date())
            let forecastOptions = try form.forecastOptions()
            guard let provider = git else { throw SyncError(.notARepository, "the board is not in a git repository") }
            let histories = try provider.cardHistories()
            let report = try FlowReport(board: board, cards: histories, options: options)
            let forecast = try forecastOptions.map { options throws(KanbanError) in try FlowForecast(report, options: options) }
            let note = (try? provider.isHistoryShallow()) == true
                ? "The history is shallow: only what it shows is counted; cards seem created where it was cut (git fetch --unshallow)." : nil
            return page(.ok, ReportDocument.html(report, title: board.title,
                                                 notInHistory: FlowReport.slugsNotInHistory(of: store, labels: options.labels, histories: histories),
                                                 note: note, forecast: forecast, form: form))
        } catch let error as KanbanError {
            return page(.badRequest, ReportDocument.message(error.message, form: form))
        } catch {
            return page(.unprocessable, ReportDocument.message("The report needs the board's git history: \(error)", form: form))
        }
    }

    // MARK: Assets

    func asset(_ name: String, request: HTTPRequest) -> HTTPResponse {
        guard request.method == "GET" || request.method == "HEAD" else {
            return .error(.methodNotAllowed, "method-not-allowed", "\(request.method) is not allowed here")
        }
        guard let bytes = WebAssets.files[name] else { return .error(.notFound, "not-found", "no asset '\(name)'") }
        return HTTPResponse(status: .ok, headers: [("Content-Type", Self.contentType(of: name)), ("Cache-Control", "no-cache")], body: bytes)
    }

    static func contentType(of name: String) -> String {
        switch name.split(separator: ".").last.map(String.init) ?? "" {
        case "html": "text/html; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "js", "mjs": "text/javascript; charset=utf-8"
        case "svg": "image/svg+xml"
        case "png": "image/png"
        case "ico": "image/x-icon"
        case "json": "application/json; charset=utf-8"
        default: "application/octet-stream"
        }
    }
}
