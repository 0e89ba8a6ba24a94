import Foundation
import Synchronization

/// A small HTTP/1.1 server on POSIX sockets: a thread accepts, and each connection is served on a thread of its own
/// (keep-alive, one request at a time), so a slow client holds only its own thread.
///
/// Every connection is bounded: the request line, header block and body by ``HTTPLimits``; the time a request may
/// take to arrive once begun (``Timeouts/request``) and to wait idle between requests (``Timeouts/idle``); a send
/// that blocks longer than ``Timeouts/send`` ends the connection; past ``maximumConnections`` a new connection gets
/// 503 at once. Nothing a client sends stops the server.
final class HTTPServer: Sendable {
    /// How long things may take.
    struct Timeouts: Sendable {
        /// From a request's first byte to its last.
        var request: Duration = .seconds(10)
        /// Between requests on a kept-alive connection, and before the first.
        var idle: Duration = .seconds(30)
        /// One blocking send.
        var sendSeconds = 10
    }

    /// What answers a request; runs on the connection's thread.
    typealias Handler = @Sendable (HTTPRequest) -> HTTPResponse

    let port: UInt16
    private let listener: Int32
    private let limits: HTTPLimits
    private let timeouts: Timeouts
    let maximumConnections: Int
    private let handler: Handler
    private let stopPipe: (read: Int32, write: Int32)
    private let state = Mutex(State())

    private struct State {
        var connections: Set<Int32> = []
        var isStopping = false
    }

    /// Binds `address:port` (port 0: a free one) and prepares to serve; nothing is accepted until ``run()``.
    /// - Throws: ``SocketFailure`` when the address cannot be bound.
    init(address: String, port: UInt16, limits: HTTPLimits = HTTPLimits(), timeouts: Timeouts = Timeouts(),
         maximumConnections: Int = 1024, handler: @escaping Handler) throws(SocketFailure) {
        switch SystemCalls.openListener(address: address, port: port) {
        case .success(let bound):
            listener = bound.descriptor
            self.port = bound.port
        case .failure(let failure):
            throw failure
        }
        switch SystemCalls.makePipe() {
        case .success(let pipe):
            stopPipe = pipe
        case .failure(let failure):
            SystemCalls.closeDescriptor(listener)
            throw SocketFailure(call: "pipe", code: failure.code)
        }
        self.limits = limits
        self.timeouts = timeouts
        self.maximumConnections = maximumConnections
        self.handler = handler
    }

    /// The number of connections open now.
    var connectionCount: Int { state.withLock { $0.connections.count } }

    /// Accepts connections until ``stop()``; call it on a thread of its own.
    func run() {
        while true {
            guard case .success(let ready) = SystemCalls.waitForInput([listener, stopPipe.read], milliseconds: -1) else { continue }
            if ready[1] || state.withLock({ $0.isStopping }) { break }
            guard ready[0], let connection = SystemCalls.acceptConnection(listener) else { continue }
            let admitted = state.withLock { state -> Bool in
                guard !state.isStopping, state.connections.count < maximumConnections else { return false }
                state.connections.insert(connection)
                return true
            }
            guard admitted else {
                SystemCalls.setSendTimeout(connection, seconds: 1)
                SystemCalls.sendAll(connection, HTTPResponse.error(.serviceUnavailable, "busy", "too many connections; try again").head(keepAlive: false))
                SystemCalls.closeDescriptor(connection)
                continue
            }
            let thread = Thread { [self] in
                serve(connection)
                state.withLock { _ = $0.connections.remove(connection) }
                SystemCalls.closeDescriptor(connection)
            }
            thread.stackSize = 512 * 1024
            thread.start()
        }
        SystemCalls.closeDescriptor(listener)
    }

    /// Stops accepting and ends every open connection (their threads return soon after).
    func stop() {
        let open = state.withLock { state -> Set<Int32> in
            state.isStopping = true
            return state.connections
        }
        SystemCalls.wake(stopPipe.write)
        for connection in open { SystemCalls.shutDown(connection) }
    }

    /// Serves requests on `connection` until the client closes it, a request cannot be read, or the server stops.
    private func serve(_ connection: Int32) {
        SystemCalls.setSendTimeout(connection, seconds: timeouts.sendSeconds)
        let clock = ContinuousClock()
        var buffer: [UInt8] = []
        var deadline = clock.now.advanced(by: timeouts.idle)
        while !state.withLock({ $0.isStopping }) {
            switch HTTPRequestParser.parse(buffer, limits: limits) {
            case .request(let request, let consumed):
                buffer.removeFirst(consumed)
                var response = handler(request)
                let keepAlive = request.keepsAlive && response.stream == nil
                if request.method == "HEAD" { response.body = [] }
                guard SystemCalls.sendAll(connection, response.head(keepAlive: keepAlive) + response.body) else { return }
                if let stream = response.stream {
                    defer { stream.finish() }
                    while let chunk = stream.next() {
                        guard SystemCalls.sendAll(connection, chunk) else { return }
                    }
                    return
                }
                guard keepAlive else { return }
                deadline = clock.now.advanced(by: buffer.isEmpty ? timeouts.idle : timeouts.request)
                continue
            case .failure(let error):
                let response = HTTPResponse.error(error.status, Self.code(for: error.status), error.message)
                SystemCalls.sendAll(connection, response.head(keepAlive: false) + response.body)
                return
            case .incomplete:
                break
            }
            let remaining = clock.now.duration(to: deadline)
            let milliseconds = max(0, remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000)
            guard milliseconds > 0, SystemCalls.waitReadable(connection, milliseconds: Int32(min(milliseconds, 60_000))) else {
                if clock.now < deadline { continue }
                if !buffer.isEmpty {
                    let response = HTTPResponse.error(.requestTimeout, "timeout", "the request did not arrive in time")
                    SystemCalls.sendAll(connection, response.head(keepAlive: false) + response.body)
                }
                return
            }
            let received = SystemCalls.receive(connection)
            guard !received.isEmpty else { return }
            if buffer.isEmpty { deadline = clock.now.advanced(by: timeouts.request) }
            buffer += received
        }
    }

    /// The `error` code of the JSON body for a status the parser chose.
    static func code(for status: HTTPStatus) -> String {
        switch status.code {
        case 408: "timeout"
        case 411: "length-required"
        case 413: "too-large"
        case 414: "uri-too-long"
        case 431: "headers-too-large"
        case 505: "version-not-supported"
        default: "bad-request"
        }
    }
}
