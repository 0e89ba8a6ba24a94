import KanbanCore

/// What a card file said when the watcher last read it: the card without its body, and a hash of the body.
struct CardSnapshot: Sendable, Hashable {
    var card: Card
    var bodyHash: Int

    /// Which parts differ between two readings of a card (its place, path and slug aside).
    func changes(to new: CardSnapshot) -> WatchEvent.Changes {
        var changes: WatchEvent.Changes = []
        let old = card, next = new.card
        if old.title != next.title { changes.insert(.title) }
        if old.labels != next.labels { changes.insert(.labels) }
        if old.position != next.position { changes.insert(.position) }
        if bodyHash != new.bodyHash { changes.insert(.body) }
        if old.fields != next.fields { changes.insert(.fields) }
        if old.columnField != next.columnField { changes.insert(.columnField) }
        if old.created != next.created || old.modified != next.modified { changes.insert(.timestamps) }
        if old.hasFrontmatter != next.hasFrontmatter { changes.insert(.formatting) }
        return changes
    }
}

/// What the watcher knows about one card file.
struct IndexedFile: Sendable {
    /// Where the file is, from its path alone.
    var file: CardFile
    var stamp: FileStamp
    /// A hash of the whole file: equal hashes mean nothing changed, whatever the stamp says. Nil for a file taken
    /// from the board's index at start, which was not read.
    var contentHash: Int?
    /// Real-time nanoseconds when the file was read, to tell racily clean entries.
    var readAt: Int64
    var content: Content

    /// What the file held.
    enum Content: Sendable {
        /// A card.
        case card(CardSnapshot)
        /// A file that cannot be parsed, with the error, and the card it was before it broke, if it was one.
        case invalid(KanbanError, lastGood: CardSnapshot?)
    }

    var path: String { file.path }

    /// The card as last read, or as it was before the file broke.
    var lastCard: CardSnapshot? {
        switch content {
        case .card(let snapshot): return snapshot
        case .invalid(_, let lastGood): return lastGood
        }
    }
}

/// The part of an index entry a polling pass compares: plain values, cheap to look up by the hundred thousand.
struct StampRecord: Sendable, Hashable {
    var stamp: FileStamp
    var readAt: Int64
}

/// What the watcher knows about `board.md`.
struct IndexedBoardFile: Sendable {
    var stamp: FileStamp?
    var contentHash: Int
    var readAt: Int64
    /// The board, or why it cannot be read; `lastGood` is the board before that.
    var board: Board?
    var error: KanbanError?
    var lastGood: Board?

    static let missing = IndexedBoardFile(stamp: nil, contentHash: 0, readAt: 0, board: nil, error: nil, lastGood: nil)
}

/// The watcher's picture of the board, against which every change is compared: card files by directory
/// (`cards/<column>` or `archive`) and name, the column directories, and `board.md`.
struct BoardIndex: Sendable {
    /// Card files by directory, then by file name.
    private(set) var directories: [String: [String: IndexedFile]] = [:]
    /// The same files' stamps alone, for polling passes.
    private(set) var stamps: [String: [String: StampRecord]] = [:]
    /// The paths of each slug (more than one when the board has duplicates).
    private(set) var pathsBySlug: [String: Set<String>] = [:]
    /// Column directory names under `cards/`.
    var columns: Set<String> = []
    /// Symbolic links under `cards/`, which are not followed (and reported once).
    var columnLinks: Set<String> = []
    var boardFile = IndexedBoardFile.missing
    private(set) var count = 0

    static let archiveDirectory = "archive"

    /// `cards/todo/x.md` → (`cards/todo`, `x.md`).
    static func split(_ path: String) -> (directory: String, name: String) {
        // By bytes: a `/` is one byte and always a character of its own, and a board's paths are split by the
        // hundred thousand.
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return ("", path) }
        return (String(path[..<slash]), String(path[path.utf8.index(after: slash)...]))
    }

    /// The card file a path names, if it is one: `cards/<column>/<name>.md` or `archive/<name>.md`.
    static func cardFile(at path: String) -> CardFile? {
        let (directory, name) = split(path)
        guard CardFile.isCardFileName(name) else { return nil }
        if directory == archiveDirectory { return CardFile.archived(name: name) }
        guard directory.hasPrefix("cards/") else { return nil }
        let column = String(directory.dropFirst(6))
        guard !column.isEmpty, !column.contains("/") else { return nil }
        return CardFile.active(name: name, column: column)
    }

    func entry(at path: String) -> IndexedFile? {
        let (directory, name) = Self.split(path)
        return directories[directory]?[name]
    }

    /// Every indexed path in `directory`.
    func paths(in directory: String) -> [String] {
        guard let entries = directories[directory] else { return [] }
        return entries.keys.map { directory + "/" + $0 }
    }

    var allPaths: [String] {
        directories.flatMap { directory, entries in entries.keys.map { directory + "/" + $0 } }
    }

    var allEntries: [IndexedFile] {
        directories.values.flatMap { $0.values }
    }

    mutating func insert(_ entry: IndexedFile) {
        let (directory, name) = Self.split(entry.path)
        if let old = directories[directory]?[name] {
            removeSlug(old)
        } else {
            count += 1
        }
        directories[directory, default: [:]][name] = entry
        stamps[directory, default: [:]][name] = StampRecord(stamp: entry.stamp, readAt: entry.readAt)
        pathsBySlug[entry.file.slug, default: []].insert(entry.path)
    }

    @discardableResult
    mutating func remove(_ path: String) -> IndexedFile? {
        let (directory, name) = Self.split(path)
        guard let old = directories[directory]?.removeValue(forKey: name) else { return nil }
        if directories[directory]?.isEmpty == true { directories[directory] = nil }
        stamps[directory]?[name] = nil
        if stamps[directory]?.isEmpty == true { stamps[directory] = nil }
        removeSlug(old)
        count -= 1
        return old
    }

    private mutating func removeSlug(_ entry: IndexedFile) {
        pathsBySlug[entry.file.slug]?.remove(entry.path)
        if pathsBySlug[entry.file.slug]?.isEmpty == true { pathsBySlug[entry.file.slug] = nil }
    }
}
