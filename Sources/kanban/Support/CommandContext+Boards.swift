import Foundation
import KanbanCore
import KanbanGit

extension CommandContext {
    /// A board opened as ``store()`` and ``session()`` open the command's own: its store (a change a stopped command
    /// left half done finished first), its session with this command line's commit policy, and its git.
    func openBoard(at directory: String) throws -> (store: BoardStore, session: BoardSession, git: GitSyncProvider) {
        let timeout = try seconds(fromVariable: "KANBAN_LOCK_TIMEOUT") ?? .seconds(20)
        let store = try BoardStore(directory: directory, lockTimeout: timeout, index: indexPlacement)
        _ = try? store.recoverInterruptedChange()
        let git = GitSyncProvider(store: store, configuration: try gitConfiguration())
        return (store, BoardSession(store: store, sync: git, commitPolicy: commitPolicy), git)
    }

    /// The boards the directories given to `serve`, `mcp`, `tui` or `report` hold, each a board or a directory of
    /// boards, named as ``BoardDiscovery/boards(inEach:)`` names them; empty when none is given. A board.md that does
    /// not read is said on standard error and left out.
    /// - Throws: when a directory holds no board, two boards would share a name, none reads, or `--board` is given too.
    func namedBoards(_ directories: [String]) throws -> [FoundBoard] {
        guard !directories.isEmpty else { return [] }
        if arguments.value("board") != nil {
            throw arguments.usageError("give the boards as arguments or one with --board, not both")
        }
        let found = try BoardDiscovery.boards(inEach: directories.map(absolute))
        for board in found {
            guard let error = board.error else { continue }
            let label = errorStylist.apply(.bold + .yellow, to: "warning")
            errorOutput.writeLine("\(board.directory)/\(error.location?.description ?? "board.md"): \(label): \(error.message); board '\(board.name)' left out")
        }
        let readable = found.filter { $0.board != nil }
        guard !readable.isEmpty else {
            throw CommandFailure(message: "no board in \(directories.joined(separator: ", ")) reads (see above); 'kanban doctor --board DIR' says more")
        }
        return readable
    }
}
