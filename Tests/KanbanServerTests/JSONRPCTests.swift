import Testing

@testable import KanbanServer

@Suite struct JSONRPCTests {
    private func decode(_ text: String) -> (items: [JSONRPC.Incoming], isBatch: Bool) { JSONRPC.decode(Array(text.utf8)) }

    @Test func readsRequestsNotificationsAndResponses() {
        #expect(decode(#"{"jsonrpc":"2.0","id":7,"method":"ping"}"#).items == [.message(.request(id: .number("7"), method: "ping", params: nil))])
        #expect(decode(#"{"jsonrpc":"2.0","id":"a","method":"x","params":{"k":1}}"#).items
                == [.message(.request(id: .string("a"), method: "x", params: .object(["k": .number("1")])))])
        #expect(decode(#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#).items
                == [.message(.notification(method: "notifications/initialized", params: nil))])
        #expect(decode(#"{"jsonrpc":"2.0","id":"r1","result":{}}"#).items == [.message(.response(id: .string("r1"), result: .object([:]), error: nil))])
    }

    @Test(arguments: [
        ("not json", -32700, JSON.null),
        ("[]", -32600, .null),
        ("5", -32600, .null),
        (#"{"id":1,"method":"ping"}"#, -32600, .number("1")),
        (#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#, -32600, .null),
        (#"{"jsonrpc":"2.0","id":[1],"method":"ping"}"#, -32600, .null),
        (#"{"jsonrpc":"2.0","id":2,"method":["ping"]}"#, -32600, .number("2")),
        (#"{"jsonrpc":"2.0","id":3,"method":"ping","params":"x"}"#, -32600, .number("3")),
        (#"{"jsonrpc":"2.0","id":4}"#, -32600, .number("4")),
    ])
    func saysWhyALineIsNotAMessage(_ text: String, _ code: Int, _ id: JSON) throws {
        let items = decode(text).items
        guard case .invalid(let answerID, let error) = try #require(items.first) else {
            Issue.record("\(text) decoded as \(items)")
            return
        }
        #expect(error.code == code && answerID == id, "\(text): \(error)")
    }

    @Test func aBatchIsDecodedItemByItem() {
        let (items, isBatch) = decode(#"[{"jsonrpc":"2.0","id":1,"method":"ping"}, 3]"#)
        #expect(isBatch && items.count == 2)
        #expect(items.first == .message(.request(id: .number("1"), method: "ping", params: nil)))
    }

    @Test func writesResponsesAndNotifications() {
        #expect(JSONRPC.response(id: .number("1"), result: .object([:])).rendered(pretty: false) == #"{"id":1,"jsonrpc":"2.0","result":{}}"#)
        #expect(JSONRPC.response(id: .null, error: .methodNotFound("x")).rendered(pretty: false)
                == #"{"error":{"code":-32601,"data":{"method":"x"},"message":"Method not found: x"},"id":null,"jsonrpc":"2.0"}"#)
        #expect(JSONRPC.notification("n").rendered(pretty: false) == #"{"jsonrpc":"2.0","method":"n"}"#)
    }
}
