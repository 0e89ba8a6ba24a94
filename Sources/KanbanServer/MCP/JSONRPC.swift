/// A JSON-RPC 2.0 error: the code, a message, and data where it helps.
package struct JSONRPCError: Error, Equatable {
    var code: Int
    var message: String
    var data: JSON?

    static func parseError(_ message: String) -> JSONRPCError { JSONRPCError(code: -32700, message: "Parse error: " + message) }
    static func invalidRequest(_ message: String) -> JSONRPCError { JSONRPCError(code: -32600, message: "Invalid request: " + message) }
    static func methodNotFound(_ method: String) -> JSONRPCError {
        JSONRPCError(code: -32601, message: "Method not found: \(method)", data: .object(["method": .string(method)]))
    }
    static func invalidParams(_ message: String) -> JSONRPCError { JSONRPCError(code: -32602, message: message) }
    static func internalError(_ message: String) -> JSONRPCError { JSONRPCError(code: -32603, message: message) }

    /// The `error` member of a response.
    var json: JSON {
        var members: [String: JSON] = ["code": .number(String(code)), "message": .string(message)]
        if let data { members["data"] = data }
        return .object(members)
    }
}

/// One JSON-RPC 2.0 message, as it came in.
package enum JSONRPCMessage: Equatable {
    /// A call that wants an answer; `id` is a string or a number, echoed as it came.
    case request(id: JSON, method: String, params: JSON?)
    /// A call that wants none.
    case notification(method: String, params: JSON?)
    /// An answer to a request this side sent: `result`, or `error`.
    case response(id: JSON, result: JSON?, error: JSON?)
}

/// The JSON-RPC 2.0 layer: a line's bytes to messages, and messages to the JSON written back. It knows nothing of
/// MCP; what a method does is the method table's business.
package enum JSONRPC {
    /// What a line holds.
    enum Incoming: Equatable {
        /// One message, or a message of a batch.
        case message(JSONRPCMessage)
        /// Something that is not a message; answered with `error` under `id` (null when none could be read).
        case invalid(id: JSON, JSONRPCError)
    }

    /// The messages of one line: one, or those of a batch (`isBatch`), or one `.invalid` for bytes that are not
    /// JSON or a batch that is empty.
    static func decode(_ line: [UInt8]) -> (items: [Incoming], isBatch: Bool) {
        let value: JSON
        do {
            value = try JSON(parsing: line)
        } catch {
            return ([.invalid(id: .null, .parseError(error.description))], false)
        }
        if case .array(let items) = value {
            guard !items.isEmpty else { return ([.invalid(id: .null, .invalidRequest("an empty batch"))], false) }
            return (items.map(decode(value:)), true)
        }
        return ([decode(value: value)], false)
    }

    /// One message from a parsed value.
    static func decode(value: JSON) -> Incoming {
        guard case .object(let members) = value else { return .invalid(id: .null, .invalidRequest("a message must be a JSON object")) }
        let id = members["id"]
        let answerID: JSON = id.flatMap { isValidID($0) ? $0 : nil } ?? .null
        guard members["jsonrpc"] == .string("2.0") else {
            return .invalid(id: answerID, .invalidRequest("'jsonrpc' must be \"2.0\""))
        }
        if let method = members["method"] {
            guard case .string(let name) = method else { return .invalid(id: answerID, .invalidRequest("'method' must be a string")) }
            let params = members["params"]
            if let params, params.objectValue == nil, params.arrayValue == nil {
                return .invalid(id: answerID, .invalidRequest("'params' must be an object or an array"))
            }
            guard let id else { return .message(.notification(method: name, params: params)) }
            guard isValidID(id) else { return .invalid(id: .null, .invalidRequest("'id' must be a string or a number")) }
            return .message(.request(id: id, method: name, params: params))
        }
        if let id, isValidID(id), members["result"] != nil || members["error"] != nil {
            return .message(.response(id: id, result: members["result"], error: members["error"]))
        }
        return .invalid(id: answerID, .invalidRequest("a message needs a 'method', or a 'result' or 'error' with an 'id'"))
    }

    /// Whether `id` may name a request: a string or a number (MCP does not allow null).
    static func isValidID(_ id: JSON) -> Bool {
        switch id {
        case .string, .number: true
        default: false
        }
    }

    /// `{"jsonrpc": "2.0", "id", "result"}`.
    static func response(id: JSON, result: JSON) -> JSON {
        .object(["jsonrpc": .string("2.0"), "id": id, "result": result])
    }

    /// `{"jsonrpc": "2.0", "id", "error"}`.
    static func response(id: JSON, error: JSONRPCError) -> JSON {
        .object(["jsonrpc": .string("2.0"), "id": id, "error": error.json])
    }

    /// `{"jsonrpc": "2.0", "method", "params"}`, a notification.
    static func notification(_ method: String, _ params: JSON? = nil) -> JSON {
        var members: [String: JSON] = ["jsonrpc": .string("2.0"), "method": .string(method)]
        if let params { members["params"] = params }
        return .object(members)
    }

    /// `{"jsonrpc": "2.0", "id", "method", "params"}`, a request from this side.
    static func request(id: JSON, _ method: String, _ params: JSON? = nil) -> JSON {
        var members: [String: JSON] = ["jsonrpc": .string("2.0"), "id": id, "method": .string(method)]
        if let params { members["params"] = params }
        return .object(members)
    }
}
