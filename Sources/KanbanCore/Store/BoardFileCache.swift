import Synchronization

/// `board.md` as read during one change, so that a change reads it once however many steps ask for the board
/// (the commit decision, the card operation, the commit message).
///
/// A cached copy is used only while the file's stamp (device, inode, size, modification and change times, taken by
/// `fstatat` before the read) is what it was: an editor's save or another process's rename in between is read
/// again. Outside a ``BoardStore/withBoardFileCached(_:)`` scope nothing is kept, so a long-running surface (the
/// watcher, the servers) always sees the board as it is.
final class BoardFileCache: Sendable {
    /// The caches of the changes the current thread or task is making, by board directory.
    @TaskLocal static var current: [String: BoardFileCache] = [:]

    private struct Entry {
        var stamp: FileStamp
        var file: BoardFile
    }

    private let entry = Mutex<Entry?>(nil)

    /// The board file of `root`, from the cache when its stamp is unchanged.
    func boardFile(in root: BoardRoot, reading read: () throws(KanbanError) -> BoardFile) throws(KanbanError) -> BoardFile {
        // Only a plain board.md is kept: a link is read through each time (its target's stamp is another file's).
        guard let stamp = BoardFile.path.withCString({ FileStamp(name: $0, in: root.directory.descriptor) }) else {
            return try read()
        }
        if let cached = entry.withLock({ $0 }), cached.stamp == stamp { return cached.file }
        // Stamped before the read: a file replaced meanwhile has another stamp next time, so it is read again.
        let file = try read()
        entry.withLock { $0 = Entry(stamp: stamp, file: file) }
        return file
    }
}

extension BoardStore {
    /// Runs `body` with `board.md` read at most once for as long as it is unchanged: what a change does from its
    /// commit decision to its commit message. Nested scopes share the outer one.
    public func withBoardFileCached<T>(_ body: () throws -> T) rethrows -> T {
        if BoardFileCache.current[directory] != nil { return try body() }
        var caches = BoardFileCache.current
        caches[directory] = BoardFileCache()
        return try BoardFileCache.$current.withValue(caches) { try body() }
    }

    func readBoardFile(in root: BoardRoot) throws(KanbanError) -> BoardFile {
        let read = { () throws(KanbanError) -> BoardFile in try BoardFile(bytes: root.read(BoardFile.path)) }
        guard let cache = BoardFileCache.current[directory] else { return try read() }
        return try cache.boardFile(in: root, reading: read)
    }
}
