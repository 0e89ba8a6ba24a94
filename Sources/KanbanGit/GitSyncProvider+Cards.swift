import Foundation
import KanbanCore
import KanbanSubprocess

/// Tidying what plain `git merge`, `git pull` and `git rebase` can leave on a board, which ``BoardMerge`` never
/// does itself, so that every clone ends with the same board whoever merged how:
/// - a card in two places (both sides moved it, and git did not see the moves as renames): kept once, merged from
///   the copies, where the later version put it;
/// - two different cards with one slug in two columns (both sides added a card with the same title): the one added
///   later (its `created`; then its bytes) takes a new slug made from its `created` time;
/// - another card kept inside a card by the merge driver (``KeptText/Kind/otherCard``, when both sides added a card
///   under one name): made a card of its own, with a new slug made from its `created` time.
///
/// Every rule depends on the files alone, so clones that tidy the same board make the same commit.
extension GitSyncProvider {
    /// Tidies the board (see above) and returns what it did and the change to commit.
    func tidy() throws(SyncError) -> ([CardResolution], BoardChange) {
        let snapshot: BoardSnapshot
        do {
            snapshot = try store.load(.all)
        } catch {
            throw SyncError(.gitFailed, "cannot read the board after the pull: \(error.message)")
        }
        var resolutions: [CardResolution] = []
        var written: [String] = []
        var removed: [String] = []
        var taken = Set(snapshot.cards.map { Slug.collisionKey($0.slug) })
        func write(_ bytes: [UInt8], to path: String) throws(SyncError) {
            do throws(KanbanError) {
                try store.openRoot().write(bytes, to: path)
            } catch {
                throw SyncError(.gitFailed, "cannot write '\(path)': \(error.message)")
            }
            written.append(path)
        }
        func newSlug(from slug: String, card: [UInt8]) -> String {
            let slug = BoardMerge.newSlug(for: slug, card: card) { taken.contains(Slug.collisionKey($0)) }
            taken.insert(Slug.collisionKey(slug))
            return slug
        }

        // Cards kept inside cards.
        for finding in snapshot.findings where finding.code == .keptCard {
            let path = finding.location.path
            guard let file = BoardPath(path)?.card, let bytes = try? store.openRoot().read(path),
                  let split = KeptText.splittingCards(bytes, at: file, newSlug: newSlug(from:card:)) else { continue }
            try write(split.host, to: path)
            for card in split.cards {
                try write(card.bytes, to: card.path)
                resolutions.append(CardResolution(slug: file.slug, keptPath: card.path, removedPaths: [], kind: .split, newSlug: card.slug))
            }
        }

        // Slugs in several places, at least one of them active. (Archived cards may share a slug with each other.)
        let groups = Dictionary(grouping: snapshot.cards, by: \.slug).filter { $0.value.count > 1 && $0.value.contains { !$0.isArchived } }
        let order = snapshot.columnIDs
        for (slug, cards) in groups.sorted(by: { $0.key.utf8Precedes($1.key) }) {
            // Copies of one card share its `created`; they are kept once. Two cards created in the same second are
            // told apart by the merge that brought them together.
            func identity(_ card: Card) -> String { card.created.map { String($0.timeIntervalSince1970) } ?? "?" + card.path }
            var groups: [[Card]] = []
            for (_, sameCreated) in Dictionary(grouping: cards, by: identity).sorted(by: { $0.key < $1.key }) {
                var rest = sameCreated.sorted { $0.path.utf8Precedes($1.path) }
                while let first = rest.first {
                    let apart = rest.dropFirst().filter { wereAddedApart(first.path, $0.path, slug: slug) }
                    groups.append(rest.filter { card in !apart.contains { $0.path == card.path } })
                    rest = apart
                }
            }
            var distinct: [BoardMerge.Version] = []
            for group in groups {
                var versions: [BoardMerge.Version] = []
                for copy in group.sorted(by: { $0.path.utf8Precedes($1.path) }) {
                    guard let bytes = try? store.contents(of: copy), let file = BoardPath(copy.path)?.card else { continue }
                    versions.append(BoardMerge.Version(path: copy.path, bytes: bytes, file: file))
                }
                guard var kept = versions.first else { continue }
                for other in versions.dropFirst() { kept = BoardMerge.keepOnce(kept, other, columnOrder: order) }
                if versions.count > 1 {
                    let others = versions.map(\.path).filter { $0 != kept.path }
                    for path in others {
                        try? store.openRoot().remove(path)
                        removed.append(path)
                    }
                    try write(kept.bytes, to: kept.path)
                    resolutions.append(CardResolution(slug: slug, keptPath: kept.path, removedPaths: others, kind: .keptOnce))
                }
                distinct.append(kept)
            }
            // Different active cards with one slug: the first added keeps it, the others get slugs of their own.
            let active = distinct.filter { !$0.file.isArchived }.sorted { lhs, rhs in
                lhs.bytes == rhs.bytes ? lhs.path.utf8Precedes(rhs.path) : BoardMerge.keepsSlug(lhs.bytes, over: rhs.bytes)
            }
            for card in active.dropFirst() {
                // Another clone may have renamed this very card already: merge into that rename, not make it twice.
                let stable = BoardMerge.newSlug(for: slug, card: card.bytes) { _ in false }
                let stablePath = BoardMerge.path(of: card.file, renamedTo: stable)
                if stablePath != card.path, let there = try? store.openRoot().read(stablePath),
                   let created = BoardMerge.createdTime(there), created == BoardMerge.createdTime(card.bytes),
                   !isTwin(renamedTo: stablePath, of: card.path, created: created) {
                    let merged = CardMerge.merge(base: [], ours: there, theirs: card.bytes, columnOrder: order)
                    try write(merged.bytes, to: stablePath)
                    try? store.openRoot().remove(card.path)
                    removed.append(card.path)
                    resolutions.append(CardResolution(slug: slug, keptPath: stablePath, removedPaths: [card.path], kind: .renamed, newSlug: stable))
                    continue
                }
                let renamed = newSlug(from: slug, card: card.bytes)
                let path = BoardMerge.path(of: card.file, renamedTo: renamed)
                try write(card.bytes, to: path)
                try? store.openRoot().remove(card.path)
                removed.append(card.path)
                resolutions.append(CardResolution(slug: slug, keptPath: path, removedPaths: [card.path], kind: .renamed, newSlug: renamed))
            }
        }
        written = written.filter { !removed.contains($0) }
        return (resolutions, BoardChange(card: nil, previous: nil, writtenPaths: written, removedPaths: removed))
    }

    /// Whether the card files `first` and `second` (one slug, relative to the board) are two cards added apart, not
    /// copies of one: the merge that brought them together joined a side holding only one with a side holding only
    /// the other, and the two sides' common version held no card with the slug; or a commit of its own (an add
    /// replayed by `git pull --rebase`) added one while the other was there, and removed no card with the slug.
    func wereAddedApart(_ first: String, _ second: String, slug: String) -> Bool {
        if wasAddedBeside(first, second, slug: slug) { return true }
        guard let log = try? git.run(["log", "--merges", "--format=%H %P", "-n", "50", "HEAD", "--", first, second], readOnly: true),
              log.succeeded else { return false }
        func has(_ commit: String, _ path: String) -> Bool {
            (try? git.run(["cat-file", "-e", "\(commit):./\(path)"], readOnly: true))?.succeeded == true
        }
        for line in log.lines {
            let hashes = line.split(separator: " ").map(String.init)
            guard hashes.count == 3 else { continue }
            let (left, right) = (hashes[1], hashes[2])
            let joined = (has(left, first) && !has(left, second) && has(right, second) && !has(right, first))
                || (has(left, second) && !has(left, first) && has(right, first) && !has(right, second))
            guard joined else { continue }
            guard let base = try? git.run(["merge-base", left, right], readOnly: true), base.succeeded, let common = base.lines.first,
                  let listing = try? git.run(["ls-tree", "-r", "--name-only", common, "--", "cards", "archive"], readOnly: true),
                  listing.succeeded else { return false }
            return !listing.lines.contains { BoardPath(String($0))?.card?.slug == slug }
        }
        return false
    }

    /// Whether the card at `renamed` is another card than the one at `path`, created in the same second under the same
    /// slug (same-second twins get the same slug from their `created` time): the commit that made `renamed` left a card
    /// created then at `path`. A card renamed elsewhere left its old path, and copies of it meet `renamed` only later.
    func isTwin(renamedTo renamed: String, of path: String, created: Date) -> Bool {
        guard let log = try? git.run(["log", "--format=%H %P", "-n", "50", "HEAD", "--", renamed], readOnly: true),
              log.succeeded else { return false }
        func bytes(_ commit: String, _ path: String) -> [UInt8]? {
            guard let shown = try? git.run(["cat-file", "blob", "\(commit):./\(path)"], readOnly: true), shown.succeeded else { return nil }
            return shown.output
        }
        for line in log.lines {
            let hashes = line.split(separator: " ").map(String.init)
            guard let commit = hashes.first, bytes(commit, renamed) != nil,
                  hashes.dropFirst().allSatisfy({ bytes($0, renamed) == nil }) else { continue }
            // The commit that made the renamed card.
            return bytes(commit, path).flatMap(BoardMerge.createdTime) == created
        }
        return false
    }

    /// Whether a card with the slug `slug` and the `created` time `created` is in the history of `commit` (the last 20
    /// commits there that changed a card with that slug, and the versions before them).
    func hadCard(_ slug: String, created: Date, before commit: String) -> Bool {
        guard let records = cardChanges(of: slug, in: [commit], format: "%H", changes: "--name-only", limit: 20) else { return false }
        for lines in records {
            guard let hash = lines.first else { continue }
            for path in lines.dropFirst() {
                for version in [String(hash), hash + "^"] {
                    guard let shown = try? git.run(["cat-file", "blob", "\(version):./\(path)"], readOnly: true), shown.succeeded else { continue }
                    if BoardMerge.createdTime(shown.output) == created { return true }
                }
            }
        }
        return false
    }

    /// Whether a commit with one parent added `first` or `second` while the other was in its parent, removing no card
    /// with the slug (so it was no move whose other half git had already made), and its message does not say, in
    /// kanban's words, that it changed the card rather than added it (a move a plain rebase replayed as an add,
    /// where the card had gone elsewhere meanwhile, is the card again, not a second one).
    private func wasAddedBeside(_ first: String, _ second: String, slug: String) -> Bool {
        guard let records = cardChanges(of: slug, in: ["HEAD"], format: "%H %P%n%B", changes: "--name-status", limit: 50) else { return false }
        for lines in records {
            let hashes = lines.first?.split(separator: " ").map(String.init) ?? []
            guard hashes.count == 2 else { continue }
            var added: Set<String> = []
            var removed = false
            for line in lines.dropFirst() {
                let fields = line.split(separator: "\t", maxSplits: 1)
                guard fields.count == 2 else { continue }
                if fields[0] == "A" { added.insert(String(fields[1])) }
                if fields[0] == "D" { removed = true }
            }
            guard !removed, !Self.saysChangedNotAdded(slug, message: lines.dropFirst()) else { continue }
            func has(_ path: String) -> Bool { (try? git.run(["cat-file", "-e", "\(hashes[1]):./\(path)"], readOnly: true))?.succeeded == true }
            if (added.contains(second) && has(first)) || (added.contains(first) && has(second)) { return true }
        }
        return false
    }

    /// Whether a commit message kanban wrote says the card `slug` was changed (moved, edited ...) and not added: a
    /// line `- <what> [slug]` of a message about several cards that is no `Add`, or the subject of a message about
    /// that card alone (`Card: slug` its only card trailer) that is no `Add`. False when the message does not say.
    static func saysChangedNotAdded(_ slug: String, message lines: some Sequence<Substring>) -> Bool {
        let lines = Array(lines)
        let named = lines.filter { $0.hasPrefix("- ") && $0.hasSuffix(" [\(slug)]") }
        if !named.isEmpty { return !named.contains { $0.hasPrefix("- Add \"") } }
        let cards = lines.filter { $0.hasPrefix("Card: ") }
        guard cards == ["Card: \(slug)"], let subject = lines.first, !subject.hasPrefix("- ") else { return false }
        return !subject.hasPrefix("Add \"")
    }
}
