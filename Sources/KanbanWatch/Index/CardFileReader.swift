import KanbanCore

/// What looking at one card path found, compared with the index.
enum FileObservation: Sendable {
    /// No card file there (nothing, a directory, a dangling link, a link out of the board).
    case absent
    /// The same stamp as indexed, and not racily clean: not read.
    case unchanged
    /// A new stamp but the same bytes (a `touch`, a `chmod`, a rewrite with the same content), or the same card
    /// as one taken from the board's index, whose bytes are now known by their hash.
    case touched(FileStamp, readAt: Int64, contentHash: Int? = nil)
    /// New content, or a path the index does not have.
    case present(IndexedFile)
    /// Not settled: being written, changed while read, or freshly empty. Look again shortly.
    case deferred
}

/// Reads card files and turns them into index entries. Pure apart from the file system, so that many
/// files can be read at once on every core.
struct CardFileReader: Sendable {
    /// The board directory, absolute, links resolved.
    var root: String
    /// How long (in nanoseconds since its mtime) a file that is empty or does not parse is taken to be still
    /// being written; zero when reading the board at start.
    var suspectFileHold: Int64
    /// Whether a file that changes while it is read is read again at once (when indexing the board at start,
    /// where there is no later round to leave it to) rather than left for later.
    var rereadsChangingFiles = false
    /// What the board's index says of each card file (when indexing the board at start): a file whose stat data
    /// are its entry's is taken from it and not read.
    var seed: IndexSeed?

    /// The board's index, as the watcher starts from it.
    struct IndexSeed: Sendable {
        var entries: [String: IndexedCardFile]
        /// When the index was built, nanoseconds since 1970: its entries count as read then.
        var builtAt: Int64
    }

    /// One path to look at, with what the index holds for it.
    struct Request: Sendable {
        var file: CardFile
        var old: IndexedFile?
    }

    /// What was found, and anything a person should be told.
    struct Result: Sendable {
        var observation: FileObservation
        var notice: WatchNotice?
    }

    func observe(_ request: Request) -> Result {
        let file = request.file
        let full = root + "/" + file.path
        guard let link = SystemCalls.linkStamp(full) else { return Result(observation: .absent) }
        var followingLink = false
        var stamp = link
        switch link.kind {
        case .file:
            break
        case .symbolicLink:
            guard let resolved = SystemCalls.realPath(full) else { return Result(observation: .absent) }  // dangling
            guard resolved.hasPrefix(root + "/") else {
                return Result(observation: .absent,
                              notice: WatchNotice(.linkNotFollowed, "link points outside the board directory; not followed", path: file.path))
            }
            guard let target = SystemCalls.targetStamp(full), target.kind == .file else { return Result(observation: .absent) }
            followingLink = true
            stamp = target
        case .directory, .other:
            return Result(observation: .absent)
        }
        if let old = request.old, old.stamp == stamp, !stamp.isRacy(readAt: old.readAt) {
            return Result(observation: .unchanged)
        }
        if request.old == nil, !followingLink, let seed, let entry = seed.entries[file.path], entry.size == stamp.size,
           entry.modified == stamp.modified, entry.changed == stamp.changed, entry.inode == stamp.inode, entry.device == stamp.device {
            let snapshot = CardSnapshot(card: entry.card, bodyHash: Int(truncatingIfNeeded: entry.bodyDigest))
            return Result(observation: .present(IndexedFile(file: file, stamp: stamp, contentHash: nil, readAt: seed.builtAt,
                                                            content: .card(snapshot))))
        }
        var contents = SystemCalls.readFile(full, followingLink: followingLink)
        var attempts = 0
        while case .changing = contents, rereadsChangingFiles, attempts < 20 {
            attempts += 1
            contents = SystemCalls.readFile(full, followingLink: followingLink)
        }
        switch contents {
        case .missing:
            return Result(observation: .absent)
        case .changing:
            return Result(observation: .deferred)
        case .failed(let error):
            let readAt = SystemCalls.realtimeNanoseconds()
            let problem = KanbanError(.fileSystem, "cannot read the card: \(error)", at: SourceLocation(path: file.path))
            return Result(observation: .present(IndexedFile(file: file, stamp: stamp, contentHash: 0, readAt: readAt,
                                                            content: .invalid(problem, lastGood: request.old?.lastCard))))
        case .read(let bytes, let readStamp):
            let readAt = SystemCalls.realtimeNanoseconds()
            let hash = Self.hash(bytes)
            if let old = request.old, old.contentHash == hash, !isInvalidRead(old) {
                return Result(observation: .touched(readStamp, readAt: readAt))
            }
            let age = readAt - readStamp.modified
            let isFresh = suspectFileHold > 0 && age < suspectFileHold && age > -suspectFileHold
            if bytes.isEmpty, isFresh, (request.old?.stamp.size ?? 1) > 0 {
                return Result(observation: .deferred)
            }
            let entry = parse(bytes, file: file, stamp: readStamp, hash: hash, readAt: readAt, old: request.old)
            // A file taken from the board's index was not read, so its hash is not known: the same card and body
            // is a touch.
            if let old = request.old, old.contentHash == nil, case .card(let before) = old.content, case .card(let after) = entry.content,
               before == after {
                return Result(observation: .touched(readStamp, readAt: readAt, contentHash: hash))
            }
            if case .invalid = entry.content, isFresh {
                // Most likely half-written by a writer that pauses: give it time to finish before saying so.
                return Result(observation: .deferred)
            }
            return Result(observation: .present(entry))
        }
    }

    /// Whether the entry records a file that could not be read at all (its hash means nothing).
    private func isInvalidRead(_ entry: IndexedFile) -> Bool {
        if case .invalid(let error, _) = entry.content, error.code == .fileSystem { return true }
        return false
    }

    func parse(_ bytes: [UInt8], file: CardFile, stamp: FileStamp, hash: Int, readAt: Int64, old: IndexedFile?) -> IndexedFile {
        do {
            var (card, document) = try CardReader.read(bytes, file: file, includeBody: false)
            // The digest the board's index keeps, so that a card taken from it compares with one read.
            let bodyHash = bytes.withUnsafeBytes { raw in
                Int(truncatingIfNeeded: BoardStore.bodyDigest(of: UnsafeRawBufferPointer(rebasing: raw[min(document.bodyOffset, raw.count)...])))
            }
            card.body = nil
            return IndexedFile(file: file, stamp: stamp, contentHash: hash, readAt: readAt,
                               content: .card(CardSnapshot(card: card, bodyHash: bodyHash)))
        } catch {
            return IndexedFile(file: file, stamp: stamp, contentHash: hash, readAt: readAt,
                               content: .invalid(error, lastGood: old?.lastCard))
        }
    }

    /// A hash of `bytes`, seeded per process (the index never leaves the process).
    static func hash(_ bytes: [UInt8]) -> Int {
        var hasher = Hasher()
        hasher.combine(bytes.count)
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
        return hasher.finalize()
    }
}
