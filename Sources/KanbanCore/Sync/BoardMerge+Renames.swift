import Foundation

extension BoardMerge {
    /// `base`, `ours` and `theirs` with a card that one side renamed, when it gave its slug up to another card
    /// (``newSlug(for:card:isTaken:)``), under its new slug on the other side and in the base too.
    ///
    /// A clone that has not seen the rename still has the card under its old slug, and may have changed, moved,
    /// archived or deleted it there; and the side that renamed it may have deleted it since. Matched by slug, a
    /// version under the old slug would pair with the card that kept the slug, or stay beside the renamed one as a
    /// second copy (a delete would touch neither). Followed, it is one card under its new slug, merged by the usual
    /// rules; a side that deleted it is named in `deletedUnder` (by the new slug, with the old one: that side's
    /// history may know the delete under either, and a merge that renamed the card took it from the old slug
    /// without deleting it, so the later of the two counts). A card is the same one on both sides when its
    /// `created` is; only renames made by the merge's own rule count (the old slug, `-`, the suffix made from
    /// `created`, maybe `-2` and so on).
    static func followingRenames(base: Files, ours: Files, theirs: Files)
        -> (base: Files, ours: Files, theirs: Files, deletedUnder: [Side: [String: String]]) {
        var sides = [ours, theirs]
        var base = base
        var deletedUnder: [Side: [String: String]] = [:]
        let bySlug = sides.map(cardsBySlug)
        for (path, bytes) in base.sorted(by: { $0.key.utf8Precedes($1.key) }) {
            guard let file = BoardPath(path)?.card else { continue }
            let slug = file.slug
            // The usual case, the card where it was on both sides, costs no parsing.
            guard sides.contains(where: { $0[path] != bytes }), let created = createdTime(bytes) else { continue }
            func paths(_ side: Int, _ slug: String) -> [String] {
                (bySlug[side][slug] ?? []).filter { sides[side][$0].flatMap(createdTime) == created }
            }
            for (renamer, other) in [(0, 1), (1, 0)] where paths(renamer, slug).isEmpty {
                let stable = newSlug(for: slug, card: bytes) { _ in false }
                let candidates = [stable] + (2...9).map { "\(stable)-\($0)" }
                let kept = paths(other, slug)
                let renamed: String
                if let found = candidates.first(where: { !paths(renamer, $0).isEmpty }) {
                    guard paths(other, found).isEmpty else { continue }
                    renamed = found
                } else {
                    // The renamer side holds the card nowhere, and another card has its slug there: the rule renamed
                    // it, and it was deleted since (or it was deleted before the other card came; either way a
                    // version kept on the other side can only be under a new slug). The delete is judged under both.
                    guard !kept.isEmpty, !(bySlug[renamer][slug] ?? []).isEmpty,
                          let free = candidates.first(where: { bySlug[0][$0] == nil && bySlug[1][$0] == nil }) else { continue }
                    renamed = free
                    deletedUnder[renamer == 0 ? .ours : .theirs, default: [:]][renamed] = slug
                }
                let moves = kept.compactMap { old in BoardPath(old)?.card.map { (old, Self.path(of: $0, renamedTo: renamed)) } }
                let basePath = Self.path(of: file, renamedTo: renamed)
                guard moves.count == kept.count, base[basePath] == nil, moves.allSatisfy({ sides[other][$0.1] == nil }) else { continue }
                if kept.isEmpty {
                    // The other side has the card under no slug it could have: it deleted it under the old one.
                    guard candidates.allSatisfy({ paths(other, $0).isEmpty }) else { continue }
                    deletedUnder[other == 0 ? .ours : .theirs, default: [:]][renamed] = slug
                }
                for (old, new) in moves {
                    sides[other][new] = sides[other][old]
                    sides[other][old] = nil
                }
                base[basePath] = bytes
                base[path] = nil
                break
            }
        }
        return (base, sides[0], sides[1], deletedUnder)
    }

    /// This merge, with what the history says of a card a side deleted under its old slug or its new one (see
    /// ``followingRenames(base:ours:theirs:)``) asked under both, the later delete counting, and the versions it held
    /// under the old slug put under the new one.
    func askingHistory(underOldSlugs deletedUnder: [Side: [String: String]]) -> BoardMerge {
        guard !deletedUnder.isEmpty else { return self }
        var merge = self
        let (deletionTime, versionsBeforeDelete) = (self.deletionTime, self.versionsBeforeDelete)
        merge.deletionTime = { side, slug in
            guard let old = deletedUnder[side]?[slug] else { return deletionTime(side, slug) }
            return [deletionTime(side, old), deletionTime(side, slug)].compactMap { $0 }.max()
        }
        merge.versionsBeforeDelete = { side, slug in
            guard let old = deletedUnder[side]?[slug] else { return versionsBeforeDelete(side, slug) }
            return versionsBeforeDelete(side, old).map { version in
                var version = version
                if let file = BoardPath(version.path)?.card { version.path = Self.path(of: file, renamedTo: slug) }
                return version
            } + versionsBeforeDelete(side, slug)
        }
        return merge
    }
}
