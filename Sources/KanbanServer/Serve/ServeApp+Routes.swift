extension ServeApp {
    /// Every route the server answers, in the order they are tried (a literal segment before a `:name` one).
    static let routes: [ServeRoute] = [
        ServeRoute("GET", "/") { app, match throws(APIError) in app.asset("index.html", request: match.request) },
        ServeRoute("GET", "/assets/*") { app, match throws(APIError) in app.asset(match.parameter("*"), request: match.request) },
        ServeRoute("GET", "/report") { app, match throws(APIError) in app.report(match.request.query) },
        ServeRoute("GET", "/favicon.ico") { _, _ throws(APIError) in HTTPResponse(status: .noContent) },

        ServeRoute("GET", "/api/board") { app, _ throws(APIError) in .json(try app.boardAnswer()) },
        ServeRoute("GET", "/api/archive") { app, _ throws(APIError) in try app.archiveResponse() },
        ServeRoute("GET", "/api/events") { app, _ throws(APIError) in app.events() },
        ServeRoute("GET", "/api/search") { app, match throws(APIError) in try app.search(match.request.query["q"] ?? "") },
        ServeRoute("GET", "/api/status") { app, _ throws(APIError) in app.status() },
        ServeRoute("POST", "/api/sync") { app, _ throws(APIError) in app.sync() },

        ServeRoute("POST", "/api/cards") { app, match throws(APIError) in try app.createCard(try match.body()) },
        ServeRoute("POST", "/api/cards/restore") { app, match throws(APIError) in try app.restoreCard(try match.body()) },
        ServeRoute("GET", "/api/cards/:card") { app, match throws(APIError) in .json(try app.fullCard(match.parameter("card")).rendered(pretty: false)) },
        ServeRoute("PATCH", "/api/cards/:card") { app, match throws(APIError) in try app.updateCard(match.parameter("card"), try match.body()) },
        ServeRoute("DELETE", "/api/cards/:card") { app, match throws(APIError) in try app.deleteCard(match.parameter("card"), try match.body()) },
        ServeRoute("POST", "/api/cards/:card/move") { app, match throws(APIError) in try app.moveCard(match.parameter("card"), try match.body()) },
        ServeRoute("POST", "/api/cards/:card/archive") { app, match throws(APIError) in try app.archiveCard(match.parameter("card"), try match.body()) },
        ServeRoute("POST", "/api/cards/:card/unarchive") { app, match throws(APIError) in
            try app.unarchiveCard(match.parameter("card"), try match.body())
        },

        ServeRoute("POST", "/api/columns") { app, match throws(APIError) in try app.addColumn(try match.body()) },
        ServeRoute("PATCH", "/api/columns/:column") { app, match throws(APIError) in try app.changeColumn(match.parameter("column"), try match.body()) },
        ServeRoute("POST", "/api/columns/:column/move") { app, match throws(APIError) in try app.moveColumn(match.parameter("column"), try match.body()) },
        ServeRoute("DELETE", "/api/columns/:column") { app, match throws(APIError) in try app.removeColumn(match.parameter("column"), try match.body()) },

        ServeRoute("POST", "/api/labels") { app, match throws(APIError) in try app.addLabel(try match.body()) },
        ServeRoute("PATCH", "/api/labels/:label") { app, match throws(APIError) in try app.changeLabel(match.parameter("label"), try match.body()) },
        ServeRoute("POST", "/api/labels/:label/move") { app, match throws(APIError) in try app.moveLabel(match.parameter("label"), try match.body()) },
        ServeRoute("DELETE", "/api/labels/:label") { app, match throws(APIError) in try app.removeLabel(match.parameter("label"), try match.body()) },
    ]

    /// The route that answers `request`: 404 when no pattern fits its path, 405 (with `Allow`) when one fits but
    /// not for its method. `HEAD` is answered as `GET`.
    func dispatch(_ request: HTTPRequest) -> HTTPResponse {
        let method = request.method == "HEAD" ? "GET" : request.method
        var allowed: [String] = []
        for route in Self.routes {
            guard let parameters = route.parameters(matching: request.pathSegments) else { continue }
            guard route.method == method else {
                allowed.append(route.method)
                continue
            }
            do throws(APIError) {
                return try route.run(self, ServeRoute.Match(request: request, parameters: parameters))
            } catch {
                return error.response
            }
        }
        if !allowed.isEmpty {
            var response = HTTPResponse.error(.methodNotAllowed, "method-not-allowed", "\(request.method) is not allowed on \(request.path)")
            response.headers.append(("Allow", (allowed.contains("GET") ? allowed + ["HEAD"] : allowed).joined(separator: ", ")))
            return response
        }
        let isAPI = request.pathSegments.first == "api"
        return .error(.notFound, "not-found", isAPI ? "no API route \(request.method) \(request.path)" : "nothing at \(request.path)")
    }
}
