import Foundation
import KanbanCore

/// Where a card stands for agents, as JSON: what `kanban depend --json` prints, `kanban show --json` and the MCP
/// tools give as `"work"`, and the page shows on the card.
package enum WorkJSON {
    /// `{"state", "dependsOn": [{"slug", "done", "onBoard"}], "waitingOn", "blocks", "claimedBy", "claimedAt"}`;
    /// `state` is `ready`, `waiting`, `claimed`, `started` or `done`.
    package static func work(of card: Card, in queue: WorkQueue) -> JSON {
        let state: String
        var waiting: [String] = []
        switch queue.readiness(of: card) {
        case .ready: state = "ready"
        case .waiting(let slugs):
            state = "waiting"
            waiting = slugs
        case .claimed: state = "claimed"
        case .started: state = "started"
        case .done: state = "done"
        }
        let claim = card.claim
        return .object([
            "state": .string(state),
            "dependsOn": .array(card.dependencies.map { slug in
                .object(["slug": .string(slug), "done": .bool(queue.isDone(slug)), "onBoard": .bool(queue.exists(slug))])
            }),
            "waitingOn": .array(waiting.map(JSON.string)),
            "blocks": .array(queue.dependents(of: card.slug).map(JSON.string)),
            "claimedBy": claim.map { .string($0.holder) } ?? .null,
            "claimedAt": claim?.date.map { .string(ISO8601.string(from: $0)) } ?? .null,
        ])
    }
}
