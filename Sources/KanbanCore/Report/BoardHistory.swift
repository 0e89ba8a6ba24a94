import Foundation

/// Every card's history, worked out from one pass over the board's commits (``HistoryLog``).
///
/// A card is followed by its file's versions: a commit that changes a file whose previous version belonged to a card
/// continues that card, so two cards that once shared a slug (added on two clones, one renamed by the sync that met
/// them) keep separate histories, and a card renamed keeps its own. Within one commit a card removed from one place
/// and added at another under the same slug has moved (`git mv`, an editor, many cards at once, an archive); added under
/// another slug with the same bytes, or under the slug with a `-suffix`, it was renamed. A merge is read for what it
/// decided itself (a card it renamed or merged); what a side brought in counts at that side's commit. Columns renamed
/// in `board.md` (an id replaced by another at the same place, or keeping its name) are followed to their id now.
package struct BoardHistory: Sendable {
    /// The cards, in the order their history began.
    package var cards: [CardHistory]
    /// Column ids renamed in `board.md`, old id to the id now.
    package var columnRenames: [String: String]

    /// Works out the histories.
    /// - Parameters:
    ///   - log: The board's commits.
    ///   - read: Reads git objects by id (a `git cat-file --batch`); called twice, once for `board.md`'s versions and
    ///     once for each card's last version. An object it does not return is taken as unreadable.
    package init(_ log: HistoryLog, read: (Set<String>) throws -> [String: [UInt8]]) rethrows {
        try self.init(log, boardColumns: { objects in try read(objects).compactMapValues(Self.columns(boardFile:)) },
                      cardVersions: { objects in try read(objects).compactMapValues(CardVersionSummary.init(bytes:)) })
    }

    /// Works out the histories from what was read of the objects before (the history cache keeps it).
    /// - Parameters:
    ///   - log: The board's commits.
    ///   - boardColumns: The columns of versions of `board.md` by object id (``columns(boardFile:)``); an object it
    ///     does not return is taken as unreadable.
    ///   - cardVersions: What the history needs of card files' versions by object id (each card's last one).
    package init(_ log: HistoryLog, boardColumns: (Set<String>) throws -> [String: [Column]],
                 cardVersions: (Set<String>) throws -> [String: CardVersionSummary]) rethrows {
        // board.md's versions, for column renames.
        var boardObjects: Set<String> = []
        for commit in log.commits {
            for change in commit.changes where change.path == BoardFile.path {
                boardObjects.formUnion(change.before.compactMap { $0 })
                if let after = change.after { boardObjects.insert(after) }
            }
        }
        let columns = boardObjects.isEmpty ? [:] : try boardColumns(boardObjects)
        var renames: [String: String] = [:]
        for commit in log.commits {
            for change in commit.changes where change.path == BoardFile.path {
                guard let after = change.after.flatMap({ columns[$0] }) else { continue }
                for before in change.before.compactMap({ $0.flatMap { columns[$0] } }) {
                    for (old, new) in Self.renamedColumns(from: before, to: after) where renames[old] == nil { renames[old] = new }
                }
            }
        }
        var builder = Builder(renames: renames)
        for (index, commit) in log.commits.enumerated() { builder.read(commit, index: index) }
        let lastObjects = Set(builder.cards.compactMap(\.lastObject))
        let versions = lastObjects.isEmpty ? [:] : try cardVersions(lastObjects)
        cards = builder.cards.map { card in card.history(version: card.lastObject.flatMap { versions[$0] }, renames: builder) }
        columnRenames = Dictionary(uniqueKeysWithValues: renames.keys.map { ($0, builder.column($0)) })
    }

    /// The columns a version of `board.md` declares (only their ids and names count); nil when it cannot be read.
    package static func columns(boardFile bytes: [UInt8]) -> [Column]? {
        (try? BoardFile(bytes: bytes))?.board.columns
    }

    /// The columns of `old` that `new` gives another id: each id that went away is paired with a new id of the same
    /// name, else with the new id at its place in the list.
    static func renamedColumns(from old: [Column], to new: [Column]) -> [(String, String)] {
        let oldIDs = Set(old.map(\.id))
        let newIDs = Set(new.map(\.id))
        let gone = old.enumerated().filter { !newIDs.contains($0.element.id) }
        var arrived = new.enumerated().filter { !oldIDs.contains($0.element.id) }
        var pairs: [(String, String)] = []
        var unpaired: [(offset: Int, element: Column)] = []
        for column in gone {
            if let match = arrived.firstIndex(where: { $0.element.name == column.element.name }) {
                pairs.append((column.element.id, arrived.remove(at: match).element.id))
            } else {
                unpaired.append(column)
            }
        }
        for column in unpaired {
            if let match = arrived.firstIndex(where: { $0.offset == column.offset }) {
                pairs.append((column.element.id, arrived.remove(at: match).element.id))
            }
        }
        return pairs
    }
}

/// What ``BoardHistory`` needs of a version of a card file: its title, labels and `column:` field.
package struct CardVersionSummary: Sendable, Hashable {
    /// The title; nil when the file has none and the title is made from the file's name (``title(slug:)``).
    package var title: String?
    package var labels: [String]
    /// The `column:` field, as written.
    package var column: String?

    package init(title: String?, labels: [String], column: String?) {
        self.title = title
        self.labels = labels
        self.column = column
    }

    /// The summary of a card file's bytes; nil when they are no card.
    package init?(bytes: [UInt8]) {
        func read(slug: String) -> Card? {
            let file = CardFile.archived(name: slug + ".md")
            return CardReader.readPlain(bytes, file: file, includeBody: false)?.card
                ?? (try? CardReader.read(bytes, file: file, includeBody: false))?.0
        }
        // The same bytes can be two cards' (one renamed): a title made from the name is kept as no title.
        guard let card = read(slug: "a") else { return nil }
        let isFromName = card.title == CardReader.titleFromSlug("a") && read(slug: "b")?.title == CardReader.titleFromSlug("b")
        self.init(title: isFromName ? nil : card.title, labels: card.labels, column: card.columnField)
    }

    /// The card's title when its file is called `slug`.
    package func title(slug: String) -> String {
        title ?? CardReader.titleFromSlug(slug)
    }
}

extension BoardHistory {
    /// A card while the log is read.
    struct CardTrace {
        var slugs: [String]
        var observations: [Observation] = []
        var lastObject: String?

        /// Where a commit put the card.
        struct Observation {
            var time: Int64
            var index: Int
            var commit: String
            var author: CommitAuthor
            var place: CardPlace
            /// Whether the commit only changed the card where it was: that says nothing of its place unless the card
            /// was deleted meanwhile on another line of history (then a sync kept it, as changed after the delete).
            var isPresence = false
        }

        /// The finished history: observations in time order (commit order among equal times), kept where the place
        /// changed.
        func history(version: CardVersionSummary?, renames: Builder) -> CardHistory {
            let slug = slugs.last ?? ""
            var title = slug
            var labels: [String] = []
            var archivedFrom: String?
            if let version {
                title = version.title(slug: slug)
                labels = version.labels
                archivedFrom = version.column.map(renames.column)
            }
            let ordered = observations.sorted { ($0.time, $0.index) < ($1.time, $1.index) }
            var changes: [CardPlaceChange] = []
            for observation in ordered where changes.last?.to != observation.place {
                if observation.isPresence, let current = changes.last?.to, current != .deleted { continue }
                changes.append(CardPlaceChange(time: Date(timeIntervalSince1970: TimeInterval(observation.time)), commit: observation.commit,
                                               from: changes.last?.to, to: observation.place, author: observation.author))
            }
            let startsArchived = changes.first?.to == .archived
            return CardHistory(slug: slug, previousSlugs: Array(slugs.dropLast()), title: title, labels: labels, changes: changes,
                               archivedFrom: startsArchived ? archivedFrom : nil)
        }
    }

    /// Reads commits one by one, oldest first.
    struct Builder {
        let renames: [String: String]
        var cards: [CardTrace] = []
        /// The card each known version of a card file belongs to.
        var owner: [String: Int] = [:]
        /// The card that last held each slug.
        var holder: [String: Int] = [:]

        /// The id a column has now, following renames.
        func column(_ id: String) -> String {
            var id = id
            var steps = 0
            while let next = renames[id], next != id, steps < 64 {
                id = next
                steps += 1
            }
            return id
        }

        func place(_ file: CardFile) -> CardPlace {
            file.directoryColumn.map { .column(column($0)) } ?? .archived
        }

        /// The card a change continues: the owner of a version it started from, else the card that holds the slug.
        func card(before objects: [String?], slug: String) -> Int? {
            for object in objects { if let object, let card = owner[object] { return card } }
            return holder[slug]
        }

        mutating func observe(_ card: Int, _ place: CardPlace, commit: HistoryLog.Commit, index: Int, object: String?,
                              isPresence: Bool = false) {
            cards[card].observations.append(.init(time: commit.time, index: index, commit: commit.hash, author: commit.author, place: place,
                                                     isPresence: isPresence))
            if let object {
                owner[object] = card
                cards[card].lastObject = object
            }
        }

        mutating func newCard(_ slug: String) -> Int {
            cards.append(CardTrace(slugs: [slug]))
            holder[slug] = cards.count - 1
            return cards.count - 1
        }

        mutating func rename(_ card: Int, to slug: String) {
            guard cards[card].slugs.last != slug else { return }
            if let old = cards[card].slugs.last, holder[old] == card { holder[old] = nil }
            cards[card].slugs.append(slug)
            holder[slug] = card
        }

        mutating func read(_ commit: HistoryLog.Commit, index: Int) {
            typealias Entry = (file: CardFile, change: HistoryLog.FileChange)
            let entries: [Entry] = commit.changes.compactMap { change in BoardPath(change.path)?.card.map { ($0, change) } }
            guard !entries.isEmpty else { return }
            if commit.isMerge {
                readMerge(entries, commit: commit, index: index)
                return
            }
            var removed = entries.filter { $0.change.isDeleted }
            var added = entries.filter { $0.change.isAdded }
            for entry in entries where !entry.change.isDeleted && !entry.change.isAdded {
                let card = card(before: entry.change.before, slug: entry.file.slug) ?? newCard(entry.file.slug)
                observe(card, place(entry.file), commit: commit, index: index, object: entry.change.after, isPresence: true)
            }
            // A file removed and one added make a move (same slug) or a rename (same bytes, a suffixed slug, or the
            // only two left).
            var pairs: [(Entry, Entry)] = []
            func pair(_ matches: (Entry, Entry) -> Bool) {
                var index = 0
                while index < added.count {
                    if let match = removed.firstIndex(where: { matches($0, added[index]) }) {
                        pairs.append((removed.remove(at: match), added.remove(at: index)))
                    } else {
                        index += 1
                    }
                }
            }
            pair { $0.file.slug == $1.file.slug }
            pair { ($0.change.before.first ?? nil) == $1.change.after }
            pair { $1.file.slug.hasPrefix($0.file.slug + "-") }
            if removed.count == 1 && added.count == 1 { pair { _, _ in true } }
            for (old, new) in pairs {
                let card = card(before: old.change.before, slug: old.file.slug) ?? newCard(old.file.slug)
                rename(card, to: new.file.slug)
                observe(card, place(new.file), commit: commit, index: index, object: new.change.after)
            }
            for entry in removed {
                guard let card = card(before: entry.change.before, slug: entry.file.slug) else { continue }
                observe(card, .deleted, commit: commit, index: index, object: nil)
            }
            for entry in added {
                // A version seen before (a revert, a card put back as it was) brings its card back.
                let known = entry.change.after.flatMap { owner[$0] }
                let card = known.map { card in rename(card, to: entry.file.slug); return card } ?? newCard(entry.file.slug)
                observe(card, place(entry.file), commit: commit, index: index, object: entry.change.after)
            }
        }

        /// What a merge decided itself: a card it renamed (a version of a card under a new slug), a card it merged (a
        /// version none of its parents had), a card it added or removed. Places are not observed: where a card ended
        /// is where the latest of the sides' own changes put it.
        mutating func readMerge(_ entries: [(file: CardFile, change: HistoryLog.FileChange)], commit: HistoryLog.Commit, index: Int) {
            for (file, change) in entries {
                if change.isAdded {
                    if let card = change.after.flatMap({ owner[$0] }) {
                        rename(card, to: file.slug)
                    } else {
                        let card = newCard(file.slug)
                        observe(card, place(file), commit: commit, index: index, object: change.after)
                    }
                } else if change.isDeleted {
                    if let card = card(before: change.before, slug: file.slug) {
                        observe(card, .deleted, commit: commit, index: index, object: nil)
                    }
                } else if let card = card(before: change.before, slug: file.slug), let after = change.after {
                    owner[after] = card
                    cards[card].lastObject = after
                }
            }
        }
    }
}
