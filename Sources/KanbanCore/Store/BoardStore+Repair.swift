/// One change ``BoardStore/repair()`` made.
public struct Repair: Sendable, Hashable {
    /// The problem it fixed.
    public var code: Diagnostic.Code
    /// The file it rewrote, relative to the board.
    public var path: String
    /// What it did, in a few words (`set column: done`, `new position a0V`).
    public var summary: String
}

extension BoardStore {
    /// Repairs what is safe to repair, touching as few files as possible and keeping the order people see:
    /// stale `column:` fields are set to the directory's column; cards without frontmatter get one; within each
    /// column, cards whose position is missing, over-long or a duplicate of the previous card's are given new keys
    /// between their neighbours (widening to neighbours only when no short key fits).
    /// Labels written in quotes (`["2024"]`, and the `["\"2024\""]` earlier versions made of it) are written as the
    /// ids they stand for, in active and archived cards.
    /// Cards the merge driver kept inside another card become cards of their own again (the one created first keeps
    /// the slug; the other takes one made from its `created` time).
    /// Files that cannot be parsed, undeclared columns and labels, duplicate slugs, conflict markers and text a
    /// merge kept are left for a person.
    /// - Returns: What was repaired, one entry per fixed problem, and the paths written.
    public func repair() throws(KanbanError) -> (repairs: [Repair], change: BoardChange) {
        try withLock { () throws(KanbanError) -> (repairs: [Repair], change: BoardChange) in
            let snapshot = try load(.all)
            var repairs: [Repair] = []
            var newKeys: [String: String] = [:]
            for id in snapshot.columnIDs {
                let cards = snapshot.cards(inColumn: id)
                for (index, key) in Self.repairedKeys(cards.map(\.position)) {
                    newKeys[cards[index].path] = key
                }
            }
            let root = try openRoot()
            var transaction = BoardTransaction("repair the board")
            for card in snapshot.cards {
                guard let file = card.isArchived ? BoardPath(card.path)?.card : CardFile.active(name: card.slug + ".md", column: card.column)
                else { continue }
                let stale = !card.isArchived && card.columnField.map { $0 != card.column } ?? false
                let key = newKeys[card.path]
                let labels = Self.unquotedLabels(card.labels)
                guard stale || key != nil || labels != nil || (!card.hasFrontmatter && !card.isArchived) else { continue }
                let (current, loaded, bytes) = try readCard(file, includeBody: false, in: root)
                var document = loaded
                if !current.hasFrontmatter {
                    completeFrontmatter(&document, card: current)
                    let now = timestamp()
                    document.setValue(.unquoted(now), forKey: "created")
                    document.setValue(.unquoted(now), forKey: "modified")
                    document.setValue(.list([]), forKey: "labels")
                    repairs.append(Repair(code: .missingFrontmatter, path: file.path, summary: "added frontmatter"))
                } else if stale {
                    document.setValue(.string(card.column), forKey: "column")
                    repairs.append(Repair(code: .staleColumn, path: file.path,
                                          summary: "set column: \(card.column) (was \(current.columnField ?? ""))"))
                }
                if labels != nil, let repaired = Self.unquotedLabels(current.labels) {
                    document.setValue(.list(repaired.map { .string($0) }), forKey: "labels")
                    repairs.append(Repair(code: .quotedLabel, path: file.path,
                                          summary: "labels [\(current.labels.joined(separator: ", "))] → [\(repaired.joined(separator: ", "))]"))
                }
                if let key {
                    let code: Diagnostic.Code = current.position == nil ? .missingPosition
                        : OrderKey.isOverLong(current.position ?? "") ? .overLongKey : .duplicatePosition
                    document.setValue(.string(key), forKey: "position")
                    if current.hasFrontmatter {
                        repairs.append(Repair(code: code, path: file.path, summary: "position \(current.position ?? "(none)") → \(key)"))
                    }
                }
                transaction.write(document.bytes(), to: file.path, replacing: bytes)
            }
            splitKeptCards(snapshot, in: root, into: &transaction, repairs: &repairs)
            try apply(transaction, in: root)
            repairs += BoardChecks.removeLeftovers(in: root, board: snapshot.board, columnIDs: snapshot.columnIDs)
            return (repairs, BoardChange(card: nil, previous: nil, transaction: transaction))
        }
    }

    /// Splits the cards kept inside other cards (see ``KeptText/splittingCards(_:at:newSlug:)``) into `transaction`.
    private func splitKeptCards(_ snapshot: BoardSnapshot, in root: BoardRoot, into transaction: inout BoardTransaction,
                                repairs: inout [Repair]) {
        var taken = Set(snapshot.cards.map { Slug.collisionKey($0.slug) })
        for finding in snapshot.findings where finding.code == .keptCard {
            let path = finding.location.path
            guard let file = BoardPath(path)?.card, let bytes = try? root.read(path) else { continue }
            let current = transaction.contents(of: path) ?? bytes
            let split = KeptText.splittingCards(current, at: file) { slug, card in
                let unique = BoardMerge.newSlug(for: slug, card: card) { taken.contains(Slug.collisionKey($0)) }
                taken.insert(Slug.collisionKey(unique))
                return unique
            }
            guard let split else { continue }
            transaction.write(split.host, to: path, replacing: bytes)
            for card in split.cards {
                transaction.write(card.bytes, to: card.path, replacing: nil)
                repairs.append(Repair(code: .keptCard, path: card.path, summary: "split out of \(path)"))
            }
        }
    }

    /// `labels` with each label written in quotes (``AppDialect/unquotedLabel(_:)``) turned into the id it stands
    /// for, and a label then given twice kept once; nil when no label is in quotes.
    static func unquotedLabels(_ labels: [String]) -> [String]? {
        guard labels.contains(where: { AppDialect.unquotedLabel($0) != nil }) else { return nil }
        var seen: Set<String> = []
        return labels.map { AppDialect.unquotedLabel($0) ?? $0 }.filter { seen.insert($0).inserted }
    }

    /// New keys for the cards of one column (by index) so that all keys are present, not over-long and strictly
    /// increasing, keeping the current order and rewriting as few cards as possible.
    static func repairedKeys(_ keys: [String?]) -> [(Int, String)] {
        // Keep a card's key when it is usable and above the last kept key; the others form runs to re-key.
        var kept = Array(repeating: false, count: keys.count)
        var last: String?
        for (index, key) in keys.enumerated() {
            guard let key, !OrderKey.isOverLong(key) else { continue }
            if let last, !last.utf8Precedes(key) { continue }
            kept[index] = true
            last = key
        }
        var current = keys
        var result: [Int: String] = [:]
        var index = 0
        while index < keys.count {
            guard !kept[index] else {
                index += 1
                continue
            }
            var start = index
            var end = index
            while end < keys.count && !kept[end] { end += 1 }
            // Widen the run over kept neighbours until short keys fit between the bounds.
            while true {
                let lower = start > 0 ? current[start - 1] : nil
                let upper = end < keys.count ? current[end] : nil
                if let fresh = OrderKey.keys(count: end - start, between: lower, upper) {
                    for (offset, key) in fresh.enumerated() where current[start + offset] != key {
                        current[start + offset] = key
                        result[start + offset] = key
                    }
                    break
                }
                if start > 0 { start -= 1 }
                if end < keys.count { end += 1 }
                if start == 0 && end == keys.count, OrderKey.keys(count: keys.count, between: nil, nil) == nil { break }
            }
            index = end
        }
        return result.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }
}
