import Foundation

/// The status codes the server answers with.
package struct HTTPStatus: Sendable, Equatable, Hashable {
    var code: Int
    var reason: String

    static let ok = HTTPStatus(code: 200, reason: "OK")
    static let created = HTTPStatus(code: 201, reason: "Created")
    static let noContent = HTTPStatus(code: 204, reason: "No Content")
    static let seeOther = HTTPStatus(code: 303, reason: "See Other")
    static let notModified = HTTPStatus(code: 304, reason: "Not Modified")
    static let badRequest = HTTPStatus(code: 400, reason: "Bad Request")
    static let unauthorized = HTTPStatus(code: 401, reason: "Unauthorized")
    static let forbidden = HTTPStatus(code: 403, reason: "Forbidden")
    static let notFound = HTTPStatus(code: 404, reason: "Not Found")
    static let methodNotAllowed = HTTPStatus(code: 405, reason: "Method Not Allowed")
    static let requestTimeout = HTTPStatus(code: 408, reason: "Request Timeout")
    static let conflict = HTTPStatus(code: 409, reason: "Conflict")
    static let lengthRequired = HTTPStatus(code: 411, reason: "Length Required")
    static let preconditionFailed = HTTPStatus(code: 412, reason: "Precondition Failed")
    static let contentTooLarge = HTTPStatus(code: 413, reason: "Content Too Large")
    static let uriTooLong = HTTPStatus(code: 414, reason: "URI Too Long")
    static let unsupportedMediaType = HTTPStatus(code: 415, reason: "Unsupported Media Type")
    static let expectationFailed = HTTPStatus(code: 417, reason: "Expectation Failed")
    static let unprocessable = HTTPStatus(code: 422, reason: "Unprocessable Content")
    static let locked = HTTPStatus(code: 423, reason: "Locked")
    static let headerFieldsTooLarge = HTTPStatus(code: 431, reason: "Request Header Fields Too Large")
    static let internalError = HTTPStatus(code: 500, reason: "Internal Server Error")
    static let notImplemented = HTTPStatus(code: 501, reason: "Not Implemented")
    package static let serviceUnavailable = HTTPStatus(code: 503, reason: "Service Unavailable")
    static let versionNotSupported = HTTPStatus(code: 505, reason: "HTTP Version Not Supported")
}

/// A stream of Server-Sent Events the connection writes until the client goes or the server stops: each call of
/// `next` waits for the next chunk to send (an event, or a comment to keep the connection alive), nil to end.
package struct HTTPEventStream: Sendable {
    var next: @Sendable () -> [UInt8]?
    /// Called once when the stream ends, whichever side ended it.
    var finish: @Sendable () -> Void
}

/// One response: a status, header fields, and a body or a stream.
package struct HTTPResponse: Sendable {
    var status: HTTPStatus
    var headers: [(name: String, value: String)] = []
    var body: [UInt8] = []
    /// When set, the body is this stream (Server-Sent Events) and the connection stays with it.
    var stream: HTTPEventStream?

    init(status: HTTPStatus, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A JSON body.
    static func json(_ text: String, status: HTTPStatus = .ok) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "application/json; charset=utf-8")], body: Array(text.utf8))
    }

    /// `{"error": code, "message": text}` with `status`.
    package static func error(_ status: HTTPStatus, _ code: String, _ message: String) -> HTTPResponse {
        json(JSON.object(["error": .string(code), "message": .string(message)]).rendered(pretty: false), status: status)
    }

    /// The value of the header `name` (any case).
    func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveEquals(name) }?.value
    }

    /// The status line and header fields, with `Content-Length` (unless streaming) and `Connection`, ready to send.
    func head(keepAlive: Bool) -> [UInt8] {
        var text = "HTTP/1.1 \(status.code) \(status.reason)\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        if stream == nil { text += "Content-Length: \(body.count)\r\n" }
        text += keepAlive && stream == nil ? "Connection: keep-alive\r\n" : "Connection: close\r\n"
        text += "\r\n"
        return Array(text.utf8)
    }
}
