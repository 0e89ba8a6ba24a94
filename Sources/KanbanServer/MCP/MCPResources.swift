import Foundation
import KanbanCore

/// The resources `kanban mcp` offers: `kanban://board`, the board as a markdown overview, and `kanban://card/{slug}`,
/// a card's file as it is on disk. With several boards, each board's are under its name:
/// `kanban://boards/{board}/board` and `kanban://boards/{board}/card/{slug}` (the name percent-encoded).
package enum MCPResources {
    static let boardURI = "kanban://board"
    static let cardPrefix = "kanban://card/"
    static let boardsPrefix = "kanban://boards/"
    /// Resources listed per `resources/list` page.
    static let pageSize = 1000

    static func cardURI(_ slug: String) -> String { cardPrefix + slug }

    /// The slug a card URI names, or nil when `uri` is not one.
    static func slug(of uri: String) -> String? {
        guard uri.hasPrefix(cardPrefix) else { return nil }
        let slug = String(uri.dropFirst(cardPrefix.count)).removingPercentEncoding ?? ""
        guard !slug.isEmpty, !slug.contains("/"), slug != ".", slug != ".." else { return nil }
        return slug
    }

    /// Whether `uri` names a resource of this server (a card that exists or not).
    static func isKnown(_ uri: String) -> Bool { uri == boardURI || slug(of: uri) != nil }

    /// The board resource of the board named `name` (nil: the one board's, `kanban://board`).
    static func boardURI(in name: String?) -> String {
        name.map { boardsPrefix + ServeApp.percentEncoded($0) + "/board" } ?? boardURI
    }

    /// A card's resource on the board named `name` (nil: the one board's, `kanban://card/{slug}`).
    static func cardURI(_ slug: String, in name: String?) -> String {
        name.map { boardsPrefix + ServeApp.percentEncoded($0) + "/card/" + slug } ?? cardURI(slug)
    }

    /// What `uri` names: the board (nil in the one board's URIs) and the card's slug (nil for the board itself); nil
    /// when it names no resource of this server.
    static func parse(_ uri: String) -> (board: String?, slug: String?)? {
        if uri == boardURI { return (nil, nil) }
        if let slug = slug(of: uri) { return (nil, slug) }
        guard uri.hasPrefix(boardsPrefix) else { return nil }
        let rest = uri.dropFirst(boardsPrefix.count)
        guard let slash = rest.firstIndex(of: "/"), let name = String(rest[..<slash]).removingPercentEncoding, !name.isEmpty else { return nil }
        let tail = rest[rest.index(after: slash)...]
        if tail == "board" { return (name, nil) }
        guard tail.hasPrefix("card/"), let slug = String(tail.dropFirst(5)).removingPercentEncoding,
              !slug.isEmpty, !slug.contains("/"), slug != ".", slug != ".." else { return nil }
        return (name, slug)
    }

    /// The board as markdown: its title, then each column with its cards in order, each a link to its resource (on
    /// the board named `name`, with several boards).
    static func markdown(of snapshot: BoardSnapshot, board name: String? = nil) -> String {
        let board = snapshot.board
        var text = "# \(board.title)\n"
        for id in snapshot.columnIDs {
            let cards = snapshot.cards(inColumn: id)
            text += "\n## \(board.columnName(id)) (`\(id)`, \(cards.count) \(cards.count == 1 ? "card" : "cards"))\n\n"
            for card in cards {
                let labels = card.labels.map { " `\($0)`" }.joined()
                text += "- [\(card.title)](\(cardURI(card.slug, in: name)))\(labels) — `\(card.slug)`\n"
            }
        }
        if !board.labels.isEmpty {
            text += "\n## Labels\n\n" + board.labels.map { "- `\($0.id)`: \($0.name)" }.joined(separator: "\n") + "\n"
        }
        return text
    }
}

extension MCPServer {
    /// `-32002`, the error for a resource that is not there.
    static func resourceNotFound(_ uri: String, _ message: String) -> JSONRPCError {
        JSONRPCError(code: -32002, message: message, data: .object(["uri": .string(uri)]))
    }

    private func requireBoard(for uri: String) throws(JSONRPCError) -> BoardStore {
        do throws(MCPToolError) {
            return try board.require()
        } catch {
            throw Self.resourceNotFound(uri, error.message)
        }
    }

    /// Whether `uri` names a resource of this server as it serves: the one board's URIs, or with several boards the
    /// URIs under a board's name.
    func isKnownResource(_ uri: String) -> Bool {
        guard let parsed = MCPResources.parse(uri) else { return false }
        return (parsed.board == nil) == tools.named.isEmpty
    }

    /// The URIs this server's resources have, for an error that names no resource of it.
    private var resourceForms: String {
        tools.named.isEmpty ? "\(MCPResources.boardURI) and \(MCPResources.cardPrefix){slug}"
            : "\(MCPResources.boardsPrefix){board}/board and \(MCPResources.boardsPrefix){board}/card/{slug}, for the boards \(tools.named.map(\.name).joined(separator: ", "))"
    }

    /// The one spelling of the resource `uri` names, as notifications name it (`kanban://boards/%62oard/board` is
    /// `kanban://boards/board/board`); nil when it names none of this server's (another form, a board not served).
    /// Subscriptions are kept under it: a subscription under another spelling would never fire, and each spelling
    /// would be one more entry.
    func canonicalResource(_ uri: String) -> String? {
        guard let parsed = MCPResources.parse(uri), isKnownResource(uri) else { return nil }
        if let name = parsed.board, !tools.named.contains(where: { $0.name == name }) { return nil }
        return parsed.slug.map { MCPResources.cardURI($0, in: parsed.board) } ?? MCPResources.boardURI(in: parsed.board)
    }

    /// The board `uri` is on, its name (nil with one board) and the card's slug (nil for the board itself).
    private func resolve(_ uri: String) throws(JSONRPCError) -> (store: BoardStore, name: String?, slug: String?) {
        guard let parsed = MCPResources.parse(uri), isKnownResource(uri) else {
            throw Self.resourceNotFound(uri, "no resource \(uri); this server has \(resourceForms)")
        }
        guard let name = parsed.board else { return (try requireBoard(for: uri), nil, parsed.slug) }
        guard let entry = tools.named.first(where: { $0.name == name }) else {
            throw Self.resourceNotFound(uri, "no board '\(name.truncated(toWidth: 80))'; the boards are: \(tools.named.map(\.name).joined(separator: ", "))")
        }
        do throws(MCPToolError) {
            return (try entry.board.require(), name, parsed.slug)
        } catch {
            throw Self.resourceNotFound(uri, error.message)
        }
    }

    func listResources(_ request: Request) throws(JSONRPCError) -> JSON {
        // A cursor is checked against the listing before any arithmetic: a client may send anything as one.
        var cursor: Int?
        if let given = request.params["cursor"], given != .null {
            guard let text = given.stringValue, text.utf8.count <= 18, let value = Int(text), value > 0 else {
                throw .invalidParams("'cursor' is not one this server gave")
            }
            cursor = value
        }
        let boards: [(name: String?, store: BoardStore)]
        if tools.named.isEmpty {
            boards = [(nil, try requireBoard(for: MCPResources.boardURI))]
        } else {
            boards = tools.named.compactMap { entry in entry.board.store.map { (entry.name, $0) } }
        }
        var resources: [JSON] = []
        for (name, store) in boards {
            let snapshot: BoardSnapshot
            do {
                snapshot = try store.load()
            } catch {
                throw .internalError(MCPToolError(error).message)
            }
            resources.append(.object([
                "uri": .string(MCPResources.boardURI(in: name)), "name": .string(name.map { "board " + $0 } ?? "board"),
                "title": .string(snapshot.board.title),
                "description": .string("The board: its columns and their cards, in order, as markdown."), "mimeType": .string("text/markdown"),
            ]))
            resources += snapshot.cards.map { card in
                .object(["uri": .string(MCPResources.cardURI(card.slug, in: name)), "name": .string(card.slug), "title": .string(card.title),
                         "description": .string("Card in \(snapshot.board.columnName(card.column))" + (name.map { " on \($0)" } ?? "")),
                         "mimeType": .string("text/markdown")])
            }
        }
        let offset = cursor ?? 0
        guard offset <= resources.count else {
            throw .invalidParams("'cursor' is past the end of the list (\(resources.count) resources); list again from the start")
        }
        let page = Array(resources[offset...].prefix(MCPResources.pageSize))
        var result: [String: JSON] = ["resources": .array(page)]
        if resources.count - offset > MCPResources.pageSize { result["nextCursor"] = .string(String(offset + MCPResources.pageSize)) }
        return .object(result)
    }

    func resourceTemplates() -> JSON {
        let template = tools.named.isEmpty ? MCPResources.cardPrefix + "{slug}" : MCPResources.boardsPrefix + "{board}/card/{slug}"
        return .object(["resourceTemplates": .array([.object([
            "uriTemplate": .string(template), "name": .string("card"), "title": .string("A card"),
            "description": .string("A card's markdown file (frontmatter and body), by its slug."), "mimeType": .string("text/markdown"),
        ])])])
    }

    func readResource(_ request: Request) throws(JSONRPCError) -> JSON {
        guard let uri = request.params["uri"]?.stringValue else { throw .invalidParams("resources/read needs 'uri'") }
        let (store, name, slug) = try resolve(uri)
        let text: String
        do {
            if let slug {
                let card = try exactCard(slug, store, uri: uri)
                text = String(decoding: try store.contents(atPath: card.path), as: UTF8.self)
            } else {
                text = MCPResources.markdown(of: try store.load(), board: name)
            }
        } catch let error as JSONRPCError {
            throw error
        } catch {
            throw Self.resourceNotFound(uri, Self.toolMessage(error))
        }
        return .object(["contents": .array([.object(["uri": .string(uri), "mimeType": .string("text/markdown"), "text": .string(text)])])])
    }

    private static func toolMessage(_ error: any Error) -> String { MCPTools.toolError(error).message }

    /// The card whose slug is exactly `slug` (a resource names one card; prefixes are for people): on the board, else
    /// in the archive.
    private func exactCard(_ slug: String, _ store: BoardStore, uri: String) throws -> Card {
        for scope in [CardScope.active, .archived] {
            if let card = try? store.card(slug, in: scope), card.slug == slug { return card }
        }
        throw Self.resourceNotFound(uri, "no card '\(slug)'")
    }

    func subscribe(_ request: Request) throws(JSONRPCError) -> JSON {
        guard let uri = request.params["uri"]?.stringValue else { throw .invalidParams("resources/subscribe needs 'uri'") }
        let (store, _, slug) = try resolve(uri)
        // A card that is not there is refused, as resources/read refuses it: a subscription to it would never fire.
        if let slug {
            do {
                _ = try exactCard(slug, store, uri: uri)
            } catch let error as JSONRPCError {
                throw error
            } catch {
                throw Self.resourceNotFound(uri, Self.toolMessage(error))
            }
        }
        watchIfPossible()
        if let canonical = canonicalResource(uri) { _ = state.withLock { $0.subscriptions.insert(canonical) } }
        return .object([:])
    }

    func unsubscribe(_ request: Request) throws(JSONRPCError) -> JSON {
        guard let uri = request.params["uri"]?.stringValue else { throw .invalidParams("resources/unsubscribe needs 'uri'") }
        let canonical = canonicalResource(uri) ?? uri
        _ = state.withLock { $0.subscriptions.remove(canonical) }
        return .object([:])
    }

    /// `subscriptions/listen` (2026-07-28): acknowledges what it will send, then sends it until the client cancels the
    /// request or the server stops (which answers the request).
    func listen(_ request: Request) throws(JSONRPCError) -> Answer {
        let filter = request.params["notifications"]?.objectValue ?? [:]
        var resources: [String] = []
        if let value = filter["resourceSubscriptions"] {
            guard let items = value.arrayValue, items.allSatisfy({ $0.stringValue != nil }) else {
                throw .invalidParams("'resourceSubscriptions' must be a list of resource URIs")
            }
            // Granted as notifications will name them, once each; a board not served is not granted.
            var seen: Set<String> = []
            for uri in items.compactMap(\.stringValue).compactMap(canonicalResource) where seen.insert(uri).inserted {
                resources.append(uri)
            }
        }
        if tools.named.isEmpty { _ = try requireBoard(for: MCPResources.boardURI) }
        let listen = Listen(id: request.id, resources: Set(resources), resourcesListChanged: filter["resourcesListChanged"]?.boolValue == true,
                            toolsListChanged: filter["toolsListChanged"]?.boolValue == true)
        watchIfPossible()
        var granted: [String: JSON] = [:]
        if !resources.isEmpty { granted["resourceSubscriptions"] = .array(resources.map(JSON.string)) }
        if listen.resourcesListChanged { granted["resourcesListChanged"] = .bool(true) }
        if listen.toolsListChanged { granted["toolsListChanged"] = .bool(true) }
        send(JSONRPC.notification("notifications/subscriptions/acknowledged", .object([
            "_meta": .object([Self.subscriptionKey: request.id]), "notifications": .object(granted),
        ])))
        state.withLock { $0.listens[request.id.rendered(pretty: false)] = listen }
        return .later
    }
}
