import Foundation

/// Where a card is at some moment of its history.
public enum CardPlace: Sendable, Hashable {
    /// On the board, in the column with this id (as the board names it now: columns renamed since are followed).
    case column(String)
    /// In `archive/`.
    case archived
    /// Deleted.
    case deleted

    /// The column id, when the card is on the board.
    public var column: String? {
        if case .column(let id) = self { return id }
        return nil
    }
}

/// One change of a card's place: made, moved, archived, unarchived, deleted or brought back.
public struct CardPlaceChange: Sendable, Hashable {
    /// The author date of the commit that made the change.
    public var time: Date
    /// The commit's full hash.
    public var commit: String
    /// Where the card was before; nil for the change that made it.
    public var from: CardPlace?
    /// Where the card is after.
    public var to: CardPlace
    /// Who made the commit; nil when not known.
    public var author: CommitAuthor?

    /// Creates a change.
    public init(time: Date, commit: String, from: CardPlace?, to: CardPlace, author: CommitAuthor? = nil) {
        self.time = time
        self.commit = commit
        self.from = from
        self.to = to
        self.author = author
    }

    /// What the change was: `created`, `moved`, `archived`, `unarchived`, `deleted` or `restored`.
    public var kind: String {
        switch (from, to) {
        case (nil, _): return "created"
        case (_, .deleted): return "deleted"
        case (_, .archived): return "archived"
        case (.deleted?, _): return "restored"
        case (.archived?, _): return "unarchived"
        default: return "moved"
        }
    }
}

/// One card's history as the board's commits tell it: every change of its place, oldest first.
public struct CardHistory: Sendable, Hashable {
    /// The card's slug now (or when it was deleted).
    public var slug: String
    /// Slugs the card had before, oldest first (a rename by hand, or by a sync that met two cards of one name).
    public var previousSlugs: [String]
    /// The title of its last version.
    public var title: String
    /// The labels of its last version.
    public var labels: [String]
    /// The changes of its place, in time order; the first made it.
    public var changes: [CardPlaceChange]
    /// For a card whose history begins in the archive, the column its `column:` field names.
    public var archivedFrom: String?

    /// Creates a card's history.
    public init(slug: String, previousSlugs: [String] = [], title: String, labels: [String] = [], changes: [CardPlaceChange],
                archivedFrom: String? = nil) {
        self.slug = slug
        self.previousSlugs = previousSlugs
        self.title = title
        self.labels = labels
        self.changes = changes
        self.archivedFrom = archivedFrom
    }

    /// The changes up to and including `time`.
    public func changes(through time: Date) -> ArraySlice<CardPlaceChange> {
        let end = changes.firstIndex { $0.time > time } ?? changes.endIndex
        return changes[..<end]
    }
}
