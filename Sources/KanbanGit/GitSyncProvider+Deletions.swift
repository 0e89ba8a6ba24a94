import Foundation
import KanbanCore
import KanbanSubprocess

/// When cards were deleted, which a merge needs and git does not keep: a card deleted on one side and changed on the
/// other stays deleted only when the change is older than the delete (FORMAT.md, "Sync").
///
/// A commit's time is when the delete was committed, which may be long after it was made (`kanban delete`, then
/// `kanban sync` an hour later). So each clone notes its deletes in its git directory (`kanban-deletions`, one
/// `slug<TAB>time` line each, never shared), and the commit that records a delete carries its time in a trailer,
/// `Deleted: <slug> <time>`, for the other clones; the hooks `kanban git-setup` installs add the same trailers to a
/// commit made with plain git (``addDeletionTrailers(toMessageAt:source:in:configuration:)``). A delete known from
/// neither (a file removed by hand, or a plain commit in a clone without the hooks) counts from its commit's time.
extension GitSyncProvider {
    static let deletionLogName = "kanban-deletions"

    /// Notes that the cards `slugs` were deleted at `date`, for the commit that will record it. Does nothing outside
    /// a git repository; a note that cannot be written only makes the delete count from its commit's time.
    public func recordDeletions(of slugs: [String], at date: Date = Date()) {
        guard !slugs.isEmpty, let directory = try? requireRepository(allowingDetached: true).gitDirectory else { return }
        let path = directory + "/" + Self.deletionLogName
        var bytes = (try? FileSystem.readFile(path)) ?? []
        // Old notes have long been committed: keep the log short.
        if bytes.count > 256 * 1024, let cut = bytes[(bytes.count - 128 * 1024)...].firstIndex(of: 0x0A) {
            bytes = Array(bytes[(cut + 1)...])
        }
        let stamp = ISO8601.string(from: date.flooredToSeconds)
        for slug in slugs where !slug.contains("\t") && !slug.contains("\n") {
            bytes += Array("\(slug)\t\(stamp)\n".utf8)
        }
        try? FileSystem.writeAtomically(bytes, to: path)
    }

    /// The deletes this clone noted: slug → the time of the latest.
    func recordedDeletions() -> [String: Date] {
        guard let directory = try? requireRepository(allowingDetached: true).gitDirectory else { return [:] }
        return Self.recordedDeletions(inGitDirectory: directory)
    }

    /// The deletes noted in the git directory `directory` (absolute): slug → the time of the latest.
    static func recordedDeletions(inGitDirectory directory: String) -> [String: Date] {
        guard let bytes = try? FileSystem.readFile(directory + "/" + deletionLogName) else { return [:] }
        var times: [String: Date] = [:]
        for line in String(decoding: bytes, as: UTF8.self).lines(omittingEmpty: true) {
            let fields = line.split(separator: "\t")
            guard fields.count == 2, let date = ISO8601.date(from: String(fields[1])) else { continue }
            times[String(fields[0])] = max(times[String(fields[0])] ?? date, date)
        }
        return times
    }

    /// The `Deleted:` trailers for a commit of `paths` (relative to the board): one for each card among them that is
    /// gone from the board (not moved) and whose delete this clone noted.
    func deletionTrailers(for paths: [String]) -> [CommitTrailer] {
        var removed: Set<String> = []
        var present: Set<String> = []
        for path in paths {
            guard let card = BoardPath(path)?.card else { continue }
            if FileSystem.exists(store.directory + "/" + path) { present.insert(card.slug) } else { removed.insert(card.slug) }
        }
        let gone = removed.subtracting(present)
        guard !gone.isEmpty else { return [] }
        let times = recordedDeletions()
        return gone.sorted { $0.utf8Precedes($1) }.compactMap { slug in
            times[slug].map { CommitTrailer("Deleted", "\(slug) \(ISO8601.string(from: $0))") }
        }
    }

    /// When the card `slug` was deleted on the branch `tip` since `base`: of the commits there that removed it from
    /// the board (not moved it), the latest delete, by the time each one's trailer gives, else (for this clone's own
    /// deletes) the time it noted, else its commit's time. Several clones may each have deleted the card, and the
    /// delete made first may have been committed last. A delete only a merge made counts from that merge's time.
    func deletionTime(of slug: String, on tip: String, since base: String, isLocal: Bool) -> Date? {
        guard let records = cardChanges(of: slug, in: ["\(base)..\(tip)"], format: "%ct%n%(trailers:key=Deleted,valueonly,unfold)",
                                        changes: "--name-status") else { return nil }
        var latest: Date?
        // One record per commit: its time, its `Deleted:` trailers, then the card's paths it added and deleted.
        for lines in records {
            guard let first = lines.first, let seconds = TimeInterval(String(first)) else { continue }
            let status = lines.dropFirst().compactMap { line -> Character? in
                let fields = line.split(separator: "\t")
                return fields.count == 2 && fields[0].count == 1 ? fields[0].first : nil
            }
            guard status.contains("D"), !status.contains("A") else { continue }
            let committed = Date(timeIntervalSince1970: seconds)
            let stamped = lines.dropFirst().lazy.compactMap { Self.deletionTime(of: slug, inTrailer: $0) }.first
            let deleted = min(stamped ?? (isLocal ? recordedDeletions()[slug] : nil) ?? committed, committed)
            latest = max(latest ?? deleted, deleted)
        }
        if let latest { return latest }
        return mergeDeletionTime(of: slug, on: tip, since: base)
    }

    /// The time a `Deleted:` trailer's value (`<slug> <time>`) gives for the card `slug`; nil for another card.
    static func deletionTime(of slug: String, inTrailer value: Substring) -> Date? {
        let fields = value.split(separator: " ")
        guard fields.count == 2, fields[0] == slug else { return nil }
        return ISO8601.date(from: String(fields[1]))
    }

    /// When a merge deleted the card `slug` on `tip` since `base`, no commit of one parent having removed it under
    /// that slug: the time a `Deleted:` trailer of such a merge gives (a merge that deleted a card renamed on one
    /// side and deleted under its old slug on the other says when that delete was made), else the merge's time.
    private func mergeDeletionTime(of slug: String, on tip: String, since base: String) -> Date? {
        // All parents of every merge: the merge that removed the card is the same as its parent that never had it.
        guard let log = try? git.run(["log", "--full-history", "--format=%x00%ct%n%(trailers:key=Deleted,valueonly,unfold)",
                                      "\(base)..\(tip)", "--"] + Self.pathspecs(ofCard: slug), readOnly: true),
              log.succeeded else { return nil }
        let records = String(decoding: log.output, as: UTF8.self).split(separator: "\0").map { $0.split(separator: "\n") }
        if let latest = records.flatMap({ $0.dropFirst() }).compactMap({ Self.deletionTime(of: slug, inTrailer: $0) }).max() { return latest }
        return records.first?.first.flatMap { TimeInterval(String($0)) }.map { Date(timeIntervalSince1970: $0) }
    }
}

extension GitSyncProvider {
    /// The versions of the card `slug` that the branch `tip` held just before a commit since `base` deleted it: for a
    /// commit that removed it, its parent's version; for a merge that did, the version of each parent that had it.
    /// Each comes with the card as it was where its history and `other`'s last met (the base to merge it against),
    /// nil when the card was not there. A version `other` already has in its history, one a later delete on the
    /// branch superseded (its commit is an ancestor of another's, and no re-add of an old copy came between), one from
    /// before `base`, and one the branch put back whole after a delete of it (an undone delete: what it held is on
    /// the board again) are left out. Empty when git fails.
    func versionsBeforeDelete(of slug: String, on tip: String, since base: String,
                              mergingInto other: String) -> [BoardMerge.VersionBeforeDelete] {
        let pathspecs = Self.pathspecs(ofCard: slug)
        // Merges too: a merge that kept one parent's delete removed the other parent's version.
        guard let log = try? git.run(["log", "--full-history", "--format=%H %P", "\(base)..\(tip)", "--"] + pathspecs, readOnly: true),
              log.succeeded else { return [] }
        var removals: [CardFileChange] = []
        var additions: [CardFileChange] = []
        var parentCounts: [String: Int] = [:]
        // What each commit did to the card's files against each parent: removed, added, and changed in place.
        var diffs: [(removed: [CardFileChange], added: [CardFileChange], changed: [(old: CardFileChange, new: CardFileChange)])] = []
        for line in log.lines {
            let hashes = line.split(separator: " ").map(String.init)
            guard let commit = hashes.first else { continue }
            parentCounts[commit] = hashes.count - 1
            for parent in hashes.dropFirst() {
                guard let diff = try? git.run(["diff-tree", "-r", "--no-renames", "--relative", "--raw", "--no-abbrev", parent, commit, "--"] + pathspecs,
                                              readOnly: true), diff.succeeded else { continue }
                var removed: [CardFileChange] = []
                var added: [CardFileChange] = []
                var changed: [(old: CardFileChange, new: CardFileChange)] = []
                for change in diff.lines {
                    // `:<old mode> <new mode> <old object> <new object> <status>\t<path>`
                    let fields = change.split(separator: "\t", maxSplits: 1)
                    let header = fields.first?.split(separator: " ") ?? []
                    guard fields.count == 2, header.count == 5 else { continue }
                    let path = String(fields[1])
                    let old = CardFileChange(commit: commit, parent: parent, path: path, object: String(header[2]))
                    let new = CardFileChange(commit: commit, parent: parent, path: path, object: String(header[3]))
                    switch header[4] {
                    case "D": removed.append(old)
                    case "A": added.append(new)
                    case "M": changed.append((old, new))
                    default: break
                    }
                }
                diffs.append((removed, added, changed))
            }
        }
        // A delete and an add of one card is a move, not a delete. But the slug can pass to another card in the
        // commit that removes this one (a merge that deleted the card while another card took its slug, in another
        // column or in its very file): told apart by `created`, which copies of one card share, that is a removal
        // of the one card and an add of the other (converge 20x1000 seed 15: a label lost from a card kept over a
        // delete).
        let objects = diffs.flatMap { diff -> [String] in
            diff.removed.isEmpty || diff.added.isEmpty ? diff.changed.flatMap { [$0.old.object, $0.new.object] }
                : (diff.removed + diff.added).map(\.object) + diff.changed.flatMap { [$0.old.object, $0.new.object] }
        }
        let created = ((try? blobs(Set(objects))) ?? [:]).mapValues { BoardMerge.createdTime($0) }
        /// Whether two versions may be of one card: the same `created`, or one without it (nothing tells them apart).
        func mayBeOneCard(_ first: CardFileChange, _ second: CardFileChange) -> Bool {
            guard let left = created[first.object] ?? nil, let right = created[second.object] ?? nil else { return true }
            return left == right
        }
        for diff in diffs {
            removals += diff.removed.filter { removed in !diff.added.contains { mayBeOneCard(removed, $0) } }
            removals += diff.changed.filter { !mayBeOneCard($0.old, $0.new) }.map(\.old)
            // Only an add with nothing removed can bring this card (back): the other card's arrival brings nothing.
            if diff.removed.isEmpty { additions += diff.added }
        }
        guard !removals.isEmpty else { return [] }
        let parents = Set(removals.map(\.parent)).sorted()
        guard let independent = try? git.run(["merge-base", "--independent", base] + parents, readOnly: true), independent.succeeded else { return [] }
        let latest = Set(independent.lines).subtracting([base])
        func isAncestor(_ commit: String, of descendant: String) -> Bool {
            (try? git.run(["merge-base", "--is-ancestor", commit, descendant], readOnly: true)).map { $0.status == 0 } ?? false
        }
        // A version put back whole after one of its deletes (an undone delete) is on the board again, and what the
        // branch did to it after that stands: none of its deletes took anything away. A commit that brought the card
        // in before any delete of it (the merge of a clone that had not had the card yet) puts nothing back.
        var putBack: Set<String> = []
        for addition in additions where !putBack.contains(addition.object) {
            if removals.contains(where: { $0.object == addition.object && $0.commit != addition.commit && isAncestor($0.commit, of: addition.commit) }) {
                putBack.insert(addition.object)
            }
        }
        // A commit that brought the card back where none of its parents had it, with bytes no delete before it took
        // (a plain rebase that replayed an old move of the card as an add), holds an old copy: its ancestor is lost.
        // The versions after it are no later state of a version deleted before it, so a later delete of them does
        // not supersede that version, which is merged in too.
        var considered = latest
        let readds = additions.filter { addition in
            !putBack.contains(addition.object)
                && additions.filter({ $0.commit == addition.commit && $0.path == addition.path }).count == parentCounts[addition.commit]
        }
        if !readds.isEmpty {
            for parent in Set(removals.map(\.parent)).subtracting(latest).subtracting([base]).sorted() {
                let later = latest.filter { isAncestor(parent, of: $0) }
                let removed = Set(removals.filter { $0.parent == parent }.map(\.object))
                if readds.contains(where: { readd in
                    !removed.contains(readd.object) && !isAncestor(readd.commit, of: parent) && later.contains { isAncestor(readd.commit, of: $0) }
                }) {
                    considered.insert(parent)
                }
            }
        }
        var versions: [BoardMerge.VersionBeforeDelete] = []
        for removal in removals where considered.contains(removal.parent) && !putBack.contains(removal.object) {
            // What the other side already has is merged there already (and maybe changed since, which must stand).
            if isAncestor(removal.parent, of: other) { continue }
            guard let blob = try? git.run(["cat-file", "blob", removal.object], readOnly: true), blob.succeeded,
                  !versions.contains(where: { $0.path == removal.path && $0.bytes == blob.output }) else { continue }
            var baseBytes: [UInt8]?
            if let meeting = try? git.run(["merge-base", removal.parent, other], readOnly: true), meeting.succeeded,
               let commit = meeting.lines.first, !commit.isEmpty {
                baseBytes = cardBytes(slug, at: commit)
            }
            versions.append(BoardMerge.VersionBeforeDelete(path: removal.path, bytes: blob.output, base: baseBytes))
        }
        return versions
    }

    /// A card file a commit removed or added against one of its parents: the object it removed or added.
    private struct CardFileChange {
        var commit: String
        var parent: String
        var path: String
        var object: String
    }

    /// The slugs of the cards the branch `tip` removed in some commit since `base` (for a merge, against some parent),
    /// a move among them (a card removed and added in one commit: by paths alone it cannot be told from a card that
    /// gave its slug to another, which ``versionsBeforeDelete(of:on:since:mergingInto:)`` tells by content): one
    /// `git log` for the whole board, so that the cards a side never removed cost that nothing. Nil when git fails.
    func slugsRemoved(on tip: String, since base: String) -> Set<String>? {
        guard let log = try? git.run(["log", "--full-history", "-m", "--no-renames", "--relative", "--name-status", "--format=%H", "\(base)..\(tip)",
                                      "--", "cards", "archive"], readOnly: true), log.succeeded else { return nil }
        var slugs: Set<String> = []
        for line in log.lines {
            let fields = line.split(separator: "\t", maxSplits: 1)
            guard fields.count == 2, fields[0] == "D", let slug = BoardPath(String(fields[1]))?.card?.slug else { continue }
            slugs.insert(slug)
        }
        return slugs
    }

    /// The card `slug` in `commit` (the first of its files, in any column or the archive); nil when it has none.
    private func cardBytes(_ slug: String, at commit: String) -> [UInt8]? {
        guard let listing = try? git.run(["ls-tree", "-r", "-z", "--name-only", commit, "--", "cards", "archive"], readOnly: true),
              listing.succeeded,
              let path = listing.records.sorted().first(where: { BoardPath($0)?.card?.slug == slug }),
              let blob = try? git.run(["cat-file", "blob", "\(commit):./\(path)"], readOnly: true), blob.succeeded else { return nil }
        return blob.output
    }

    /// When the branch `tip` last changed the card `slug` since `base` without setting its `modified`, in a commit
    /// kanban did not make (an edit made in an editor and committed with plain git): the author time of the latest
    /// such commit. A commit
    /// that changed only `position` (kanban re-keying the card's neighbours to make room) is no change of the card.
    /// Nil when every change set `modified`, or git fails.
    func unstampedChangeTime(of slug: String, on tip: String, since base: String) -> Date? {
        // kanban's own commits (their `Card:` trailers say so) are left out: kanban sets `modified` on what it
        // changes, and `kanban sync` gives an edit made outside kanban its time before committing it.
        let arguments = ["log", "--full-history", "--no-merges", "-M", "--relative", "-p", "--no-ext-diff", "--no-textconv",
                         "--format=%x00%at %(trailers:key=Card,valueonly,separator=%x2C)", "\(base)..\(tip)", "--"]
            + Self.pathspecs(ofCard: slug)
        guard let output = try? git.run(arguments, readOnly: true), output.succeeded else { return nil }
        var latest: Date?
        for record in String(decoding: output.output, as: UTF8.self).split(separator: "\0") {
            let lines = record.split(separator: "\n")
            let header = lines.first?.split(separator: " ", maxSplits: 1) ?? []
            guard header.count == 1, let first = header.first, let seconds = TimeInterval(first), lines.count > 1,
                  Self.isUnstampedChange(lines.dropFirst()) else { continue }
            latest = max(latest ?? .distantPast, Date(timeIntervalSince1970: seconds))
        }
        return latest
    }

    /// Whether a commit's patch of one card (`git log -p -M` lines) changed what it says without changing `modified`:
    /// its title, labels, body or other fields. A move (the file renamed, `column` and `position`) is not counted:
    /// kanban moves a card without a new `modified` when it does so in the second of its last change, and re-keys
    /// neighbours' positions alone; a move made by hand counts from the card's `modified`.
    static func isUnstampedChange<Lines: Sequence>(_ lines: Lines) -> Bool where Lines.Element == Substring {
        var isInHunk = false
        var changesContent = false
        for line in lines {
            if line.hasPrefix("diff --git ") {
                isInHunk = false
            } else if !isInHunk {
                if line.hasPrefix("@@") { isInHunk = true }
            } else if let sign = line.first, sign == "+" || sign == "-" {
                let content = line.dropFirst().drop { $0 == " " || $0 == "\t" }
                if content.hasPrefix("modified:") { return false }
                if !content.hasPrefix("position:") && !content.hasPrefix("column:") { changesContent = true }
            }
        }
        return changesContent
    }
}
