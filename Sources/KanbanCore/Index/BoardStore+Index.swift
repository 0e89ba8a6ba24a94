import Foundation

extension BoardStore {
    /// How a scan uses the board's index (nil when the board has none): the index as it is now, and `decide` for
    /// the cards taken from it.
    func indexing<Extra, Item>(_ decide: @escaping @Sendable (Card) -> CardScan<Extra, Item>.IndexedDecision<Extra>)
        -> CardScan<Extra, Item>.Indexing? {
        guard let indexFile else { return nil }
        let startedAt = FileStamp.now()
        return CardScan<Extra, Item>.Indexing(index: indexFile.read(), startedAt: startedAt, racyInterval: indexFile.racyInterval, decide: decide)
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
    /// Paths whose entry matches the file's stat data but not what the file says: the index would give a wrong
    /// answer for them until it is rebuilt.
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
