import KanbanCore

/// A sync as `kanban sync --json` prints it, `POST /api/sync` answers it and the MCP `sync` tool returns it:
/// `{"ok", "steps", "messages", "error"}`, each step with `"step"` naming it.
package enum SyncJSON {
    /// The sync's steps and lines, and its error when it stopped on one.
    package static func json(steps: [SyncStep], error: SyncError? = nil, board: Board?) -> JSON {
        var messages = steps.flatMap { $0.lines(board: board) }.map(\.text)
        if let error { messages += error.lines }
        var members: [String: JSON] = [
            "ok": .bool(error == nil),
            "steps": .array(steps.map(json)),
            "messages": .array(messages.map(JSON.string)),
        ]
        if let error { members["error"] = json(error) }
        return .object(members)
    }

    private static func json(_ step: SyncStep) -> JSON {
        switch step {
        case .finishedMerge(let finished):
            var members = commitMembers(finished.commit)
            members["step"] = .string("finished-merge")
            members["cards"] = .array(finished.cards.map(JSON.string))
            members["boardFile"] = .bool(finished.isBoardFileMerged)
            members["resolutions"] = .array(finished.resolutions.map(json))
            members["tidied"] = finished.resolutionCommit.map { .object(commitMembers($0)) } ?? .null
            return .object(members)
        case .committed(let result):
            var members = commitMembers(result)
            members["step"] = .string("committed")
            members["paths"] = .array(result.paths.map(JSON.string))
            return .object(members)
        case .pulled(let pull, let upstream):
            var members = pullMembers(pull)
            members["step"] = .string("pulled")
            members["from"] = .string(upstream)
            return .object(members)
        case .pushed(let push):
            return .object([
                "step": .string("pushed"), "to": .string(push.upstream), "pushed": .number(String(push.pushed)),
                "pulls": .array(push.pulls.map { .object(pullMembers($0)) }),
            ])
        case .dependenciesToCheck(let found):
            return .object([
                "step": .string("dependencies-to-check"),
                "cards": .array(found.map { .object(["card": .string($0.card), "slug": .string($0.slug), "renamedTo": .string($0.renamedTo)]) }),
            ])
        case .claimsLost(let lost):
            return .object([
                "step": .string("claims-lost"),
                "claims": .array(lost.map { claim in
                    .object(["card": .string(claim.slug), "holder": .string(claim.holder), "winner": .string(claim.winner.holder),
                             "claimedAt": claim.winner.date.map { .string(ISO8601.string(from: $0)) } ?? .null])
                }),
            ])
        }
    }

    private static func commitMembers(_ result: CommitResult) -> [String: JSON] {
        ["commit": .string(result.commit), "subject": .string(result.message.subject)]
    }

    private static func pullMembers(_ pull: PullResult) -> [String: JSON] {
        [
            "kind": .string(pull.kind.rawValue), "incoming": .number(String(pull.incoming)), "replayed": .number(String(pull.replayed)),
            "resolutions": .array(pull.resolutions.map(json)),
            "tidied": pull.resolutionCommit.map { .object(commitMembers($0)) } ?? .null,
            "stashKept": .bool(pull.isStashKept),
        ]
    }

    private static func json(_ resolution: CardResolution) -> JSON {
        .object([
            "slug": .string(resolution.slug), "kind": .string(resolution.kind.rawValue), "path": .string(resolution.keptPath),
            "newSlug": resolution.newSlug.map(JSON.string) ?? .null,
        ])
    }

    private static func json(_ error: SyncError) -> JSON {
        .object([
            "code": .string(error.code.rawValue), "message": .string(error.message), "hint": error.hint.map(JSON.string) ?? .null,
            "conflicts": .array(error.conflicts.map { .string($0.path) }),
        ])
    }
}
