import Foundation
import KanbanCore
import KanbanGit

extension MCPTools {
    /// The name a claim records: the `name` argument, else the server's `KANBAN_AGENT`, else git's `user.name`.
    private func holder(_ arguments: MCPArguments) throws(MCPToolError) -> String {
        if let name = try arguments.string("name") { return name }
        if let name = board.git?.claimName(environment: ProcessInfo.processInfo.environment) { return name }
        throw MCPToolError("no name for the claim: give 'name', or set KANBAN_AGENT in the server's environment")
    }

    /// A claim refused, in words an agent acts on.
    private static func claimError(_ error: any Error) -> MCPToolError {
        guard let error = error as? KanbanError else { return toolError(error) }
        switch error.code {
        case .claimed: return MCPToolError(error.message + "; take another card (ready_cards, or claim_card with next)")
        case .notReady: return MCPToolError(error.message)
        default: return MCPToolError(error)
        }
    }

    func readyCards(_ arguments: MCPArguments) throws(MCPToolError) -> JSON {
        try read { store in
            let ready = try store.workQueue().ready
            return .object(["cards": .array(ready.map { JSON(card: $0) }), "count": .number(String(ready.count))])
        }
    }

    func claimCard(_ arguments: MCPArguments) throws(MCPToolError) -> JSON {
        let card = try arguments.string("card")
        let next = try arguments.bool("next")
        guard (card != nil) != next else { throw MCPToolError("give 'card', or 'next': true for the first ready card (not both)") }
        let name = try holder(arguments)
        let sharing = try arguments.bool("sync")
        let session = try board.requireSession()
        do {
            let outcome = try session.claim(card, as: name, sharing: sharing)
            let store = session.store
            var members: [String: JSON] = ["card": JSON(card: outcome.claim.card, includeBody: true, body: try store.body(of: outcome.claim.card))]
            if let unshared = outcome.unshared {
                members["warning"] = .string("the claim stands, committed here, but could not be shared: \(unshared.message); the next sync sends it")
            }
            if let excess = outcome.claim.change.overLimit { members["overLimit"] = .string(excess.message) }
            if !outcome.lost.isEmpty {
                members["lost"] = .array(outcome.lost.map { .object(["card": .string($0.slug), "holder": .string($0.holder)]) })
            }
            return .object(members.merging(Self.commitMembers(outcome.commit)) { first, _ in first })
        } catch {
            throw Self.claimError(error)
        }
    }

    func releaseCard(_ arguments: MCPArguments) throws(MCPToolError) -> JSON {
        let card = try arguments.requiredString("card")
        let name = try arguments.bool("force") ? nil : try holder(arguments)
        let session = try board.requireSession()
        do {
            let (released, commit, _) = try session.release(card, by: name, sharing: try arguments.bool("sync"))
            return .object(["card": JSON(card: released.card)].merging(Self.commitMembers(commit)) { first, _ in first })
        } catch {
            throw Self.claimError(error)
        }
    }
}
