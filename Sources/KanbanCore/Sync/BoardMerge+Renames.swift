import Foundation

extension BoardMerge {
    /// `base`, `ours` and `theirs` with a card that one side renamed, when it gave its slug up to another card
    /// (``newSlug(for:card:isTaken:)``), under its new slug on the other side and in the base too.
    ///
    /// A clone that has not seen the rename still has the card under its old slug, and may have changed, moved,
    /// archived or deleted it there. Matched by slug, that version would pair with the card that kept the slug, or
    /// stay beside the renamed one as a second copy (a delete would touch neither). Followed, it is one card under
    /// its new slug, merged by the usual rules; a side that deleted it is named in `deletedUnder` (by the new slug,
    /// with the old one, under which that side's history knows the delete). A card is the same one on both sides
    /// when its `created` is; only renames made by the merge's own rule count (the old slug, `-`, the suffix made
    /// from `created`, maybe `-2` and so on).
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
                guard let renamed = candidates.first(where: { !paths(renamer, $0).isEmpty }), paths(other, renamed).isEmpty else { continue }
                let kept = paths(other, slug)
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

    /// This merge, with what the history says of a card a side deleted under its old slug (see
    /// ``followingRenames(base:ours:theirs:)``) asked under that slug, and the versions it held then put under the
    /// new one.
    func askingHistory(underOldSlugs deletedUnder: [Side: [String: String]]) -> BoardMerge {
        guard !deletedUnder.isEmpty else { return self }
        var merge = self
        let (deletionTime, versionsBeforeDelete) = (self.deletionTime, self.versionsBeforeDelete)
        merge.deletionTime = { side, slug in deletionTime(side, deletedUnder[side]?[slug] ?? slug) }
        merge.versionsBeforeDelete = { side, slug in
            guard let old = deletedUnder[side]?[slug] else { return versionsBeforeDelete(side, slug) }
            return versionsBeforeDelete(side, old).map { version in
                var version = version
                if let file = BoardPath(version.path)?.card { version.path = Self.path(of: file, renamedTo: slug) }
                return version
            }
        }
        return merge
    }
}
