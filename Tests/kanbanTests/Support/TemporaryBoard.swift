#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Foundation
import KanbanTestSupport
import Testing

/// A board in a temporary directory of its own, for running `kanban` against; made by
/// ``withTemporaryBoard(_:_:)``, which removes it afterwards whatever happens.
///
/// ```swift
/// @Test func movesACard() throws {
///     try withTemporaryBoard(.sample) { board throws in
///         let result = try board.run(["move", "press-kit-and-screenshots", "done"])
///         #expect(result.status == 0, "\(result)")
///         #expect(board.exists("cards/done/press-kit-and-screenshots.md"))
///         #expect(try board.slugs(inColumn: "done").last == "press-kit-and-screenshots")
///     }
/// }
/// ```
///
/// Write `{ board throws in` when every `try` of the closure is inside `#expect`/`#require`: Swift decides whether a
/// closure throws from the `try`s it sees before macros expand, and otherwise reports "errors thrown from here are
/// not handled" inside the expansion.
///
/// The layout is `root/board`: `root` is the temporary directory (and `HOME` for runs), `path` the board, so a
/// test can put files beside the board that are outside it (`root/outside.md`, editor scripts).
/// Paths given to the helpers are relative to the board directory.
struct TemporaryBoard: Sendable {
    /// What to put in the board directory.
    enum Source: Sendable {
        /// A copy of `SampleBoards/product-launch` (title "Lumen 2.0 Launch"; columns backlog, todo, in-progress,
        /// review, done; labels feature, bug, design, docs, infra, marketing; 25 cards, 4 archived).
        case sample
        /// A copy of `Tests/Fixtures/boards/<name>`: `messy` or `simplekanban` (see `Tests/Fixtures/README.md`).
        case fixture(String)
        /// A board made by `kanban init` with these extra arguments (`["--columns", "a:A,b:B"]`); no cards.
        case initialized([String])
        /// This `board.md` text, an empty `archive/` and an empty directory under `cards/` for each column id.
        case boardFile(String, columns: [String])
        /// No board at all: `path` does not exist yet (for `kanban init` tests).
        case none

        /// A small board with a plain card template: columns `todo` (To Do), `doing` (Doing), `done` (Done);
        /// labels `bug`, `ui`; the template is ``TemporaryBoard/simpleTemplate``; no cards.
        static var simple: Source { .boardFile(simpleBoardText, columns: ["todo", "doing", "done"]) }
    }

    static let simpleBoardText = """
        ---
        title: Simple Board
        columns:
          - id: todo
            name: To Do
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
            color: "#3498db"
        ---

        # Simple Board

        ## Card Template

        What needs doing?

        - [ ] First step

        """

    /// The template that ``Source/simple`` declares (what a new card's body is by default).
    static let simpleTemplate = "What needs doing?\n\n- [ ] First step"

    /// The temporary directory holding the board (absolute, links resolved); `HOME` for ``run(_:in:stdin:environment:)``.
    let root: String
    /// The board directory (absolute, links resolved).
    let path: String

    /// Makes the temporary directory and the board; prefer ``withTemporaryBoard(_:_:)``, which also removes it.
    static func make(_ source: Source) throws -> TemporaryBoard {
        let root = try makeTemporaryDirectory()
        let board = TemporaryBoard(root: root, path: root + "/board")
        do {
            let manager = FileManager.default
            switch source {
            case .sample:
                try manager.copyItem(atPath: TestFixtures.sampleBoard, toPath: board.path)
            case .fixture(let name):
                let source = TestFixtures.board(name)
                try #require(manager.fileExists(atPath: source), "no fixture board '\(name)' at \(source)")
                try manager.copyItem(atPath: source, toPath: board.path)
            case .initialized(let arguments):
                let result = try KanbanProcess.run(["init", board.path] + arguments, in: root)
                try #require(result.status == 0, "kanban init failed: \(result)")
            case .boardFile(let text, let columns):
                try manager.createDirectory(atPath: board.path + "/archive", withIntermediateDirectories: true)
                for column in columns {
                    try manager.createDirectory(atPath: board.path + "/cards/" + column, withIntermediateDirectories: true)
                }
                try board.write(text, to: "board.md")
            case .none:
                break
            }
        } catch {
            board.remove()
            throw error
        }
        return board
    }

    /// Removes the temporary directory and everything in it.
    func remove() {
        try? FileManager.default.removeItem(atPath: root)
    }

    // MARK: Running kanban

    /// Runs `kanban` with the board directory (or `subdirectory` of it) as the working directory and `root` as
    /// `HOME`; otherwise as ``KanbanProcess/run(_:in:stdin:environment:stdoutIsTerminal:timeout:)``.
    func run(
        _ arguments: [String], in subdirectory: String? = nil, stdin: String? = nil,
        environment: [String: String] = [:], stdoutIsTerminal: Bool = false
    ) throws -> KanbanProcess.Output {
        let directory = subdirectory.map { path + "/" + $0 } ?? path
        var variables = ["HOME": root]
        variables.merge(environment) { _, new in new }
        return try KanbanProcess.run(arguments, in: directory, stdin: stdin, environment: variables,
                                     stdoutIsTerminal: stdoutIsTerminal)
    }

    /// `kanban list --json` plus `arguments`, decoded; fails the test when the command fails.
    func listJSON(_ arguments: [String] = [], sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> [CardJSON] {
        let result = try run(["list", "--json"] + arguments)
        try #require(result.status == 0, "list --json failed: \(result)", sourceLocation: sourceLocation)
        return try decodeJSON([CardJSON].self, from: result.stdout)
    }

    /// The slugs of one column's active cards in board order, from `kanban list --json --column`.
    func slugs(inColumn column: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> [String] {
        try listJSON(["--column", column], sourceLocation: sourceLocation).map(\.slug)
    }

    /// `kanban show --json CARD`, decoded (it has `body`); fails the test when the command fails.
    func showJSON(_ card: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> CardJSON {
        let result = try run(["show", "--json", card])
        try #require(result.status == 0, "show --json failed: \(result)", sourceLocation: sourceLocation)
        return try decodeJSON(CardJSON.self, from: result.stdout)
    }

    // MARK: Files

    /// The absolute path of `relative`, a path inside the board.
    func absolute(_ relative: String) -> String {
        relative.isEmpty ? path : path + "/" + relative
    }

    func exists(_ relative: String) -> Bool {
        var info = stat()
        return lstat(absolute(relative), &info) == 0
    }

    func isDirectory(_ relative: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: absolute(relative), isDirectory: &isDirectory) && isDirectory.boolValue
    }

    func bytes(_ relative: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: absolute(relative))))
    }

    /// The file's text (decoded as UTF-8, invalid bytes replaced).
    func text(_ relative: String) throws -> String {
        String(decoding: try bytes(relative), as: UTF8.self)
    }

    /// Writes `bytes` to `relative`, making directories on the way.
    func write(_ bytes: [UInt8], to relative: String) throws {
        let url = URL(fileURLWithPath: absolute(relative))
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
    }

    func write(_ text: String, to relative: String) throws {
        try write(Array(text.utf8), to: relative)
    }

    /// The names in a directory of the board, sorted (hidden files included).
    func entries(_ relative: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: absolute(relative)).sorted()
    }

    /// Every regular file under the board by relative path, with its bytes: compare two to see what a command touched.
    func files() throws -> [String: [UInt8]] {
        try Self.files(under: path)
    }

    /// Every regular file under `directory` (any directory: a second board beside this one, or `root` for everything
    /// a test made) by path relative to it, with its bytes.
    static func files(under directory: String) throws -> [String: [UInt8]] {
        var result: [String: [UInt8]] = [:]
        guard let enumerator = FileManager.default.enumerator(atPath: directory) else { return result }
        while let name = enumerator.nextObject() as? String {
            var info = stat()
            let file = directory + "/" + name
            guard lstat(file, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
            // A file removed between the listing and the read (a cache's temporary file) is not there.
            guard let data = FileManager.default.contents(atPath: file) else { continue }
            result[name] = [UInt8](data)
        }
        return result
    }

    /// Every directory under the board by relative path.
    func directories() -> Set<String> {
        var result: Set<String> = []
        guard let enumerator = FileManager.default.enumerator(atPath: path) else { return result }
        while let name = enumerator.nextObject() as? String {
            if isDirectory(name) { result.insert(name) }
        }
        return result
    }

    /// The paths added, removed or changed between two ``files()`` snapshots, sorted.
    static func changes(from before: [String: [UInt8]], to after: [String: [UInt8]]) -> [String] {
        Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }.sorted()
    }

    /// Writes an `sh` script to `root/<name>` (outside the board) and returns the command that runs it
    /// (`sh <path>`): an editor for `EDITOR`/`VISUAL`, which gets the card's path as `$1`.
    func script(named name: String, _ body: String) throws -> String {
        let file = root + "/" + name
        try Data(("#!/bin/sh\n" + body + "\n").utf8).write(to: URL(fileURLWithPath: file))
        guard chmod(file, 0o755) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        // Run through `sh` rather than executing the file: a process forked by a parallel test while the file
        // was open for writing keeps that descriptor until it execs, and executing the file then fails with
        // ETXTBSY ("Text file busy").
        return "sh " + file
    }
}

/// Runs `body` with a fresh board made from `source`, and removes it afterwards whatever happens.
func withTemporaryBoard<R>(_ source: TemporaryBoard.Source = .sample, _ body: (TemporaryBoard) throws -> R) throws -> R {
    let board = try TemporaryBoard.make(source)
    defer { board.remove() }
    return try body(board)
}

/// Runs `body` with a new, empty temporary directory (absolute, links resolved), removed afterwards.
func withTemporaryDirectory<R>(_ body: (String) throws -> R) throws -> R {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    return try body(directory)
}

private func makeTemporaryDirectory() throws -> String {
    let base = FileManager.default.temporaryDirectory.appendingPathComponent("kanban-cli-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
    guard let resolved = realpath(base.path, nil) else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    defer { free(resolved) }
    return String(cString: resolved)
}

// MARK: JSON

/// A card as `list --json`, `show --json`, `add --json` and `search --json` print it (README, "JSON output").
struct CardJSON: Decodable, Sendable, Equatable {
    var slug: String
    var title: String
    var column: String
    var position: String?
    var labels: [String]
    var created: String?
    var modified: String?
    var path: String
    var archived: Bool
    var fields: [String: JSONValue]
    /// Only from `show --json`, `add --json` and `set --json`.
    var body: String?
}

/// Any JSON value, for checking output whose shape a test does not model with a `Decodable` type.
enum JSONValue: Decodable, Sendable, Equatable, CustomStringConvertible {
    case string(String)
    case number(Double)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// A member of an object, or nil.
    subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    /// An element of an array, or nil.
    subscript(index: Int) -> JSONValue? {
        if case .array(let items) = self, items.indices.contains(index) { return items[index] }
        return nil
    }

    var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    var arrayValue: [JSONValue]? {
        if case .array(let items) = self { return items }
        return nil
    }

    /// The keys of an object, sorted; empty for anything else.
    var keys: [String] {
        if case .object(let members) = self { return members.keys.sorted() }
        return []
    }

    var description: String {
        switch self {
        case .string(let text): return "\"\(text)\""
        case .number(let number): return "\(number)"
        case .bool(let value): return "\(value)"
        case .null: return "null"
        case .array(let items): return "[" + items.map(\.description).joined(separator: ", ") + "]"
        case .object(let members):
            return "{" + members.keys.sorted().map { "\"\($0)\": \(members[$0]?.description ?? "")" }.joined(separator: ", ") + "}"
        }
    }
}

/// Decodes `text` (a command's standard output) as `type`, failing with the text in the message.
func decodeJSON<T: Decodable>(_ type: T.Type, from text: String) throws -> T {
    do {
        return try JSONDecoder().decode(type, from: Data(text.utf8))
    } catch {
        Issue.record("cannot decode \(type) from:\n\(text)\n\(error)")
        throw error
    }
}

// MARK: Text

extension String {
    /// The lines of the text, without a last empty line for a trailing newline.
    var lines: [String] {
        var result = split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if result.last == "" { result.removeLast() }
        return result
    }
}

/// Whether `line` has the diagnostic form `path:line:column: error|warning: message` (line and column optional),
/// with `path` relative (never starting with `/`).
func isDiagnosticLine(_ line: String) -> Bool {
    line.wholeMatch(of: /[^\/\s:][^:]*(:\d+(:\d+)?)?: (error|warning): \S.*/) != nil
}
