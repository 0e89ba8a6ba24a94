import Foundation
import KanbanCore
import KanbanSubprocess

extension GitSyncProvider {
    /// Every card's history, read from the commits reachable from HEAD: one `git log` over the board's files and two
    /// `git cat-file --batch` reads (the versions of `board.md`, each card's last version). See ``BoardHistory``.
    ///
    /// What was read is kept in a cache beside the board index (``HistoryCache``), keyed by the commit it was read up
    /// to: the next call reads only the commits since (`git log <tip>..HEAD`) and the objects it has not seen, or
    /// nothing from git but HEAD's name when HEAD has not moved. A history rewritten since (a rebase, a reset, a
    /// force-push fetched: the cached tip is no ancestor of HEAD), read under another shallow boundary, or grown by a
    /// merge (whose other line a whole read may list among the cached commits) is read again in full.
    /// - Parameter usingCache: Whether to read and write the cache; `KANBAN_HISTORY_CACHE=off` in git's environment
    ///   turns it off too.
    /// - Returns: The cards in the order their histories began; none when the branch has no commit yet.
    /// - Throws: ``SyncError/Code/notARepository`` and the like, or ``SyncError/Code/gitFailed``.
    public func cardHistories(usingCache: Bool = true) throws(SyncError) -> [CardHistory] {
        let repository = try requireRepository(allowingDetached: true)
        let head = try git.run(["rev-parse", "--verify", "--quiet", "HEAD^{commit}"], readOnly: true)
        guard head.succeeded else { return [] }
        let tip = head.text.trimmingCharacters(in: .whitespacesAndNewlines)
        let cachePath = usingCache && configuration.environment["KANBAN_HISTORY_CACHE"] != "off" ? HistoryCache.path(forBoard: store.directory) : nil
        let shallowKey = Self.shallowKey(gitDirectory: repository.gitDirectory)
        let cached = cachePath.flatMap { HistoryCache.read(from: $0, boardPath: store.directory) }.flatMap { $0.shallowKey == shallowKey ? $0 : nil }

        var log: HistoryLog
        if let cached, cached.tip == tip {
            log = cached.log
        } else if let cached, try isAncestor(cached.tip, of: tip),
                  case let since = try readLog(range: cached.tip + ".." + tip, repository: repository), !since.commits.contains(where: \.isMerge) {
            // Commits on top of the tip, one after another: a whole read lists the cached ones, then these. A merge
            // brings in a line of history a whole read may list among the cached commits, so it is read whole.
            log = cached.log
            log.commits += since.commits
        } else {
            log = try readLog(range: tip, repository: repository)
        }
        // Objects come from the cache when it has them; only those this history needs are kept.
        var kept: [String: [UInt8]] = [:]
        let known = cached?.objects ?? [:]
        let histories: [CardHistory]
        do {
            histories = try BoardHistory(log) { objects in
                var found: [String: [UInt8]] = [:]
                var missing: Set<String> = []
                for object in objects {
                    if let bytes = known[object] { found[object] = bytes } else { missing.insert(object) }
                }
                found.merge(try blobs(missing)) { first, _ in first }
                kept.merge(found) { first, _ in first }
                return found
            }.cards
        } catch let error as SyncError {
            throw error
        } catch {
            throw SyncError(.gitFailed, "cannot read the board's history: \(error)")
        }
        if let cachePath, cached?.tip != tip || Set(cached?.objects.keys ?? [:].keys) != Set(kept.keys) {
            HistoryCache(boardPath: store.directory, shallowKey: shallowKey, tip: tip, log: log, objects: kept).write(to: cachePath)
        }
        return histories
    }

    /// The board's commits in `range` (`HEAD`, or `<tip>..HEAD`), parents first.
    private func readLog(range: String, repository: Repository) throws(SyncError) -> HistoryLog {
        // Paths make git work out which commits touch them, which doubles its work: a board at the top of its
        // repository takes every change and leaves out what is not the board's itself.
        let paths = repository.prefix.isEmpty ? [] : ["--"] + HistoryLog.pathspecs
        let output = try git.check(HistoryLog.arguments + [range] + paths, readOnly: true)
        return HistoryLog(parsing: output.output)
    }

    /// Whether `ancestor` is `commit` or one of its ancestors (false when git no longer has it).
    private func isAncestor(_ ancestor: String, of commit: String) throws(SyncError) -> Bool {
        guard ancestor.utf8.count == 40 || ancestor.utf8.count == 64, ancestor.utf8.allSatisfy({ ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) }) else {
            return false
        }
        return try git.run(["merge-base", "--is-ancestor", ancestor, commit], readOnly: true).status == 0
    }

    /// What makes a history shallow: the `shallow` file of the repository (its common directory for a linked
    /// worktree), empty when there is none.
    static func shallowKey(gitDirectory: String) -> String {
        var common = gitDirectory
        if let bytes = try? FileSystem.readFile(gitDirectory + "/commondir") {
            let text = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            common = text.hasPrefix("/") ? text : gitDirectory + "/" + text
        }
        guard let bytes = try? FileSystem.readFile(common + "/shallow") else { return "" }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether the repository's history is shallow (a `git clone --depth` or CI's default checkout): its first commit
    /// is a cut, not the board's beginning, so every card there seems created at the cut.
    /// - Throws: ``SyncError/Code/notARepository`` and the like, or ``SyncError/Code/gitFailed``.
    public func isHistoryShallow() throws(SyncError) -> Bool {
        // What `git rev-parse --is-shallow-repository` looks at, without a process: the repository's `shallow` file.
        !Self.shallowKey(gitDirectory: try requireRepository(allowingDetached: true).gitDirectory).isEmpty
    }
}
