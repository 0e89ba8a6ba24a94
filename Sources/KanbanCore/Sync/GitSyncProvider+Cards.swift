import Foundation

/// Merging a card that two branches changed, by its slug rather than its path.
///
/// git merges files by path and guesses moves from content: a move that also changed a few lines of a small card can
/// look like a deletion plus an unrelated new file. A card's identity is its slug, so these functions find each
/// version of a card by slug wherever it is, merge the contents key by key (``CardMerge``) and pick one place:
/// - where one side moved the card and the other did not, the move wins;
/// - where both moved it to different places, the later version's place wins (the later `modified`; on a tie, the
///   column further along the board, the archive after every column), the same rule on every machine.
extension GitSyncProvider {
    /// One version of a card: its file (relative to the board) and the file's bytes.
    struct CardVersion: Sendable, Hashable {
        var path: String
        var bytes: [UInt8]
    }

    /// Whether a tree holds a card once, not at all, or more than once (different cards sharing a slug).
    enum CardPresence: Sendable {
        case absent
        case present(CardVersion)
        case ambiguous
    }

    /// The board's card files in `revision`, by slug, relative to the board.
    func cardPaths(at revision: String) throws(SyncError) -> [String: [String]] {
        let output = try git.check(["ls-tree", "-r", "--name-only", "-z", revision, "--", "."], readOnly: true)
        var result: [String: [String]] = [:]
        for path in output.records {
            if let file = BoardPath(path)?.card { result[file.slug, default: []].append(path) }
        }
        return result
    }

    /// The card `slug` in `revision`, given that tree's ``cardPaths(at:)``.
    func card(_ slug: String, in tree: [String: [String]], at revision: String) -> CardPresence {
        guard let paths = tree[slug], !paths.isEmpty else { return .absent }
        guard paths.count == 1, let output = try? git.run(["show", "\(revision):./\(paths[0])"], readOnly: true),
              output.succeeded else { return .ambiguous }
        return .present(CardVersion(path: paths[0], bytes: output.output))
    }

    /// The merge of two versions of one card and the one place to keep it; nil when they cannot be merged without a
    /// person: the bodies changed in the same lines, or they are two different cards that share a slug (no common
    /// version and different `created` times).
    func reconcile(base: CardVersion?, ours: CardVersion, theirs: CardVersion, columnOrder: [String]) throws(SyncError) -> CardVersion? {
        if ours == theirs { return ours }
        if base == nil && created(ours.bytes) != created(theirs.bytes) { return nil }
        let merged = try CardMerge.merge(base: base?.bytes ?? [], ours: ours.bytes, theirs: theirs.bytes, columnOrder: columnOrder,
                                         configuration: configuration)
        guard !merged.hasConflicts else { return nil }
        let path: String
        if ours.path == theirs.path {
            path = ours.path
        } else if let base, ours.path == base.path {
            path = theirs.path
        } else if let base, theirs.path == base.path {
            path = ours.path
        } else {
            path = CardMerge.prefersOurs(ranked(ours, columnOrder), ranked(theirs, columnOrder)) ? ours.path : theirs.path
        }
        var bytes = merged.bytes
        if let column = BoardPath(path)?.card?.directoryColumn, var document = try? FrontmatterDocument(bytes: bytes, dialect: .card),
           document.hasFrontmatter, document.value(forKey: "column")?.string != column {
            document.setValue(.string(column), forKey: "column")
            bytes = document.bytes()
        }
        return CardVersion(path: path, bytes: bytes)
    }

    /// The ranking data of a card version, its column taken from its place (the archive after every column).
    private func ranked(_ version: CardVersion, _ columnOrder: [String]) -> CardMerge.Version {
        let document = try? FrontmatterDocument(bytes: version.bytes, dialect: .card)
        let modified = document?.value(forKey: "modified")?.string.flatMap(ISO8601.date(from:))
        let rank: Int
        if let file = BoardPath(version.path)?.card {
            rank = file.directoryColumn.map { columnOrder.firstIndex(of: $0) ?? -1 } ?? columnOrder.count
        } else {
            rank = -1
        }
        return CardMerge.Version(modified: modified, columnRank: rank, bytes: version.bytes)
    }

    private func created(_ bytes: [UInt8]) -> Date? {
        (try? FrontmatterDocument(bytes: bytes, dialect: .card))?.value(forKey: "created")?.string.flatMap(ISO8601.date(from:))
    }

    // MARK: During a rebase

    /// Resolves a rebase stopped on conflicts that are all in card files: each card is merged from the commit being
    /// replayed, its parent and the new base, by slug, and kept in one place. Returns nil, having changed nothing,
    /// when any conflict is in another file or cannot be merged without a person.
    func resolveCardConflicts(_ unmerged: [UnmergedEntry]) throws(SyncError) -> [CardResolution]? {
        guard let repository = try repository() else { return nil }
        var conflicted: [String: [String]] = [:]
        for entry in unmerged {
            guard let path = repository.boardRelative(entry.path), let file = BoardPath(path)?.card else { return nil }
            conflicted[file.slug, default: []].append(path)
        }
        guard try resolves("REBASE_HEAD"), try resolves("REBASE_HEAD^") else { return nil }
        let theirsRevision = try revision("REBASE_HEAD")
        let baseRevision = try revision("REBASE_HEAD^")
        let oursTree = try cardPaths(at: "HEAD")
        let theirsTree = try cardPaths(at: theirsRevision)
        let baseTree = try cardPaths(at: baseRevision)
        let order = (try? store.loadBoard())?.columns.map(\.id) ?? []

        var plans: [(slug: String, kept: CardVersion, removed: [String], moved: Bool)] = []
        for (slug, paths) in conflicted.sorted(by: { $0.key.utf8Precedes($1.key) }) {
            guard case .present(let ours) = card(slug, in: oursTree, at: "HEAD"),
                  case .present(let theirs) = card(slug, in: theirsTree, at: theirsRevision) else { return nil }
            var base: CardVersion?
            switch card(slug, in: baseTree, at: baseRevision) {
            case .present(let version): base = version
            case .absent: base = nil
            case .ambiguous: return nil
            }
            guard let kept = try reconcile(base: base, ours: ours, theirs: theirs, columnOrder: order) else { return nil }
            var removed = Set(paths + [ours.path, theirs.path] + (base.map { [$0.path] } ?? []))
            removed.remove(kept.path)
            plans.append((slug, kept, removed.sorted { $0.utf8Precedes($1) }, ours.path != theirs.path))
        }
        for plan in plans {
            try write(plan.kept)
            if !plan.removed.isEmpty {
                try git.runTakingIndexLock(["rm", "--quiet", "--cached", "--ignore-unmatch", "--"] + plan.removed, literalPaths: true)
                    .requireSuccess(git, "rm")
                for path in plan.removed { try? store.openRoot().remove(path) }
            }
            try git.runTakingIndexLock(["add", "--", plan.kept.path], literalPaths: true).requireSuccess(git, "add")
        }
        return plans.map { CardResolution(slug: $0.slug, keptPath: $0.kept.path, removedPaths: $0.moved ? $0.removed : []) }
    }

    private func write(_ version: CardVersion) throws(SyncError) {
        do throws(KanbanError) {
            try store.openRoot().write(version.bytes, to: version.path)
        } catch {
            throw SyncError(.gitFailed, "cannot write '\(version.path)': \(error.message)")
        }
    }

    // MARK: After a pull

    /// Keeps each card that is now in several places (one slug, one `created` time: one card that two branches moved
    /// differently, where git saw no move and so no conflict) once: merged from the copies and their version at
    /// `base` (the merge base of the pull), in the place the rules above choose. Cards that only share a slug
    /// (different `created`) are different cards, left for a person (`kanban doctor` reports them), and so are
    /// copies the pull did not touch (a person's deliberate copy).
    /// - Parameters:
    ///   - slugs: The cards the pull changed.
    ///   - revision: The merge base of the pull.
    func keepDuplicatedCardsOnce(_ slugs: Set<String>, base revision: String?) throws(SyncError) -> ([CardResolution], BoardChange) {
        guard !slugs.isEmpty else { return ([], BoardChange(card: nil, previous: nil, writtenPaths: [], removedPaths: [])) }
        return try exclusively { () throws(SyncError) -> ([CardResolution], BoardChange) in try keepOnce(slugs, base: revision) }
    }

    private func keepOnce(_ slugs: Set<String>, base revision: String?) throws(SyncError) -> ([CardResolution], BoardChange) {
        let snapshot: BoardSnapshot
        do {
            snapshot = try store.load(.all)
        } catch {
            throw SyncError(.gitFailed, "cannot read the board after the pull: \(error.message)")
        }
        let copies = Dictionary(grouping: snapshot.cards.filter { slugs.contains($0.slug) }, by: \.slug).filter { $0.value.count > 1 }
        var resolutions: [CardResolution] = []
        var written: [String] = []
        var removed: [String] = []
        guard !copies.isEmpty else { return ([], BoardChange(card: nil, previous: nil, writtenPaths: [], removedPaths: [])) }
        let baseTree = try revision.map { revision throws(SyncError) in try cardPaths(at: revision) } ?? [:]
        let order = snapshot.columnIDs
        for (slug, cards) in copies.sorted(by: { $0.key.utf8Precedes($1.key) }) {
            guard let created = cards[0].created, cards.allSatisfy({ $0.created == created }) else { continue }
            var versions: [CardVersion] = []
            for card in cards {
                guard let bytes = try? store.contents(of: card) else { continue }
                versions.append(CardVersion(path: card.path, bytes: bytes))
            }
            guard var kept = versions.first else { continue }
            var base: CardVersion?
            if let revision, case .present(let version) = card(slug, in: baseTree, at: revision) { base = version }
            for other in versions.dropFirst() {
                if let merged = try reconcile(base: base, ours: kept, theirs: other, columnOrder: order) {
                    kept = merged
                } else if !CardMerge.prefersOurs(ranked(kept, order), ranked(other, order)) {
                    kept = other
                }
            }
            try write(kept)
            let others = versions.map(\.path).filter { $0 != kept.path }
            for path in others { try? store.openRoot().remove(path) }
            written.append(kept.path)
            removed += others
            resolutions.append(CardResolution(slug: slug, keptPath: kept.path, removedPaths: others))
        }
        return (resolutions, BoardChange(card: nil, previous: nil, writtenPaths: written, removedPaths: removed))
    }
}
