import Foundation
import Synchronization

/// A small HTTP/1.1 server on POSIX sockets: a thread accepts, and each connection is served on a thread of its own
/// (keep-alive, one request at a time), so a slow client holds only its own thread.
///
/// Every connection is bounded: the request line, header block and body by ``HTTPLimits``; the time a request may
/// take to arrive once begun (``Timeouts/request``) and to wait idle between requests (``Timeouts/idle``); a send
/// that blocks longer than ``Timeouts/send`` ends the connection. About ``capacity`` connections are served at once,
/// fewer than the process may have descriptors: when a new one comes past it, the connections longest idle (waiting
/// for a request, none begun) are closed to make room, as nginx drains its keep-alive connections (those still
/// closing count until their threads close them, up to half of ``reservedDescriptors`` more); when none is idle, the
/// new one gets a whole 503 (on a thread of its own for up to two seconds, ``maximumRefusing`` at once). When the
/// process runs out of descriptors anyway, the server waits for one rather than spin on a listener that stays
/// readable. Nothing a client sends stops the server.
package final class HTTPServer: Sendable {
    /// How long things may take.
    package struct Timeouts: Sendable {
        /// From a request's first byte to its last.
        package var request: Duration = .seconds(10)
        /// Between requests on a kept-alive connection, and before the first.
        package var idle: Duration = .seconds(30)
        /// One blocking send.
        package var sendSeconds = 10

        package init() {}
    }

    /// What answers a request; runs on the connection's thread.
    package typealias Handler = @Sendable (HTTPRequest) -> HTTPResponse

    /// Descriptors kept free of connections, for the board's files, the watcher and git's pipes.
    static let reservedDescriptors = 64
    /// Refused connections answered at once (a thread each, for at most two seconds); past it one is closed unanswered.
    static let maximumRefusing = 32

    package let port: UInt16
    private let listener: Int32
    private let limits: HTTPLimits
    private let timeouts: Timeouts
    /// The most connections served at once: the `maximumConnections` asked for, less when the descriptor limit is
    /// lower.
    let capacity: Int
    private let handler: Handler
    private let stopPipe: (read: Int32, write: Int32)
    private let state = Mutex(State())

    private struct Connection {
        /// Since when it has waited for a request with no byte of one received; nil while a request is under way.
        var idleSince: ContinuousClock.Instant?
        /// Whether it was shut down to make room (its thread is about to close it).
        var isEvicted = false
    }

    private struct State {
        var connections: [Int32: Connection] = [:]
        var evicted = 0
        var refusing = 0
        var isStopping = false
    }

    /// Binds `address:port` (port 0: a free one) and prepares to serve; nothing is accepted until ``run()``.
    /// - Parameter descriptorLimit: The descriptors the process may open (by default the soft `RLIMIT_NOFILE`).
    /// - Throws: ``SocketFailure`` when the address cannot be bound.
    package init(address: String, port: UInt16, limits: HTTPLimits = HTTPLimits(), timeouts: Timeouts = Timeouts(),
         maximumConnections: Int = 1024, descriptorLimit: Int? = SystemCalls.descriptorLimit(),
         handler: @escaping Handler) throws(SocketFailure) {
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
        // Under a very low limit (96 or less) a few connections are still served: the limit is then too low to serve.
        let room = descriptorLimit.map { max(8, $0 - Self.reservedDescriptors - Self.maximumRefusing) } ?? Int.max
        capacity = max(1, min(maximumConnections, room))
        self.handler = handler
    }

    /// The number of connections open now.
    var connectionCount: Int { state.withLock { $0.connections.count } }

    /// Accepts connections until ``stop()``; call it on a thread of its own.
    package func run() {
        while true {
            guard case .success(let ready) = SystemCalls.waitForInput([listener, stopPipe.read], milliseconds: -1) else { continue }
            if ready[1] || state.withLock({ $0.isStopping }) { break }
            guard ready[0] else { continue }
            switch SystemCalls.acceptConnection(listener) {
            case .success(let connection):
                admit(connection)
            case .failure(let failure) where [EMFILE, ENFILE, ENOBUFS, ENOMEM].contains(failure.code):
                // The listener stays readable while the connection waits in its queue: without a pause this loop
                // would take a core. Make room, then look again in a moment.
                state.withLock { _ = evictIdle(&$0, atMost: 16) }
                _ = SystemCalls.waitForInput([stopPipe.read], milliseconds: 50)
            case .failure:
                continue  // ECONNABORTED and the like: that client is gone.
            }
        }
        // The stop pipe stays open: stop() may still be writing to it (one server a process; it ends with it).
        SystemCalls.closeDescriptor(listener)
    }

    /// Serves `connection` on a thread of its own, making room by closing idle connections when the server is full,
    /// or refuses it with a 503.
    private func admit(_ connection: Int32) {
        enum Decision { case serve, refuse, close }
        let decision = state.withLock { state -> Decision in
            guard !state.isStopping else { return .close }
            if state.connections.count - state.evicted >= capacity && evictIdle(&state, atMost: 16) == 0 {
                guard state.refusing < Self.maximumRefusing else { return .close }
                state.refusing += 1
                return .refuse
            }
            // Evicted connections still hold their descriptors until their threads close them, a moment later.
            guard state.connections.count < capacity + Self.reservedDescriptors / 2 else { return .close }
            state.connections[connection] = Connection(idleSince: .now)
            return .serve
        }
        switch decision {
        case .close:
            SystemCalls.closeDescriptor(connection)
        case .refuse:
            startThread { [self] in
                SystemCalls.setSendTimeout(connection, seconds: 1)
                let response = HTTPResponse.error(.serviceUnavailable, "busy", "too many connections; try again")
                SystemCalls.sendAll(connection, response.head(keepAlive: false) + response.body)
                SystemCalls.finishConnection(connection)
                SystemCalls.closeDescriptor(connection)
                state.withLock { $0.refusing -= 1 }
            }
        case .serve:
            startThread { [self] in
                serve(connection)
                state.withLock { state in
                    if state.connections.removeValue(forKey: connection)?.isEvicted == true { state.evicted -= 1 }
                }
                SystemCalls.closeDescriptor(connection)
            }
        }
    }

    private func startThread(_ body: @escaping @Sendable () -> Void) {
        let thread = Thread(block: body)
        thread.stackSize = 512 * 1024
        thread.start()
    }

    /// How long a connection must have been idle before it may be closed to make room: a client that has just
    /// connected has its request on the way.
    static let minimumIdleBeforeEviction: Duration = .milliseconds(100)

    /// Shuts down up to `count` of the connections idle longest (their threads then close them).
    /// - Returns: How many were shut down.
    private func evictIdle(_ state: inout State, atMost count: Int) -> Int {
        let cutoff = ContinuousClock.now.advanced(by: .zero - Self.minimumIdleBeforeEviction)
        let idle = state.connections.compactMap { entry -> (Int32, ContinuousClock.Instant)? in
            guard !entry.value.isEvicted, let since = entry.value.idleSince, since <= cutoff else { return nil }
            return (entry.key, since)
        }
        let chosen = idle.sorted { $0.1 < $1.1 }.prefix(count)
        for (descriptor, _) in chosen {
            state.connections[descriptor]?.isEvicted = true
            SystemCalls.shutDown(descriptor)
        }
        state.evicted += chosen.count
        return chosen.count
    }

    /// Records that `connection` waits for a request with nothing of one received (and so may be closed to make room).
    private func markIdle(_ connection: Int32) {
        state.withLock { state in
            guard state.connections[connection] != nil else { return }
            state.connections[connection]?.idleSince = .now
        }
    }

    /// Records that a request has begun on `connection`, so it is no longer closed to make room.
    /// - Returns: False when it was closed to make room already: its request must not be handled.
    private func markBusy(_ connection: Int32) -> Bool {
        state.withLock { state in
            guard let entry = state.connections[connection], !entry.isEvicted else { return false }
            state.connections[connection]?.idleSince = nil
            return true
        }
    }

    /// Stops accepting and ends every open connection (their threads return soon after).
    package func stop() {
        let open = state.withLock { state -> [Int32] in
            state.isStopping = true
            return Array(state.connections.keys)
        }
        SystemCalls.wake(stopPipe.write)
        for connection in open { SystemCalls.shutDown(connection) }
    }

    /// Sends `response` whole and ends the connection so that the client can read it (see
    /// ``SystemCalls/finishConnection(_:milliseconds:limit:)``).
    private func sendFinal(_ response: HTTPResponse, on connection: Int32) {
        if SystemCalls.sendAll(connection, response.head(keepAlive: false) + response.body) {
            SystemCalls.finishConnection(connection)
        }
    }

    /// Serves requests on `connection` until the client closes it, a request cannot be read, or the server stops.
    private func serve(_ connection: Int32) {
        SystemCalls.setSendTimeout(connection, seconds: timeouts.sendSeconds)
        let clock = ContinuousClock()
        var buffer: [UInt8] = []
        var deadline = clock.now.advanced(by: timeouts.idle)
        var sentContinue = false
        while !state.withLock({ $0.isStopping }) {
            switch HTTPRequestParser.parse(buffer, limits: limits) {
            case .request(let request, let consumed):
                buffer.removeFirst(consumed)
                sentContinue = false
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
                guard keepAlive else {
                    SystemCalls.finishConnection(connection)
                    return
                }
                if buffer.isEmpty { markIdle(connection) }
                deadline = clock.now.advanced(by: buffer.isEmpty ? timeouts.idle : timeouts.request)
                continue
            case .failure(let error):
                sendFinal(HTTPResponse.error(error.status, Self.code(for: error.status), error.message), on: connection)
                return
            case .incomplete(_, let expectsContinue):
                // The client waits for a word before it sends the body; the limits were checked on its header.
                if expectsContinue && !sentContinue {
                    sentContinue = true
                    guard SystemCalls.sendAll(connection, Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)) else { return }
                }
            }
            let remaining = clock.now.duration(to: deadline)
            let milliseconds = max(0, remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000)
            guard milliseconds > 0, SystemCalls.waitReadable(connection, milliseconds: Int32(min(milliseconds, 60_000))) else {
                if clock.now < deadline { continue }
                if !buffer.isEmpty {
                    sendFinal(HTTPResponse.error(.requestTimeout, "timeout", "the request did not arrive in time"), on: connection)
                }
                return
            }
            let received = SystemCalls.receive(connection)
            guard !received.isEmpty else { return }
            if buffer.isEmpty {
                deadline = clock.now.advanced(by: timeouts.request)
                // Closed to make room while its first bytes were on the way: it is gone, whatever arrived.
                guard markBusy(connection) else { return }
            }
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
        case 417: "expectation-failed"
        case 431: "headers-too-large"
        case 505: "version-not-supported"
        default: "bad-request"
        }
    }
}
