/// One route of `kanban serve`: a method and a path pattern, and the handler that answers it.
///
/// A pattern's segments are literal, `:name` (one segment, handed to the handler by name) or `*` (the rest of the
/// path, possibly empty). ``ServeApp/routes`` lists every route the server has, so that the tests that attack every
/// route can tell when one is added.
package struct ServeRoute: Sendable {
    var method: String
    var pattern: [String]
    var run: @Sendable (ServeApp, ServeRoute.Match) throws(APIError) -> HTTPResponse

    /// What a request that matched brings: the request, and the path segments the pattern named.
    struct Match {
        var request: HTTPRequest
        var parameters: [String: String]

        /// The segment the pattern named `name` (`card` for `:card`).
        func parameter(_ name: String) -> String { parameters[name] ?? "" }

        /// The request's body read as a JSON object.
        func body() throws(APIError) -> APIBody { try APIBody(request) }
    }

    init(_ method: String, _ path: String, _ run: @escaping @Sendable (ServeApp, ServeRoute.Match) throws(APIError) -> HTTPResponse) {
        self.method = method
        pattern = path.split(separator: "/").map(String.init)
        self.run = run
    }

    /// `POST /api/cards/:card/move`: how tests and messages name the route.
    var signature: String { method + " /" + pattern.joined(separator: "/") }

    /// The parameters, when `segments` fit the pattern.
    func parameters(matching segments: [String]) -> [String: String]? {
        var parameters: [String: String] = [:]
        for (index, part) in pattern.enumerated() {
            if part == "*" {
                parameters["*"] = segments.dropFirst(index).joined(separator: "/")
                return parameters
            }
            guard index < segments.count else { return nil }
            if part.hasPrefix(":") {
                parameters[String(part.dropFirst())] = segments[index]
            } else if part != segments[index] {
                return nil
            }
        }
        return segments.count == pattern.count ? parameters : nil
    }
}
