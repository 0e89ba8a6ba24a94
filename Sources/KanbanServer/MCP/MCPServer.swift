import Foundation
import KanbanCore
import KanbanWatch
import Synchronization

/// The MCP layer of `kanban mcp`: JSON-RPC messages in, answers and notifications out, through a table of methods.
///
/// It speaks both generations of the protocol on one connection: the handshake revisions (`initialize`, then
/// requests under the negotiated version) and the stateless 2026-07-28 revision (each request names its version and
/// client in `_meta`; `server/discover`; `subscriptions/listen`). Requests are handled one at a time, in order, on
/// the caller's thread; the watcher's notifications come from its own thread, so the session's state is behind a
/// lock and every message leaves through ``send``, which writes whole lines.
package final class MCPServer: @unchecked Sendable {
    /// The handshake revisions, newest first.
    static let handshakeVersions = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]
    /// The stateless revisions, whose requests carry their version in `_meta`.
    static let statelessVersions = ["2026-07-28"]
    static let versionKey = "io.modelcontextprotocol/protocolVersion"
    static let clientCapabilitiesKey = "io.modelcontextprotocol/clientCapabilities"
    static let serverInfoKey = "io.modelcontextprotocol/serverInfo"
    static let subscriptionKey = "io.modelcontextprotocol/subscriptionId"

    /// One request being handled: its id, its parameters, and the revision it is under.
    struct Request {
        var id: JSON
        var method: String
        var params: [String: JSON]
        /// The stateless revision it names in `_meta`, or nil for the handshake era.
        var statelessVersion: String?
    }

    /// What a method answers: a result now, or nothing yet (a subscription answered when it ends).
    enum Answer {
        case result(JSON)
        case later
    }

    typealias Method = @Sendable (MCPServer, Request) throws(JSONRPCError) -> Answer

    /// A `subscriptions/listen` stream: what it asked for, and what was granted.
    struct Listen {
        var id: JSON
        var resources: Set<String>
        var resourcesListChanged: Bool
        var toolsListChanged: Bool
    }

    struct State {
        /// The version `initialize` settled on; nil before it.
        var negotiatedVersion: String?
        var isInitialized = false
        var clientCapabilities: JSON = .object([:])
        /// Resources subscribed with `resources/subscribe`.
        var subscriptions: Set<String> = []
        /// Open `subscriptions/listen` streams, by their request id's JSON text.
        var listens: [String: Listen] = [:]
        /// Ids of `roots/list` requests sent and not answered.
        var pendingRootRequests: Set<String> = []
        var nextRequestNumber = 1
    }

    let board: MCPBoard
    let tools: MCPTools
    /// Writes one message as one line on standard output.
    let send: @Sendable (JSON) -> Void
    /// Starts the watcher that feeds subscriptions, once, for the board; returns a problem to log, if any.
    let startWatching: (BoardStore) -> String?
    /// Writes a diagnostic line on standard error.
    let log: @Sendable (String) -> Void
    let state = Mutex(State())
    private var watchedBoard: String?

    /// A server of `board`, or of several boards (`named`, two or more; `board` is then the first of them, and every
    /// tool takes a `board` argument naming one).
    package init(board: MCPBoard, named: [MCPNamedBoard] = [], send: @escaping @Sendable (JSON) -> Void, log: @escaping @Sendable (String) -> Void = { _ in },
         startWatching: @escaping (BoardStore) -> String? = { _ in nil }) {
        self.board = board
        self.tools = MCPTools(board: board, named: named)
        self.send = send
        self.log = log
        self.startWatching = startWatching
    }

    // MARK: Lines in

    /// Handles one line from the client: answers what it asks, or says why it is not a message.
    package func receive(_ line: [UInt8]) {
        guard line.contains(where: { ![0x20, 0x09, 0x0D].contains($0) }) else { return }
        let (items, isBatch) = JSONRPC.decode(line)
        var answers: [JSON] = []
        for item in items {
            switch item {
            case .invalid(let id, let error):
                answers.append(JSONRPC.response(id: id, error: error))
            case .message(let message):
                if let answer = handle(message) { answers.append(answer) }
            }
        }
        if isBatch {
            if !answers.isEmpty { send(.array(answers)) }
        } else {
            answers.forEach(send)
        }
    }

    /// A line longer than the limit, dropped unread.
    package func receiveTooLong(_ length: Int, limit: Int) {
        send(JSONRPC.response(id: .null, error: .invalidRequest("the message is \(length) bytes or more; the limit is \(limit) bytes")))
    }

    /// The answer to one message, or nil for a notification, a response, or a request answered later.
    func handle(_ message: JSONRPCMessage) -> JSON? {
        switch message {
        case .notification(let method, let params):
            notify(method, params?.objectValue ?? [:])
            return nil
        case .response(let id, let result, _):
            answered(id, result: result)
            return nil
        case .request(let id, let method, let params):
            do throws(JSONRPCError) {
                let request = try makeRequest(id: id, method: method, params: params)
                guard let method = Self.methods[method] else { throw .methodNotFound(method) }
                switch try method(self, request) {
                case .result(let result): return JSONRPC.response(id: id, result: finished(result, for: request))
                case .later: return nil
                }
            } catch {
                return JSONRPC.response(id: id, error: error)
            }
        }
    }

    /// The request with its revision read from `_meta`: a stateless version must be one this server speaks and come
    /// with the client's capabilities.
    private func makeRequest(id: JSON, method: String, params: JSON?) throws(JSONRPCError) -> Request {
        if params?.arrayValue != nil { throw .invalidParams("MCP parameters are an object, not an array") }
        let members = params?.objectValue ?? [:]
        var request = Request(id: id, method: method, params: members, statelessVersion: nil)
        guard let version = members["_meta"]?[Self.versionKey] else { return request }
        guard let text = version.stringValue else { throw .invalidParams("_meta '\(Self.versionKey)' must be a string") }
        if Self.handshakeVersions.contains(text) { return request }
        guard Self.statelessVersions.contains(text) else {
            throw JSONRPCError(code: -32022, message: "Unsupported protocol version \(text)", data: .object([
                "supported": .array((Self.statelessVersions + Self.handshakeVersions).map(JSON.string)), "requested": .string(text),
            ]))
        }
        guard members["_meta"]?[Self.clientCapabilitiesKey]?.objectValue != nil else {
            throw .invalidParams("a request under \(text) must carry '\(Self.clientCapabilitiesKey)' in _meta")
        }
        request.statelessVersion = text
        return request
    }

    /// A result as the request's revision wants it: stateless results say they are complete and who answered.
    private func finished(_ result: JSON, for request: Request) -> JSON {
        guard request.statelessVersion != nil, case .object(var members) = result else { return result }
        members["resultType"] = .string("complete")
        if Self.cacheableMethods.contains(request.method) {
            // The board's files change under the server at any time (and the tools' schemas with board.md): never fresh.
            members["ttlMs"] = .number("0")
            members["cacheScope"] = .string("private")
        }
        var meta = members["_meta"]?.objectValue ?? [:]
        meta[Self.serverInfoKey] = Self.serverInfo
        members["_meta"] = .object(meta)
        return .object(members)
    }

    /// The methods whose stateless results are cacheable, and so say for how long.
    static let cacheableMethods: Set<String> = ["server/discover", "tools/list", "resources/list", "resources/templates/list", "resources/read"]

    static let serverInfo: JSON = .object(["name": .string("kanban"), "title": .string("kanban board"), "version": .string(KanbanVersion.current)])

    // MARK: The method table

    static let methods: [String: Method] = [
        "initialize": { server, request throws(JSONRPCError) in try server.initialize(request) },
        "ping": { _, _ in .result(.object([:])) },
        "server/discover": { server, _ in .result(server.discover()) },
        "tools/list": { server, _ in .result(.object(["tools": .array(server.tools.definitions())])) },
        "tools/call": { server, request throws(JSONRPCError) in .result(try server.callTool(request)) },
        "resources/list": { server, request throws(JSONRPCError) in .result(try server.listResources(request)) },
        "resources/templates/list": { server, _ in .result(server.resourceTemplates()) },
        "resources/read": { server, request throws(JSONRPCError) in .result(try server.readResource(request)) },
        "resources/subscribe": { server, request throws(JSONRPCError) in .result(try server.subscribe(request)) },
        "resources/unsubscribe": { server, request throws(JSONRPCError) in .result(try server.unsubscribe(request)) },
        "subscriptions/listen": { server, request throws(JSONRPCError) in try server.listen(request) },
    ]

    static var capabilities: JSON {
        .object([
            "tools": .object(["listChanged": .bool(true)]),
            "resources": .object(["subscribe": .bool(true), "listChanged": .bool(true)]),
        ])
    }

    private func initialize(_ request: Request) throws(JSONRPCError) -> Answer {
        guard let requested = request.params["protocolVersion"]?.stringValue else {
            throw .invalidParams("initialize needs 'protocolVersion'")
        }
        // The client's version when this server speaks it, else this server's newest; the client decides whether to go on.
        let version = Self.handshakeVersions.contains(requested) ? requested : Self.handshakeVersions[0]
        state.withLock {
            $0.negotiatedVersion = version
            $0.clientCapabilities = request.params["capabilities"] ?? .object([:])
        }
        return .result(.object([
            "protocolVersion": .string(version),
            "capabilities": Self.capabilities,
            "serverInfo": Self.serverInfo,
            "instructions": .string(MCPInstructions.text(boards: tools.named.map(\.name))),
        ]))
    }

    private func discover() -> JSON {
        .object([
            "supportedVersions": .array((Self.statelessVersions + Self.handshakeVersions).map(JSON.string)),
            "capabilities": Self.capabilities,
            "instructions": .string(MCPInstructions.text(boards: tools.named.map(\.name))),
        ])
    }

    private func callTool(_ request: Request) throws(JSONRPCError) -> JSON {
        guard let name = request.params["name"]?.stringValue else { throw .invalidParams("tools/call needs the tool's 'name'") }
        guard let tool = tools.tool(named: name) else {
            throw JSONRPCError(code: -32602, message: "Unknown tool: \(name)", data: .object([
                "tools": .array(tools.all.map { .string($0.name) }),
            ]))
        }
        let given = request.params["arguments"]
        let arguments = given == nil || given == .null ? .object([:]) : given ?? .object([:])
        guard let members = arguments.objectValue else { throw .invalidParams("'arguments' must be an object") }
        return tools.call(tool, members)
    }

    // MARK: Notifications

    private func notify(_ method: String, _ params: [String: JSON]) {
        switch method {
        case "notifications/initialized":
            state.withLock { $0.isInitialized = true }
            askForRootsIfNeeded()
            watchIfPossible()
        case "notifications/roots/list_changed":
            askForRootsIfNeeded()
        case "notifications/cancelled":
            // Only a subscription outlives its request here; cancelling it ends it without a word (as the protocol asks).
            if let id = params["requestId"] {
                _ = state.withLock { $0.listens.removeValue(forKey: id.rendered(pretty: false)) }
            }
        default:
            break  // Unknown notifications are ignored, as JSON-RPC asks.
        }
    }

    // MARK: Roots

    /// Asks a handshake-era client for its roots when no board was found otherwise and the client offers them.
    private func askForRootsIfNeeded() {
        guard board.canUseRoots else { return }
        let id: String? = state.withLock { state in
            guard state.clientCapabilities["roots"] != nil, state.negotiatedVersion != nil else { return nil }
            let id = "kanban-roots-\(state.nextRequestNumber)"
            state.nextRequestNumber += 1
            state.pendingRootRequests.insert(id)
            return id
        }
        if let id { send(JSONRPC.request(id: .string(id), "roots/list")) }
    }

    /// A response to a request this server sent (only `roots/list`).
    private func answered(_ id: JSON, result: JSON?) {
        guard let key = id.stringValue, state.withLock({ $0.pendingRootRequests.remove(key) != nil }) else { return }
        let uris = (result?["roots"]?.arrayValue ?? []).compactMap { $0["uri"]?.stringValue }
        let paths = uris.compactMap { URL(string: $0) }.filter(\.isFileURL).map(\.path)
        if let found = board.adopt(roots: paths) {
            log("using the board at \(found), found from the client's roots")
            watchIfPossible()
        } else if !paths.isEmpty {
            log("no board in the client's roots: \(paths.joined(separator: ", "))")
        }
    }

    // MARK: Watching

    /// Starts the watcher for the board, once there is a board and a client that may want to hear of changes.
    func watchIfPossible() {
        guard watchedBoard == nil else { return }
        if !tools.named.isEmpty {
            watchedBoard = "*"
            for store in tools.named.compactMap(\.board.store) {
                if let problem = startWatching(store) { log(problem) }
            }
            return
        }
        guard let store = board.store else { return }
        watchedBoard = store.directory
        if let problem = startWatching(store) { log(problem) }
    }

    /// Tells subscribed clients what a change on disk changed: the card's and the board's resources, the list of
    /// resources when cards come or go, and the list of tools when board.md changes (its columns and labels are in
    /// the tools' schemas).
    /// - Parameter directory: The directory of the board it happened on, with several boards.
    package func publish(_ event: WatchEvent, onBoardAt directory: String? = nil) {
        let name = directory.flatMap { directory in tools.named.first { $0.board.store?.directory == directory }?.name }
        var changed: Set<String> = []
        if event.kind != .invalid { changed.insert(MCPResources.boardURI(in: name)) }
        if let slug = event.slug { changed.insert(MCPResources.cardURI(slug, in: name)) }
        // A rename's from and to are slugs (a move's are columns).
        if event.kind == .renamed {
            for slug in [event.from, event.to].compactMap({ $0 }) { changed.insert(MCPResources.cardURI(slug, in: name)) }
        }
        let listChanged = [.created, .deleted, .archived, .unarchived, .renamed].contains(event.kind)
        let toolsChanged = [.board, .columnAdded, .columnRemoved].contains(event.kind)
        let (subscribed, initialized, listens) = state.withLock { state in
            (state.subscriptions.intersection(changed), state.isInitialized || state.negotiatedVersion != nil, Array(state.listens.values))
        }
        for uri in subscribed.sorted() {
            send(JSONRPC.notification("notifications/resources/updated", .object(["uri": .string(uri)])))
        }
        if initialized && listChanged { send(JSONRPC.notification("notifications/resources/list_changed")) }
        if initialized && toolsChanged { send(JSONRPC.notification("notifications/tools/list_changed")) }
        for listen in listens {
            let meta: JSON = .object([Self.subscriptionKey: listen.id])
            for uri in listen.resources.intersection(changed).sorted() {
                send(JSONRPC.notification("notifications/resources/updated", .object(["_meta": meta, "uri": .string(uri)])))
            }
            if listen.resourcesListChanged && listChanged {
                send(JSONRPC.notification("notifications/resources/list_changed", .object(["_meta": meta])))
            }
            if listen.toolsListChanged && toolsChanged {
                send(JSONRPC.notification("notifications/tools/list_changed", .object(["_meta": meta])))
            }
        }
    }

    /// Ends every open `subscriptions/listen` stream with its final answer (the server is stopping).
    package func closeSubscriptions() {
        let listens = state.withLock { state in
            defer { state.listens.removeAll() }
            return Array(state.listens.values)
        }
        for listen in listens {
            send(JSONRPC.response(id: listen.id, result: .object([
                "resultType": .string("complete"), "_meta": .object([Self.subscriptionKey: listen.id, Self.serverInfoKey: Self.serverInfo]),
            ])))
        }
    }
}
