import Foundation

/// A board on disk and every operation on it.
///
/// Reads never lock. Each change takes an exclusive `flock` on the board directory, re-reads what it changes,
/// writes each file atomically (a temporary file renamed over the old one) and returns the paths it wrote and
/// removed, so that git sync can commit exactly those. A move writes the new file before removing the old one:
/// an interruption leaves at worst a duplicate that ``check()`` reports, never a lost card.
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

    /// Opens the board in `directory`, which must hold a `board.md`.
    /// - Parameters:
    ///   - directory: The board directory, absolute or relative to the current directory.
    ///   - clock: Where `created`, `modified` and archive dates come from (tests pass a fixed clock).
    /// - Throws: ``KanbanError/Code/boardNotFound`` when there is no `board.md`.
    public init(directory: String, clock: @escaping @Sendable () -> Date = { Date() }) throws(KanbanError) {
        guard let resolved = FileSystem.realPath(directory), FileSystem.isDirectory(resolved) else {
            throw KanbanError(.boardNotFound, "no board at '\(directory)': the directory does not exist")
        }
        guard FileSystem.kind(of: resolved + "/" + BoardFile.path) == .file else {
            throw KanbanError(.boardNotFound, "no board at '\(directory)': it has no board.md")
        }
        self.directory = resolved
        self.clock = clock
    }

    /// Finds the board the way git finds `.git`: `directory` itself, then each parent in turn, up to the root.
    /// - Throws: ``KanbanError/Code/boardNotFound`` when no directory on the way holds a `board.md`.
    public static func find(from directory: String, clock: @escaping @Sendable () -> Date = { Date() }) throws(KanbanError) -> BoardStore {
        guard var current = FileSystem.realPath(directory) else {
            throw KanbanError(.boardNotFound, "no board found: '\(directory)' does not exist")
        }
        while true {
            if FileSystem.kind(of: current + "/" + BoardFile.path) == .file {
                return try BoardStore(directory: current, clock: clock)
            }
            let parent = (current as NSString).deletingLastPathComponent
            if parent == current || parent.isEmpty { break }
            current = parent
        }
        throw KanbanError(.boardNotFound, "no board.md in '\(directory)' or any parent directory")
    }

    /// Makes a new board: `board.md`, a directory for each column and `archive/`.
    /// - Throws: ``KanbanError/Code/alreadyExists`` when `directory` already holds a `board.md`.
    @discardableResult
    public static func create(at directory: String, board: Board, clock: @escaping @Sendable () -> Date = { Date() }) throws(KanbanError) -> BoardStore {
        guard !board.title.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw KanbanError(.invalidArgument, "a board needs a title")
        }
        guard !board.columns.isEmpty else { throw KanbanError(.invalidArgument, "a board needs at least one column") }
        var seen: Set<String> = []
        for column in board.columns {
            guard Column.isValidID(column.id) else {
                throw KanbanError(.invalidArgument, "'\(column.id)' cannot be a column id: use letters, digits, '-', '_' or '.'")
            }
            guard seen.insert(column.id).inserted else { throw KanbanError(.invalidArgument, "column id '\(column.id)' is given twice") }
        }
        try FileSystem.makeDirectory(directory)
        guard let root = FileSystem.realPath(directory) else {
            throw KanbanError(.fileSystem, "cannot create directory '\(directory)'")
        }
        try FileSystem.createAtomically(BoardFile(board: board).bytes(), at: root + "/" + BoardFile.path)
        try FileSystem.makeDirectory(root + "/cards")
        for column in board.columns { try FileSystem.makeDirectory(root + "/cards/" + column.id) }
        try FileSystem.makeDirectory(root + "/archive")
        return try BoardStore(directory: root, clock: clock)
    }

    // MARK: Reading

    /// The board's settings from `board.md`.
    /// - Throws: ``KanbanError/Code/invalidBoard`` with `board.md:line:column` when it cannot be parsed.
    public func loadBoard() throws(KanbanError) -> Board {
        try readBoardFile().board
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
        let board = try loadBoard()
        let scan = CardScan<Void, Card>(root: directory, includeBodies: includeBodies, labels: Set(board.labels.map(\.id)),
                                        archivedColumns: columns, admit: { [self] entry, file in admission(of: entry, file: file) },
                                        inspect: { _, _, _ in () }, assemble: { card, _ in card })
        let (cards, diagnostics, findings, order) = try load(board: board, scope: scope, columns: columns, scan: scan)
        return BoardSnapshot(board: board, columnIDs: order, cards: cards, diagnostics: diagnostics, findings: findings)
    }

    /// Loads the board's cards with `scan`: its items in board order, the files that did not load (and links
    /// refused), what the checks noticed, and the column ids in display order.
    func load<Extra, Item>(board: Board, scope: CardScope, columns: Set<String>?, scan: CardScan<Extra, Item>) throws(KanbanError)
        -> (items: [Item], diagnostics: [Diagnostic], findings: [Diagnostic], columnIDs: [String]) {
        let (directories, linkDiagnostics) = try columnDirectories()
        let order = Self.columnOrder(board, directories: directories)
        var sources: [CardScan<Extra, Item>.Source] = []
        if scope.contains(.active) {
            let present = Set(directories)
            for column in order where present.contains(column) && columns?.contains(column) ?? true {
                sources.append(.init(path: "cards/" + column, column: column))
            }
        }
        if scope.contains(.archived) { sources.append(.init(path: "archive", column: nil)) }
        let outcome = try scan.run(sources)
        return (outcome.items, linkDiagnostics + outcome.diagnostics, outcome.findings, order)
    }

    /// The card a person means by `reference`: an exact slug, a unique slug prefix, or a path
    /// (relative to the board directory, or absolute inside it), read with its body.
    /// - Parameter scope: Where to look: active cards by default.
    /// - Throws: ``KanbanError/Code/cardNotFound`` (with close matches as candidates),
    ///   ``KanbanError/Code/ambiguousCard`` (with the matches), ``KanbanError/Code/outsideBoard`` for a path
    ///   outside the board, ``KanbanError/Code/invalidCard`` when the file cannot be parsed.
    public func card(_ reference: String, in scope: CardScope = .active) throws(KanbanError) -> Card {
        let file = try resolve(reference, in: scope)
        return try readCard(file, includeBody: true).card
    }

    /// The path (relative to the board) of the card `reference` names, without reading the file, so that a card
    /// that does not parse can still be shown raw or opened in an editor.
    /// - Throws: The same errors as ``card(_:in:)`` except ``KanbanError/Code/invalidCard``.
    public func path(of reference: String, in scope: CardScope = .active) throws(KanbanError) -> String {
        try resolve(reference, in: scope).path
    }

    /// The bytes of the file at `path` (relative to the board), exactly as on disk.
    public func contents(atPath path: String) throws(KanbanError) -> [UInt8] {
        let full = directory + "/" + path
        guard isInsideBoard(full) else { throw KanbanError(.outsideBoard, "'\(path)' is outside the board directory") }
        return try FileSystem.readFile(full)
    }

    /// The body of `card`, read from its file when the card was loaded without it.
    public func body(of card: Card) throws(KanbanError) -> String {
        if let body = card.body { return body }
        let file = card.isArchived ? CardFile.archived(name: (card.path as NSString).lastPathComponent)
            : CardFile.active(name: (card.path as NSString).lastPathComponent, column: card.column)
        return try readCard(file, includeBody: true).card.body ?? ""
    }

    /// The raw bytes of a card's file, exactly as on disk.
    public func contents(of card: Card) throws(KanbanError) -> [UInt8] {
        try FileSystem.readFile(directory + "/" + card.path)
    }

    /// Every problem the board's checks find: files that cannot be parsed, `column:` fields that disagree with the
    /// directory, undeclared column directories and labels, duplicate slugs and positions, conflict markers,
    /// over-long keys, cards without frontmatter or position. Sorted by path, then line.
    public func check() throws(KanbanError) -> [Diagnostic] {
        let snapshot = try load(.all)
        return BoardChecks.run(snapshot)
    }

    // MARK: Internals shared by the operations

    /// Now, as the timestamp the store writes: whole seconds in UTC, SimpleKanban's form.
    func timestamp() -> String {
        ISO8601.string(from: Date(timeIntervalSince1970: clock().timeIntervalSince1970.rounded(.down)))
    }

    struct Listing {
        var files: [CardFile]
        var columnOrder: [String]
        var diagnostics: [Diagnostic]
    }

    func readBoardFile() throws(KanbanError) -> BoardFile {
        try BoardFile(bytes: FileSystem.readFile(directory + "/" + BoardFile.path))
    }

    /// The card files of the board, from directory listings alone.
    func listCardFiles(_ scope: CardScope, columns: Set<String>?, board: Board) throws(KanbanError) -> Listing {
        var (directories, diagnostics) = try columnDirectories()
        let order = Self.columnOrder(board, directories: directories)
        var files: [CardFile] = []
        if scope.contains(.active) {
            for column in directories where columns?.contains(column) ?? true {
                for entry in try FileSystem.entries(of: directory + "/cards/" + column) where CardFile.isCardFileName(entry.name) {
                    let file = CardFile.active(name: entry.name, column: column)
                    if accept(entry, file: file, diagnostics: &diagnostics) { files.append(file) }
                }
            }
        }
        if scope.contains(.archived) {
            for entry in try FileSystem.entries(of: directory + "/archive") where CardFile.isCardFileName(entry.name) {
                let file = CardFile.archived(name: entry.name)
                if accept(entry, file: file, diagnostics: &diagnostics) { files.append(file) }
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

    /// The column directories under `cards/` (links only when they stay inside the board), sorted by name.
    func columnDirectories() throws(KanbanError) -> (directories: [String], diagnostics: [Diagnostic]) {
        var diagnostics: [Diagnostic] = []
        var directories: [String] = []
        for entry in try FileSystem.entries(of: directory + "/cards") {
            guard !entry.name.hasPrefix("."), !entry.name.hasPrefix("#") else { continue }
            switch entry.kind {
            case .directory:
                directories.append(entry.name)
            case .symbolicLink:
                if isInsideBoard(directory + "/cards/" + entry.name), FileSystem.isDirectory(directory + "/cards/" + entry.name) {
                    directories.append(entry.name)
                } else if !isInsideBoard(directory + "/cards/" + entry.name) {
                    diagnostics.append(Diagnostic(.error, .outsideBoard, at: SourceLocation(path: "cards/\(entry.name)"),
                                                  "link points outside the board directory; not followed"))
                }
            default:
                continue
            }
        }
        directories.sort { $0.utf8Precedes($1) }
        return (directories, diagnostics)
    }

    private func accept(_ entry: FileSystem.Entry, file: CardFile, diagnostics: inout [Diagnostic]) -> Bool {
        switch entry.kind == .file ? .read : admission(of: entry, file: file) {
        case .read: return true
        case .skip: return false
        case .refuse(let diagnostic):
            diagnostics.append(diagnostic)
            return false
        }
    }

    /// Whether a card file that is not a plain file is read: a link is, when it resolves inside the board.
    func admission(of entry: FileSystem.Entry, file: CardFile) -> CardAdmission {
        guard entry.kind == .symbolicLink else { return entry.kind == .file ? .read : .skip }
        let full = directory + "/" + file.path
        guard FileSystem.realPath(full) != nil else { return .skip }  // dangling: editor lock or litter
        if isInsideBoard(full) { return .read }
        return .refuse(Diagnostic(.error, .outsideBoard, at: SourceLocation(path: file.path),
                                  "link points outside the board directory; not followed"))
    }

    /// Whether `path` (after resolving links) is the board directory or inside it.
    func isInsideBoard(_ path: String) -> Bool {
        guard let resolved = FileSystem.realPath(path) else { return false }
        return resolved == directory || resolved.hasPrefix(directory + "/")
    }

    func readCard(_ file: CardFile, includeBody: Bool) throws(KanbanError) -> (card: Card, document: FrontmatterDocument) {
        let full = directory + "/" + file.path
        if FileSystem.kind(of: full) == .symbolicLink && !isInsideBoard(full) {
            throw KanbanError(.outsideBoard, "link points outside the board directory", at: SourceLocation(path: file.path))
        }
        let bytes = try FileSystem.readFile(full)
        return try CardReader.read(bytes, file: file, includeBody: includeBody)
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
    var findings: [Diagnostic]

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
public struct BoardChange: Sendable {
    /// The card after the change (nil for a deletion or a board-level change).
    public var card: Card?
    /// The card before the change, when there was one.
    public var previous: Card?
    /// Files created or rewritten.
    public var writtenPaths: [String]
    /// Files removed.
    public var removedPaths: [String]

    /// A change made outside the store, such as a card edited by hand, so that it can be described and committed
    /// like the store's own.
    public init(card: Card?, previous: Card?, writtenPaths: [String], removedPaths: [String] = []) {
        self.card = card
        self.previous = previous
        self.writtenPaths = writtenPaths
        self.removedPaths = removedPaths
    }

    /// Every path the change touched, written and removed, without duplicates.
    public var paths: [String] {
        var seen: Set<String> = []
        return (writtenPaths + removedPaths).filter { seen.insert($0).inserted }
    }
}
