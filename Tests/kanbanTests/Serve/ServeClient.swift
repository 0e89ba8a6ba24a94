import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A response as the test client read it.
struct ServeResponse: CustomStringConvertible {
    var status: Int
    var headers: [(String, String)]
    var body: [UInt8]

    var text: String { String(decoding: body, as: UTF8.self) }
    var json: [String: Any]? { (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] }

    func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }

    var description: String { "\(status) \(headers.map { "\($0.0): \($0.1)" }.joined(separator: "; "))\n\(text.prefix(2000))" }
}

/// One TCP connection to the server under test, speaking raw HTTP so that tests can send anything.
final class ServeConnection {
    let descriptor: Int32
    private var buffer: [UInt8] = []

    init(port: UInt16) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(descriptor)
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        var limit = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(descriptor) }

    func send(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL)) }
            if sent <= 0 { return }
            offset += sent
        }
    }

    func send(_ text: String) { send(Array(text.utf8)) }

    /// Reads more bytes; false at end of stream (or after the 20 s receive limit).
    private func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, 65_536, 0) }
        guard count > 0 else { return false }
        buffer += chunk.prefix(count)
        return true
    }

    /// Whether the server closed the connection (reads to the end, 20 s at most).
    func isClosedByServer() -> Bool {
        while fill() {}
        return true
    }

    /// Reads one response (a body by Content-Length); nil when the connection ends first.
    func readResponse() -> ServeResponse? {
        while true {
            if let end = headerEnd() {
                let head = String(decoding: buffer[..<end], as: UTF8.self)
                var lines = head.components(separatedBy: "\r\n")
                let statusLine = lines.removeFirst().split(separator: " ")
                guard statusLine.count >= 2, let status = Int(statusLine[1]) else { return nil }
                let headers = lines.compactMap { line -> (String, String)? in
                    guard let colon = line.firstIndex(of: ":") else { return nil }
                    return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
                }
                let length = headers.first { $0.0.lowercased() == "content-length" }.flatMap { Int($0.1) } ?? 0
                if headers.contains(where: { $0.0.lowercased() == "content-type" && $0.1.hasPrefix("text/event-stream") }) {
                    let body = Array(buffer[(end + 4)...])
                    buffer = []
                    return ServeResponse(status: status, headers: headers, body: body)
                }
                while buffer.count < end + 4 + length { guard fill() else { return nil } }
                let body = Array(buffer[(end + 4)..<(end + 4 + length)])
                buffer.removeFirst(end + 4 + length)
                return ServeResponse(status: status, headers: headers, body: body)
            }
            guard fill() else { return nil }
        }
    }

    /// Reads event-stream text until `condition` holds for everything read so far (20 s at most in all: the
    /// server's keep-alive comments do not extend it).
    func readStream(until condition: (String) -> Bool) -> String {
        let deadline = Date().addingTimeInterval(20)
        var text = String(decoding: buffer, as: UTF8.self)
        while !condition(text) && Date() < deadline {
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 200) >= 0 else { break }
            if entry.revents != 0 {
                guard fill() else { break }
            }
            text = String(decoding: buffer, as: UTF8.self)
        }
        return text
    }

    private func headerEnd() -> Int? {
        guard buffer.count >= 4 else { return nil }
        for index in 0...(buffer.count - 4) where buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13 && buffer[index + 3] == 10 {
            return index
        }
        return nil
    }
}

/// A running `kanban serve` on a temporary board, and requests to it.
final class ServeProcess {
    let process: WatchProcess
    let port: UInt16
    let token: String
    let url: String

    /// - Parameters:
    ///   - opensBrowser: Whether to leave out `--no-open` (the test gives a stand-in `xdg-open` on `PATH`).
    ///   - descriptorLimit: The `ulimit -n` the server runs under, when given.
    init(board: TemporaryBoard, arguments: [String] = [], environment: [String: String] = [:], opensBrowser: Bool = false,
         descriptorLimit: Int? = nil) throws {
        var base = KanbanProcess.baseEnvironment(home: board.root)
        base.merge(environment) { $1 }
        process = try WatchProcess(["serve"] + (opensBrowser ? [] : ["--no-open"]) + arguments, directory: board.path, environment: base, descriptorLimit: descriptorLimit)
        let line = process.waitForLine { $0.hasPrefix("serving ") }
        let found = try #require(line, "kanban serve printed no address: \(process)")
        url = String(try #require(found.split(separator: " ").last))
        let match = try #require(url.firstMatch(of: /:(\d+)\/\?token=([0-9a-f]+)$/), "\(found)")
        port = try #require(UInt16(match.output.1))
        token = String(match.output.2)
    }

    /// Sends one request on a new connection and reads the response.
    func request(_ method: String, _ path: String, json: String? = nil, headers: [String: String] = [:],
                 authorized: Bool = true) throws -> ServeResponse {
        let connection = try ServeConnection(port: port)
        var lines = ["\(method) \(path) HTTP/1.1", "Host: 127.0.0.1:\(port)", "Connection: close"]
        if authorized { lines.append("Authorization: Bearer \(token)") }
        var body: [UInt8] = []
        if let json {
            body = Array(json.utf8)
            if headers["Content-Type"] == nil { lines.append("Content-Type: application/json") }
        } else if method != "GET", headers["Content-Type"] == nil {
            lines.append("Content-Type: application/json")
        }
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { lines.append("\(name): \(value)") }
        lines.append("Content-Length: \(body.count)")
        connection.send(Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8) + body)
        return try #require(connection.readResponse(), "no response to \(method) \(path)")
    }

    func get(_ path: String) throws -> ServeResponse { try request("GET", path) }

    /// Stops the server with `signal` and returns its exit status.
    func stop(_ signal: Int32 = SIGTERM) throws -> Int32 { try process.stop(signal) }
}
