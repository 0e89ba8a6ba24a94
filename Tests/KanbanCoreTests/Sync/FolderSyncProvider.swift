import Foundation
@testable import KanbanCore

/// A second sync provider, with no git: a board kept in two folders, as a shared-folder service (a synced folder on
/// each of two machines) keeps it, reconciled by the same rules git's provider uses (``BoardMerge``, ``CardMerge``,
/// ``LineMerge``).
///
/// The pair shares a state folder holding the base (the board as both folders last agreed on it) and, for each
/// folder, a journal of when it deleted which card: what git's provider reads from its history, this one records when
/// a change is committed. ``pull()`` merges the peer's folder into this one against the base; ``push()`` pulls, then
/// makes the peer's folder the merged board and the merge the new base.
struct FolderSyncProvider: SyncProvider {
    /// The board folder this provider syncs.
    let directory: String
    /// The other copy of the board.
    let peer: String
    /// The pair's state folder (the base, the journals).
    let stateDirectory: String
    /// When a commit happens: the time a delete is journaled with.
    let clock: @Sendable () -> Date

    init(directory: String, peer: String, stateDirectory: String, clock: @escaping @Sendable () -> Date = { Date() }) throws {
        self.directory = directory
        self.peer = peer
        self.stateDirectory = stateDirectory
        self.clock = clock
        if !FileManager.default.fileExists(atPath: stateDirectory + "/base") {
            try FileManager.default.createDirectory(atPath: stateDirectory + "/base", withIntermediateDirectories: true)
            // The folders start as copies of one board: that board is the base.
            try Self.write(Self.files(in: directory), to: stateDirectory + "/base", replacing: [:])
        }
    }

    // MARK: SyncProvider

    func state() throws(SyncError) -> SyncState {
        let (base, local, other) = try sides()
        let outgoing = Set(base.keys).union(local.keys).filter { base[$0] != local[$0] }
        let incoming = Set(base.keys).union(other.keys).filter { base[$0] != other[$0] }
        return SyncState(boardFileChanged: outgoing.contains(BoardFile.path), outgoing: outgoing.count, incoming: incoming.count)
    }

    func commit(paths: [String], message: CommitMessage) throws(SyncError) -> CommitResult? {
        let (base, local, _) = try sides()
        let changed = paths.filter { base[$0] != local[$0] }
        guard !changed.isEmpty else { return nil }
        // A card gone from the folder (no file left with its slug) is journaled as deleted now.
        let slugs = Set(local.keys.compactMap { BoardPath($0)?.card?.slug })
        let deleted = changed.compactMap { BoardPath($0)?.card?.slug }.filter { !slugs.contains($0) }
        if !deleted.isEmpty {
            let seconds = Int(clock().timeIntervalSince1970)
            let lines = deleted.map { "\($0)\t\(seconds)\n" }.joined()
            do {
                let journal = journalPath(of: directory)
                let old = (try? String(contentsOfFile: journal, encoding: .utf8)) ?? ""
                try Data((old + lines).utf8).write(to: URL(fileURLWithPath: journal))
            } catch {
                throw SyncError(.remoteFailed, "cannot journal deletes: \(error)")
            }
        }
        return CommitResult(commit: UUID().uuidString, message: message, paths: changed)
    }

    func commitPendingChanges(message: CommitMessage?) throws(SyncError) -> CommitResult? {
        let (base, local, _) = try sides()
        let paths = Set(base.keys).union(local.keys).filter { base[$0] != local[$0] }.sorted()
        return try commit(paths: paths, message: message ?? CommitMessage(subject: "Update the board"))
    }

    func pull() throws(SyncError) -> PullResult {
        let (base, local, other) = try sides()
        if other == local || other == base { return PullResult(kind: .upToDate) }
        if local == base {
            try write(other, into: directory, replacing: local)
            return PullResult(kind: .fastForward, incoming: 1)
        }
        let merge = BoardMerge { [self] side, slug in
            deletionTime(of: slug, in: side == .ours ? directory : peer)
        }
        let result = merge.merge(base: base, ours: local, theirs: other)
        try write(result.files, into: directory, replacing: local)
        return PullResult(kind: .merged, incoming: 1, replayed: 1, resolutions: result.resolutions)
    }

    @discardableResult
    func push() throws(SyncError) -> PushResult {
        let pulled = try pull()
        let (base, local, other) = try sides()
        if local != other { try write(local, into: peer, replacing: other) }
        if local != base { try write(local, into: stateDirectory + "/base", replacing: base) }
        return PushResult(pushed: local == other ? 0 : 1, upstream: peer, pulls: pulled.kind == .upToDate ? [] : [pulled])
    }

    // MARK: Folders

    /// The base, this folder's board and the peer's.
    private func sides() throws(SyncError) -> (BoardMerge.Files, BoardMerge.Files, BoardMerge.Files) {
        do {
            return (try Self.files(in: stateDirectory + "/base"), try Self.files(in: directory), try Self.files(in: peer))
        } catch {
            throw SyncError(.remoteFailed, "cannot read the folders: \(error)")
        }
    }

    private func write(_ files: BoardMerge.Files, into folder: String, replacing old: BoardMerge.Files) throws(SyncError) {
        do {
            try Self.write(files, to: folder, replacing: old)
        } catch {
            throw SyncError(.remoteFailed, "cannot write '\(folder)': \(error)")
        }
    }

    private func journalPath(of folder: String) -> String {
        stateDirectory + "/deleted-" + String(folder.split(separator: "/").last ?? "")
    }

    /// When the folder's side deleted a card, from its journal (the last delete).
    private func deletionTime(of slug: String, in folder: String) -> Date? {
        guard let text = try? String(contentsOfFile: journalPath(of: folder), encoding: .utf8) else { return nil }
        let seconds = text.split(separator: "\n").compactMap { line -> Int? in
            let fields = line.split(separator: "\t")
            return fields.count == 2 && fields[0] == slug ? Int(fields[1]) : nil
        }.last
        return seconds.map { Date(timeIntervalSince1970: TimeInterval($0)) }
    }

    /// The board's own files in `folder` (`board.md`, cards, archived cards), relative to it.
    static func files(in folder: String) throws -> BoardMerge.Files {
        var files: BoardMerge.Files = [:]
        guard let paths = FileManager.default.enumerator(atPath: folder) else { return files }
        for case let path as String in paths where BoardPath(path) != nil {
            files[path] = Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/" + path)))
        }
        return files
    }

    /// Makes `folder`'s board files `files`: writes those that differ from `old`, removes those `files` lacks.
    static func write(_ files: BoardMerge.Files, to folder: String, replacing old: BoardMerge.Files) throws {
        for (path, bytes) in files where old[path] != bytes {
            let url = URL(fileURLWithPath: folder + "/" + path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: url, options: .atomic)
        }
        for path in old.keys where files[path] == nil {
            try FileManager.default.removeItem(atPath: folder + "/" + path)
        }
    }
}
