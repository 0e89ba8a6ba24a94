import Foundation

/// Where a board was found, and why there: what `kanban status` tells a person who wonders which board a command uses.
///
/// Looking from a directory, the board is the first directory holding `board.md` from there upwards, as git finds
/// `.git`. In a linked worktree of a git repository (`git worktree add`), that board is the worktree's own copy; the
/// board used is the main worktree's board at the same place, when it has one, so that agents working in parallel
/// worktrees meet on one board. Naming a board (`--board`, `KANBAN_BOARD`) chooses any board, a worktree's own too.
public struct BoardLocation: Sendable, Hashable {
    /// Why the board is the one used.
    public enum Reason: Sendable, Hashable {
        /// Given with `--board`.
        case option
        /// Given with `KANBAN_BOARD`.
        case environment
        /// The first directory holding `board.md` from the working directory upwards.
        case found
        /// The main worktree's board: the working directory is in the linked worktree `worktree`, whose own copy of
        /// the board is `ownBoard`.
        case mainWorktree(worktree: String, ownBoard: String)
    }

    /// The board's directory.
    public var directory: String
    /// Why this board.
    public var reason: Reason

    /// Creates a location.
    public init(directory: String, reason: Reason) {
        self.directory = directory
        self.reason = reason
    }

    /// One line saying why this board is used, for `kanban status`.
    public var explanation: String {
        switch reason {
        case .option: "named with --board"
        case .environment: "named with KANBAN_BOARD"
        case .found: "found from the working directory"
        case .mainWorktree(let worktree, let ownBoard):
            "the main worktree's board: this is the linked worktree \(worktree), whose own copy \(ownBoard) is not used (give --board to use it)"
        }
    }

    /// The board for a command run in `directory`: found upwards, then, in a linked worktree, the main worktree's.
    /// - Throws: ``KanbanError/Code/boardNotFound`` when no directory on the way holds a `board.md`.
    public static func find(from directory: String) throws(KanbanError) -> BoardLocation {
        guard var current = FileSystem.realPath(directory) else {
            throw KanbanError(.boardNotFound, "no board found: '\(directory)' does not exist")
        }
        while true {
            if FileSystem.exists(current + "/" + BoardFile.path) {
                if let main = mainWorktreeBoard(for: current) { return main }
                return BoardLocation(directory: current, reason: .found)
            }
            let parent = (current as NSString).deletingLastPathComponent
            if parent == current || parent.isEmpty { break }
            current = parent
        }
        throw KanbanError(.boardNotFound, "no board.md in '\(directory)' or any parent directory")
    }

    /// The main worktree's board matching `board` when `board` lies in a linked worktree, read from git's files
    /// (no git is run): the worktree's `.git` file names its git directory, whose `commondir` names the repository's;
    /// the main worktree is the directory holding that. Nil outside a linked worktree, in a bare repository's
    /// worktrees, or when the main worktree has no board at that place.
    static func mainWorktreeBoard(for board: String) -> BoardLocation? {
        var top = board
        while true {
            let dotGit = top + "/.git"
            if let bytes = try? FileSystem.readFile(dotGit) {
                // A `.git` file: a linked worktree (or a submodule, whose git directory has no `commondir`).
                let text = String(decoding: bytes.prefix(4096), as: UTF8.self)
                guard let line = text.split(whereSeparator: \.isNewline).first, line.hasPrefix("gitdir:") else { return nil }
                let gitDirectory = absolute(line.dropFirst("gitdir:".count).trimmingCharacters(in: .whitespaces), from: top)
                guard let common = try? FileSystem.readFile(gitDirectory + "/commondir") else { return nil }
                let commonPath = String(decoding: common, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                guard let commonDirectory = FileSystem.realPath(absolute(commonPath, from: gitDirectory)),
                      (commonDirectory as NSString).lastPathComponent == ".git" else { return nil }
                let mainTop = (commonDirectory as NSString).deletingLastPathComponent
                let relative = board == top ? "" : String(board.dropFirst(top.count))
                guard let mainBoard = FileSystem.realPath(mainTop + relative), mainBoard != board,
                      FileSystem.exists(mainBoard + "/" + BoardFile.path) else { return nil }
                return BoardLocation(directory: mainBoard, reason: .mainWorktree(worktree: top, ownBoard: board))
            }
            if FileSystem.exists(dotGit) { return nil }  // a `.git` directory: the main worktree itself
            let parent = (top as NSString).deletingLastPathComponent
            if parent == top || parent.isEmpty { return nil }
            top = parent
        }
    }

    private static func absolute(_ path: String, from directory: String) -> String {
        path.hasPrefix("/") ? path : directory + "/" + path
    }
}
