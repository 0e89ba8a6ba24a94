/// A board found by ``BoardDiscovery``: how surfaces name it, where it is, and its settings or why they do not read.
public struct FoundBoard: Sendable, Hashable {
    /// How surfaces name the board: its path relative to the directory searched (`.` for that directory itself,
    /// `web/board` for one below it).
    public var name: String
    /// The board directory, absolute, with symbolic links resolved.
    public var directory: String
    /// What `board.md` says, or the error that keeps it from reading (with `board.md:line:column`).
    public var settings: Result<Board, KanbanError>

    /// Creates a found board.
    public init(name: String, directory: String, settings: Result<Board, KanbanError>) {
        self.name = name
        self.directory = directory
        self.settings = settings
    }

    /// The board's settings, or nil when `board.md` does not read.
    public var board: Board? { try? settings.get() }

    /// Why `board.md` does not read, or nil when it does.
    public var error: KanbanError? {
        if case .failure(let error) = settings { return error }
        return nil
    }

    /// Where the error is, relative to the directory searched: `web/board.md:3:1` (the board's path before the
    /// location the store gives, which is relative to the board).
    public var errorLocation: String? {
        guard let error else { return nil }
        let path = error.location?.description ?? BoardFile.path
        return name == "." ? path : name + "/" + path
    }
}

/// Finds every board under a directory: each directory holding a `board.md`, read as every command reads it.
///
/// The walk never follows a symbolic link to a directory (no loops, nothing outside the directory searched), and does
/// not go into hidden directories (`.git`), `.build`, `node_modules`, nor a board's own `cards/` and `archive/`. It
/// goes at most ``maximumDepth`` directories down and looks at ``directoryLimit`` directories at most.
///
/// ```swift
/// for found in try BoardDiscovery.boards(under: "/src/company") {
///     print(found.name, found.board?.title ?? found.error!.message)
/// }
/// ```
public enum BoardDiscovery {
    /// How many directories below the one searched a board may be (`a/b/c` is 3).
    public static let maximumDepth = 8
    /// The most boards one search returns; more is an error that asks for a narrower directory.
    public static let boardLimit = 1_000
    /// The most directories one search looks at; more is an error that asks for a narrower directory.
    public static let directoryLimit = 100_000

    /// Directory names the walk never enters, besides hidden ones.
    static let skippedNames: Set<String> = [".build", "node_modules"]

    /// Every board under `directory` (itself included), sorted by path, each named by its path relative to it.
    ///
    /// A `board.md` that does not read is returned with its error (``FoundBoard/settings``), never skipped.
    /// - Parameters:
    ///   - directory: The directory to search, absolute.
    ///   - maximumDepth: How many levels down to look (``maximumDepth`` by default).
    ///   - boardLimit: The most boards to return (``boardLimit`` by default).
    /// - Returns: The boards, sorted by path component by component (`.` first).
    /// - Throws: ``KanbanError/Code/boardNotFound`` when `directory` is not a directory;
    ///   ``KanbanError/Code/invalidArgument`` when it holds more boards or directories than the limits.
    public static func boards(under directory: String, maximumDepth: Int = maximumDepth, boardLimit: Int = boardLimit) throws(KanbanError) -> [FoundBoard] {
        guard let resolved = FileSystem.realPath(directory), let top = try FileSystem.OpenDirectory(resolved) else {
            throw KanbanError(.boardNotFound, "no directory '\(directory)' to look for boards in")
        }
        var walk = Walk(top: resolved, maximumDepth: maximumDepth, boardLimit: boardLimit)
        try walk.visit(top, relative: [])
        return walk.found.sorted { $0.components.lexicographicallyPrecedes($1.components) }.map(\.board)
    }

    /// The boards each of `directories` holds (a board directory, or a directory of boards), named so that every
    /// name is unique: a board found under a directory by its path there, the directory itself by its own name
    /// (`projects` for `/src/projects`). A board found twice is kept once.
    /// - Parameter directories: Absolute directories, in the order they were given.
    /// - Returns: The boards in the order of `directories`, each directory's sorted by path.
    /// - Throws: ``KanbanError/Code/boardNotFound`` when a directory holds no board; ``KanbanError/Code/invalidArgument``
    ///   when two boards would have one name (it names both directories).
    public static func boards(inEach directories: [String]) throws(KanbanError) -> [FoundBoard] {
        var result: [FoundBoard] = []
        var seenDirectories: Set<String> = []
        var directoryByName: [String: String] = [:]
        for directory in directories {
            let found = try boards(under: directory)
            guard !found.isEmpty else {
                throw KanbanError(.boardNotFound, "no board in '\(directory)' or below it: no directory there holds a board.md")
            }
            for var board in found where seenDirectories.insert(board.directory).inserted {
                if board.name == "." {
                    let last = board.directory.split(separator: "/").last.map(String.init) ?? "/"
                    board.name = last
                    board = board.checkingName()
                }
                if let other = directoryByName[board.name] {
                    throw KanbanError(.invalidArgument, "two boards would be named '\(board.name)': '\(other)' and '\(board.directory)'; give their common parent directory instead, so that each is named by its path there")
                }
                directoryByName[board.name] = board.directory
                result.append(board)
            }
        }
        return result
    }

    /// One search's state: what it found and how much it looked at.
    private struct Walk {
        let top: String
        let maximumDepth: Int
        let boardLimit: Int
        var found: [(components: [String], board: FoundBoard)] = []
        var directoriesSeen = 0

        init(top: String, maximumDepth: Int, boardLimit: Int) {
            self.top = top
            self.maximumDepth = maximumDepth
            self.boardLimit = boardLimit
        }

        mutating func visit(_ directory: FileSystem.OpenDirectory, relative: [String]) throws(KanbanError) {
            directoriesSeen += 1
            guard directoriesSeen <= BoardDiscovery.directoryLimit else {
                throw KanbanError(.invalidArgument, "'\(top)' holds more than \(BoardDiscovery.directoryLimit) directories; look for boards in a narrower directory")
            }
            let path = relative.isEmpty ? top : top + "/" + relative.joined(separator: "/")
            let isBoard = [.file, .symbolicLink].contains(directory.kind(of: BoardFile.path))
            if isBoard {
                guard found.count < boardLimit else {
                    throw KanbanError(.invalidArgument, "'\(top)' holds more than \(boardLimit) boards; look for boards in a narrower directory")
                }
                found.append((relative, Self.read(path, name: relative.isEmpty ? "." : relative.joined(separator: "/")).checkingName()))
            }
            guard relative.count < maximumDepth else { return }
            // A directory that cannot be listed (no permission) is passed over, as `find` goes on past one.
            guard let entries = try? directory.entries() else { return }
            for entry in entries.sorted(by: { $0.name < $1.name }) where entry.kind == .directory {
                if entry.name.hasPrefix(".") || BoardDiscovery.skippedNames.contains(entry.name) { continue }
                if isBoard && (entry.name == "cards" || entry.name == "archive") { continue }
                guard case .opened(let child)? = try? directory.openSubdirectory(entry.name, path: path + "/" + entry.name) else { continue }
                try visit(child, relative: relative + [entry.name])
            }
        }

        /// The board in `path`, read as every command reads it.
        static func read(_ path: String, name: String) -> FoundBoard {
            do {
                let store = try BoardStore(directory: path, index: .none)
                return FoundBoard(name: name, directory: store.directory, settings: .success(try store.loadBoard()))
            } catch {
                return FoundBoard(name: name, directory: path, settings: .failure(error))
            }
        }
    }
}

extension FoundBoard {
    /// The board as found, or, when its name (a path a repository may spell with anything) holds a control character
    /// or a line break, the board with the error that says so: surfaces put the name in what people and agents read
    /// (a server's instructions, a tool's schema, a list), so such a board is reported and left out, never served.
    func checkingName() -> FoundBoard {
        // Checked whole, not trimmed as a title is: a line break at the end of a name is as much in the way.
        guard let control = name.unicodeScalars.first(where: { BoardText.isControl($0) || $0.value == 0x2028 || $0.value == 0x2029 }) else {
            return self
        }
        var board = self
        board.settings = .failure(KanbanError(.invalidArgument,
                                              "a board's name (its directory's path) cannot hold control character \(BoardText.name(of: control)): rename the directory"))
        return board
    }
}
