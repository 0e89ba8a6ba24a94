import Foundation
import KanbanCore

extension ServeApp {
    /// `POST /api/cards`.
    func createCard(_ body: APIBody) throws(APIError) -> HTTPResponse {
        let title = try body.requiredString("title")
        let column = try body.string("column")
        let labels = try body.strings("labels") ?? []
        let text = try body.string("body")
        let placement = try body.placement()
        let (card, overLimit) = try change { () throws -> (Card?, WIPLimitExcess?) in
            let change = try store.createCard(title: title, in: column, labels: labels, body: text, placement: placement ?? .bottom)
            try commit(change)
            return (change.card, change.overLimit)
        }
        guard let card else { throw APIError(status: .internalError, code: "internal", message: "the card was not created") }
        return .json(Self.warning(overLimit, on: try fullCard(card.path)).rendered(pretty: false), status: .created)
    }

    /// `PATCH /api/cards/:card`.
    func updateCard(_ reference: String, _ body: APIBody) throws(APIError) -> HTTPResponse {
        var update = CardUpdate()
        update.title = try body.string("title")
        update.labels = try body.strings("labels")
        update.addedLabels = try body.strings("addLabels") ?? []
        update.removedLabels = try body.strings("removeLabels") ?? []
        update.body = try body.string("body")
        for (key, value) in (try body.fields("fields") ?? [:]).sorted(by: { $0.key < $1.key }) {
            if let value { update.fields.append(YAMLMapEntry(key: key, value: .string(value))) } else { update.removedFields.append(key) }
        }
        let version = try body.string("version")
        let path = try change { () throws -> String? in
            try requireVersion(version, of: reference, in: .all)
            let change = try store.updateCard(reference, update, in: .all)
            try commit(change)
            return change.card?.path
        }
        return .json(try fullCard(path ?? reference).rendered(pretty: false))
    }

    /// `POST /api/cards/:card/move`.
    func moveCard(_ reference: String, _ body: APIBody) throws(APIError) -> HTTPResponse {
        let column = try body.string("column")
        let placement = try body.placement()
        guard column != nil || placement != nil else { throw .badRequest("give 'column' and/or a place ('placement', 'before', 'after')") }
        let version = try body.string("version")
        let (path, overLimit) = try change { () throws -> (String?, WIPLimitExcess?) in
            try requireVersion(version, of: reference, in: .active)
            let change = try store.moveCard(reference, to: column, placement: placement)
            try commit(change)
            return (change.card?.path, change.overLimit)
        }
        return .json(Self.warning(overLimit, on: try fullCard(path ?? reference)).rendered(pretty: false))
    }

    /// `POST /api/cards/:card/archive`.
    func archiveCard(_ reference: String, _ body: APIBody) throws(APIError) -> HTTPResponse {
        let version = try body.string("version")
        let path = try change { () throws -> String? in
            try requireVersion(version, of: reference, in: .active)
            let change = try store.archiveCard(reference)
            try commit(change)
            return change.card?.path
        }
        return .json(try fullCard(path ?? reference).rendered(pretty: false))
    }

    /// `POST /api/cards/:card/unarchive`.
    func unarchiveCard(_ reference: String, _ body: APIBody) throws(APIError) -> HTTPResponse {
        let column = try body.string("column")
        let (path, overLimit) = try change { () throws -> (String?, WIPLimitExcess?) in
            let change = try store.unarchiveCard(reference, to: column)
            try commit(change)
            return (change.card?.path, change.overLimit)
        }
        return .json(Self.warning(overLimit, on: try fullCard(path ?? reference)).rendered(pretty: false))
    }

    /// A card's JSON with `"warning"` saying which column the change put over its WIP limit, when it did.
    static func warning(_ excess: WIPLimitExcess?, on card: JSON) -> JSON {
        guard let excess, case .object(var members) = card else { return card }
        members["warning"] = .string(excess.message)
        return .object(members)
    }

    /// `DELETE /api/cards/:card`.
    func deleteCard(_ reference: String, _ body: APIBody) throws(APIError) -> HTTPResponse {
        let version = try body.string("version")
        let (slug, path, bytes) = try change { () throws -> (String, String, [UInt8]) in
            try requireVersion(version, of: reference, in: .all)
            let card = try store.card(reference, in: .all)
            // Read and removed under one hold of the lock, so that undo writes back exactly what was deleted.
            let bytes = try store.contents(atPath: card.path)
            let change = try store.deleteCard(card.path, in: .all)
            try commit(change)
            return (card.slug, card.path, bytes)
        }
        return .json(JSON.object(["deleted": .string(slug), "path": .string(path), "text": .string(String(decoding: bytes, as: UTF8.self))])
            .rendered(pretty: false))
    }

    /// `POST /api/cards/restore`: a deleted card put back byte for byte (the page's undo of a delete).
    func restoreCard(_ body: APIBody) throws(APIError) -> HTTPResponse {
        let path = try body.requiredString("path")
        let text = try body.requiredString("text")
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "cards", parts[2].hasSuffix(".md"), parts[2].utf8.count > 3 else {
            throw .badRequest("'path' must be a card's path, cards/<column>/<slug>.md")
        }
        // The store checks the slug, the column and the text before it writes anything.
        let restored = try change { () throws -> String? in
            let change = try store.restoreCard(Array(text.utf8), slug: String(parts[2].dropLast(3)), in: String(parts[1]))
            try commit(change)
            return change.card?.path
        }
        return .json(try fullCard(restored ?? path).rendered(pretty: false), status: .created)
    }

    /// Commits `change` when committing is asked for, with the message the matching command writes.
    func commit(_ change: BoardChange, message: CommitMessage? = nil) throws {
        // The kept board follows the change first: a commit that fails leaves the change made.
        served.follow(change)
        _ = try session.commit([change], message: message)
    }
}
