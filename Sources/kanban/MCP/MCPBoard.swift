import Foundation
import KanbanCore

/// The board `kanban mcp` works on, and how it was found: `--board`, else `$KANBAN_BOARD`, else the current directory
/// upwards (all three as every command finds it), else the first of the client's roots that is in a board.
final class MCPBoard: @unchecked Sendable {
    let context: CommandContext
    private let lock = NSLock()
    private var found: BoardStore?
    /// Why there is no board, said so that a person can fix it.
    private var problem: String

    init(context: CommandContext) {
        self.context = context
        problem = ""
        do {
            found = try context.store()
        } catch let error as CommandFailure {
            problem = String(error.message.split(separator: "\n").first ?? "")
        } catch let error as KanbanError {
            problem = error.message
        } catch {
            problem = "\(error)"
        }
    }

    /// The board, once found.
    var store: BoardStore? { lock.withLock { found } }

    /// Whether the client's roots may still name the board: none was found, and none was named (a named board that
    /// is not there is an error to fix, not a reason to look elsewhere).
    var canUseRoots: Bool { store == nil && !context.isBoardNamed }

    /// The board, or an error that says how to point `kanban mcp` at one.
    func require() throws(MCPToolError) -> BoardStore {
        if let store { return store }
        throw MCPToolError("""
            no board: \(lock.withLock { problem })
            Point kanban mcp at a board: give '--board DIR' in the client's configuration (see 'kanban agents --mcp'), \
            set KANBAN_BOARD, start it in a directory inside the board, or open the board's project as a root in the client. \
            'kanban init DIR' creates a board.
            """)
    }

    /// Takes the first of `paths` that is in a board (itself or a directory above it, as `kanban` finds boards) and
    /// returns the board's directory; nil when none is.
    func adopt(roots paths: [String]) -> String? {
        guard canUseRoots else { return nil }
        let timeout = (try? context.seconds(fromVariable: "KANBAN_LOCK_TIMEOUT")) ?? nil
        for path in paths {
            guard let store = try? BoardStore.find(from: path, lockTimeout: timeout ?? .seconds(20), index: context.indexPlacement) else { continue }
            context.use(store)
            lock.withLock { found = store }
            return store.directory
        }
        lock.withLock { problem = "none of the client's roots (\(paths.joined(separator: ", "))) is in a board" }
        return nil
    }
}
