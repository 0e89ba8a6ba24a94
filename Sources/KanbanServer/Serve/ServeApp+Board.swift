import Foundation
import KanbanCore
import KanbanWatch

extension ServeApp {
    // MARK: Columns (each answers with the board)

    /// `POST /api/columns`.
    func addColumn(_ body: APIBody) throws(APIError) -> HTTPResponse {
        let id = try body.requiredString("id")
        let name = try body.string("name") ?? id
        let index = try body.index("index")
        try change {
            try commit(try store.addColumn(id: id, name: name, at: index), message: .board("Add column \(Self.quoted(name))", "Column", id))
        }
        return .json(try boardAnswer())
    }

    /// `PATCH /api/columns/:column`: its name, whether it is collapsed, its WIP limit (`limit`, null for none) and
    /// whether it is a queue.
    func changeColumn(_ id: String, _ body: APIBody) throws(APIError) -> HTTPResponse {
        let name = try body.string("name")
        let collapsed = try body.bool("collapsed")
        let limit = try body.wipLimit("limit")
        let queue = try body.bool("queue")
        guard name != nil || collapsed != nil || limit != nil || queue != nil else {
            throw .badRequest("give 'name', 'collapsed', 'limit' and/or 'queue'")
        }
        try change {
            if let limit {
                let subject = limit.map { "Limit column \(id) to \($0)" } ?? "Remove the WIP limit of column \(id)"
                try commit(try store.setColumnLimit(id, limit), message: .board(subject, "Column", id))
            }
            if let queue {
                try commit(try store.setColumnQueue(id, queue), message: .board("Mark column \(id) as \(queue ? "a queue" : "active")", "Column", id))
            }
            if let name {
                try commit(try store.renameColumn(id, to: name), message: .board("Rename column \(id) to \(Self.quoted(name))", "Column", id))
            }
            if let collapsed {
                try commit(try store.setColumnCollapsed(id, collapsed), message: .board("\(collapsed ? "Collapse" : "Expand") column \(id)", "Column", id))
            }
        }
        return .json(try boardAnswer())
    }

    /// `POST /api/columns/:column/move` with `index`, 0 for the first place.
    func moveColumn(_ id: String, _ body: APIBody) throws(APIError) -> HTTPResponse {
        guard let index = try body.index("index") else { throw .badRequest("'index' is required") }
        try change {
            let change = try store.moveColumn(id, to: index)
            try commit(change, message: .board("Move column \(id) to position \(index + 1)", "Column", id))
        }
        return .json(try boardAnswer())
    }

    /// `DELETE /api/columns/:column`, with `moveCardsTo` when it holds cards.
    func removeColumn(_ id: String, _ body: APIBody) throws(APIError) -> HTTPResponse {
        let target = try body.string("moveCardsTo")
        try change {
            try commit(try store.removeColumn(id, movingCardsTo: target),
                       message: .board("Remove column \(id)" + (target.map { " (moving its cards to \($0))" } ?? ""), "Column", id))
        }
        return .json(try boardAnswer())
    }

    // MARK: Labels (each answers with the board)

    /// `POST /api/labels`.
    func addLabel(_ body: APIBody) throws(APIError) -> HTTPResponse {
        let id = try body.requiredString("id")
        let name = try body.string("name")
        let color = try body.string("color")
        try change { try commit(try store.addLabel(id: id, name: name, color: color), message: .board("Add label \(id)", "Label", id)) }
        return .json(try boardAnswer())
    }

    /// `PATCH /api/labels/:label`: its name and/or colour.
    func changeLabel(_ id: String, _ body: APIBody) throws(APIError) -> HTTPResponse {
        let name = try body.string("name")
        let color = try body.string("color")
        guard name != nil || color != nil else { throw .badRequest("give 'name' and/or 'color'") }
        try change { try commit(try store.renameLabel(id, to: name, color: color), message: .board("Change label \(id)", "Label", id)) }
        return .json(try boardAnswer())
    }

    /// `POST /api/labels/:label/move` with `index`, 0 for the first place.
    func moveLabel(_ id: String, _ body: APIBody) throws(APIError) -> HTTPResponse {
        guard let index = try body.index("index") else { throw .badRequest("'index' is required") }
        try change {
            let change = try store.moveLabel(id, to: index)
            try commit(change, message: .board("Move label \(id) to position \(index + 1)", "Label", id))
        }
        return .json(try boardAnswer())
    }

    /// `DELETE /api/labels/:label`, with `strip` to take it off every card too.
    func removeLabel(_ id: String, _ body: APIBody) throws(APIError) -> HTTPResponse {
        let strip = try body.bool("strip") ?? false
        try change {
            try commit(try store.removeLabel(id, strippingCards: strip), message: .board("Remove label \(id)" + (strip ? " from the board and its cards" : ""), "Label", id))
        }
        return .json(try boardAnswer())
    }

    static func quoted(_ text: String) -> String { "\"\(text)\"" }

    // MARK: Events

    /// `GET /api/events`: Server-Sent Events, one per watcher event.
    func events() -> HTTPResponse {
        var response = HTTPResponse(status: .ok, headers: [("Content-Type", "text/event-stream; charset=utf-8"), ("X-Accel-Buffering", "no")])
        response.stream = hub.subscribe()
        return response
    }

    /// The event `kanban watch --json` prints for `event`, with the card (and its excerpt) where it is on the board:
    /// `card` when the kept board rendered it already, else read now.
    package func eventJSON(_ event: WatchEvent, card rendered: String? = nil) -> String {
        guard case .object(var members) = WatchEventJSON.json(event) else { return "{}" }
        if let rendered {
            members["card"] = .rendered(rendered)
        } else if let card = event.card, [.created, .modified, .moved, .renamed, .unarchived, .archived].contains(event.kind) {
            let body = try? store.body(of: card)
            members["card"] = Self.cardJSON(card, excerptFrom: body)
        }
        return JSON.object(members).rendered(pretty: false)
    }
}
