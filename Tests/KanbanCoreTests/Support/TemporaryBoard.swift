#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import KanbanTestSupport
import Testing
@testable import KanbanCore

/// The fixtures and the sample board (``TestFixtures``) as URLs.
enum Fixtures {
    /// The package root.
    static let packageRoot = URL(fileURLWithPath: TestFixtures.packageRoot)

    /// `Tests/Fixtures/boards/<name>`.
    static func board(_ name: String) -> URL { URL(fileURLWithPath: TestFixtures.board(name)) }

    /// `SampleBoards/product-launch`.
    static var sampleBoard: URL { URL(fileURLWithPath: TestFixtures.sampleBoard) }

    /// `Tests/Fixtures/cards/<name>`.
    static func card(_ name: String) -> URL { URL(fileURLWithPath: TestFixtures.card(name)) }

    /// The bytes of a card fixture.
    static func cardBytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: card(name)))
    }
}

/// The instant every store in the tests takes as "now": 2026-05-28T20:26:40Z.
let fixedNow = Date(timeIntervalSince1970: 1_780_000_000)
/// `fixedNow` as the card files write it.
let fixedNowText = "2026-05-28T20:26:40Z"

/// A board in a temporary directory of its own, made by ``withTemporaryBoard(_:_:)`` and removed after the test.
///
/// The board is `root/board`, so a test can put files beside it that are outside the board.
struct TemporaryBoard {
    /// What to put in the board directory.
    enum Source {
        /// A copy of `Tests/Fixtures/boards/<name>`.
        case fixture(String)
        /// A copy of `SampleBoards/product-launch`.
        case sample
        /// A new board: this `board.md` text, and an empty directory under `cards/` for each name.
        case boardFile(String, columns: [String])

        /// A hand-edited board with comments, keys `kanban` does not know, and a card template:
        /// columns `todo`, `doing`, `done`; labels `bug`, `ui`; no cards.
        static var team: Source { .boardFile(teamBoardText, columns: ["todo", "doing", "done"]) }
    }

    static let teamBoardText = """
        ---
        # Settings for the team board; edit with care.
        title: Team Board
        owner: sam  # ask Sam before changing columns
        columns:
          - id: todo
            name: To Do
            wip: 5
          - id: doing
            name: Doing
          - id: done
            name: Done
        labels:
          - id: bug
            name: Bug
            color: "#e74c3c"
          - id: ui
            name: UI
            color: '#3498db'
        settings:
          theme: dark
        ---

        # Team Board

        Cards for the team.

        ## Card Template

        What needs doing?

        - [ ] First step

        """

    /// The template that `teamBoardText` declares.
    static let teamTemplate = "What needs doing?\n\n- [ ] First step"

    /// The temporary directory that holds the board (absolute, links resolved).
    let root: String
    /// The board directory (absolute, links resolved), which is what ``BoardStore/directory`` reports.
    let path: String

    static func make(_ source: Source) throws -> TemporaryBoard {
        let manager = FileManager.default
        let base = manager.temporaryDirectory.appendingPathComponent("kanban-tests-\(UUID().uuidString)")
        try manager.createDirectory(at: base, withIntermediateDirectories: true)
        let root = try #require(realPath(base.path))
        let path = root + "/board"
        switch source {
        case .fixture(let name):
            try manager.copyItem(atPath: Fixtures.board(name).path, toPath: path)
        case .sample:
            try manager.copyItem(atPath: Fixtures.sampleBoard.path, toPath: path)
        case .boardFile(let text, let columns):
            try manager.createDirectory(atPath: path + "/archive", withIntermediateDirectories: true)
            for column in columns {
                try manager.createDirectory(atPath: path + "/cards/" + column, withIntermediateDirectories: true)
            }
            try Data(text.utf8).write(to: URL(fileURLWithPath: path + "/board.md"))
        }
        return TemporaryBoard(root: root, path: path)
    }

    /// Removes the temporary directory and everything in it.
    func remove() {
        try? FileManager.default.removeItem(atPath: root)
    }

    /// A store on this board whose clock always says ``fixedNow``.
    func store() throws -> BoardStore {
        try BoardStore(directory: path, clock: { fixedNow })
    }

    /// The absolute path of `relative`, a path inside the board.
    func absolute(_ relative: String) -> String {
        path + "/" + relative
    }

    func bytes(_ relative: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: absolute(relative))))
    }

    /// The file's text; the tests only read files that are valid UTF-8.
    func text(_ relative: String) throws -> String {
        String(decoding: try bytes(relative), as: UTF8.self)
    }

    func write(_ bytes: [UInt8], to relative: String) throws {
        let url = URL(fileURLWithPath: absolute(relative))
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
    }

    func write(_ text: String, to relative: String) throws {
        try write(Array(text.utf8), to: relative)
    }

    func exists(_ relative: String) -> Bool {
        var info = stat()
        return lstat(absolute(relative), &info) == 0
    }

    /// Every entry under the board directory, by relative path, with what identifies its content and its inode.
    func snapshot() throws -> [String: FileState] {
        var result: [String: FileState] = [:]
        let names = try #require(FileManager.default.subpaths(atPath: path))
        for name in names {
            result[name] = try FileState(path: absolute(name))
        }
        return result
    }

    /// The paths whose entry differs between two snapshots (added, removed or changed).
    static func changedPaths(from before: [String: FileState], to after: [String: FileState]) -> Set<String> {
        Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }
    }

    /// Every path in the board that contains `text`, such as `.kanban-tmp`.
    func paths(containing text: String) throws -> [String] {
        try #require(FileManager.default.subpaths(atPath: path)).filter { $0.contains(text) }.sorted()
    }
}

/// What a snapshot records about one directory entry: enough to tell that a file was rewritten even with the
/// same bytes (an atomic rewrite gets a new inode).
struct FileState: Hashable {
    enum Kind: Hashable { case file, directory, link, other }

    var kind: Kind
    var bytes: [UInt8]
    var linkTarget: String?
    var inode: UInt64
    var modifiedSeconds: Int
    var modifiedNanoseconds: Int

    init(path: String) throws {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        inode = UInt64(info.st_ino)
        #if canImport(Darwin)
        modifiedSeconds = Int(info.st_mtimespec.tv_sec)
        modifiedNanoseconds = Int(info.st_mtimespec.tv_nsec)
        #else
        modifiedSeconds = Int(info.st_mtim.tv_sec)
        modifiedNanoseconds = Int(info.st_mtim.tv_nsec)
        #endif
        bytes = []
        linkTarget = nil
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            kind = .file
            bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        case S_IFDIR:
            kind = .directory
            // A directory's mtime changes whenever an entry is added or removed; the entries are compared instead.
            modifiedSeconds = 0
            modifiedNanoseconds = 0
        case S_IFLNK:
            kind = .link
            linkTarget = try FileManager.default.destinationOfSymbolicLink(atPath: path)
        default:
            kind = .other
        }
    }
}

/// Runs `body` with a fresh board made from `source`, and removes it afterwards whatever happens.
@discardableResult
func withTemporaryBoard<R>(_ source: TemporaryBoard.Source, _ body: (TemporaryBoard) throws -> R) throws -> R {
    let board = try TemporaryBoard.make(source)
    defer { board.remove() }
    return try body(board)
}

/// Runs `body` with a new empty temporary directory (absolute, links resolved), removed afterwards.
@discardableResult
func withTemporaryDirectory<R>(_ body: (String) throws -> R) throws -> R {
    let manager = FileManager.default
    let base = manager.temporaryDirectory.appendingPathComponent("kanban-tests-\(UUID().uuidString)")
    try manager.createDirectory(at: base, withIntermediateDirectories: true)
    defer { try? manager.removeItem(at: base) }
    return try body(try #require(realPath(base.path)))
}

/// The lines of `bytes` split at each LF, each line keeping any CR; a file ending in LF ends with an empty line.
func lines(of bytes: [UInt8]) -> [String] {
    bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
}

/// Expects `body` to throw a ``KanbanError`` with `code`, and returns the error for further checks.
@discardableResult
func expectKanbanError<R>(_ code: KanbanError.Code, sourceLocation: Testing.SourceLocation = #_sourceLocation,
                          _ body: () throws -> R) -> KanbanError? {
    let error = #expect(throws: KanbanError.self, sourceLocation: sourceLocation) { try body() }
    if let error {
        #expect(error.code == code, "\(error.debugDescription)", sourceLocation: sourceLocation)
    }
    return error
}

/// The absolute, link-free form of `path`, or nil when it does not exist.
private func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
}

extension BoardSnapshot {
    /// The slugs of one column's active cards, in board order.
    func slugs(inColumn id: String) -> [String] {
        cards(inColumn: id).map(\.slug)
    }

    /// The active card at `path` (relative to the board), if it loaded.
    func card(atPath path: String) -> Card? {
        cards.first { $0.path == path }
    }
}
