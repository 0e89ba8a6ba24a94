import Foundation
import KanbanCore

/// A tool's failure, told to the agent as a tool result with `isError: true`: what went wrong and what to do.
package struct MCPToolError: Error {
    package var message: String

    init(_ message: String) { self.message = message }

    /// A store error in the words the command line uses, with the candidates or the board's columns and labels.
    init(_ error: KanbanError) {
        var text = (error.location.map { "\($0): " } ?? "") + error.message
        switch error.code {
        case .ambiguousCard:
            text += "; it could be: \(error.candidates.joined(separator: ", ")) (name one by its full slug)"
        case .cardNotFound where !error.candidates.isEmpty:
            text += "; did you mean: \(error.candidates.joined(separator: ", "))?"
        case .cardNotFound:
            text += "; list_cards or search_cards give the slugs"
        case .columnNotFound where !error.candidates.isEmpty:
            text += "; the board's columns are: \(error.candidates.joined(separator: ", "))"
        case .labelNotFound where !error.candidates.isEmpty:
            text += "; the board's labels are: \(error.candidates.joined(separator: ", "))"
        case .locked:
            text += "; try again in a moment"
        default:
            break
        }
        message = text
    }
}

/// One tool: its declaration (schemas and hints) and what runs it.
package struct MCPTool: Sendable {
    var name: String
    var title: String
    var description: String
    var isReadOnly: Bool
    var isDestructive: Bool = false
    var isIdempotent: Bool
    /// The input schema's properties for the board as it is (column and label ids as enums).
    var properties: @Sendable (Board?) -> [String: JSON]
    var required: [String] = []
    var output: JSON
    var run: @Sendable (MCPTools, MCPArguments) throws(MCPToolError) -> JSON

    /// The `tools/list` entry; with `boardNames` (a server of several boards), a required `board` argument that takes
    /// one of them.
    func definition(board: Board?, boardNames: [String]? = nil) -> JSON {
        var properties = properties(board)
        var required = required
        if let boardNames {
            properties["board"] = MCPTools.string("The board, by name (the boards tool lists them).", values: boardNames)
            required.insert("board", at: 0)
        }
        var input: [String: JSON] = ["type": .string("object"), "properties": .object(properties), "additionalProperties": .bool(false)]
        if !required.isEmpty { input["required"] = .array(required.map(JSON.string)) }
        return .object([
            "name": .string(name),
            "title": .string(title),
            "description": .string(description),
            "inputSchema": .object(input),
            "outputSchema": output,
            "annotations": .object(annotations),
        ])
    }

    /// The hints, each only where it means something and differs from the protocol's default (destructive, not
    /// idempotent, open world): every byte of `tools/list` is read into an agent's context.
    private var annotations: [String: JSON] {
        var hints: [String: JSON] = ["readOnlyHint": .bool(isReadOnly)]
        if !isReadOnly {
            hints["destructiveHint"] = .bool(isDestructive)
            if isIdempotent { hints["idempotentHint"] = .bool(true) }
        }
        if name != "sync" { hints["openWorldHint"] = .bool(false) }
        return hints
    }
}

/// A tool call's arguments, read as the command line reads its options: unknown names, wrong types and clashing
/// placements are errors that name the argument.
package struct MCPArguments {
    let members: [String: JSON]

    init(_ members: [String: JSON], tool: MCPTool) throws(MCPToolError) {
        let known = Set(tool.properties(nil).keys)
        if let unknown = members.keys.sorted().first(where: { !known.contains($0) }) {
            let takes = known.isEmpty ? "no arguments" : "these arguments: " + known.sorted().joined(separator: ", ")
            throw MCPToolError("unknown argument '\(unknown)'; \(tool.name) takes \(takes)")
        }
        for name in tool.required where members[name] == nil || members[name] == .null {
            throw MCPToolError("'\(name)' is required")
        }
        self.members = members
    }

    private func value(_ key: String) -> JSON? {
        guard let value = members[key], value != .null else { return nil }
        return value
    }

    func string(_ key: String) throws(MCPToolError) -> String? {
        guard let value = value(key) else { return nil }
        guard let text = value.stringValue else { throw MCPToolError("'\(key)' must be a string") }
        return text
    }

    func requiredString(_ key: String) throws(MCPToolError) -> String {
        guard let text = try string(key), !text.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw MCPToolError("'\(key)' is required and may not be empty")
        }
        return text
    }

    /// A list of strings, as the schema says: a single string is refused (it is not what the schema offers, and an
    /// agent that sends one should learn the right form, not have it guessed).
    func strings(_ key: String) throws(MCPToolError) -> [String]? {
        guard let value = value(key) else { return nil }
        guard let items = value.arrayValue else { throw MCPToolError("'\(key)' must be a list of strings") }
        var texts: [String] = []
        for item in items {
            guard let text = item.stringValue else { throw MCPToolError("'\(key)' must be a list of strings") }
            texts.append(text)
        }
        return texts
    }

    func bool(_ key: String) throws(MCPToolError) -> Bool {
        guard let value = value(key) else { return false }
        guard let flag = value.boolValue else { throw MCPToolError("'\(key)' must be true or false") }
        return flag
    }

    /// `fields` as keys to set (a string) and to remove (null).
    func fields(_ key: String) throws(MCPToolError) -> (set: [(String, String)], removed: [String]) {
        guard let value = value(key) else { return ([], []) }
        guard let map = value.objectValue else { throw MCPToolError("'\(key)' must be an object of field names to strings (null removes one)") }
        var set: [(String, String)] = []
        var removed: [String] = []
        for (name, item) in map.sorted(by: { $0.key < $1.key }) {
            switch item {
            case .null: removed.append(name)
            case .string(let text): set.append((name, text))
            default: throw MCPToolError("field '\(name)' must be a string, or null to remove it")
            }
        }
        return (set, removed)
    }

    /// `top`, `bottom`, `before` or `after` as the store's placement; at most one of them.
    func placement() throws(MCPToolError) -> Placement? {
        let top = try bool("top")
        let bottom = try bool("bottom")
        let before = try string("before")
        let after = try string("after")
        let given = [top ? "top" : nil, bottom ? "bottom" : nil, before.map { _ in "before" }, after.map { _ in "after" }].compactMap { $0 }
        guard given.count <= 1 else { throw MCPToolError("give one of top, bottom, before and after, not \(given.joined(separator: " and "))") }
        if top { return .top }
        if bottom { return .bottom }
        if let before { return .before(before) }
        if let after { return .after(after) }
        return nil
    }
}

/// One of the boards `kanban mcp` serves when it serves several: the name every tool's `board` argument takes.
package struct MCPNamedBoard: Sendable {
    package var name: String
    package var board: MCPBoard

    package init(name: String, board: MCPBoard) {
        self.name = name
        self.board = board
    }
}

/// The tools `kanban mcp` offers, few and complete: each calls the store function the matching command calls.
package struct MCPTools {
    /// The board a call works on: the one board, or the one a call's `board` argument names.
    private(set) var board: MCPBoard
    /// The boards served when there are several (every tool but `boards` then takes `board`); empty with one.
    let named: [MCPNamedBoard]
    let all: [MCPTool]

    init(board: MCPBoard, named: [MCPNamedBoard] = []) {
        self.board = board
        self.named = named
        // The boards tool is for a server of several boards; with one, tools/list is as it always was.
        all = board.settings.tools.tools(of: Self.catalogue).filter { !named.isEmpty || $0.name != "boards" }
    }

    /// The board `value` (a call's `board` argument) names among ``named``.
    func board(named value: JSON?) throws(MCPToolError) -> MCPBoard {
        let names = named.map(\.name).joined(separator: ", ")
        guard let value, value != .null else {
            throw MCPToolError("'board' is required: this server serves several boards: \(names)")
        }
        guard let name = value.stringValue else { throw MCPToolError("'board' must be a string, one of: \(names)") }
        guard let entry = named.first(where: { $0.name == name }) else {
            // A hostile name is not echoed whole: an agent reads the error, and 200 KB of it help no one.
            throw MCPToolError("no board '\(name.truncated(toWidth: 80))'; the boards are: \(names)")
        }
        return entry.board
    }

    func tool(named name: String) -> MCPTool? { all.first { $0.name == name } }

    /// The size of `tools/list`'s result for `selection` on `board`, as the server sends it (bytes of compact JSON):
    /// what an agent's context pays for the tools, about a token for every four bytes.
    package static func listingBytes(_ selection: MCPToolSelection, board: Board?) -> Int {
        // One board's listing: the boards tool is offered only with several.
        let tools = selection.tools(of: catalogue).filter { $0.name != "boards" }.map { $0.definition(board: board) }
        return JSON.object(["tools": .array(tools)]).rendered(pretty: false).utf8.count
    }

    /// The `tools/list` entries, with the board's column and label ids in the schemas.
    func definitions() -> [JSON] {
        guard named.isEmpty else {
            // Column and label ids differ from board to board: the schemas name the boards, and the board tool the ids.
            let names = named.map(\.name)
            return all.map { $0.definition(board: nil, boardNames: $0.name == "boards" ? nil : names) }
        }
        let current = try? board.store?.loadBoard()
        return all.map { $0.definition(board: current) }
    }

    /// A `tools/call` result: the structured result and the same JSON as text, or `isError` with a message.
    func call(_ tool: MCPTool, _ arguments: [String: JSON]) -> JSON {
        do throws(MCPToolError) {
            var tools = self
            var arguments = arguments
            if !named.isEmpty && tool.name != "boards" {
                tools.board = try board(named: arguments.removeValue(forKey: "board"))
            }
            let result = try tool.run(tools, try MCPArguments(arguments, tool: tool))
            return .object([
                "content": .array([.object(["type": .string("text"), "text": .string(result.rendered(pretty: false))])]),
                "structuredContent": result,
                "isError": .bool(false),
            ])
        } catch {
            return .object([
                "content": .array([.object(["type": .string("text"), "text": .string("error: " + error.message)])]),
                "isError": .bool(true),
            ])
        }
    }

    // MARK: Schemas

    static func string(_ description: String, values: [String]? = nil) -> JSON {
        var members: [String: JSON] = ["type": .string("string"), "description": .string(description)]
        if let values, !values.isEmpty { members["enum"] = .array(values.map(JSON.string)) }
        return .object(members)
    }

    static func strings(_ description: String, values: [String]? = nil) -> JSON {
        var item: [String: JSON] = ["type": .string("string")]
        if let values, !values.isEmpty { item["enum"] = .array(values.map(JSON.string)) }
        return .object(["type": .string("array"), "items": .object(item), "description": .string(description)])
    }

    static func boolean(_ description: String) -> JSON {
        .object(["type": .string("boolean"), "description": .string(description)])
    }

    static func object(_ properties: [String: JSON], required: [String]) -> JSON {
        .object(["type": .string("object"), "properties": .object(properties), "required": .array(required.map(JSON.string))])
    }

    static let nullableString: JSON = .object(["type": .array([.string("string"), .string("null")])])

    /// A card where a tool returns one: an object, as `show_card` describes it in full (its schema once, not in every
    /// tool: `tools/list` is read into the agent's context).
    static let cardReference: JSON = .object(["type": .string("object")])

    /// A card as `--json` prints it, with `body` where the tool gives it.
    static func cardSchema(withBody: Bool = false, extra: [String: JSON] = [:]) -> JSON {
        var properties: [String: JSON] = [
            "slug": .object(["type": .string("string")]),
            "title": .object(["type": .string("string")]),
            "column": .object(["type": .string("string")]),
            "position": nullableString,
            "labels": .object(["type": .string("array"), "items": .object(["type": .string("string")])]),
            "created": nullableString,
            "modified": nullableString,
            "path": .object(["type": .string("string")]),
            "archived": .object(["type": .string("boolean")]),
            "fields": .object(["type": .string("object")]),
        ]
        var required = ["slug", "title", "column", "labels", "path", "archived"]
        if withBody {
            properties["body"] = .object(["type": .string("string")])
            required.append("body")
        }
        properties.merge(extra) { _, new in new }
        return object(properties, required: required)
    }

    static let commitSchema: JSON = .object(["type": .string("object")])

    /// The paths of other cards whose `position` was re-keyed to make room (only when some were).
    static let rekeyedSchema: JSON = .object(["type": .string("array"), "items": .object(["type": .string("string")])])

    static func columnIDs(_ board: Board?) -> [String]? { board.map { $0.columns.map(\.id) } }
    static func labelIDs(_ board: Board?) -> [String]? { board.map { $0.labels.map(\.id) } }

    static let cardArgument = string("Slug, unique slug prefix, or path.")

    static func placementProperties(_ board: Board?) -> [String: JSON] {
        [
            "top": boolean("At the top of the column."),
            "bottom": boolean("At the bottom."),
            "before": string("Just before this card."),
            "after": string("Just after this card."),
        ]
    }
}

/// Which tools `kanban mcp` lists (`--tools`): all, the core of the agent loop, or the ones named. An agent that loads
/// fewer tools keeps more of its context for its work.
package enum MCPToolSelection: Sendable, Hashable {
    /// Every tool.
    case all
    /// The agent loop: ready → claim → work → move → sync (``coreTools``).
    case core
    /// The tools named, in the catalogue's order.
    case named(Set<String>)

    /// The tools of the agent loop.
    package static let coreTools: Set<String> = ["ready_cards", "claim_card", "show_card", "move_card", "release_card", "sync"]

    /// The selection `--tools` names: `all`, `core`, or tool names separated by commas (`core` may be one of them).
    /// - Throws: a message naming an unknown tool and listing the tools.
    package init(parsing text: String) throws(MCPToolError) {
        let names = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        if names == ["all"] { self = .all; return }
        if names == ["core"] { self = .core; return }
        let known = Set(MCPTools.catalogue.map(\.name))
        var chosen: Set<String> = []
        for name in names {
            if name == "core" { chosen.formUnion(Self.coreTools); continue }
            guard known.contains(name) else {
                throw MCPToolError("no tool '\(name)'; give all, core, or tool names from: \(MCPTools.catalogue.map(\.name).joined(separator: ", "))")
            }
            chosen.insert(name)
        }
        guard !chosen.isEmpty else { throw MCPToolError("name at least one tool, or all or core") }
        self = .named(chosen)
    }

    /// The tools of `catalogue` this selection keeps, in its order.
    func tools(of catalogue: [MCPTool]) -> [MCPTool] {
        switch self {
        case .all: catalogue
        case .core: catalogue.filter { Self.coreTools.contains($0.name) }
        case .named(let names): catalogue.filter { names.contains($0.name) }
        }
    }
}
