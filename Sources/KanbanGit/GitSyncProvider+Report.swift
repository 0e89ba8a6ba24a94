import Foundation
import KanbanCore
import KanbanSubprocess

extension GitSyncProvider {
    /// Every card's history, read from the commits reachable from HEAD: one `git log` over the board's files and two
    /// `git cat-file --batch` reads (the versions of `board.md`, each card's last version). See ``BoardHistory``.
    ///
    /// What it reads is kept in the history cache beside the board index (`.git/kanban-index/history-…`, see
    /// ``HistoryCache``) unless ``GitConfiguration/usesHistoryCache`` is false: the next call reads only the commits
    /// made since, and none when HEAD has not moved. A history rewritten since (a rebase, a reset, a force-push), or a
    /// shallow history deepened, is read again whole. The histories are the same either way.
    /// - Returns: The cards in the order their histories began; none when the branch has no commit yet.
    /// - Throws: ``SyncError/Code/notARepository`` and the like, or ``SyncError/Code/gitFailed``.
    public func cardHistories() throws(SyncError) -> [CardHistory] {
        let repository = try requireRepository(allowingDetached: true)
        let resolved = try git.run(["rev-parse", "--verify", "--quiet", "HEAD^{commit}"], readOnly: true)
        guard resolved.succeeded else { return [] }
        let head = resolved.text.trimmingCharacters(in: .whitespacesAndNewlines)
        // Paths make git work out which commits touch them, which doubles its work: a board at the top of its
        // repository takes every change and leaves out what is not the board's itself.
        let paths = repository.prefix.isEmpty ? [] : ["--"] + HistoryLog.pathspecs
        guard configuration.usesHistoryCache else {
            let log = HistoryLog(parsing: try git.check(HistoryLog.arguments + [head] + paths, readOnly: true).output)
            return try histories(log) { objects throws(SyncError) in try blobs(objects) }
        }
        let key = HistoryCache.Key(boardPath: store.directory, tip: head, shallow: shallowDigest(gitDirectory: repository.gitDirectory))
        let path = repository.gitDirectory + "/kanban-index/" + HistoryCache.fileName(boardPath: store.directory)
        var cache: HistoryCache
        var isChanged = true
        // What this run read from git beyond the cache: a few commits and versions are read again next time rather
        // than the whole cache rewritten for them (the rewrite costs more than reading them).
        var isBehind = true
        var readSince = 0
        if let cached = HistoryCache.read(from: path, boardPath: key.boardPath), cached.key.shallow == key.shallow {
            cache = cached
            if cached.key.tip == head {
                isChanged = false
            } else if let log = try log(continuing: cached.log, from: cached.key.tip, to: head, paths: paths) {
                readSince = log.commits.count - cached.log.commits.count
                isBehind = readSince > Self.historyCacheLag
                cache.log = log
            } else {
                cache = HistoryCache(key: key, log: HistoryLog(parsing: try git.check(HistoryLog.arguments + [head] + paths, readOnly: true).output),
                                     boardColumns: cached.boardColumns, cardVersions: cached.cardVersions)
            }
            cache.key = key
        } else {
            cache = HistoryCache(key: key, log: HistoryLog(parsing: try git.check(HistoryLog.arguments + [head] + paths, readOnly: true).output))
        }
        let result = try histories(cache.log) { objects throws(SyncError) in
            let missing = objects.filter { cache.boardColumns[$0] == nil }
            for (object, bytes) in try blobs(missing) {
                // Only ids and names count for renames.
                guard let columns = BoardHistory.columns(boardFile: bytes) else { continue }
                cache.boardColumns[object] = columns.map { Column(id: $0.id, name: $0.name) }
                isChanged = true
            }
            return cache.boardColumns.filter { objects.contains($0.key) }
        } cardVersions: { objects throws(SyncError) in
            var versions: [String: CardVersionSummary?] = [:]
            versions.reserveCapacity(objects.count)
            var missing: Set<String> = []
            for object in objects {
                if let known = cache.cardVersions[object] { versions[object] = known } else { missing.insert(object) }
            }
            for (object, bytes) in try blobs(missing) { versions[object] = CardVersionSummary(bytes: bytes) }
            readSince += missing.count
            if readSince > Self.historyCacheLag { isBehind = true }
            // Only the cards' last versions are kept: an older one is not asked for again.
            if !missing.isEmpty || versions.count != cache.cardVersions.count {
                cache.cardVersions = versions
                isChanged = true
            }
            return versions.compactMapValues { $0 }
        }
        if isChanged && isBehind { cache.write(to: path) }
        return result
    }

    /// How many commits and card versions a run may read beyond the history cache and leave it as it was.
    static let historyCacheLag = 64

    /// ``BoardHistory``'s cards, with git's errors passed on as they are.
    private func histories(_ log: HistoryLog, read: (Set<String>) throws(SyncError) -> [String: [UInt8]]) throws(SyncError) -> [CardHistory] {
        try histories(log) { objects throws(SyncError) in try read(objects).compactMapValues(BoardHistory.columns(boardFile:)) }
            cardVersions: { objects throws(SyncError) in try read(objects).compactMapValues(CardVersionSummary.init(bytes:)) }
    }

    private func histories(_ log: HistoryLog, boardColumns: (Set<String>) throws(SyncError) -> [String: [Column]],
                           cardVersions: (Set<String>) throws(SyncError) -> [String: CardVersionSummary]) throws(SyncError) -> [CardHistory] {
        do {
            return try BoardHistory(log, boardColumns: boardColumns, cardVersions: cardVersions).cards
        } catch let error as SyncError {
            throw error
        } catch {
            throw SyncError(.gitFailed, "cannot read the board's history: \(error)")
        }
    }

    /// `log` (read up to `tip`) followed by the commits after it up to `head`, in the order `git log` gives the whole
    /// history; nil when `tip` is no longer an ancestor of `head` (a rebase, a reset, a force-push) or is gone.
    private func log(continuing log: HistoryLog, from tip: String, to head: String, paths: [String]) throws(SyncError) -> HistoryLog? {
        let output = try git.run(HistoryLog.arguments + [tip + ".." + head] + paths, readOnly: true)
        guard output.succeeded else { return nil }
        let newer = HistoryLog(parsing: output.output).commits
        // Commits one after another on top of the tip come after it in the whole history's order too. (Such a chain
        // proves the tip an ancestor of HEAD, which then needs no asking; an empty one proves nothing: HEAD may have
        // been reset back behind the tip.)
        var previous = tip
        var isChain = !newer.isEmpty
        for commit in newer {
            guard commit.parents == [previous] else {
                isChain = false
                break
            }
            previous = commit.hash
        }
        if isChain { return HistoryLog(commits: log.commits + newer) }
        guard try git.run(["merge-base", "--is-ancestor", tip, head], readOnly: true).succeeded else { return nil }
        // Else (a merge, commits beside the tip) the whole history's order places them: `git rev-list` walks the same
        // graph in the same order without diffing a tree (a board below the top leaves out commits that do not
        // touch it, and keeps the others' order).
        let order = try git.check(["rev-list", "--reverse", "--topo-order", "--full-history", head], readOnly: true).output
        var position: [Substring: Int] = [:]
        position.reserveCapacity(log.commits.count + newer.count)
        for (number, line) in String(decoding: order, as: UTF8.self).split(separator: "\n").enumerated() { position[line] = number }
        var placed: [(Int, HistoryLog.Commit)] = []
        placed.reserveCapacity(log.commits.count + newer.count)
        for commit in log.commits + newer {
            guard let number = position[Substring(commit.hash)] else { return nil }
            placed.append((number, commit))
        }
        placed.sort { $0.0 < $1.0 }
        return HistoryLog(commits: placed.map(\.1))
    }

    /// A digest of the commits the repository's history is cut at (`shallow` in its common git directory); empty
    /// when it is not shallow.
    private func shallowDigest(gitDirectory: String) -> String {
        var common = gitDirectory
        if let bytes = try? FileSystem.readFile(gitDirectory + "/commondir") {
            let named = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            if !named.isEmpty { common = named.hasPrefix("/") ? named : gitDirectory + "/" + named }
        }
        guard let bytes = try? FileSystem.readFile(common + "/shallow"), !bytes.isEmpty else { return "" }
        return HistoryCache.digest(bytes)
    }

    /// Whether the repository's history is shallow (a `git clone --depth` or CI's default checkout): its first commit
    /// is a cut, not the board's beginning, so every card there seems created at the cut.
    /// - Throws: ``SyncError/Code/notARepository`` and the like, or ``SyncError/Code/gitFailed``.
    public func isHistoryShallow() throws(SyncError) -> Bool {
        // What `git rev-parse --is-shallow-repository` looks at, without a process: the repository's `shallow` file.
        !shallowDigest(gitDirectory: try requireRepository(allowingDetached: true).gitDirectory).isEmpty
    }
}
