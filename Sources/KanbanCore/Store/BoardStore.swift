import Dispatch
import Foundation

/// A board on disk and every operation on it.
///
/// Every file is reached through ``BoardRoot``, so nothing outside the board directory is ever read or written,
/// whatever links the board holds, and only regular files are read. Reads never lock. Each change takes the board's
/// exclusive lock (waiting at most ``lockTimeout``), re-reads what it changes, and makes all its file changes as one
/// transaction recorded in a journal first (``BoardJournal``): a process killed half-way leaves a change the next
/// command finishes or undoes, never a card in two places or none. Changes return the paths they wrote and removed,
/// so that git sync can commit exactly those.
///
/// ```swift
/// let store = try BoardStore(directory: "/path/to/board")
/// let snapshot = try store.load()
/// let change = try store.moveCard("fix-login", to: "done")
/// ```
public final class BoardStore: Sendable {
    /// The board directory, absolute, with symbolic links resolved.
    public let directory: String
    let clock: @Sendable () -> Date
    /// How long a change waits for another process holding the board's lock before it gives up.
    public let lockTimeout: Duration
    /// Where the board's index is kept; nil when it has none (see ``IndexPlacement``).
    let indexFile: CardIndexFile?
    /// See ``IndexPlacement/writesInBackground``.
    let writesIndexInBackground: Bool

    /// The index writes started on other threads and not finished.
    private static let indexWrites = DispatchGroup()

    /// Waits until every index write a load started in the background has finished.
    package static func waitForIndexWrites() {
        indexWrites.wait()
    }

    /// Opens the board in `directory`, which must hold a `board.md`.
    /// - Parameters:
    ///   - directory: The board directory, absolute or relative to the current directory.
    ///   - clock: Where `created`, `modified` and archive dates come from (tests pass a fixed clock).
    ///   - lockTimeout: How long a change waits for the board's lock (20 seconds by default).
    ///   - index: Where the board's index of its cards is kept: in the git directory when the board is in a
    ///     repository, else in the cache directory given (none by default).
    /// - Throws: ``KanbanError/Code/boardNotFound`` when there is no `board.md` (saying what is there instead).
    public init(directory: String, clock: @escaping @Sendable () -> Date = { Date() }, lockTimeout: Duration = .seconds(20),
                index: IndexPlacement = .automatic(cacheDirectory: nil)) throws(KanbanError) {
        guard let resolved = FileSystem.realPath(directory) else {
            throw KanbanError(.boardNotFound, "no board at '\(directory)': the directory does not exist")
        }
        guard FileSystem.isDirectory(resolved) else {
            let parent = (directory as NSString).deletingLastPathComponent
            if (resolved as NSString).lastPathComponent == BoardFile.path {
                throw KanbanError(.invalidArgument, "'\(directory)' is the board's board.md file; name the board by its directory instead: '\(parent.isEmpty ? "." : parent)'")
            }
            throw KanbanError(.invalidArgument, "'\(directory)' is a file, not a directory; name the board's directory (the one that holds board.md)")
        }
        try Self.requireBoardFile(in: resolved, named: directory)
        self.directory = resolved
        self.clock = clock
        self.lockTimeout = lockTimeout
        indexFile = index.isEnabled ? CardIndexFile(boardPath: resolved, cacheDirectory: index.cacheDirectory, racyInterval: index.racyInterval) : nil
        writesIndexInBackground = index.writesInBackground
    }

    /// Throws unless `resolved` holds a `board.md` that can be read: a regular file, or a link to one inside the board.
    private static func requireBoardFile(in resolved: String, named directory: String) throws(KanbanError) {
        let root = try BoardRoot(path: resolved)
        switch root.directory.kind(of: BoardFile.path) {
        case .file?:
            return
        case nil:
            throw KanbanError(.boardNotFound, "no board at '\(directory)': it has no board.md")
        case .directory?:
            throw KanbanError(.notRegularFile, "'\(directory)/board.md' is a directory, not a file; board.md must be the board's settings file")
        case .other?:
            throw KanbanError(.notRegularFile, "'\(directory)/board.md' is not a regular file (a FIFO, socket or device); board.md must be the board's settings file")
        case .symbolicLink?:
            let target = (try? root.directory.readLink(BoardFile.path, path: BoardFile.path)) ?? "?"
            let place: BoardRoot.Place?
            do {
                place = try root.place(of: BoardFile.path)
            } catch {
                throw KanbanError(.outsideBoard, "the board's board.md is a link to '\(target)', outside the board directory '\(directory)', which kanban does not follow; put the file itself in the board (replace the link with a copy of what it points to)")
            }
            guard let place, let kind = place.directory.kind(of: place.name) else {
                throw KanbanError(.boardNotFound, "no board at '\(directory)': its board.md is a link to '\(target)', which does not exist")
            }
            guard kind == .file else {
                throw KanbanError(.notRegularFile, "the board's board.md is a link to '\(target)', which is not a regular file; point it at the board's board.md file")
            }
        }
    }

    /// Finds the board the way git finds `.git`: `directory` itself, then each parent in turn, up to the root; in a
    /// linked git worktree, the main worktree's board at the same place (see ``BoardLocation``).
    /// - Throws: ``KanbanError/Code/boardNotFound`` when no directory on the way holds a `board.md`.
    public static func find(from directory: String, clock: @escaping @Sendable () -> Date = { Date() },
                            lockTimeout: Duration = .seconds(20), index: IndexPlacement = .automatic(cacheDirectory: nil)) throws(KanbanError) -> BoardStore {
        let location = try BoardLocation.find(from: directory)
        return try BoardStore(directory: location.directory, clock: clock, lockTimeout: lockTimeout, index: index)
    }

    /// Makes a new board: a directory for each column, `archive/`, and `board.md` last, so that a board whose
    /// making was interrupted is made again by the next try.
    /// - Throws: ``KanbanError/Code/alreadyExists`` when `directory` already holds a `board.md`.
    @discardableResult
    public static func create(at directory: String, board: Board, clock: @escaping @Sendable () -> Date = { Date() }) throws(KanbanError) -> BoardStore {
        guard !board.title.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw KanbanError(.invalidArgument, "a board needs a title")
        }
        guard !board.columns.isEmpty else { throw KanbanError(.invalidArgument, "a board needs at least one column") }
        var seen: [String: String] = [:]
        for column in board.columns {
            if let problem = Column.idProblem(column.id) {
                throw KanbanError(.invalidArgument, problem)
            }
            if let other = seen[column.id.lowercased()] {
                let message = other == column.id ? "column id '\(column.id)' is given twice" : Column.caseCollisionMessage(column.id, other)
                throw KanbanError(.invalidArgument, message)
            }
            seen[column.id.lowercased()] = column.id
        }
        try FileSystem.makeDirectory(directory)
        guard let resolved = FileSystem.realPath(directory) else {
            throw KanbanError(.fileSystem, "cannot create directory '\(directory)'")
        }
        let root = try BoardRoot(path: resolved)
        if root.directory.kind(of: BoardFile.path) != nil {
            throw KanbanError(.alreadyExists, "'\(resolved)/\(BoardFile.path)' already exists")
        }
        for column in board.columns { try root.makeDirectory("cards/" + column.id) }
        try root.makeDirectory("archive")
        try root.create(BoardFile(board: board).bytes(), at: BoardFile.path)
        return try BoardStore(directory: resolved, clock: clock)
    }

    // MARK: Reading

    /// The board's settings from `board.md`.
    /// - Throws: ``KanbanError/Code/invalidBoard`` with `board.md:line:column` when it cannot be parsed.
    public func loadBoard() throws(KanbanError) -> Board {
        try readBoardFile(in: openRoot()).board
    }

    /// Loads the board and its cards, in board order: columns as `board.md` lists them (then undeclared column
    /// directories by name), cards by position then slug, archived cards last by file name.
    ///
    /// Files that cannot be parsed are skipped and reported in the snapshot's ``BoardSnapshot/diagnostics``;
    /// they never stop the load.
    /// - Parameters:
    ///   - scope: Active cards, archived cards, or both.
    ///   - columns: Only these columns' cards (and archived cards from them), or every column when nil.
    ///   - includeBodies: Whether to decode each card's body into ``Card/body``.
    public func load(_ scope: CardScope = .active, columns: Set<String>? = nil, includeBodies: Bool = false) throws(KanbanError) -> BoardSnapshot {
        let root = try openRoot()
        settleIfUnlocked(root)
        let board = try readBoardFile(in: root).board
        var scan = CardScan<Void, Card>(root: root, includeBodies: includeBodies, labels: Set(board.labels.map(\.id)),
                                        archivedColumns: columns, inspect: { _, _, _ in () }, assemble: { card, _ in card })
        if !includeBodies { scan.indexing = indexing { _ in .keep(()) } }
        let (cards, diagnostics, findings, order) = try load(board: board, scope: scope, columns: columns, scan: scan, root: root)
        return BoardSnapshot(board: board, columnIDs: order, cards: cards, diagnostics: diagnostics, findings: findings)
    }

    /// Loads the board's cards with `scan`: its items in board order, the files that did not load (and links
    /// refused), what the checks noticed, and the column ids in display order.
    func load<Extra, Item>(board: Board, scope: CardScope, columns: Set<String>?, scan: CardScan<Extra, Item>,
                           root: BoardRoot) throws(KanbanError) -> (items: [Item], diagnostics: [Diagnostic], findings: [Diagnostic], columnIDs: [String]) {
        let (directories, refusals) = columnDirectories(in: root)
        var linkDiagnostics = refusals
        let order = Self.columnOrder(board, directories: directories)
        var sources: [CardScan<Extra, Item>.Source] = []
        if scope.contains(.active) {
            let present = Set(directories)
            for column in order where present.contains(column) && columns?.contains(column) ?? true {
                sources.append(.init(path: "cards/" + column, column: column))
            }
        }
        if scope.contains(.archived) {
            if let refusal = refusal(of: "archive", in: root) {
                linkDiagnostics.append(refusal)
            } else {
                sources.append(.init(path: "archive", column: nil))
            }
        }
        let outcome = try scan.run(sources)
        if let indexFile, let indexing = scan.indexing, outcome.indexChanged, let contents = outcome.indexContents {
            if writesIndexInBackground {
                Self.indexWrites.enter()
                DispatchQueue.global(qos: .utility).async {
                    indexFile.write(contents.contents(), builtAt: indexing.startedAt)
                    Self.indexWrites.leave()
                }
            } else {
                indexFile.write(contents.contents(), builtAt: indexing.startedAt)
            }
        }
        return (outcome.items, linkDiagnostics + outcome.diagnostics, outcome.findings, order)
    }

    /// The card a person means by `reference`: an exact slug, a unique slug prefix, or a path
    /// (relative to the board directory, or absolute inside it), read with its body.
    /// - Parameter scope: Where to look: active cards by default.
    /// - Throws: ``KanbanError/Code/cardNotFound`` (with close matches as candidates),
    ///   ``KanbanError/Code/ambiguousCard`` (with the matches), ``KanbanError/Code/outsideBoard`` for a path
    ///   outside the board, ``KanbanError/Code/invalidCard`` when the file cannot be parsed,
    ///   ``KanbanError/Code/notRegularFile`` for a FIFO or other special file.
    /// The slugs of the cards in `scope`, from their file names alone: no card is read (an archived card's without the
    /// date its file name starts with). For a question that needs only which cards there are.
    public func slugs(in scope: CardScope = .all) throws(KanbanError) -> [String] {
        let root = try openRoot()
        let board = try readBoardFile(in: root).board
        return try listCardFiles(scope, columns: nil, board: board, in: root).files.map(\.slug)
    }

    public func card(_ reference: String, in scope: CardScope = .active) throws(KanbanError) -> Card {
        let root = try openRoot()
        settleIfUnlocked(root)
        let file = try resolve(reference, in: scope, root: root)
        return try readCard(file, includeBody: true, in: root).card
    }

    /// The path (relative to the board) of the card `reference` names, without reading the file, so that a card
    /// that does not parse can still be shown raw or opened in an editor.
    /// - Throws: The same errors as ``card(_:in:)`` except ``KanbanError/Code/invalidCard``.
    public func path(of reference: String, in scope: CardScope = .active) throws(KanbanError) -> String {
        try resolve(reference, in: scope, root: openRoot()).path
    }

    /// The bytes of the file at `path` (relative to the board), exactly as on disk.
    /// - Throws: ``KanbanError/Code/outsideBoard`` for a path or link leading out of the board,
    ///   ``KanbanError/Code/notRegularFile`` for anything but a regular file.
    public func contents(atPath path: String) throws(KanbanError) -> [UInt8] {
        try openRoot().read(path)
    }

    /// The body of `card`, read from its file when the card was loaded without it.
    public func body(of card: Card) throws(KanbanError) -> String {
        if let body = card.body { return body }
        let file = card.isArchived ? CardFile.archived(name: (card.path as NSString).lastPathComponent)
            : CardFile.active(name: (card.path as NSString).lastPathComponent, column: card.column)
        return try readCard(file, includeBody: true, in: openRoot()).card.body ?? ""
    }

    /// The raw bytes of a card's file, exactly as on disk.
    public func contents(of card: Card) throws(KanbanError) -> [UInt8] {
        try openRoot().read(card.path)
    }

    /// Every problem the board's checks find: files that cannot be parsed, `column:` fields that disagree with the
    /// directory, undeclared column directories and labels, duplicate slugs and positions, conflict markers,
    /// over-long keys, cards without frontmatter or position, links out of the board, special files, and what an
    /// interrupted command left. Sorted by path, then line.
    public func check() throws(KanbanError) -> [Diagnostic] {
        let snapshot = try load(.all)
        let root = try openRoot()
        return BoardChecks.boardFile(try readBoardFile(in: root)) + BoardChecks.run(snapshot)
            + BoardChecks.leftovers(in: root, board: snapshot.board, columnIDs: snapshot.columnIDs)
    }

    // MARK: Exclusive access

    /// Runs `body` holding the board's exclusive lock, so that what it does (a change and its git commit, say)
    /// happens with no other process changing the board in between. Store operations inside `body` do not take the
    /// lock again. A change another process left half done is settled first.
    /// - Throws: ``KanbanError/Code/locked`` when another process holds the lock longer than ``lockTimeout``, or
    ///   what `body` throws.
    public func withExclusiveAccess<T>(_ body: () throws -> T) throws -> T {
        if BoardLock.held.contains(directory) { return try body() }
        let (lock, _) = try lockSettling()
        defer { lock.unlock() }
        return try BoardLock.$held.withValue(BoardLock.held.union([directory])) { try body() }
    }

    /// Settles a change that a killed process left half done, if there is one: finishes it, or undoes it when a
    /// file it concerns was edited since (see ``BoardJournal``). Every change does this first; a caller can do it
    /// up front to tell a person about it.
    /// - Returns: What was settled: the change's summary and whether it was finished or undone; nil when there was
    ///   nothing to settle.
    @discardableResult
    public func recoverInterruptedChange() throws(KanbanError) -> InterruptedChange? {
        guard BoardJournal.isPresent(in: try openRoot()), !BoardLock.held.contains(directory) else { return nil }
        let (lock, recovery) = try lockSettling()
        lock.unlock()
        return recovery.map(InterruptedChange.init)
    }

    /// Takes the board's lock and settles an interrupted change, if there is one.
    private func lockSettling() throws(KanbanError) -> (BoardLock, BoardJournal.Recovery?) {
        let lock = try BoardLock(directory: directory, timeout: lockTimeout)
        do {
            return (lock, try BoardJournal.recover(in: openRoot()))
        } catch {
            lock.unlock()
            throw error
        }
    }

    // MARK: Internals shared by the operations

    /// The board directory, opened for one operation.
    package func openRoot() throws(KanbanError) -> BoardRoot {
        try BoardRoot(path: directory)
    }

    /// Settles an interrupted change before a read, when no other process is in the middle of one (a read never
    /// waits for the lock, and never fails because it could not settle).
    func settleIfUnlocked(_ root: BoardRoot) {
        guard BoardJournal.isPresent(in: root), !BoardLock.held.contains(directory),
              let lock = try? BoardLock(directory: directory, timeout: .zero) else { return }
        defer { lock.unlock() }
        _ = try? BoardJournal.recover(in: root)
    }

    /// Runs `body` holding the board's exclusive lock (once per thread: reentrant), having settled any change a
    /// killed process left half done, with the board directory open.
    func withLock<T>(_ body: () throws(KanbanError) -> T) throws(KanbanError) -> T {
        if BoardLock.held.contains(directory) { return try body() }
        let (lock, _) = try lockSettling()
        defer { lock.unlock() }
        let result: Result<T, KanbanError> = BoardLock.$held.withValue(BoardLock.held.union([directory])) {
            do throws(KanbanError) { return .success(try body()) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// Makes `transaction`'s changes, all or nothing (see ``BoardJournal``).
    func apply(_ transaction: BoardTransaction, in root: BoardRoot) throws(KanbanError) {
        try BoardJournal.apply(transaction, in: root)
    }

    /// Now, as the timestamp the store writes: whole seconds in UTC, SimpleKanban's form.
    func timestamp() -> String {
        ISO8601.string(from: clock().flooredToSeconds)
    }

    struct Listing {
        var files: [CardFile]
        var columnOrder: [String]
        var diagnostics: [Diagnostic]
    }

    /// The card files of the board, from directory listings alone.
    func listCardFiles(_ scope: CardScope, columns: Set<String>?, board: Board, in root: BoardRoot) throws(KanbanError) -> Listing {
        var (directories, diagnostics) = columnDirectories(in: root)
        let order = Self.columnOrder(board, directories: directories)
        var files: [CardFile] = []
        func list(_ path: String, _ make: (String) -> CardFile) throws(KanbanError) {
            guard let opened = try root.openDirectory(path) else { return }
            try opened.forEachEntry { bytes, kind in
                guard CardFile.isCardFileName(bytes) else { return }
                guard let name = String(validating: bytes, as: UTF8.self) else {
                    diagnostics.append(CardFile.invalidName(bytes, in: path))
                    return
                }
                let file = make(name)
                if accept(FileSystem.Entry(name: name, kind: kind), file: file, root: root, diagnostics: &diagnostics) { files.append(file) }
            }
        }
        if scope.contains(.active) {
            for column in directories where columns?.contains(column) ?? true {
                try list("cards/" + column) { CardFile.active(name: $0, column: column) }
            }
        }
        if scope.contains(.archived) {
            if let refusal = refusal(of: "archive", in: root) {
                diagnostics.append(refusal)
            } else {
                try list("archive") { CardFile.archived(name: $0) }
            }
        }
        return Listing(files: files, columnOrder: order, diagnostics: diagnostics)
    }

    /// Every column id in display order: the columns `board.md` declares, then directories it does not, by name.
    static func columnOrder(_ board: Board, directories: [String]) -> [String] {
        let declared = board.columns.map(\.id)
        let known = Set(declared)
        return declared + directories.filter { !known.contains($0) }
    }

    /// The column directories under `cards/` (links only when they stay inside the board), sorted by name, and the
    /// links refused. A `cards` that is itself a link out of the board has no columns, and is reported.
    func columnDirectories(in root: BoardRoot) -> (directories: [String], diagnostics: [Diagnostic]) {
        if let refusal = refusal(of: "cards", in: root) { return ([], [refusal]) }
        var diagnostics: [Diagnostic] = []
        var directories: [String] = []
        let entries: [FileSystem.Entry]
        do {
            entries = try root.entries(of: "cards")
        } catch {
            return ([], [Diagnostic(.error, error.code == .outsideBoard ? .outsideBoard : .invalidFile, at: SourceLocation(path: "cards"), error.message)])
        }
        for entry in entries {
            guard !entry.name.hasPrefix("."), !entry.name.hasPrefix("#") else { continue }
            switch entry.kind {
            case .directory:
                directories.append(entry.name)
            case .symbolicLink:
                if let refusal = refusal(of: "cards/" + entry.name, in: root) {
                    diagnostics.append(refusal)
                } else if (try? root.openDirectory("cards/" + entry.name)) != nil {
                    directories.append(entry.name)
                }
            default:
                continue
            }
        }
        // An empty directory is nothing (git keeps none): a column board.md does not declare counts only once it
        // holds something. (A `column remove` stopped after its change leaves its empty directory.)
        let declared = Set((try? readBoardFile(in: root).board.columns.map(\.id)) ?? [])
        directories.removeAll { !declared.contains($0) && ((try? root.openDirectory("cards/" + $0))??.isEmpty ?? false) }
        directories.sort { $0.utf8Precedes($1) }
        return (directories, diagnostics)
    }

    /// The error diagnostic for a directory of the board (`cards`, `archive`, a column) that is a link leading out
    /// of the board; nil when it is not.
    func refusal(of path: String, in root: BoardRoot) -> Diagnostic? {
        do {
            _ = try root.openDirectory(path)
            return nil
        } catch where error.code == .outsideBoard {
            return Diagnostic(.error, .outsideBoard, at: SourceLocation(path: path), "link points outside the board directory; not followed")
        } catch {
            return nil
        }
    }

    private func accept(_ entry: FileSystem.Entry, file: CardFile, root: BoardRoot, diagnostics: inout [Diagnostic]) -> Bool {
        switch CardAdmission.decide(entry, file: file, root: root) {
        case .read: return true
        case .skip: return false
        case .refuse(let diagnostic):
            diagnostics.append(diagnostic)
            return false
        }
    }

    func readCard(_ file: CardFile, includeBody: Bool, in root: BoardRoot) throws(KanbanError) -> (card: Card, document: FrontmatterDocument, bytes: [UInt8]) {
        let bytes = try root.read(file.path)
        let (card, document) = try CardReader.read(bytes, file: file, includeBody: includeBody)
        return (card, document, bytes)
    }
}

/// Where a board keeps its index: a cache of what its card files say, checked against each file's stat data, so
/// that a command reads only the files that changed since (git's index does the same for `git status`).
public struct IndexPlacement: Sendable, Hashable {
    var isEnabled: Bool
    var cacheDirectory: String?
    /// Whether a load writes the index it gathered on another thread and returns at once (the command line, which
    /// then prints while it is written, and waits for it with ``BoardStore/waitForIndexWrites()`` before it ends).
    package var writesInBackground = false
    /// How long before an index is built a file must have last changed for its entry to be trusted (two seconds;
    /// tests that would otherwise wait out the window shorten it, `KANBAN_TEST_RACY_MILLISECONDS`).
    package var racyInterval = CardIndex.racyInterval

    /// In the git directory when the board is in a repository, else in `cacheDirectory` (no index when it is nil,
    /// or inside the board).
    public static func automatic(cacheDirectory: String?) -> IndexPlacement {
        IndexPlacement(isEnabled: true, cacheDirectory: cacheDirectory)
    }

    /// No index: every command reads the files.
    public static let none = IndexPlacement(isEnabled: false, cacheDirectory: nil)
}

/// A change a killed process left half done, and what settling it did.
public struct InterruptedChange: Sendable, Hashable {
    /// What the change was, in a few words (`move fix-login to done`).
    public var summary: String
    /// Whether it was finished, or undone because a person edited one of its files since.
    public var wasFinished: Bool
    /// Files edited since the interruption, which were left as they are.
    public var editedPaths: [String]

    init(_ recovery: BoardJournal.Recovery) {
        summary = recovery.summary
        wasFinished = recovery.outcome == .finished
        editedPaths = recovery.editedPaths
    }
}

/// Which cards an operation looks at.
public struct CardScope: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    /// Creates a scope from its raw value.
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// Cards in `cards/<column>/`.
    public static let active = CardScope(rawValue: 1)
    /// Cards in `archive/`.
    public static let archived = CardScope(rawValue: 2)
    /// Both.
    public static let all: CardScope = [.active, .archived]
}

/// The board and its cards as loaded at one moment.
public struct BoardSnapshot: Sendable {
    /// The settings from `board.md`.
    public var board: Board
    /// Every column id in display order: declared ones first, then directories `board.md` does not declare.
    public var columnIDs: [String]
    /// The cards in board order.
    public var cards: [Card]
    /// Files that could not be loaded (each was skipped and left untouched).
    public var diagnostics: [Diagnostic]
    /// What the checks noticed about cards that did load (stale column fields, conflict markers, ...).
    package var findings: [Diagnostic]

    /// The active cards of one column, in order.
    public func cards(inColumn id: String) -> [Card] {
        cards.filter { !$0.isArchived && $0.column == id }
    }
}

/// Where to put a card in its column.
public enum Placement: Sendable, Hashable {
    /// First in the column.
    case top
    /// Last among the positioned cards.
    case bottom
    /// Just before another card, named by slug, prefix or path.
    case before(String)
    /// Just after another card.
    case after(String)
}

/// What a change did: the card as it is now, and the files written and removed (paths relative to the board).
public struct BoardChange: Sendable, Hashable {
    /// The card after the change (nil for a deletion or a board-level change).
    public var card: Card?
    /// The card before the change, when there was one.
    public var previous: Card?
    /// Files created or rewritten.
    public var writtenPaths: [String]
    /// Files removed.
    public var removedPaths: [String]
    /// The column the change put over its WIP limit, when it did: a card added or moved into a full column.
    public var overLimit: WIPLimitExcess?

    /// A change made outside the store, such as a card edited by hand, so that it can be described and committed
    /// like the store's own.
    public init(card: Card?, previous: Card?, writtenPaths: [String], removedPaths: [String] = []) {
        self.card = card
        self.previous = previous
        self.writtenPaths = writtenPaths
        self.removedPaths = removedPaths
    }

    /// The change `transaction` made, with the card after and before it.
    init(card: Card?, previous: Card?, transaction: BoardTransaction) {
        self.init(card: card, previous: previous, writtenPaths: transaction.writtenPaths, removedPaths: transaction.removedPaths)
    }

    /// Every path the change touched, written and removed, without duplicates.
    public var paths: [String] {
        var seen: Set<String> = []
        return (writtenPaths + removedPaths).filter { seen.insert($0).inserted }
    }
}
