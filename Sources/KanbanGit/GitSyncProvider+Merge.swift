import Foundation
import KanbanCore
import KanbanSubprocess

/// Joining the branch and its upstream when both have new commits: one merge commit, whose board is merged card by
/// card (``BoardMerge``) and whose other files git merges (`git merge-tree`, with the settings kanban needs whatever
/// the person's configuration says). Nothing touches the working tree until the merge commit exists; then the branch
/// moves to it as a fast-forward would. A conflict outside the board changes nothing and is reported.
extension GitSyncProvider {
    /// A file in a commit's tree.
    struct TreeEntry: Sendable, Hashable {
        var mode: String
        var object: String
    }

    /// The upstream merged into the branch.
    /// - Parameters:
    ///   - upstream: The branch's upstream (already fetched).
    ///   - repository: The repository.
    /// - Returns: The card resolutions, and whether uncommitted work put aside meanwhile could not be put back (it is
    ///   kept in `git stash list`).
    func mergeUpstream(_ upstream: Upstream, repository: Repository) throws(SyncError) -> (resolutions: [CardResolution], isStashKept: Bool) {
        try requireIdentity()
        let ours = try revision("HEAD")
        let theirs = try revision("@{upstream}")
        guard let base = try git.run(["merge-base", ours, theirs], readOnly: true).lines.first, !base.isEmpty else {
            throw SyncError(.conflict, "the branch and \(upstream.name) have no commit in common; nothing was changed",
                            hint: "Merge them by hand once ('git pull --allow-unrelated-histories'), then sync.")
        }
        let top = Git(configuration: configuration, directory: repository.topLevel)
        let prefix = repository.prefix

        // Everything but the board's own files: git's merge.
        let mergedTree = try mergeOtherFiles(top: top, ours: ours, theirs: theirs, base: base, prefix: prefix)

        // The board: whatever only one side changed is taken as it is; cards both changed go to the rules.
        let entries = try [base, ours, theirs].map { (revision: String) throws(SyncError) -> [String: TreeEntry] in try boardEntries(at: revision) }
        let groups = entries.map(Self.groupedBySlug)
        var chosen: [String: TreeEntry] = [:]
        var contested: [String] = []
        var changedAlike: Set<String> = []
        // Cards only one side has, the base none: the other side may have had the card since and taken in a delete
        // of it that a later change on this side made void (see `BoardMerge`), which only the history tells.
        var heldByOneSide: [BoardMerge.Side: [String]] = [:]
        for key in Set(groups[0].keys).union(groups[1].keys).union(groups[2].keys).sorted() {
            let (b, o, t) = (groups[0][key] ?? [:], groups[1][key] ?? [:], groups[2][key] ?? [:])
            if o == t || t == b {
                chosen.merge(o) { $1 }
                if o == t && o != b { changedAlike.insert(key) }
                if b.isEmpty && t.isEmpty && !o.isEmpty && key != Self.boardFileKey { heldByOneSide[.ours, default: []].append(key) }
            } else if o == b {
                chosen.merge(t) { $1 }
                if b.isEmpty && key != Self.boardFileKey { heldByOneSide[.theirs, default: []].append(key) }
            } else {
                contested.append(key)
            }
        }
        // What each side removed since the base, read once for this and for the merge's history questions.
        let removed = RemovedSlugs()
        for (side, keys) in heldByOneSide {
            // The side that lacks the card: did it remove one with the slug since the base?
            let lacking: BoardMerge.Side = side == .ours ? .theirs : .ours
            let tip = lacking == .ours ? ours : theirs
            for key in keys where removed.mayHaveRemoved(key, on: lacking, reading: { slugsRemoved(on: tip, since: base) }) {
                contested.append(key)
                for path in (groups[side == .ours ? 1 : 2][key] ?? [:]).keys { chosen[path] = nil }
            }
        }
        // Both sides took a card away from a slug, but one may have renamed it (it gave the slug up to another card)
        // and the other deleted it: the merge follows the rename and decides the delete.
        for renamed in Self.possibleRenames(of: changedAlike, among: groups) where groups[0][renamed] == nil
            && (groups[1][renamed] == nil) != (groups[2][renamed] == nil) {
            contested += changedAlike.filter { renamed.hasPrefix($0 + "-") && !contested.contains($0) }
        }
        var resolutions: [CardResolution] = []
        var deletions: [String: Date] = [:]
        var written: [String: [UInt8]] = [:]
        if !contested.isEmpty || groups.contains(where: { $0[Self.boardFileKey] != nil }) {
            // The versions of the contested cards, and board.md's (for the column order), and the cards that may be
            // one of them renamed (it gave its slug up to another card), which the merge follows.
            let keys = Set(contested + [Self.boardFileKey]).union(Self.possibleRenames(of: Set(contested), among: groups))
            let files = try boardFiles(keys, in: groups)
            let allSlugs = Set(groups.flatMap(\.keys)).subtracting([Self.boardFileKey])
            let merger = boardMerger(base: base, ours: ours, theirs: theirs, removed: removed)
            let result = merger.merge(base: files[0], ours: files[1], theirs: files[2], otherSlugs: allSlugs)
            resolutions = result.resolutions
            deletions = result.deletions
            // board.md was read for its columns; it is merged like any contested file.
            for (path, bytes) in result.files {
                if let entry = (groups[1].values.compactMap { $0[path] }.first), files[1][path] == bytes {
                    chosen[path] = entry
                } else if let entry = (groups[2].values.compactMap { $0[path] }.first), files[2][path] == bytes {
                    chosen[path] = entry
                } else {
                    written[path] = bytes
                }
            }
            // A contested card or board.md the merge removed is not chosen either.
            for key in keys {
                for group in groups { for path in (group[key] ?? [:]).keys where result.files[path] == nil { chosen[path] = nil } }
            }
        }
        let tree = try boardTree(top: top, startingFrom: mergedTree, prefix: prefix, chosen: chosen, written: written)
        let message = Self.mergeMessage(upstream: upstream, resolutions: resolutions, deletions: deletions, board: try? store.loadBoard())
        let commit = try top.check(["-c", "user.useConfigOnly=true", "commit-tree", tree, "-p", ours, "-p", theirs, "-F", "-"],
                                   input: Array(message.text.utf8)).text.trimmingCharacters(in: .whitespacesAndNewlines)
        return (resolutions, try moveBranch(to: commit, repository: repository))
    }

    /// The files of the groups `keys` names (cards by slug, `board.md` by ``boardFileKey``) in each of `groups`, with
    /// their contents.
    func boardFiles(_ keys: Set<String>, in groups: [[String: [String: TreeEntry]]]) throws(SyncError) -> [BoardMerge.Files] {
        var objects: Set<String> = []
        for group in groups { for key in keys { for entry in (group[key] ?? [:]).values { objects.insert(entry.object) } } }
        let contents = try blobs(objects)
        return groups.map { group in
            var files: BoardMerge.Files = [:]
            for key in keys { for (path, entry) in group[key] ?? [:] { files[path] = contents[entry.object] } }
            return files
        }
    }

    /// The card-by-card merge of `ours` and `theirs`, with what it needs from their history since `base` (when a
    /// delete happened, what the deleting side had made of a card before it, which changes were made outside
    /// kanban); without a base it has no history to read.
    /// - Parameter removed: What ``slugsRemoved(on:since:)`` said of each side so far, kept for the next question.
    func boardMerger(base: String?, ours: String, theirs: String, removed: RemovedSlugs = RemovedSlugs()) -> BoardMerge {
        var merger = BoardMerge { [self] side, slug in
            guard let base else { return nil }
            return deletionTime(of: slug, on: side == .ours ? ours : theirs, since: base, isLocal: side == .ours)
        }
        guard let base else { return merger }
        merger.wasOnBoardBefore = { [self] slug, created in hadCard(slug, created: created, before: base) }
        merger.versionsBeforeDelete = { [self] side, slug in
            let tip = side == .ours ? ours : theirs
            guard removed.mayHaveRemoved(slug, on: side, reading: { slugsRemoved(on: tip, since: base) }) else { return [] }
            return versionsBeforeDelete(of: slug, on: tip, since: base, mergingInto: side == .ours ? theirs : ours)
        }
        merger.unstampedChangeTime = { [self] side, slug in unstampedChangeTime(of: slug, on: side == .ours ? ours : theirs, since: base) }
        return merger
    }

    /// What ``slugsRemoved(on:since:)`` says of each side of one merge, asked once per side and only when needed.
    final class RemovedSlugs {
        private var known: [BoardMerge.Side: Set<String>?] = [:]

        /// Whether `side` removed a card with `slug` since the base; true when git could not say.
        func mayHaveRemoved(_ slug: String, on side: BoardMerge.Side, reading: () -> Set<String>?) -> Bool {
            if known[side] == nil { known[side] = .some(reading()) }
            return known[side].flatMap { $0 }.map { $0.contains(slug) } ?? true
        }
    }

    /// The slugs in `groups` that could be one of `slugs` renamed by the merge's rule for two cards with one slug
    /// (the slug, `-` and a suffix: ``BoardMerge/newSlug(for:card:isTaken:)``).
    static func possibleRenames(of slugs: Set<String>, among groups: [[String: [String: TreeEntry]]]) -> Set<String> {
        guard !slugs.isEmpty else { return [] }
        var found: Set<String> = []
        for group in groups {
            for key in group.keys where !slugs.contains(key) && !found.contains(key) {
                var prefix = key.endIndex
                while let dash = key[..<prefix].lastIndex(of: "-") {
                    if slugs.contains(String(key[..<dash])) {
                        found.insert(key)
                        break
                    }
                    prefix = dash
                }
            }
        }
        return found
    }

    /// The key under which ``groupedBySlug(_:)`` puts `board.md`.
    static let boardFileKey = "\u{0}board.md"

    /// Board entries by card slug (and `board.md` by ``boardFileKey``).
    static func groupedBySlug(_ entries: [String: TreeEntry]) -> [String: [String: TreeEntry]] {
        var groups: [String: [String: TreeEntry]] = [:]
        for (path, entry) in entries {
            switch BoardPath(path) {
            case .boardFile?: groups[boardFileKey, default: [:]][path] = entry
            case .card(let file)?: groups[file.slug, default: [:]][path] = entry
            case nil: break
            }
        }
        return groups
    }

    /// The board's own files in `revision` (`board.md`, cards, archived cards; regular files only), relative to the
    /// board.
    func boardEntries(at revision: String) throws(SyncError) -> [String: TreeEntry] {
        let output = try git.check(["ls-tree", "-r", "-z", revision, "--", "."], readOnly: true)
        var entries: [String: TreeEntry] = [:]
        for record in output.records {
            // `<mode> SP <type> SP <object> TAB <path>`
            guard let tab = record.firstIndex(of: "\t") else { continue }
            let fields = record[..<tab].split(separator: " ")
            let path = String(record[record.index(after: tab)...])
            guard fields.count == 3, fields[1] == "blob", fields[0] == "100644" || fields[0] == "100755", BoardPath(path) != nil else { continue }
            entries[path] = TreeEntry(mode: String(fields[0]), object: String(fields[2]))
        }
        return entries
    }

    /// The contents of `objects` (`git cat-file --batch`).
    func blobs(_ objects: Set<String>) throws(SyncError) -> [String: [UInt8]] {
        guard !objects.isEmpty else { return [:] }
        let output = try git.check(["cat-file", "--batch"], readOnly: true, input: Array(objects.sorted().joined(separator: "\n").utf8) + [0x0A])
        var result: [String: [UInt8]] = [:]
        let bytes = output.output
        var index = 0
        while index < bytes.count {
            guard let lineEnd = bytes[index...].firstIndex(of: 0x0A) else { break }
            let header = String(decoding: bytes[index..<lineEnd], as: UTF8.self).split(separator: " ")
            index = lineEnd + 1
            guard header.count == 3, let size = Int(header[2]), index + size <= bytes.count else { continue }
            result[String(header[0])] = Array(bytes[index..<(index + size)])
            index += size + 1
        }
        return result
    }

    // MARK: Trees

    /// git's merge of everything but the board's own files: a tree whose board files are to be replaced. Throws
    /// ``SyncError/Code/conflict`` when files outside the board conflict.
    private func mergeOtherFiles(top: Git, ours: String, theirs: String, base: String, prefix: String) throws(SyncError) -> String {
        // Directory renames would move one person's new card into the column another emptied.
        let output = try top.run(["-c", "merge.directoryRenames=false", "-c", "merge.renames=true", "merge-tree", "--write-tree", "-z",
                                  "--name-only", "--no-messages", ours, theirs], readOnly: true)
        if output.status == 0 || output.status == 1 {
            let records = output.records
            guard let tree = records.first, !tree.isEmpty else { throw git.failure(["merge-tree"], output) }
            let outside = records.dropFirst().filter { path in
                !(path.hasPrefix(prefix) && BoardPath(String(path.dropFirst(prefix.count))) != nil)
            }
            if !outside.isEmpty { throw Self.outsideConflict(Array(Set(outside)).sorted()) }
            return tree
        }
        // git before 2.38 has no `merge-tree --write-tree`: the upstream's tree with the local changes outside the
        // board, when the two sides did not change the same files there.
        func changed(_ tip: String) throws(SyncError) -> [String] {
            try top.check(["diff", "--name-only", "-z", "--no-renames", base, tip], readOnly: true).records.filter { path in
                !(path.hasPrefix(prefix) && BoardPath(String(path.dropFirst(prefix.count))) != nil)
            }
        }
        let local = try changed(ours)
        let both = Set(local).intersection(try changed(theirs))
        if !both.isEmpty { throw Self.outsideConflict(both.sorted()) }
        guard !local.isEmpty else { return try top.check(["rev-parse", theirs + "^{tree}"], readOnly: true).text.trimmingCharacters(in: .whitespacesAndNewlines) }
        return try withTemporaryIndex(top: top, startingFrom: theirs) { (environment: [String: String]) throws(SyncError) in
            var lines: [UInt8] = []
            let present = try top.check(["ls-tree", "-r", "-z", ours, "--"] + local, literalPaths: true, readOnly: true).records
            var kept: Set<String> = []
            for record in present {
                guard let tab = record.firstIndex(of: "\t") else { continue }
                let fields = record[..<tab].split(separator: " ")
                let path = String(record[record.index(after: tab)...])
                guard fields.count == 3 else { continue }
                kept.insert(path)
                lines += Array("\(fields[0]) \(fields[2])\t\(path)".utf8) + [0]
            }
            for path in local where !kept.contains(path) {
                lines += Array("0 0000000000000000000000000000000000000000\t\(path)".utf8) + [0]
            }
            try top.check(["update-index", "-z", "--index-info"], input: lines, environment: environment)
        }
    }

    private static func outsideConflict(_ paths: [String]) -> SyncError {
        SyncError(.conflict, "your changes and the upstream's conflict in files outside the board: \(paths.prefix(5).joined(separator: ", "))\(paths.count > 5 ? ", ..." : ""); nothing was changed",
                  hint: "Those are not cards: merge them by hand with 'git pull' and resolve them, then sync.",
                  conflicts: paths.map { SyncConflict(path: $0, isBoardFile: false) })
    }

    /// `tree` with its board files replaced: every board file it has removed, then `chosen` (entries of existing
    /// blobs) and `written` (new contents) added.
    private func boardTree(top: Git, startingFrom tree: String, prefix: String, chosen: [String: TreeEntry],
                           written: [String: [UInt8]]) throws(SyncError) -> String {
        var objects: [String: String] = [:]
        for (path, bytes) in written {
            objects[path] = try top.check(["hash-object", "-w", "--stdin"], input: bytes).text.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return try withTemporaryIndex(top: top, startingFrom: tree) { (environment: [String: String]) throws(SyncError) in
            let present = try top.check(["ls-files", "-z", "--", prefix.isEmpty ? "." : prefix], literalPaths: true, environment: environment).records
            var lines: [UInt8] = []
            for path in present where path.hasPrefix(prefix) && BoardPath(String(path.dropFirst(prefix.count))) != nil {
                lines += Array("0 0000000000000000000000000000000000000000\t\(path)".utf8) + [0]
            }
            for (path, entry) in chosen.sorted(by: { $0.key < $1.key }) {
                lines += Array("\(entry.mode) \(entry.object)\t\(prefix)\(path)".utf8) + [0]
            }
            for (path, object) in objects.sorted(by: { $0.key < $1.key }) {
                lines += Array("100644 \(object)\t\(prefix)\(path)".utf8) + [0]
            }
            try top.check(["update-index", "-z", "--index-info"], input: lines, environment: environment)
        }
    }

    /// Runs `body` with a temporary index holding `tree`, then writes the index as a tree and returns it.
    private func withTemporaryIndex(top: Git, startingFrom tree: String,
                                    _ body: ([String: String]) throws(SyncError) -> Void) throws(SyncError) -> String {
        let gitDirectory = try top.check(["rev-parse", "--absolute-git-dir"], readOnly: true).text.trimmingCharacters(in: .whitespacesAndNewlines)
        let index = gitDirectory + "/kanban-merge-index-\(getpid())"
        let environment = ["GIT_INDEX_FILE": index]
        defer { try? FileSystem.remove(index) }
        try top.check(["read-tree", tree], environment: environment)
        try body(environment)
        return try top.check(["write-tree"], environment: environment).text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Moves the branch, the index and the working tree to `commit`, a descendant of HEAD, as a fast-forward does;
    /// uncommitted work outside the board is put aside meanwhile and put back. Returns whether it could not be put
    /// back cleanly (it stays in `git stash list`).
    private func moveBranch(to commit: String, repository: Repository) throws(SyncError) -> Bool {
        let output = try git.runTakingIndexLock(["merge", "--ff-only", "--autostash", "--quiet", commit])
        guard output.succeeded else {
            throw pullRefused(output, repository: repository)
                ?? SyncError(.gitFailed, "git could not bring the working tree to the merge; nothing was changed", output: output.said.nonEmpty)
        }
        return output.said.contains("Applying autostash resulted in conflicts")
    }

    /// `Merge origin/main: 2 cards decided by the rules`, with a line per card decided.
    /// The merge commit's message: a line for each resolution, a `Card:` trailer for each card a rule decided, and a
    /// `Deleted:` trailer for each card the merge deleted under a slug no parent deleted it under (``BoardMerge/Result/deletions``).
    static func mergeMessage(upstream: Upstream, resolutions: [CardResolution], deletions: [String: Date] = [:], board: Board?) -> CommitMessage {
        let lines = resolutions.map { $0.summary(board: board) }
        let subject = "Merge \(upstream.name) into \(upstream.branch)"
        let cards = resolutions.map(\.slug).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }.map { CommitTrailer("Card", $0) }
        let deleted = deletions.sorted { $0.key.utf8Precedes($1.key) }.map { CommitTrailer("Deleted", "\($0.key) \(ISO8601.string(from: $0.value))") }
        return CommitMessage(subject: subject, body: lines.isEmpty ? nil : lines.map { "- " + $0 }.joined(separator: "\n"),
                             trailers: cards + deleted)
    }

}
