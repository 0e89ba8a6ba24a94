import Foundation
import KanbanCore

/// An API failure: the status and the `{"error", "message"}` body, with more members where they help (the card as it
/// is now, for a conflict).
package struct APIError: Error {
    var status: HTTPStatus
    var code: String
    var message: String
    var extra: [String: JSON] = [:]

    var response: HTTPResponse {
        var members = extra
        members["error"] = .string(code)
        members["message"] = .string(message)
        return .json(JSON.object(members).rendered(pretty: false), status: status)
    }

    static func badRequest(_ message: String) -> APIError { APIError(status: .badRequest, code: "bad-request", message: message) }
}

/// A request body read as a JSON object (with the parser `kanban mcp` reads its messages with).
package struct APIBody {
    let members: [String: JSON]

    init(_ request: HTTPRequest) throws(APIError) {
        if request.body.isEmpty {
            members = [:]
            return
        }
        let value: JSON
        do throws(JSONParseError) {
            value = try JSON(parsing: request.body)
        } catch {
            throw .badRequest("the body is not JSON: \(error)")
        }
        guard let members = value.objectValue else { throw .badRequest("the body is not a JSON object") }
        self.members = members
    }

    private func value(_ key: String) -> JSON? {
        guard let value = members[key], value != .null else { return nil }
        return value
    }

    func string(_ key: String) throws(APIError) -> String? {
        guard let value = value(key) else { return nil }
        guard let text = value.stringValue else { throw .badRequest("'\(key)' must be a string") }
        return text
    }

    func requiredString(_ key: String) throws(APIError) -> String {
        guard let text = try string(key) else { throw .badRequest("'\(key)' is required") }
        return text
    }

    func strings(_ key: String) throws(APIError) -> [String]? {
        guard let value = value(key) else { return nil }
        guard let items = value.arrayValue else { throw .badRequest("'\(key)' must be a list of strings") }
        var texts: [String] = []
        for item in items {
            guard let text = item.stringValue else { throw .badRequest("'\(key)' must be a list of strings") }
            texts.append(text)
        }
        return texts
    }

    /// A column's WIP limit: absent (nil), `null` to remove it (`.some(nil)`), or a whole number in
    /// ``Column/wipLimitRange``, checked before it is used.
    func wipLimit(_ key: String) throws(APIError) -> Int?? {
        guard let value = members[key] else { return nil }
        if value == .null { return .some(nil) }
        guard let integer = value.integerValue, Column.wipLimitRange.contains(integer) else {
            throw .badRequest("'\(key)' must be a whole number from 1 to \(Column.wipLimitRange.upperBound), or null to remove it")
        }
        return .some(integer)
    }

    func bool(_ key: String) throws(APIError) -> Bool? {
        guard let value = value(key) else { return nil }
        guard let flag = value.boolValue else { throw .badRequest("'\(key)' must be true or false") }
        return flag
    }

    /// A place in a list (0 is the first), checked before any arithmetic: a whole number from 0 to
    /// ``largestIndex``; whether the board has that many is the store's to say.
    func index(_ key: String) throws(APIError) -> Int? {
        guard let value = value(key) else { return nil }
        guard let integer = value.integerValue, integer >= 0, integer <= Self.largestIndex else {
            throw .badRequest("'\(key)' must be a whole number from 0 to \(Self.largestIndex)")
        }
        return integer
    }

    /// The largest index a request may name.
    static let largestIndex = 100_000

    /// `key` as an object of strings and nulls (fields to set and to remove).
    func fields(_ key: String) throws(APIError) -> [String: String?]? {
        guard let value = value(key) else { return nil }
        guard let map = value.objectValue else { throw .badRequest("'\(key)' must be an object") }
        var result: [String: String?] = [:]
        for (name, item) in map {
            switch item {
            case .null: result[name] = .some(nil)
            case .string(let text): result[name] = text
            default: throw .badRequest("field '\(name)' must be a string, or null to remove it")
            }
        }
        return result
    }

    /// `placement`, `before` and `after` as the store's placement; nil when none is given.
    func placement() throws(APIError) -> Placement? {
        let before = try string("before")
        let after = try string("after")
        let placement = try string("placement")
        guard [before, after, placement].compactMap({ $0 }).count <= 1 else { throw .badRequest("give one of 'placement', 'before' and 'after'") }
        if let before { return .before(before) }
        if let after { return .after(after) }
        switch placement {
        case nil: return nil
        case "top": return .top
        case "bottom": return .bottom
        case let other?: throw .badRequest("'placement' is 'top' or 'bottom', not '\(other)'")
        }
    }
}

extension ServeApp {
    // MARK: Reading

    /// `GET /api/board`: `board --json`, each card with its `excerpt`, plus `readOnly`, `template` and `problems`; made
    /// from the kept board and kept until the board changes.
    func boardAnswer() throws(APIError) -> String {
        let (kept, generation) = try call { () throws(KanbanError) in try served.current() }
        if let answer = kept.answer { return answer }
        let live = kept.board
        let board = live.board
        // A card that does not read is a problem, not a card: the page draws its stand-in from the problem.
        let columns: [JSON] = live.columns.map { column in
            .object(["id": .string(column.id), "name": .string(column.name), "collapsed": .bool(column.isCollapsed),
                     "limit": board.column(withID: column.id)?.wipLimit.map { .number(String($0)) } ?? .null,
                     "queue": .bool(board.column(withID: column.id)?.isQueue ?? false),
                     "cards": .array(column.cards.filter { live.problems[$0.path] == nil }.map { card in
                         kept.cards[card.path].map(JSON.rendered) ?? Self.cardJSON(card, excerpt: "")
                     })])
        }
        let problems: [JSON] = live.problems.sorted { $0.key < $1.key }.map {
            .object(["path": .string($0.key), "message": .string($0.value)])
        }
        let answer = JSON.object([
            "title": .string(board.title),
            "columns": .array(columns),
            "labels": .array(board.labels.map { label in
                .object(["id": .string(label.id), "name": .string(label.name), "color": label.color.map(JSON.string) ?? .null])
            }),
            "readOnly": .bool(settings.isReadOnly),
            "template": .string(board.cardTemplate),
            "problems": .array(problems),
            "work": workJSON(board: board, cards: live.columns.flatMap(\.cards)),
        ]).rendered(pretty: false)
        served.keep(answer: answer, for: generation)
        return answer
    }

    func archiveResponse() throws(APIError) -> HTTPResponse {
        let snapshot = try call { () throws(KanbanError) in try store.load(.archived, includeBodies: true) }
        return .json(JSON.object(["cards": .array(snapshot.cards.map { Self.cardJSON($0, excerptFrom: $0.body) })]).rendered(pretty: false))
    }

    /// What the page needs to show where each card stands for agents (``WorkQueue``): the flow's start and done
    /// columns and, of the slugs cards depend on that are not on the board, the archived ones (which count as done).
    /// The page applies the rule to the cards it has, as events change them. Null when the board has no flow (one
    /// column).
    func workJSON(board: Board, cards: [Card]) -> JSON {
        guard let flow = try? WorkFlow(board: board) else { return .null }
        let active = Set(cards.map(\.slug))
        let elsewhere = Set(cards.flatMap(\.dependencies)).subtracting(active)
        var archived: [String] = []
        if !elsewhere.isEmpty, let snapshot = try? store.load(.archived) {
            archived = Set(snapshot.cards.map(\.slug)).intersection(elsewhere).sorted()
        }
        return .object(["startColumn": .string(flow.startColumn), "doneColumn": .string(flow.doneColumn),
                        "archived": .array(archived.map(JSON.string))])
    }

    /// A card as `show --json` has it, with `excerpt` (from `excerptFrom`) and, when `bytes` are given, `body` and
    /// `version`.
    static func cardJSON(_ card: Card, excerptFrom body: String?, bytes: [UInt8]? = nil) -> JSON {
        guard case .object(var members) = JSON(card: card, includeBody: bytes != nil, body: body) else { return .null }
        members["excerpt"] = .string(BoardText.excerpt(of: body ?? ""))
        if let bytes { members["version"] = .string(version(of: bytes)) }
        return .object(members)
    }

    /// A card as `board --json` has it, with the `excerpt` given.
    static func cardJSON(_ card: Card, excerpt: String) -> JSON {
        guard case .object(var members) = JSON(card: card) else { return .null }
        members["excerpt"] = .string(excerpt)
        return .object(members)
    }

    /// A name for a card file's bytes (FNV-1a, 64 bits): what an edit says it was made on.
    static func version(of bytes: [UInt8]) -> String {
        var hash: UInt64 = 14_695_981_039_346_656_037
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 1_099_511_628_211 }
        let hex = String(hash, radix: 16)
        return "v" + String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The card `reference` names with its body and version, read under the lock so they agree.
    func fullCard(_ reference: String, in scope: CardScope = .all) throws(APIError) -> JSON {
        try call { () throws(KanbanError) -> JSON in
            let card = try store.card(reference, in: scope)
            let bytes = try store.contents(atPath: card.path)
            let body = try store.body(of: card)
            return Self.cardJSON(card, excerptFrom: body, bytes: bytes)
        }
    }

    func search(_ text: String) throws(APIError) -> HTTPResponse {
        let query: CardQuery
        do {
            query = try CardQuery(parsing: text)
        } catch {
            throw .badRequest("\(error)")
        }
        let hits = try call { () throws(KanbanError) in try store.search(query).hits }
        return .json(JSON.object(["slugs": .array(hits.map { .string($0.card.slug) })]).rendered(pretty: false))
    }

    func status() -> HTTPResponse {
        do {
            guard let provider = git else { throw SyncError(.notARepository, "the board is not in a git repository") }
            return .json(StatusJSON.json(try provider.status(), toTidy: StatusJSON.cardsToTidy(store)).rendered(pretty: false))
        } catch {
            return .json(JSON.object(["state": .string("not-a-repository"), "message": .string("\(error)")]).rendered(pretty: false))
        }
    }

    /// `POST /api/sync`: what `kanban sync` does, as a library call; its lines as the messages (a failure's too).
    func sync() -> HTTPResponse {
        let board = try? store.loadBoard()
        var steps: [SyncStep] = []
        var failure: SyncError?
        do throws(SyncError) {
            _ = try session.sync { steps.append($0) }
        } catch {
            failure = error
        }
        return .json(SyncJSON.json(steps: steps, error: failure, board: board).rendered(pretty: false))
    }

    // MARK: Changing

    /// Runs a store call, turning its error into the API's.
    func call<T>(_ body: () throws(KanbanError) -> T) throws(APIError) -> T {
        do throws(KanbanError) {
            return try body()
        } catch {
            throw Self.apiError(error)
        }
    }

    /// Makes a change the way commands do (the board's lock held from the change to its commit, one commit per
    /// change when committing is asked for), one change from this server at a time.
    func change<T>(_ body: () throws -> T) throws(APIError) -> T {
        do {
            // The lock is held even when nothing is committed: a change checks the card's version, then writes.
            return try session.withChange { try store.withExclusiveAccess(body) }
        } catch let error as APIError {
            throw error
        } catch let error as KanbanError {
            throw Self.apiError(error)
        } catch let error as SyncError {
            throw APIError(status: .internalError, code: "commit-failed", message: error.message + (error.hint.map { " (\($0))" } ?? ""))
        } catch {
            throw APIError(status: .internalError, code: "internal", message: "\(error)")
        }
    }

    /// Throws a conflict, with the card as it is now, when `version` no longer names the file at `path`.
    func requireVersion(_ version: String?, of reference: String, in scope: CardScope) throws {
        guard let version else { return }
        let card = try store.card(reference, in: scope)
        let bytes = try store.contents(atPath: card.path)
        guard Self.version(of: bytes) == version else {
            throw APIError(status: .conflict, code: "conflict", message: "the card changed since you opened it; here it is as it is now",
                           extra: ["card": Self.cardJSON(card, excerptFrom: try store.body(of: card), bytes: bytes)])
        }
    }

    static func apiError(_ error: KanbanError) -> APIError {
        let status: HTTPStatus
        switch error.code {
        case .cardNotFound, .boardNotFound: status = .notFound
        case .ambiguousCard, .alreadyExists, .columnNotEmpty, .overLimit: status = .conflict
        case .locked: status = .serviceUnavailable
        case .fileSystem: status = .internalError
        default: status = .badRequest
        }
        var extra: [String: JSON] = [:]
        if !error.candidates.isEmpty { extra["candidates"] = .array(error.candidates.map(JSON.string)) }
        let location = error.location.map { "\($0): " } ?? ""
        return APIError(status: status, code: error.code.rawValue, message: location + error.message, extra: extra)
    }
}
