import Foundation

/// One HTTP/1.1 request, as ``HTTPRequestParser`` read it: nothing here knows about boards.
package struct HTTPRequest: Sendable {
    /// `GET`, `POST`, ... as sent (methods are case-sensitive).
    var method: String
    /// The request target as sent: `/api/cards/x?y=1`.
    var target: String
    /// The target's path, percent-decoded segment by segment: `["api", "cards", "x"]`.
    var pathSegments: [String]
    /// The query's parameters, percent-decoded (`+` is a space); a name given twice keeps its last value.
    var query: [String: String]
    /// `1.0` or `1.1`.
    var version: String
    /// The header fields in order, names as sent.
    var headers: [(name: String, value: String)]
    var body: [UInt8]

    /// The value of the header `name` (any case); several fields of one name joined with `, `.
    func header(_ name: String) -> String? {
        let values = headers.filter { $0.name.caseInsensitiveEquals(name) }.map(\.value)
        return values.isEmpty ? nil : values.joined(separator: ", ")
    }

    /// The path as one string: `/api/cards/x`.
    var path: String { "/" + pathSegments.joined(separator: "/") }

    /// Whether the client asked to keep the connection open after this request (HTTP/1.1's default).
    var keepsAlive: Bool {
        let tokens = (header("Connection") ?? "").lowercased().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        if tokens.contains("close") { return false }
        return version == "1.1" || tokens.contains("keep-alive")
    }
}

/// What the parser refuses, with the status to answer.
package struct HTTPRequestError: Error, Sendable, Equatable {
    var status: HTTPStatus
    var message: String
}

/// Limits on what one request may be; anything larger is refused before it is read whole.
package struct HTTPLimits: Sendable {
    /// The request line (`GET /x HTTP/1.1`), in bytes: 414 past it.
    var requestLine = 8 * 1024
    /// The request line and the header fields together: 431 past it.
    var headerBlock = 16 * 1024
    /// The number of header fields: 431 past it.
    var headerCount = 100
    /// The body: 413 past it.
    var body = 1024 * 1024
}

/// Reads requests from the bytes a connection received, one at a time, refusing what breaks HTTP/1.1 or the limits.
///
/// Only what a small local API needs is accepted: a body has a `Content-Length` (no chunked transfer coding), the
/// target is in origin form (`/path?query`), header fields are not folded.
package enum HTTPRequestParser {
    /// What the bytes held so far give.
    enum Outcome: Sendable {
        /// Not a whole request yet; `headerComplete` says whether the header block is in (then only the body is
        /// missing), and `expectsContinue` whether the client waits for `100 Continue` before it sends the body.
        case incomplete(headerComplete: Bool, expectsContinue: Bool = false)
        /// A request, and how many bytes of the buffer it took.
        case request(HTTPRequest, consumed: Int)
        /// Not a request to answer but with this error; the connection is closed afterwards.
        case failure(HTTPRequestError)
    }

    /// Parses the request at the start of `bytes`.
    static func parse(_ bytes: [UInt8], limits: HTTPLimits = HTTPLimits()) -> Outcome {
        // Empty lines before a request line are allowed (RFC 9112, 2.2), but they count against the header block's
        // limit like any other byte before the body: a client sending only line ends is refused, not buffered.
        var start = 0
        while start < bytes.count, bytes[start] == 0x0D || bytes[start] == 0x0A { start += 1 }
        if start > limits.headerBlock {
            return .failure(HTTPRequestError(status: .headerFieldsTooLarge, message: "more than \(limits.headerBlock) bytes of empty lines before the request"))
        }
        guard let headerEnd = endOfHeader(in: bytes, from: start) else {
            let lineEnd = bytes[start...].firstIndex(of: 0x0A)
            if lineEnd == nil && bytes.count - start > limits.requestLine {
                return .failure(HTTPRequestError(status: .uriTooLong, message: "the request line is longer than \(limits.requestLine) bytes"))
            }
            if bytes.count > limits.headerBlock {
                return .failure(HTTPRequestError(status: .headerFieldsTooLarge, message: "the header block is larger than \(limits.headerBlock) bytes"))
            }
            return .incomplete(headerComplete: false)
        }
        if headerEnd.blockEnd > limits.headerBlock {
            return .failure(HTTPRequestError(status: .headerFieldsTooLarge, message: "the header block is larger than \(limits.headerBlock) bytes"))
        }
        var lines = splitLines(bytes[start..<headerEnd.blockEnd])
        guard !lines.isEmpty else { return .failure(bad("empty request")) }
        let requestLine = lines.removeFirst()
        if requestLine.count > limits.requestLine {
            return .failure(HTTPRequestError(status: .uriTooLong, message: "the request line is longer than \(limits.requestLine) bytes"))
        }
        guard lines.count <= limits.headerCount else {
            return .failure(HTTPRequestError(status: .headerFieldsTooLarge, message: "more than \(limits.headerCount) header fields"))
        }
        let parts = requestLine.split(separator: 0x20, omittingEmptySubsequences: false)
        guard parts.count == 3, let method = ascii(parts[0]), !method.isEmpty, method.utf8.allSatisfy(isTokenByte),
              let target = ascii(parts[1]), let protocolName = ascii(parts[2]) else {
            return .failure(bad("malformed request line"))
        }
        guard protocolName == "HTTP/1.1" || protocolName == "HTTP/1.0" else {
            return .failure(HTTPRequestError(status: .versionNotSupported, message: "only HTTP/1.0 and HTTP/1.1 are served"))
        }
        guard target.hasPrefix("/"), !target.utf8.contains(where: { $0 <= 0x20 || $0 >= 0x7F || $0 == UInt8(ascii: "#") }) else {
            return .failure(bad("the request target must be a path starting with '/'"))
        }
        var headers: [(name: String, value: String)] = []
        for line in lines {
            guard let first = line.first, first != 0x20, first != 0x09 else {
                return .failure(bad("folded header lines are not accepted"))
            }
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex,
                  line[line.startIndex..<colon].allSatisfy(isTokenByte) else {
                return .failure(bad("malformed header field"))
            }
            let name = String(decoding: line[line.startIndex..<colon], as: UTF8.self)
            let valueBytes = line[(colon + 1)...]
            guard !valueBytes.contains(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) else {
                return .failure(bad("control characters in header '\(name)'"))
            }
            let value = String(decoding: valueBytes, as: UTF8.self).trimmingCharacters(in: [" ", "\t"])
            headers.append((name, value))
        }
        var request = HTTPRequest(method: method, target: target, pathSegments: [], query: [:], version: String(protocolName.dropFirst(5)),
                                  headers: headers, body: [])
        if request.version == "1.1" && request.header("Host") == nil { return .failure(bad("HTTP/1.1 requests must name a Host")) }
        if request.headers.filter({ $0.name.caseInsensitiveEquals("Host") }).count > 1 { return .failure(bad("more than one Host header")) }
        if request.header("Transfer-Encoding") != nil {
            return .failure(HTTPRequestError(status: .lengthRequired, message: "chunked bodies are not accepted; send Content-Length"))
        }
        var length = 0
        let lengths = Set(request.headers.filter { $0.name.caseInsensitiveEquals("Content-Length") }.map(\.value))
        if !lengths.isEmpty {
            guard lengths.count == 1, let text = lengths.first, !text.isEmpty, text.count <= 18, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                  let value = Int(text) else {
                return .failure(bad("malformed Content-Length"))
            }
            length = value
        }
        if length > limits.body {
            return .failure(HTTPRequestError(status: .contentTooLarge, message: "the body is larger than \(limits.body) bytes"))
        }
        var expectsContinue = false
        if let expectation = request.header("Expect"), request.version == "1.1" {
            guard expectation.caseInsensitiveEquals("100-continue") else {
                return .failure(HTTPRequestError(status: .expectationFailed, message: "the only expectation met is '100-continue'"))
            }
            expectsContinue = length > 0
        }
        let bodyStart = headerEnd.bodyStart
        guard bytes.count - bodyStart >= length else { return .incomplete(headerComplete: true, expectsContinue: expectsContinue) }
        request.body = Array(bytes[bodyStart..<(bodyStart + length)])
        do throws(HTTPRequestError) {
            (request.pathSegments, request.query) = try splitTarget(target)
        } catch {
            return .failure(error)
        }
        return .request(request, consumed: bodyStart + length)
    }

    /// Where the header block ends (the blank line): the end of the last header line and the start of the body.
    private static func endOfHeader(in bytes: [UInt8], from start: Int) -> (blockEnd: Int, bodyStart: Int)? {
        var index = start
        while let newline = bytes[index...].firstIndex(of: 0x0A) {
            let next = newline + 1
            if next < bytes.count, bytes[next] == 0x0A { return (newline, next + 1) }
            if next + 1 < bytes.count, bytes[next] == 0x0D, bytes[next + 1] == 0x0A { return (newline, next + 2) }
            if next >= bytes.count { return nil }
            index = next
        }
        return nil
    }

    /// The lines of a header block, CRLF or LF, without their ends.
    private static func splitLines(_ block: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        block.split(separator: 0x0A, omittingEmptySubsequences: false).map { line in
            line.last == 0x0D ? line.dropLast() : line
        }.filter { !$0.isEmpty }
    }

    /// The path's segments and the query's parameters, percent-decoded; a segment `..` or `.`, an empty one inside
    /// the path, or one holding `/` or NUL once decoded is refused.
    static func splitTarget(_ target: String) throws(HTTPRequestError) -> ([String], [String: String]) {
        let pieces = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let rawPath = pieces[0].dropFirst()
        var segments: [String] = []
        if !rawPath.isEmpty {
            for raw in rawPath.split(separator: "/", omittingEmptySubsequences: false) {
                guard let segment = percentDecoded(raw, plusIsSpace: false) else { throw bad("malformed percent-encoding in the path") }
                guard !segment.isEmpty || raw.endIndex == rawPath.endIndex, segment != ".", segment != "..",
                      !segment.contains("/"), !segment.contains("\0") else {
                    throw bad("the path has an empty, '.', '..' or encoded '/' segment")
                }
                if !segment.isEmpty { segments.append(segment) }
            }
        }
        var query: [String: String] = [:]
        if pieces.count == 2 {
            for pair in pieces[1].split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard let name = percentDecoded(parts[0], plusIsSpace: true),
                      let value = parts.count == 2 ? percentDecoded(parts[1], plusIsSpace: true) : "" else {
                    throw bad("malformed percent-encoding in the query")
                }
                query[name] = value
            }
        }
        return (segments, query)
    }

    /// `text` with `%XX` decoded (and `+` as a space when asked); nil when an escape is malformed or the result is
    /// not UTF-8.
    static func percentDecoded(_ text: Substring, plusIsSpace: Bool) -> String? {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
                bytes.append(high << 4 | low)
            case UInt8(ascii: "+") where plusIsSpace:
                bytes.append(0x20)
            default:
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }

    /// A token character of RFC 9110 (method and header names).
    package static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
        default: "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }

    private static func ascii(_ bytes: ArraySlice<UInt8>) -> String? {
        bytes.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) ? String(decoding: bytes, as: UTF8.self) : nil
    }

    private static func bad(_ message: String) -> HTTPRequestError {
        HTTPRequestError(status: .badRequest, message: message)
    }
}

extension String {
    /// Whether this equals `other` ignoring ASCII case (header names).
    func caseInsensitiveEquals(_ other: String) -> Bool {
        utf8.count == other.utf8.count && zip(utf8, other.utf8).allSatisfy { a, b in
            (a >= 0x41 && a <= 0x5A ? a + 32 : a) == (b >= 0x41 && b <= 0x5A ? b + 32 : b)
        }
    }
}
