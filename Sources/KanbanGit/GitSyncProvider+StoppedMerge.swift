import Foundation
import KanbanCore
import KanbanSubprocess

/// Finishing a `git merge` (a plain `git pull`) that stopped on conflicts: the cards git could not merge are merged by
/// the rules ``BoardMerge`` applies to every sync, from the three commits git merged, and the merge is committed.
/// Conflicts outside the board are a person's to resolve first.
extension GitSyncProvider {
    /// Finishes the `git merge` in progress, when everything git stopped on is the board's own files: each such card
    /// (and `board.md`) is merged card by card from the merge base, `HEAD` and `MERGE_HEAD`, written to the working
    /// tree and the index, and the merge is committed with git's message and a line per card a rule decided. Then
    /// the board is tidied as after a pull.
    /// - Returns: What was done, or nil when no merge is in progress.
    /// - Throws: ``SyncError`` with ``SyncError/Code/operationInProgress`` when files outside the board still have
    ///   conflicts (listed in ``SyncError/conflicts``; nothing is changed), ``SyncError/Code/missingIdentity``,
    ///   ``SyncError/Code/hookFailed`` or ``SyncError/Code/gitFailed``.
    public func finishMerge() throws(SyncError) -> FinishedMerge? {
        guard let repository = try repository(), repository.operation == .merge else { return nil }
        return try exclusively { () throws(SyncError) -> FinishedMerge in
            let top = Git(configuration: configuration, directory: repository.topLevel)
            let conflicted = try unmergedPaths(repository)
            let onBoard = conflicted.compactMap { path in repository.boardRelative(path).flatMap { BoardPath($0) != nil ? $0 : nil } }
            if onBoard.count < conflicted.count {
                let outside = conflicted.filter { path in !onBoard.contains { repository.prefix + $0 == path } }
                throw SyncError(.operationInProgress, "a git merge stopped on conflicts in files outside the board: \(outside.prefix(5).joined(separator: ", "))\(outside.count > 5 ? ", ..." : "")",
                                hint: "Those are not cards: resolve them and 'git add' them, then run 'kanban sync' again, which merges the cards and finishes the merge. Or give the merge up with 'git merge --abort'.",
                                conflicts: outside.map { SyncConflict(path: $0, isBoardFile: false) })
            }
            try requireIdentity()
            let ours = try revision("HEAD")
            let theirs = try revision("MERGE_HEAD")
            let base = try git.run(["merge-base", ours, theirs], readOnly: true).lines.first
            var resolutions: [CardResolution] = []
            if !onBoard.isEmpty {
                resolutions = try mergeCards(onBoard, base: base, ours: ours, theirs: theirs, top: top, prefix: repository.prefix)
            }

            let said = (try? FileSystem.readFile(repository.gitDirectory + "/MERGE_MSG")).map { String(decoding: $0, as: UTF8.self) } ?? ""
            let subject = said.split(separator: "\n").first { !$0.hasPrefix("#") && !$0.trimmingCharacters(in: .whitespaces).isEmpty }
                .map(String.init) ?? "Merge \(String(theirs.prefix(7)))"
            let message = CommitMessage(subject: subject,
                                        body: resolutions.isEmpty ? nil : resolutions.map { "- " + $0.summary(board: try? store.loadBoard()) }.joined(separator: "\n"),
                                        trailers: resolutions.map(\.slug).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
                                            .map { CommitTrailer("Card", $0) })
            let committed = try top.runTakingIndexLock(["-c", "user.useConfigOnly=true", "commit", "--quiet", "--cleanup=strip", "--message", message.text])
            guard committed.succeeded else { throw commitFailure(committed) }
            let head = try revision("HEAD")
            let cards = onBoard.compactMap { BoardPath($0)?.card?.slug }.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
            var finished = FinishedMerge(commit: CommitResult(commit: head, message: message, paths: onBoard), cards: cards,
                                         isBoardFileMerged: onBoard.contains(BoardFile.path), resolutions: resolutions)
            let (tidied, change) = try tidy()
            if !tidied.isEmpty {
                finished.resolutions += tidied
                finished.resolutionCommit = try commit(change, message: Self.tidyMessage(tidied, board: try? store.loadBoard()))
            }
            return finished
        }
    }

    /// Merges the cards (and `board.md`) at the conflicted board paths `paths` by the rules, from the three commits,
    /// and puts the result in the index and the working tree in place of every version of them.
    private func mergeCards(_ paths: [String], base: String?, ours: String, theirs: String, top: Git, prefix: String) throws(SyncError) -> [CardResolution] {
        func key(_ path: String) -> String? {
            switch BoardPath(path) {
            case .boardFile?: return Self.boardFileKey
            case .card(let file)?: return file.slug
            case nil: return nil
            }
        }
        let contested = Set(paths.compactMap(key))
        let revisions = [base, ours, theirs]
        let groups = try revisions.map { (revision: String?) throws(SyncError) -> [String: [String: TreeEntry]] in
            guard let revision else { return [:] }
            return Self.groupedBySlug(try boardEntries(at: revision))
        }
        let files = try boardFiles(contested.union([Self.boardFileKey]), in: groups)
        let merger = boardMerger(base: base, ours: ours, theirs: theirs)
        let allSlugs = Set(groups.flatMap(\.keys)).subtracting([Self.boardFileKey])
        let result = merger.merge(base: files[0], ours: files[1], theirs: files[2], otherSlugs: allSlugs)

        // Every version of the contested files goes; the merged ones take their place.
        var cleared = Set(paths)
        for group in groups { for key in contested { cleared.formUnion((group[key] ?? [:]).keys) } }
        // Only the contested files were given, with board.md for the column order: every card in the result is one
        // of them, or one given a new slug (two cards added under one name); board.md only when git stopped on it.
        let merged = result.files.filter { path, _ in key(path) != Self.boardFileKey || contested.contains(Self.boardFileKey) }
        var lines: [UInt8] = []
        for path in cleared.sorted() {
            lines += Array("0 0000000000000000000000000000000000000000\t\(prefix)\(path)".utf8) + [0]
        }
        for (path, bytes) in merged.sorted(by: { $0.key < $1.key }) {
            let object = try top.check(["hash-object", "-w", "--stdin"], input: bytes).text.trimmingCharacters(in: .whitespacesAndNewlines)
            lines += Array("100644 \(object)\t\(prefix)\(path)".utf8) + [0]
        }
        let root: BoardRoot
        do {
            root = try store.openRoot()
            for path in cleared.sorted() where merged[path] == nil { try root.remove(path) }
            for (path, bytes) in merged.sorted(by: { $0.key < $1.key }) { try root.write(bytes, to: path) }
        } catch {
            throw SyncError(.gitFailed, "cannot write the merged cards: \(error.message)")
        }
        try top.check(["update-index", "-z", "--index-info"], input: lines)
        return result.resolutions
    }
}
