import KanbanCore
import KanbanGit

/// `kanban status --json`: the board's git status in the documented shape, which the page's status bar and the MCP
/// `board_status` tool return too.
package enum StatusJSON {
    /// What a merge left in cards for a person: kept text, kept cards and conflict markers, as `kanban doctor` finds them.
    package static func cardsToTidy(_ store: BoardStore) -> [Diagnostic] {
        let codes: Set<Diagnostic.Code> = [.keptText, .keptCard, .conflictMarkers]
        return ((try? store.check()) ?? []).filter { codes.contains($0.code) }
    }

    /// The documented `--json` shape.
    /// - Parameter location: Where the board was found and why (`"board": {"directory", "reason", "explanation"}`),
    ///   when the caller knows.
    package static func json(_ status: GitSyncStatus, toTidy: [Diagnostic] = [], location: BoardLocation? = nil) -> JSON {
        func optional(_ text: String?) -> JSON { text.map(JSON.string) ?? .null }
        var object: [String: JSON] = [
            "state": .string(status.availability.rawValue),
            "branch": optional(status.branch),
            "detached": .bool(status.isDetached),
            "upstream": optional(status.upstream),
            "remotes": .array(status.remotes.map(JSON.string)),
            "ahead": .number(String(status.ahead)),
            "behind": .number(String(status.behind)),
            "operation": optional(status.operationInProgress?.rawValue),
            "clean": .bool(status.isClean),
            "boardChanged": .bool(status.boardFileChanged),
            "changes": .array(status.changes.map { event in
                .object([
                    "kind": .string(event.kind.rawValue),
                    "slug": .string(event.slug),
                    "title": .string(event.title),
                    "column": .string(event.column),
                    "from": optional(event.previousColumn),
                    "path": .string(event.path),
                    "previousPath": optional(event.previousPath),
                    "fields": .array(event.changedFields.map(JSON.string)),
                ])
            }),
            "conflicts": .array(status.conflictedPaths.map(JSON.string)),
            "problems": .array(status.problems.map { .string($0.rawValue) }),
            "toTidy": .array(toTidy.map { finding in
                .object([
                    "path": .string(finding.location.path),
                    "line": finding.location.line.map { .number(String($0)) } ?? .null,
                    "code": .string(finding.code.rawValue),
                    "message": .string(finding.message),
                ])
            }),
        ]
        if let location { object["board"] = boardJSON(location) }
        return .object(object)
    }

    /// Where the board was found: `{"directory", "reason", "explanation"}`, the reason one of `option`, `environment`,
    /// `found`, `main-worktree` (then with `"worktree"` and `"ownBoard"`).
    package static func boardJSON(_ location: BoardLocation) -> JSON {
        var object: [String: JSON] = ["directory": .string(location.directory), "explanation": .string(location.explanation)]
        switch location.reason {
        case .option: object["reason"] = .string("option")
        case .environment: object["reason"] = .string("environment")
        case .found: object["reason"] = .string("found")
        case .mainWorktree(let worktree, let ownBoard):
            object["reason"] = .string("main-worktree")
            object["worktree"] = .string(worktree)
            object["ownBoard"] = .string(ownBoard)
        }
        return .object(object)
    }
}
