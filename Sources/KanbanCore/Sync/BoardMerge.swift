import Foundation

/// The merge of two versions of a board against the version both started from, card by card: what `kanban sync`
/// commits when the local branch and its upstream both changed the board.
///
/// git merges files by path and guesses moves from content, so a card moved on one side and edited on the other, or
/// moved out of a column that then disappears, confuses it. A card's identity is its slug: here each card is found by
/// slug wherever it is in each version, and one rule decides every case, the same on every machine:
///
/// - changed on one side only: that side's version (moved, archived, edited, deleted);
/// - changed on both: the contents merge key by key and line by line (``CardMerge``); the card goes where the side
///   that moved it put it, and where both moved it, where the later version (`modified`) put it;
/// - deleted on one side and changed on the other: deleted, unless the change is later than the delete (then kept,
///   and said so);
/// - added on both sides under one slug: two cards, unless the files are the same; the one created first keeps the
///   slug, the other takes one made from its `created` time (``newSlug(for:card:isTaken:)``), the same on every
///   machine whichever side merges;
/// - renamed so on one side and changed under its old slug on the other: one card under the new slug, both changes
///   merged, or deleted by the usual rule (``followingRenames(base:ours:theirs:)``);
/// - `board.md`: merged line by line; where both changed the same lines, column by column and label by label, the
///   upstream's value winning where both changed the same one.
///
/// The merge works on file contents alone, and runs no programs: reading the versions (from git, from two folders
/// and a snapshot, from a cloud store) and recording the result is the provider's part. What only a history can tell
/// (when a side deleted a card, what it held before) comes in through the closures, which default to "unknown".
public struct BoardMerge {
    /// The files the merge owns (`board.md`, cards and archived cards, relative to the board), with their bytes.
    public typealias Files = [String: [UInt8]]

    /// One side of the merge.
    public enum Side: Sendable {
        /// The local side (for git, the branch), whose unsent work this is.
        case ours
        /// The other side (for git, the upstream), which others already have.
        case theirs
    }

    /// The merged files and what was decided about each card that needed a rule.
    public struct Result: Sendable {
        /// The merged board: every file the merge owns that is not deleted, by path relative to the board.
        public var files: Files
        /// What a rule decided about cards both sides changed, in slug order.
        public var resolutions: [CardResolution]
        /// Cards this merge deleted under a slug that neither side deleted them under (one side renamed the card,
        /// the other deleted it under its old slug): slug → when the delete was made, for the merge's record (the
        /// history has no delete of the card under this slug to tell it later).
        public var deletions: [String: Date] = [:]
    }

    /// When a side deleted a card: the time of the change that removed it there; nil when unknown (a change on the
    /// other side then never outweighs the delete).
    public var deletionTime: (Side, String) -> Date?
    /// Whether a card with this slug and `created` time was on the board before the merge base (in its history):
    /// then two sides that both hold it without the base are two copies of one card brought back (each side kept
    /// it over a delete), not two cards.
    public var wasOnBoardBefore: (String, Date) -> Bool = { _, _ in false }
    /// The versions of a card a side held just before it deleted the card (one for each delete whose version no
    /// later delete there supersedes), with their paths: what that side had made of the card, which a change made
    /// after the delete keeps.
    public var versionsBeforeDelete: (Side, String) -> [VersionBeforeDelete] = { _, _ in [] }

    /// A version of a card the deleting side held before its delete, with the card as it was where that version's
    /// history and the other side's last met: what to merge it against, so that nothing the other side did since
    /// is undone (nil: the card was not there; the merge base's version is used).
    public struct VersionBeforeDelete: Sendable {
        /// Where the card was, relative to the board.
        public var path: String
        /// The card's file.
        public var bytes: [UInt8]
        /// The card as it was where this version's history and the other side's last met.
        public var base: [UInt8]?

        /// Creates a version.
        public init(path: String, bytes: [UInt8], base: [UInt8]?) {
            self.path = path
            self.bytes = bytes
            self.base = base
        }
    }
    /// When a side last changed a card without setting its `modified` (an edit made outside kanban, committed by
    /// `kanban sync` or plain git): the time of the commit that made that change; nil when every change there set it.
    public var unstampedChangeTime: (Side, String) -> Date? = { _, _ in nil }

    /// Creates a merge.
    /// - Parameter deletionTime: When a side deleted a card, by slug; nil when unknown.
    public init(deletionTime: @escaping (Side, String) -> Date?) {
        self.deletionTime = deletionTime
    }

    /// One version of a card.
    package struct Version: Equatable {
        package var path: String
        package var bytes: [UInt8]
        package var file: CardFile

        package init(path: String, bytes: [UInt8], file: CardFile) {
            self.path = path
            self.bytes = bytes
            self.file = file
        }
    }

    /// Merges `ours` and `theirs`, both descended from `base`.
    /// - Parameters:
    ///   - base: The board both sides started from.
    ///   - ours: The local side's board, whose unpushed work this is.
    ///   - theirs: The other side's board, which others already have.
    ///   - otherSlugs: Slugs of cards not given (decided elsewhere), which a renamed card must not take.
    /// - Returns: The merged board, the same whichever machine merges.
    public func merge(base: Files, ours: Files, theirs: Files, otherSlugs: Set<String> = []) -> Result {
        let (base, ours, theirs, deletedUnder) = Self.followingRenames(base: base, ours: ours, theirs: theirs)
        let merger = askingHistory(underOldSlugs: deletedUnder)
        var result = merger.mergeFollowed(base: base, ours: ours, theirs: theirs, otherSlugs: otherSlugs)
        // A card deleted under its old slug is gone under its new one only by this merge: it says when.
        let remaining = Set(result.files.keys.compactMap { BoardPath($0)?.card?.slug })
        for (side, slugs) in deletedUnder {
            for slug in slugs.keys where !remaining.contains(slug) {
                if let time = merger.deletionTime(side, slug) { result.deletions[slug] = max(result.deletions[slug] ?? time, time) }
            }
        }
        return result
    }

    /// ``merge(base:ours:theirs:otherSlugs:)`` once renamed cards are followed.
    private func mergeFollowed(base: Files, ours: Files, theirs: Files, otherSlugs: Set<String>) -> Result {
        var files: Files = [:]
        var resolutions: [CardResolution] = []

        let boardPath = BoardFile.path
        if let merged = mergeBoardFile(base: base[boardPath], ours: ours[boardPath], theirs: theirs[boardPath]) {
            files[boardPath] = merged
        }
        let columnOrder = files[boardPath].flatMap { try? BoardFile(bytes: $0).board.columns.map(\.id) } ?? []

        let bySlug = [base, ours, theirs].map(Self.cardsBySlug)
        let slugs = Set(bySlug[0].keys).union(bySlug[1].keys).union(bySlug[2].keys).sorted { $0.utf8Precedes($1) }
        // Every slug any version has, so that a renamed card takes one nobody uses.
        var taken = Set((slugs + otherSlugs).map(Slug.collisionKey))
        var renamed: [Version] = []
        for slug in slugs {
            let paths = bySlug.map { $0[slug] ?? [] }
            if paths.contains(where: { $0.count > 1 }) {
                // A slug already on two paths (two cards, or a copy) in some version: merged path by path.
                for path in Set(paths.flatMap { $0 }).sorted(by: { $0.utf8Precedes($1) }) {
                    // Two different cards added on one path (the base has no card with the slug, so they cannot
                    // be copies of one): the first created keeps it, the other takes a new slug.
                    if paths[0].isEmpty, let o = ours[path], let t = theirs[path], o != t, let file = BoardPath(path)?.card {
                        if isBroughtBack(slug, o, t) {
                            files[path] = Self.keepOnce(Version(path: path, bytes: o, file: file), Version(path: path, bytes: t, file: file),
                                                            columnOrder: columnOrder).bytes
                            continue
                        }
                        let (keep, other) = Self.keepsSlug(o, over: t) ? (o, t) : (t, o)
                        files[path] = keep
                        renamed.append(Version(path: path, bytes: other, file: file))
                        continue
                    }
                    let (b, o, t) = (base[path], ours[path], theirs[path])
                    // Deleted on one side (no card with the slug left there) and changed on the other: the delete rule.
                    if let b, let file = BoardPath(path)?.card, let kept = o ?? t, (o == nil) != (t == nil), kept != b,
                       (o == nil ? paths[1] : paths[2]).isEmpty {
                        if CardMerge.pairsDifferentCards(base: b, ours: kept, theirs: []) {
                            files[path] = kept  // another card under the slug: an add (see below)
                            continue
                        }
                        let deleter: Side = o == nil ? .ours : .theirs
                        let changed = stamped(Version(path: path, bytes: kept, file: file), side: deleter == .ours ? .theirs : .ours, slug: slug)
                        resolutions += keepOrDelete(slug, base: Version(path: path, bytes: b, file: file), changed: changed,
                                                        deletedBy: deleter, columnOrder: columnOrder, into: &files)
                        continue
                    }
                    if let bytes = mergeByPath(base: b, ours: o, theirs: t, columnOrder: columnOrder) {
                        files[path] = bytes
                    }
                }
                continue
            }
            func version(_ files: Files, _ paths: [String]) -> Version? {
                guard let path = paths.first, let bytes = files[path], let file = BoardPath(path)?.card else { return nil }
                return Version(path: path, bytes: bytes, file: file)
            }
            let b = version(base, paths[0])
            var o = version(ours, paths[1])
            var t = version(theirs, paths[2])
            if b != nil, o != t, o != b, t != b {
                // Both sides did something to a card they both had: a change made outside kanban counts from when it
                // was committed, as if the editor had set `modified`.
                o = o.map { stamped($0, side: .ours, slug: slug) }
                t = t.map { stamped($0, side: .theirs, slug: slug) }
            }
            switch (o, t) {
            case let (o?, t?) where o == t:
                files[o.path] = o.bytes
            case let (o, t) where o == b:
                if let t { resolutions += take(t, slug: slug, keptOverDeleteOn: b == nil ? .ours : nil, columnOrder: columnOrder, into: &files) }
            case let (o, t) where t == b:
                if let o { resolutions += take(o, slug: slug, keptOverDeleteOn: b == nil ? .theirs : nil, columnOrder: columnOrder, into: &files) }
            case let (o?, t?):
                guard let b else {
                    if isBroughtBack(slug, o.bytes, t.bytes) {
                        let kept = Self.keepOnce(o, t, columnOrder: columnOrder)
                        files[kept.path] = kept.bytes
                        continue
                    }
                    // Two cards added under one slug: the first created keeps it (the same on every machine).
                    let (keep, other) = Self.keepsSlug(o.bytes, over: t.bytes) ? (o, t) : (t, o)
                    files[keep.path] = keep.bytes
                    renamed.append(other)
                    continue
                }
                var merged = mergeChanged(base: b, ours: o, theirs: t, columnOrder: columnOrder)
                // A side that deleted the card and then had it back (a plain `git pull --rebase` that replayed an
                // older move of it as an add): what that side held before the delete is merged in, as for a card
                // kept over a delete.
                for side in [Side.ours, .theirs] {
                    let (version, keepsText) = mergingVersionsBeforeDelete(of: slug, on: side, into: merged.version, base: b,
                                                                               columnOrder: columnOrder)
                    merged.version = version
                    if keepsText && !merged.resolutions.contains(where: { $0.kind == .keptText }) {
                        merged.resolutions.append(CardResolution(slug: slug, keptPath: version.path, removedPaths: [], kind: .keptText))
                    }
                }
                files[merged.version.path] = merged.version.bytes
                resolutions += merged.resolutions
            case let (nil, t?):
                // The other side may hold another card under the slug (it deleted the base's card too, and a new card
                // took its name): an add, which no delete of the base's card touches.
                if let b, CardMerge.pairsDifferentCards(base: b.bytes, ours: [], theirs: t.bytes) {
                    files[t.path] = t.bytes
                } else {
                    resolutions += keepOrDelete(slug, base: b, changed: t, deletedBy: .ours, columnOrder: columnOrder, into: &files)
                }
            case let (o?, nil):
                if let b, CardMerge.pairsDifferentCards(base: b.bytes, ours: o.bytes, theirs: []) {
                    files[o.path] = o.bytes
                } else {
                    resolutions += keepOrDelete(slug, base: b, changed: o, deletedBy: .theirs, columnOrder: columnOrder, into: &files)
                }
            case (nil, nil):
                break  // deleted on both sides
            }
        }
        for version in renamed {
            // Another clone may have renamed this very card already: its new slug is then on the other side, and the
            // two versions merge there rather than make the card twice.
            let stable = Self.newSlug(for: version.file.slug, card: version.bytes) { _ in false }
            let stablePath = Self.path(of: version.file, renamedTo: stable)
            if let there = files[stablePath], let created = Self.createdTime(there), created == Self.createdTime(version.bytes) {
                files[stablePath] = CardMerge.merge(base: [], ours: version.bytes, theirs: there, columnOrder: columnOrder).bytes
                resolutions.append(CardResolution(slug: version.file.slug, keptPath: stablePath, removedPaths: [], kind: .renamed, newSlug: stable))
                continue
            }
            let newSlug = Self.newSlug(for: version.file.slug, card: version.bytes) { taken.contains(Slug.collisionKey($0)) }
            taken.insert(Slug.collisionKey(newSlug))
            let path = Self.path(of: version.file, renamedTo: newSlug)
            files[path] = version.bytes
            resolutions.append(CardResolution(slug: version.file.slug, keptPath: path, removedPaths: [], kind: .renamed, newSlug: newSlug))
        }
        return Result(files: files, resolutions: resolutions)
    }

    // MARK: Cards


    /// Whether two versions of `slug` that the base lacks are one card both sides brought back: one `created`, and a
    /// card with it was on the board before.
    private func isBroughtBack(_ slug: String, _ ours: [UInt8], _ theirs: [UInt8]) -> Bool {
        guard let created = Self.createdTime(ours), created == Self.createdTime(theirs) else { return false }
        return wasOnBoardBefore(slug, created)
    }

    /// Two copies of one card merged without a common version: every key counts as changed on both sides (the later
    /// version's value wins, labels join), body lines only the loser has are kept in a section rather than dropped,
    /// and the card goes where the later version put it.
    package static func keepOnce(_ first: Version, _ second: Version, columnOrder: [String]) -> Version {
        let firstWins = CardMerge.prefersOurs(ranked(first, columnOrder), ranked(second, columnOrder))
        let (winner, loser) = firstWins ? (first, second) : (second, first)
        let merged = CardMerge.merge(base: [], ours: winner.bytes, theirs: loser.bytes, columnOrder: columnOrder)
        return Version(path: winner.path, bytes: merged.bytes, file: winner.file)
    }

    /// The card paths of `files` by slug.
    static func cardsBySlug(_ files: Files) -> [String: [String]] {
        var result: [String: [String]] = [:]
        for path in files.keys {
            if let file = BoardPath(path)?.card { result[file.slug, default: []].append(path) }
        }
        for key in result.keys { result[key]?.sort { $0.utf8Precedes($1) } }
        return result
    }

    /// Of two different cards with one slug, whether `card` keeps it over `other`: the one created first (then the
    /// one whose bytes sort first), so that every machine keeps the same one, whichever side it merges from.
    package static func keepsSlug(_ card: [UInt8], over other: [UInt8]) -> Bool {
        switch (createdTime(card), createdTime(other)) {
        case let (left?, right?) where left != right: return left < right
        case (.some, nil): return true
        case (nil, .some): return false
        default: return card.lexicographicallyPrecedes(other) || card == other
        }
    }

    /// A card file's `created` time, which copies of one card share and tells two cards apart.
    package static func createdTime(_ bytes: [UInt8]) -> Date? {
        (try? FrontmatterDocument(bytes: bytes, dialect: .card))?.value(forKey: "created")?.string.flatMap(ISO8601.date(from:))
    }

    /// The new slug of `card`, which gave up `slug` to another card: `slug-` and a suffix made from the card itself
    /// (its `created` time, else its bytes), so that every clone renaming it picks the same one, whatever else it
    /// holds; with `-2`, `-3` ... added only when a different card already has that.
    package static func newSlug(for slug: String, card: [UInt8], isTaken: (String) -> Bool) -> String {
        let number: UInt64
        if let created = createdTime(card), created.timeIntervalSince1970 > 0 {
            number = UInt64(created.timeIntervalSince1970)
        } else {
            number = card.reduce(UInt64(14_695_981_039_346_656_037)) { ($0 ^ UInt64($1)) &* 1_099_511_628_211 } % 2_176_782_336
        }
        return Slug.unique(slug + "-" + String(number, radix: 36)) { isTaken($0) }
    }

    /// `file`'s path with the slug `slug`: `cards/todo/x-2.md`, or `archive/2026-01-05-x-2.md`.
    package static func path(of file: CardFile, renamedTo slug: String) -> String {
        if let column = file.directoryColumn { return "cards/\(column)/\(slug).md" }
        return "archive/" + (file.archivedOn.map { $0 + "-" } ?? "") + slug + ".md"
    }

    /// The claim a card file records, if it reads.
    static func claim(in bytes: [UInt8]) -> CardClaim? {
        guard let document = try? FrontmatterDocument(bytes: bytes, dialect: .card) else { return nil }
        return CardMerge.claim(in: document)
    }

    /// A card both sides changed: the merged contents, in the place the rules choose.
    private func mergeChanged(base: Version, ours: Version, theirs: Version,
                              columnOrder: [String]) -> (version: Version, resolutions: [CardResolution]) {
        let outcome = CardMerge.merge(base: base.bytes, ours: ours.bytes, theirs: theirs.bytes, columnOrder: columnOrder)
        let kept: Version
        let moved: Bool
        if ours.path == theirs.path {
            (kept, moved) = (ours, false)
        } else if ours.path == base.path {
            (kept, moved) = (theirs, false)
        } else if theirs.path == base.path {
            (kept, moved) = (ours, false)
        } else {
            moved = true
            kept = CardMerge.prefersOurs(Self.ranked(ours, columnOrder), Self.ranked(theirs, columnOrder)) ? ours : theirs
        }
        var bytes = outcome.bytes
        if let column = kept.file.directoryColumn, var document = try? FrontmatterDocument(bytes: bytes, dialect: .card),
           document.hasFrontmatter, document.value(forKey: "column")?.string != column {
            document.setValue(.string(column), forKey: "column")
            bytes = document.bytes()
        }
        let slug = kept.file.slug
        let removed = moved ? [ours.path, theirs.path].filter { $0 != kept.path } : []
        var resolutions: [CardResolution] = []
        if moved { resolutions.append(CardResolution(slug: slug, keptPath: kept.path, removedPaths: removed, kind: .placed)) }
        if outcome.keepsText { resolutions.append(CardResolution(slug: slug, keptPath: kept.path, removedPaths: [], kind: .keptText)) }
        // Two claims met: the one dropped is named, so that a claim still being shared can give way to one shared
        // before it (`kanban claim --sync`).
        if let mine = Self.claim(in: ours.bytes), let other = Self.claim(in: theirs.bytes), mine != other,
           let holding = Self.claim(in: bytes) {
            resolutions.append(CardResolution(slug: slug, keptPath: kept.path, removedPaths: [], kind: .claimContested,
                                              otherClaim: holding == mine ? other : mine))
        }
        return (Version(path: kept.path, bytes: bytes, file: kept.file), resolutions)
    }

    /// A card one side deleted and the other changed: kept when the change is later than the delete (times are whole
    /// seconds; a change in the delete's own second is not later), else deleted with it.
    ///
    /// A card kept this way is as if the delete had never been: what the deleting side had made of it before the
    /// delete (a label, a body line) is merged in by the usual rules, so the result does not depend on whether that
    /// change reached the other side before or after the delete did.
    private func keepOrDelete(_ slug: String, base: Version?, changed: Version, deletedBy side: Side, columnOrder: [String],
                              into files: inout Files) -> [CardResolution] {
        guard let modified = Self.modifiedTime(changed.bytes), let deleted = deletionTime(side, slug),
              modified > deleted.flooredToSeconds else {
            return [CardResolution(slug: slug, keptPath: changed.path, removedPaths: [changed.path], kind: .deleted)]
        }
        var kept = changed
        var keepsText = false
        if let base {
            (kept, keepsText) = mergingVersionsBeforeDelete(of: slug, on: side, into: kept, base: base, columnOrder: columnOrder)
        }
        files[kept.path] = kept.bytes
        return [CardResolution(slug: slug, keptPath: kept.path, removedPaths: [], kind: .keptAfterDelete)]
            + (keepsText ? [CardResolution(slug: slug, keptPath: kept.path, removedPaths: [], kind: .keptText)] : [])
    }

    /// The one side's version of a card the other side does not hold, as it is. When the base has no such card
    /// either, the other side (`side`) may have had it since and removed it by taking in a delete, as a merge does
    /// that takes the upstream's delete of a card changed before it; this side holds the card because a change made
    /// after that delete kept it over the delete. The delete is then void for the card here too: what `side` had
    /// made of it before is merged in, as ``keepOrDelete(_:base:changed:deletedBy:columnOrder:into:)`` merges it,
    /// against the card where each version's history met this side's (converge 20x1000 seed 15: a line lost when
    /// the clone that wrote it took the delete in a merge before it pushed). The delete is not judged again: its
    /// time is in the common history, and the merge that took it in is no later delete.
    private func take(_ version: Version, slug: String, keptOverDeleteOn side: Side?, columnOrder: [String],
                      into files: inout Files) -> [CardResolution] {
        guard let side else {
            files[version.path] = version.bytes
            return []
        }
        let (kept, keepsText) = mergingVersionsBeforeDelete(of: slug, on: side, into: version,
                                                            base: Version(path: version.path, bytes: [], file: version.file),
                                                            columnOrder: columnOrder)
        files[kept.path] = kept.bytes
        return keepsText ? [CardResolution(slug: slug, keptPath: kept.path, removedPaths: [], kind: .keptText)] : []
    }

    /// `kept` with what `side` made of the card before it deleted it merged in (``versionsBeforeDelete``), each
    /// version against the card where its history met the other side's; and whether text was kept in a section.
    /// Versions of another card that had the slug before (their `created` differs) are left out.
    private func mergingVersionsBeforeDelete(of slug: String, on side: Side, into kept: Version, base: Version,
                                             columnOrder: [String]) -> (Version, keepsText: Bool) {
        var kept = kept
        var keepsText = false
        for before in versionsBeforeDelete(side, slug) where before.bytes != (before.base ?? base.bytes) && before.bytes != kept.bytes {
            guard let file = BoardPath(before.path)?.card,
                  !CardMerge.pairsDifferentCards(base: [], ours: kept.bytes, theirs: before.bytes) else { continue }
            let meeting = before.base.map { Version(path: base.path, bytes: $0, file: base.file) } ?? base
            let merged = mergeChanged(base: meeting, ours: kept, theirs: Version(path: before.path, bytes: before.bytes, file: file),
                                      columnOrder: columnOrder)
            kept = merged.version
            keepsText = keepsText || merged.resolutions.contains { $0.kind == .keptText }
        }
        return (kept, keepsText)
    }

    /// `version` with `modified` set to when `side` last changed the card without setting it, when that is later: a
    /// change made in an editor and committed with plain git or `kanban sync` counts from its commit.
    private func stamped(_ version: Version, side: Side, slug: String) -> Version {
        guard let time = unstampedChangeTime(side, slug)?.flooredToSeconds,
              Self.modifiedTime(version.bytes).map({ $0 < time }) ?? true,
              var document = try? FrontmatterDocument(bytes: version.bytes, dialect: .card), document.hasFrontmatter else { return version }
        document.setValue(.unquoted(ISO8601.string(from: time)), forKey: "modified")
        return Version(path: version.path, bytes: document.bytes(), file: version.file)
    }

    /// A card file's `modified` time.
    package static func modifiedTime(_ bytes: [UInt8]) -> Date? {
        (try? FrontmatterDocument(bytes: bytes, dialect: .card))?.value(forKey: "modified")?.string.flatMap(ISO8601.date(from:))
    }

    /// A path merged without looking for its card elsewhere (its slug is on several paths in some version).
    private func mergeByPath(base: [UInt8]?, ours: [UInt8]?, theirs: [UInt8]?, columnOrder: [String]) -> [UInt8]? {
        if ours == theirs || theirs == base { return ours }
        if ours == base { return theirs }
        guard let ours, let theirs else { return ours ?? theirs }  // moved away on one side, changed on the other: kept
        return CardMerge.merge(base: base ?? [], ours: ours, theirs: theirs, columnOrder: columnOrder).bytes
    }

    /// The ranking data of a card version, its column taken from its place (the archive after every column).
    static func ranked(_ version: Version, _ columnOrder: [String]) -> CardMerge.Version {
        let document = try? FrontmatterDocument(bytes: version.bytes, dialect: .card)
        let modified = document?.value(forKey: "modified")?.string.flatMap(ISO8601.date(from:))
        let rank = version.file.directoryColumn.map { columnOrder.firstIndex(of: $0) ?? -1 } ?? columnOrder.count
        return CardMerge.Version(modified: modified, columnRank: rank, bytes: version.bytes)
    }

    // MARK: board.md

    /// `board.md` merged: line by line where that is clean, else title, columns, labels and other keys one by one,
    /// the upstream's value winning where both sides changed the same one, and the bodies line by line.
    func mergeBoardFile(base: [UInt8]?, ours: [UInt8]?, theirs: [UInt8]?) -> [UInt8]? {
        if ours == theirs || theirs == base { return ours }
        if ours == base { return theirs }
        guard let ours, let theirs else { return ours ?? theirs }
        let lines = CardMerge.mergeLines(base: String(decoding: base ?? [], as: UTF8.self), ours: String(decoding: ours, as: UTF8.self),
                                         theirs: String(decoding: theirs, as: UTF8.self), oursWins: false)
        if lines.kept == nil, let merged = try? BoardFile(bytes: Array(lines.text.utf8)) { return merged.bytes() }
        guard let baseFile = base.flatMap({ try? BoardFile(bytes: $0) }), var result = try? BoardFile(bytes: ours),
              let theirsFile = try? BoardFile(bytes: theirs) else {
            // Not a board on every side: the upstream's, with the local lines it lacks kept in its body.
            guard let kept = lines.kept else { return Array(lines.text.utf8) }
            return Array(KeptText.appending(kept, as: .conflict, to: lines.text).utf8)
        }
        let old = baseFile.board
        let mine = result.board
        let other = theirsFile.board
        func pick<T: Equatable>(_ base: T, _ ours: T, _ theirs: T) -> T { theirs == base ? ours : theirs }
        let title = pick(old.title, mine.title, other.title)
        if title != mine.title { result.setTitle(title) }
        let columns = Self.mergeItems(base: old.columns, ours: mine.columns, theirs: other.columns, id: \.id) { base, ours, theirs in
            Column(id: ours.id, name: pick(base?.name ?? ours.name, ours.name, theirs.name),
                   isCollapsed: pick(base?.isCollapsed ?? ours.isCollapsed, ours.isCollapsed, theirs.isCollapsed))
        }
        if columns != mine.columns { result.setColumns(columns) }
        let labels = Self.mergeItems(base: old.labels, ours: mine.labels, theirs: other.labels, id: \.id) { base, ours, theirs in
            Label(id: ours.id, name: pick(base?.name ?? ours.name, ours.name, theirs.name),
                  color: pick(base?.color ?? ours.color, ours.color, theirs.color))
        }
        if labels != mine.labels { result.setLabels(labels) }
        for key in Set(old.fields.map(\.key) + mine.fields.map(\.key) + other.fields.map(\.key)).sorted() {
            let value = pick(baseFile.document.value(forKey: key), result.document.value(forKey: key), theirsFile.document.value(forKey: key))
            if value != result.document.value(forKey: key) {
                if let value { result.document.setValue(CardMerge.keepingPlainStyle(value), forKey: key) } else { result.document.removeValue(forKey: key) }
            }
        }
        let body = CardMerge.mergeLines(base: baseFile.document.body, ours: result.document.body, theirs: theirsFile.document.body,
                                        oursWins: false)
        result.document.setBody(body.kept.map { KeptText.appending($0, as: .conflict, to: body.text) } ?? body.text)
        return result.bytes()
    }

    /// Lists of columns or labels merged by id: an item removed on either side is gone, one added on either side is
    /// there (the upstream's additions after the item they follow there), and items both have are merged by `merge`.
    static func mergeItems<Item>(base: [Item], ours: [Item], theirs: [Item], id: (Item) -> String,
                                 merge: (Item?, Item, Item) -> Item) -> [Item] {
        let baseIDs = Set(base.map(id))
        let theirsIDs = Set(theirs.map(id))
        let oursIDs = Set(ours.map(id))
        let removed = baseIDs.subtracting(theirsIDs).union(baseIDs.subtracting(oursIDs))
        var result = ours.filter { !removed.contains(id($0)) }
        for (index, item) in theirs.enumerated() {
            let key = id(item)
            if let position = result.firstIndex(where: { id($0) == key }) {
                result[position] = merge(base.first { id($0) == key }, result[position], item)
            } else if !removed.contains(key) {
                let previous = theirs[..<index].last { candidate in result.contains { id($0) == id(candidate) } }
                let at = previous.flatMap { candidate in result.firstIndex { id($0) == id(candidate) } }.map { $0 + 1 } ?? 0
                result.insert(item, at: at)
            }
        }
        return result
    }
}
