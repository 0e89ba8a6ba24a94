import Foundation

/// What the report has read of a board's history, kept between runs: the commits up to a tip (``HistoryLog``), and
/// the git objects it read (the versions of `board.md`, each card's last version), so that the next run asks git
/// only for the commits since and the objects it has not seen.
///
/// It is keyed by the board's path, the tip commit and the repository's shallow boundary: a history read under
/// another shallow state is read again. The file carries a version and a checksum of everything in it; one that is
/// missing, truncated, corrupt or of another version or board is not trusted, and the history is read again in full.
package struct HistoryCache: Sendable, Equatable {
    /// The board directory, absolute.
    package var boardPath: String
    /// What the repository's `shallow` file said when the history was read (empty when it is complete).
    package var shallowKey: String
    /// The commit the log was read up to (HEAD then).
    package var tip: String
    /// The commits, oldest first, as `git log` listed them.
    package var log: HistoryLog
    /// Git objects read, by id.
    package var objects: [String: [UInt8]]

    package init(boardPath: String, shallowKey: String, tip: String, log: HistoryLog, objects: [String: [UInt8]]) {
        self.boardPath = boardPath
        self.shallowKey = shallowKey
        self.tip = tip
        self.log = log
        self.objects = objects
    }

    /// The first bytes of a cache file, then its format's version.
    static let magic = Array("kanban-history\n".utf8)
    static let version: UInt32 = 1

    // MARK: Encoding

    /// The file's bytes: the magic, the version, the length and checksum of the rest, then the rest.
    package func encoded() -> [UInt8] {
        var body = Writer()
        body.string(boardPath)
        body.string(shallowKey)
        body.string(tip)
        body.integer(UInt32(log.commits.count))
        for commit in log.commits {
            body.string(commit.hash)
            body.integer(UInt64(bitPattern: commit.time))
            body.integer(UInt32(commit.parentCount))
            body.string(commit.author.name)
            body.string(commit.author.email)
            body.optional(commit.author.agent)
            body.integer(UInt32(commit.changes.count))
            for change in commit.changes {
                body.string(change.path)
                body.integer(UInt32(change.before.count))
                for object in change.before { body.optional(object) }
                body.optional(change.after)
            }
        }
        body.integer(UInt32(objects.count))
        for (id, bytes) in objects.sorted(by: { $0.key < $1.key }) {
            body.string(id)
            body.integer(UInt32(bytes.count))
            body.bytes += bytes
        }
        var file = Writer()
        file.bytes = Self.magic
        file.integer(Self.version)
        file.integer(UInt64(body.bytes.count))
        file.integer(body.bytes.withUnsafeBytes(CardIndex.checksum))
        file.bytes += body.bytes
        return file.bytes
    }

    /// Reads a cache file's bytes; nil for anything but a whole, unchanged file of this version.
    package init?(decoding bytes: [UInt8]) {
        let headerLength = Self.magic.count + 4 + 8 + 8
        guard bytes.count >= headerLength, bytes.starts(with: Self.magic) else { return nil }
        var header = Reader(bytes, from: Self.magic.count)
        guard header.integer(UInt32.self) == Self.version, let length = header.integer(UInt64.self), let checksum = header.integer(UInt64.self),
              UInt64(bytes.count - headerLength) == length,
              bytes.withUnsafeBytes({ CardIndex.checksum(UnsafeRawBufferPointer(rebasing: $0[headerLength...])) }) == checksum else { return nil }
        var reader = Reader(bytes, from: headerLength)
        guard let boardPath = reader.string(), let shallowKey = reader.string(), let tip = reader.string(),
              let commitCount = reader.count() else { return nil }
        var commits: [HistoryLog.Commit] = []
        commits.reserveCapacity(commitCount)
        for _ in 0..<commitCount {
            guard let hash = reader.string(), let time = reader.integer(UInt64.self), let parents = reader.count(),
                  let name = reader.string(), let email = reader.string(), let agent = reader.optional(),
                  let changeCount = reader.count() else { return nil }
            var changes: [HistoryLog.FileChange] = []
            changes.reserveCapacity(changeCount)
            for _ in 0..<changeCount {
                guard let path = reader.string(), let beforeCount = reader.count() else { return nil }
                var before: [String?] = []
                for _ in 0..<beforeCount {
                    guard let object = reader.optional() else { return nil }
                    before.append(object)
                }
                guard let after = reader.optional() else { return nil }
                changes.append(HistoryLog.FileChange(path: path, before: before, after: after))
            }
            commits.append(HistoryLog.Commit(hash: hash, time: Int64(bitPattern: time), parentCount: parents, changes: changes,
                                             author: CommitAuthor(name: name, email: email, agent: agent)))
        }
        guard let objectCount = reader.count() else { return nil }
        var objects: [String: [UInt8]] = [:]
        objects.reserveCapacity(objectCount)
        for _ in 0..<objectCount {
            guard let id = reader.string(), let content = reader.data() else { return nil }
            objects[id] = content
        }
        guard reader.isAtEnd else { return nil }
        self.init(boardPath: boardPath, shallowKey: shallowKey, tip: tip, log: HistoryLog(commits: commits), objects: objects)
    }

    // MARK: The file

    /// Where the cache of the board at `boardPath` (absolute, links resolved) lives: beside the board index, in the
    /// git directory of the repository the board is in; nil when it is in none.
    package static func path(forBoard boardPath: String) -> String? {
        guard let gitDirectory = CardIndexFile.gitDirectory(enclosing: boardPath) else { return nil }
        return gitDirectory + "/kanban-index/history-" + String(CardIndex.hash(boardPath.utf8), radix: 16)
    }

    /// The cache at `path`, if it is whole and is the board's.
    package static func read(from path: String, boardPath: String) -> HistoryCache? {
        guard let bytes = try? FileSystem.readFile(path), let cache = HistoryCache(decoding: bytes), cache.boardPath == boardPath else { return nil }
        return cache
    }

    /// Writes the cache to `path` atomically (a temporary file renamed over it, so a reader sees a whole cache or the
    /// one before); a cache that cannot be written is no error: the next run reads the history again.
    package func write(to path: String) {
        try? FileSystem.makeDirectory((path as NSString).deletingLastPathComponent)
        try? FileSystem.writeAtomically(encoded(), to: path)
    }

    // MARK: Bytes

    private struct Writer {
        var bytes: [UInt8] = []

        mutating func integer<T: FixedWidthInteger>(_ value: T) {
            withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
        }

        mutating func string(_ text: String) {
            integer(UInt32(text.utf8.count))
            bytes += text.utf8
        }

        /// A string, or nil, written as a length of 0xFFFF_FFFF.
        mutating func optional(_ text: String?) {
            guard let text else { return integer(UInt32.max) }
            string(text)
        }
    }

    private struct Reader {
        let bytes: [UInt8]
        var offset: Int

        init(_ bytes: [UInt8], from offset: Int) {
            self.bytes = bytes
            self.offset = offset
        }

        var isAtEnd: Bool { offset == bytes.count }

        mutating func integer<T: FixedWidthInteger>(_: T.Type) -> T? {
            let size = MemoryLayout<T>.size
            guard bytes.count - offset >= size else { return nil }
            var value: T = 0
            for index in 0..<size { value |= T(bytes[offset + index]) << (8 * index) }
            offset += size
            return value
        }

        /// A count, which cannot be more than the bytes left (each item takes at least one byte).
        mutating func count() -> Int? {
            guard let value = integer(UInt32.self), Int(value) <= bytes.count - offset else { return nil }
            return Int(value)
        }

        mutating func data() -> [UInt8]? {
            guard let length = count() else { return nil }
            defer { offset += length }
            return Array(bytes[offset..<(offset + length)])
        }

        mutating func string() -> String? {
            guard let length = count() else { return nil }
            defer { offset += length }
            return String(decoding: bytes[offset..<(offset + length)], as: UTF8.self)
        }

        /// A string or nil (see ``Writer/optional(_:)``); `.some(nil)` for nil, nil when the bytes run out.
        mutating func optional() -> String?? {
            guard let length = integer(UInt32.self) else { return nil }
            if length == UInt32.max { return .some(nil) }
            guard Int(length) <= bytes.count - offset else { return nil }
            defer { offset += Int(length) }
            return .some(String(decoding: bytes[offset..<(offset + Int(length))], as: UTF8.self))
        }
    }
}
