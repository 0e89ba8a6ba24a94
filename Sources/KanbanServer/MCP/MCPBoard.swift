import Foundation
import KanbanCore
import KanbanGit
import Synchronization

/// The board `kanban mcp` works on, and how it was found: `--board`, else `$KANBAN_BOARD`, else the current directory
/// upwards (all three as every command finds it), else the first of the client's roots that is in a board.
package final class MCPBoard: Sendable {
    /// How boards are opened and changed: what the command line and environment said.
    package struct Settings: Sendable {
        /// Whether the board was named (`--board`, `KANBAN_BOARD`): a named board that is not there is an error to
        /// fix, not a reason to look in the client's roots.
        package var isBoardNamed = false
        /// How long a change waits for another process's lock.
        package var lockTimeout: Duration = .seconds(20)
        /// Where a board found in a root keeps its index.
        package var index = IndexPlacement.none
        /// When changes are committed.
        package var commitPolicy = CommitPolicy.boardSetting
        /// How git is run.
        package var git: GitConfiguration
        /// Which tools `tools/list` offers.
        package var tools = MCPToolSelection.all

        package init(isBoardNamed: Bool = false, lockTimeout: Duration = .seconds(20), index: IndexPlacement = .none,
                     commitPolicy: CommitPolicy = .boardSetting, git: GitConfiguration) {
            self.isBoardNamed = isBoardNamed
            self.lockTimeout = lockTimeout
            self.index = index
            self.commitPolicy = commitPolicy
            self.git = git
        }
    }

    private struct Found {
        var session: BoardSession?
        var git: GitSyncProvider?
        /// Why there is no board, said so that a person can fix it.
        var problem: String
    }

    package let settings: Settings
    private let found: Mutex<Found>

    /// A board found already (`store`), or the reason there is none (`problem`).
    package init(settings: Settings, store: BoardStore?, problem: String = "") {
        self.settings = settings
        var found = Found(problem: problem)
        if let store { found = Self.open(store, settings: settings) }
        self.found = Mutex(found)
    }

    private static func open(_ store: BoardStore, settings: Settings) -> Found {
        let git = GitSyncProvider(store: store, configuration: settings.git)
        return Found(session: BoardSession(store: store, sync: git, commitPolicy: settings.commitPolicy), git: git, problem: "")
    }

    /// The board, once found.
    package var store: BoardStore? { found.withLock { $0.session?.store } }

    /// The board's session, once found.
    var session: BoardSession? { found.withLock { $0.session } }

    /// The board's git, once found.
    var git: GitSyncProvider? { found.withLock { $0.git } }

    /// Whether the client's roots may still name the board: none was found, and none was named.
    var canUseRoots: Bool { store == nil && !settings.isBoardNamed }

    /// The board, or an error that says how to point `kanban mcp` at one.
    func require() throws(MCPToolError) -> BoardStore {
        try requireSession().store
    }

    /// The board's session, or an error that says how to point `kanban mcp` at one.
    func requireSession() throws(MCPToolError) -> BoardSession {
        let (session, problem) = found.withLock { ($0.session, $0.problem) }
        if let session { return session }
        throw MCPToolError("""
            no board: \(problem)
            Point kanban mcp at a board: give '--board DIR' in the client's configuration (see 'kanban agents --mcp'), \
            set KANBAN_BOARD, start it in a directory inside the board, or open the board's project as a root in the client. \
            'kanban init DIR' creates a board.
            """)
    }

    /// Takes the first of `paths` that is in a board (itself or a directory above it, as `kanban` finds boards) and
    /// returns the board's directory; nil when none is.
    func adopt(roots paths: [String]) -> String? {
        guard canUseRoots else { return nil }
        for path in paths {
            guard let store = try? BoardStore.find(from: path, lockTimeout: settings.lockTimeout, index: settings.index) else { continue }
            let opened = Self.open(store, settings: settings)
            found.withLock { $0 = opened }
            return store.directory
        }
        found.withLock { $0.problem = "none of the client's roots (\(paths.joined(separator: ", "))) is in a board" }
        return nil
    }
}
