import Foundation

/// What the report has read of a board's history, kept so that the next report reads only the commits made since:
/// the ``HistoryLog`` up to a commit, and what ``BoardHistory`` needs of the objects it read (the columns of
/// `board.md`'s versions, the title, labels and `column:` of card versions).
///
/// It is valid for one board (its path), one tip (the commit HEAD was at) and one shallow state (the commits
/// `.git/shallow` lists, which a `git fetch --unshallow` or `--deepen` changes): KanbanGit reads only the commits
/// after the tip when the tip is still HEAD's ancestor, and everything again otherwise (a rebase, a reset, a
/// force-push).
package struct HistoryCache: Sendable, Equatable {
    /// What the cache is valid for.
    package struct Key: Sendable, Hashable {
        /// The board directory, absolute.
        package var boardPath: String
        /// The commit the log was read up to (HEAD then).
        package var tip: String
        /// A digest of the repository's shallow commits (`.git/shallow`); empty when it is not shallow.
        package var shallow: String

        package init(boardPath: String, tip: String, shallow: String) {
            self.boardPath = boardPath
            self.tip = tip
            self.shallow = shallow
        }
    }

    package var key: Key
    /// The commits, oldest first, as `git log` gave them (without their parents' hashes).
    package var log: HistoryLog
    /// The columns of each version of `board.md` read so far (only ids and names are kept).
    package var boardColumns: [String: [Column]]
    /// Card versions read so far; nil for one that is no card.
    package var cardVersions: [String: CardVersionSummary?]

    package init(key: Key, log: HistoryLog, boardColumns: [String: [Column]] = [:], cardVersions: [String: CardVersionSummary?] = [:]) {
        self.key = key
        self.log = log
        self.boardColumns = boardColumns
        self.cardVersions = cardVersions
    }

    static let magic = Array("KANBANHC".utf8)
    static let version: UInt32 = 1

    /// The name of the cache file of the board at `boardPath` in its git directory's `kanban-index/` (beside the
    /// board index, ``CardIndexFile``).
    package static func fileName(boardPath: String) -> String {
        "history-" + String(CardIndex.hash(boardPath.utf8), radix: 16)
    }

    /// A digest of `bytes` (the shallow commits' list) for ``Key/shallow``.
    package static func digest(_ bytes: [UInt8]) -> String {
        String(bytes.withUnsafeBytes(CardIndex.checksum), radix: 16) + "-" + String(bytes.count)
    }

    // MARK: Bytes

    /// The file's bytes: the magic and version, then strings, authors, commits, board versions and card versions by
    /// number into the string table, then a checksum of all before it.
    package func encoded() -> [UInt8] {
        var writer = EntryWriter()
        var strings: [String: UInt32] = [:]
        var table = EntryWriter()
        func intern(_ string: String) -> UInt32 {
            if let number = strings[string] { return number }
            let number = UInt32(strings.count)
            strings[string] = number
            table.string(string)
            return number
        }
        func optional(_ string: String?) -> UInt32 { string.map(intern) ?? UInt32.max }
        var body = EntryWriter()
        body.integer(UInt32(log.commits.count))
        for commit in log.commits {
            body.integer(intern(commit.hash))
            body.integer(commit.time)
            body.integer(UInt32(commit.parentCount))
            body.integer(intern(commit.author.name))
            body.integer(intern(commit.author.email))
            body.integer(optional(commit.author.agent))
            body.integer(UInt32(commit.changes.count))
            for change in commit.changes {
                body.integer(intern(change.path))
                body.integer(UInt32(change.before.count))
                for object in change.before { body.integer(optional(object)) }
                body.integer(optional(change.after))
            }
        }
        let boards = boardColumns.sorted { $0.key < $1.key }
        body.integer(UInt32(boards.count))
        for (object, columns) in boards {
            body.integer(intern(object))
            body.integer(UInt32(columns.count))
            for column in columns {
                body.integer(intern(column.id))
                body.integer(intern(column.name))
            }
        }
        let cards = cardVersions.sorted { $0.key < $1.key }
        body.integer(UInt32(cards.count))
        for (object, summary) in cards {
            body.integer(intern(object))
            guard let summary else {
                body.bytes.append(0)
                continue
            }
            body.bytes.append(1)
            body.integer(optional(summary.title))
            body.integer(optional(summary.column))
            body.integer(UInt32(summary.labels.count))
            for label in summary.labels { body.integer(intern(label)) }
        }
        writer.bytes = Self.magic
        writer.integer(Self.version)
        writer.string(key.boardPath)
        writer.string(key.tip)
        writer.string(key.shallow)
        writer.integer(UInt32(strings.count))
        writer.bytes += table.bytes
        writer.bytes += body.bytes
        writer.integer(writer.bytes.withUnsafeBytes(CardIndex.checksum))
        return writer.bytes
    }

    /// The cache in `bytes`; nil unless they are whole (the checksum holds), of this version, and every number in
    /// them points where it should.
    package init?(decoding bytes: [UInt8]) {
        guard let decoded = bytes.withUnsafeBytes({ raw in Self.decode(raw) }) else { return nil }
        self = decoded
    }

    private static func decode(_ raw: UnsafeRawBufferPointer) -> HistoryCache? {
        guard raw.count >= magic.count + 4 + 8, raw.prefix(magic.count).elementsEqual(magic) else { return nil }
        let checked = UnsafeRawBufferPointer(rebasing: raw[0..<(raw.count - 8)])
        guard CardIndex.checksum(checked) == UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: raw.count - 8, as: UInt64.self))
        else { return nil }
        var reader = Reader(raw: checked, offset: magic.count)
        guard reader.integer(UInt32.self) == version, let boardPath = reader.string(), let tip = reader.string(),
              let shallow = reader.string(), let stringCount = reader.count(minimumSize: 4) else { return nil }
        var strings: [String] = []
        strings.reserveCapacity(stringCount)
        for _ in 0..<stringCount {
            guard let string = reader.string() else { return nil }
            strings.append(string)
        }
        func string() -> String? {
            guard let number = reader.integer(UInt32.self), Int(number) < strings.count else { return nil }
            return strings[Int(number)]
        }
        /// A string, or nil for none: `.some(nil)`; nil when the number points nowhere.
        func optional() -> String?? {
            guard let number = reader.integer(UInt32.self) else { return nil }
            if number == UInt32.max { return .some(nil) }
            guard Int(number) < strings.count else { return nil }
            return strings[Int(number)]
        }
        guard let commitCount = reader.count(minimumSize: 32) else { return nil }
        var commits: [HistoryLog.Commit] = []
        commits.reserveCapacity(commitCount)
        for _ in 0..<commitCount {
            guard let hash = string(), let time = reader.integer(Int64.self), let parentCount = reader.integer(UInt32.self),
                  let name = string(), let email = string(), let agent = optional(),
                  let changeCount = reader.count(minimumSize: 12) else { return nil }
            var changes: [HistoryLog.FileChange] = []
            changes.reserveCapacity(changeCount)
            for _ in 0..<changeCount {
                guard let path = string(), let beforeCount = reader.count(minimumSize: 4) else { return nil }
                var before: [String?] = []
                before.reserveCapacity(beforeCount)
                for _ in 0..<beforeCount {
                    guard let object = optional() else { return nil }
                    before.append(object)
                }
                guard let after = optional() else { return nil }
                changes.append(HistoryLog.FileChange(path: path, before: before, after: after))
            }
            commits.append(HistoryLog.Commit(hash: hash, time: time, parentCount: Int(parentCount),
                                             author: CommitAuthor(name: name, email: email, agent: agent), changes: changes))
        }
        guard let boardCount = reader.count(minimumSize: 8) else { return nil }
        var boardColumns: [String: [Column]] = [:]
        for _ in 0..<boardCount {
            guard let object = string(), let columnCount = reader.count(minimumSize: 8) else { return nil }
            var columns: [Column] = []
            for _ in 0..<columnCount {
                guard let id = string(), let name = string() else { return nil }
                columns.append(Column(id: id, name: name))
            }
            boardColumns[object] = columns
        }
        guard let cardCount = reader.count(minimumSize: 5) else { return nil }
        var cardVersions: [String: CardVersionSummary?] = [:]
        cardVersions.reserveCapacity(cardCount)
        for _ in 0..<cardCount {
            guard let object = string(), let isCard = reader.integer(UInt8.self) else { return nil }
            guard isCard != 0 else {
                cardVersions[object] = .some(nil)
                continue
            }
            guard let title = optional(), let column = optional(), let labelCount = reader.count(minimumSize: 4) else { return nil }
            var labels: [String] = []
            for _ in 0..<labelCount {
                guard let label = string() else { return nil }
                labels.append(label)
            }
            cardVersions[object] = CardVersionSummary(title: title, labels: labels, column: column)
        }
        guard reader.offset == checked.count else { return nil }
        return HistoryCache(key: Key(boardPath: boardPath, tip: tip, shallow: shallow), log: HistoryLog(commits: commits),
                            boardColumns: boardColumns, cardVersions: cardVersions)
    }

    private struct Reader {
        let raw: UnsafeRawBufferPointer
        var offset: Int

        mutating func integer<T: FixedWidthInteger>(_ type: T.Type) -> T? {
            let size = MemoryLayout<T>.size
            guard offset + size <= raw.count else { return nil }
            defer { offset += size }
            return T(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: T.self))
        }

        /// A count of things each at least `minimumSize` bytes long; nil when the bytes left cannot hold them.
        mutating func count(minimumSize: Int) -> Int? {
            guard let count = integer(UInt32.self).map(Int.init), count * minimumSize <= raw.count - offset else { return nil }
            return count
        }

        mutating func string() -> String? {
            guard let length = integer(UInt32.self).map(Int.init), length <= raw.count - offset else { return nil }
            defer { offset += length }
            return String(decoding: UnsafeRawBufferPointer(rebasing: raw[offset..<(offset + length)]), as: UTF8.self)
        }
    }

    // MARK: The file

    /// The cache in the file at `path`; nil when there is none, or it is not whole, of this version and of `boardPath`.
    package static func read(from path: String, boardPath: String) -> HistoryCache? {
        guard let bytes = try? FileSystem.readFile(path), let cache = HistoryCache(decoding: bytes), cache.key.boardPath == boardPath
        else { return nil }
        return cache
    }

    /// Writes the cache to `path` atomically (a temporary file of a name no other writer uses, renamed over the old
    /// one), making its directory if needed; a cache that cannot be written is no error (the next report reads the
    /// whole history again). It is not synced to disk: one torn by a power cut fails its checksum.
    package func write(to path: String) {
        CardIndexFile.replace(path, with: [encoded()[...]])
    }
}
