import Foundation

extension BoardStore {
    /// How a scan uses the board's index (nil when the board has none): the index as it is now, and `decide` for
    /// the cards taken from it.
    func indexing<Extra, Item>(_ decide: @escaping @Sendable (Card) -> CardScan<Extra, Item>.IndexedDecision<Extra>)
        -> CardScan<Extra, Item>.Indexing? {
        guard let indexFile else { return nil }
        let index = indexFile.read()
        // Asked before any file is looked at, so that every change made after the answer is in the next one.
        let monitor = indexFile.monitorSocketPath.flatMap { IndexMonitorClient.ask($0, since: index?.monitorToken) }
        let startedAt = FileStamp.now()
        return CardScan<Extra, Item>.Indexing(index: index, startedAt: startedAt, racyInterval: indexFile.racyInterval, decide: decide,
                                              monitor: monitor)
    }
}

/// What checking a board's index against its files found.
public struct IndexCheck: Sendable, Hashable {
    /// Where the index is kept; nil when the board has none (it is in no git repository and no cache directory
    /// was given).
    public var path: String?
    /// Whether a whole index of this board is there (a missing or damaged one is rebuilt by the next command).
    public var isPresent: Bool
    /// How many cards the index holds.
    public var entryCount: Int
    /// Entries whose file has changed or gone since: the next command reads those files again, which is no problem.
    public var staleCount: Int
    /// Paths whose entry matches the file's stat data but not what the file says, and directories whose listing
    /// matches the directory's stat data but not the names in it: the index would give a wrong answer for them
    /// until it is rebuilt.
    public var disagreeingPaths: [String]
}

extension BoardStore {
    /// Checks the board's index against the files: every entry whose stat data matches its file is compared with
    /// what the file says (the card and a digest of its body).
    public func checkIndex() throws(KanbanError) -> IndexCheck {
        guard let indexFile else { return IndexCheck(path: nil, isPresent: false, entryCount: 0, staleCount: 0, disagreeingPaths: []) }
        guard let index = indexFile.read() else {
            return IndexCheck(path: indexFile.path, isPresent: false, entryCount: 0, staleCount: 0, disagreeingPaths: [])
        }
        let root = try openRoot()
        var check = IndexCheck(path: indexFile.path, isPresent: true, entryCount: index.count, staleCount: 0, disagreeingPaths: [])
        let scratch = FileSystem.ReadBuffer()
        for (directory, section) in index.sections {
            let opened = try? root.openDirectory(directory)
            for start in section.starts {
                guard let name = section.name(at: start), let opened,
                      let file = directory == "archive" ? CardFile.archived(name: name)
                        : directory.hasPrefix("cards/") ? CardFile.active(name: name, column: String(directory.dropFirst(6))) : nil,
                      let stamp = name.withCString({ FileStamp(name: $0, in: opened.descriptor) }), stamp == section.stamp(at: start),
                      let bytes = try? opened.readFile(name, nameOffset: 0, fullPath: file.path, scratch: scratch),
                      FileStamp(name: name, in: opened) == stamp
                else {
                    check.staleCount += 1
                    continue
                }
                let loaded = CardLoader.loadOne(file, bytes: bytes, includeBodies: false, labels: nil)
                let digest = bytes.withUnsafeBytes { raw in
                    CardIndex.checksum(UnsafeRawBufferPointer(rebasing: raw[min(loaded.bodyOffset, raw.count)...]))
                }
                if loaded.card == nil || loaded.card != section.card(at: start, file: file) || digest != section.bodyDigest(at: start) {
                    check.disagreeingPaths.append(file.path)
                }
            }
        }
        // A directory listing the index would use must name the card files the directory holds.
        for (directory, listing) in index.listings {
            guard let opened = try? root.openDirectory(directory), index.listing(of: directory, descriptor: opened.descriptor) != nil
            else { continue }
            let column = directory.hasPrefix("cards/") ? String(directory.dropFirst("cards/".count)) : nil
            var keys: [UInt64] = []
            try? opened.forEachEntry { name, kind in
                guard CardFile.isCardFileName(name), UTF8Validation.firstInvalidOffset(in: name) == nil else { return }
                let text = String(decoding: name, as: UTF8.self)
                let file = column.map { CardFile.active(name: text, column: $0) } ?? CardFile.archived(name: text)
                switch kind == .file ? .read(nil) : CardAdmission.decide(FileSystem.Entry(name: text, kind: kind), file: file, root: root) {
                case .read, .skip: keys.append(CardIndex.nameKey(ofSlug: file.slug))
                case .refuse: break
                }
            }
            if keys.sorted() != listing.nameKeys { check.disagreeingPaths.append(directory) }
        }
        check.disagreeingPaths.sort { $0.utf8Precedes($1) }
        return check
    }

    /// Builds the board's index again from the files, whatever the old one says.
    /// - Returns: How many cards the new index holds; nil when the board has no place for an index.
    @discardableResult
    public func rebuildIndex() throws(KanbanError) -> Int? {
        guard let indexFile else { return nil }
        indexFile.remove()
        _ = try load(.all)
        return indexFile.read()?.count ?? 0
    }
}

extension FileStamp {
    /// The stamp of `name` in `directory`.
    init?(name: String, in directory: FileSystem.OpenDirectory) {
        guard let stamp = name.withCString({ FileStamp(name: $0, in: directory.descriptor) }) else { return nil }
        self = stamp
    }
}

/// A card file as the board's index holds it, for a reader that keeps its own picture of the board (the watcher):
/// the file's stat data, the card without its body, and ``BoardStore/bodyDigest(of:)`` of the body's bytes.
package struct IndexedCardFile: Sendable {
    package var size: Int64
    /// Modification and status change times, nanoseconds since 1970.
    package var modified: Int64
    package var changed: Int64
    package var inode: UInt64
    package var device: UInt64
    package var card: Card
    package var bodyDigest: UInt64
}

extension BoardStore {
    /// The entries of the board's index that it trusts (their files had stopped changing before it was built),
    /// by path, and when the index was built (nanoseconds since 1970); nothing when there is no index. An entry
    /// stands for its file only while the file's stat data are the entry's: the caller compares them.
    package func trustedIndexEntries() -> (entries: [String: IndexedCardFile], builtAt: Int64) {
        guard let index = indexFile?.read() else { return ([:], 0) }
        var entries: [String: IndexedCardFile] = [:]
        entries.reserveCapacity(index.count)
        for (directory, section) in index.sections {
            let column = directory.hasPrefix("cards/") ? String(directory.dropFirst("cards/".count)) : nil
            guard column != nil || directory == "archive" else { continue }
            for start in section.starts {
                guard let name = section.name(at: start), let stamp = section.stamp(at: start), index.trusts(stamp),
                      let digest = section.bodyDigest(at: start) else { continue }
                let file = column.map { CardFile.active(name: name, column: $0) } ?? CardFile.archived(name: name)
                guard let card = section.card(at: start, file: file) else { continue }
                entries[file.path] = IndexedCardFile(size: stamp.size, modified: stamp.modified, changed: stamp.changed, inode: stamp.inode,
                                                     device: stamp.device, card: card, bodyDigest: digest)
            }
        }
        return (entries, index.builtAt)
    }

    /// The digest the board's index keeps of a card's body: of the file's bytes from where the body starts.
    package static func bodyDigest(of body: UnsafeRawBufferPointer) -> UInt64 {
        CardIndex.checksum(body)
    }
}

extension BoardStore {
    /// Where a monitor of this board answers what changed (see ``IndexMonitorAnswer``): its socket, and the
    /// directory for the files it waits for the events of; nil when the board has no index or the socket's path is
    /// too long.
    package var indexMonitorPlace: (socket: String, cookies: String)? {
        guard let indexFile, let socket = indexFile.monitorSocketPath else { return nil }
        return (socket, indexFile.monitorCookieDirectory)
    }
}
