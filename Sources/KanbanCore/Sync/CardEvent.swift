/// One thing that happened to a card, as a commit message or a status line tells it: added, moved, edited, ...
///
/// Made from a ``BoardChange`` (what a command just did) or from the difference between the last commit and the
/// working tree (what is not committed yet).
public struct CardEvent: Sendable, Hashable, Codable {
    /// What happened.
    public enum Kind: String, Sendable, Hashable, CaseIterable, Codable {
        /// A new card.
        case added
        /// The card changed column.
        case moved
        /// The card changed place within its column (only its `position` changed).
        case reordered
        /// The card's title, labels, body or other fields changed.
        case edited
        /// The card went to the archive.
        case archived
        /// The card came back from the archive.
        case unarchived
        /// The card's file was removed.
        case deleted
    }

    /// What happened.
    public var kind: Kind
    /// The card's slug.
    public var slug: String
    /// The card's title (as it is now; before, for a deleted card).
    public var title: String
    /// The column the card is in now; for archived and deleted cards, the column it was in.
    public var column: String
    /// For moved cards, the column it came from.
    public var previousColumn: String?
    /// The card's file now, relative to the board; for deleted cards, the file it was.
    public var path: String
    /// The file the card was in before, when that is another file (moved, archived, unarchived).
    public var previousPath: String?
    /// For edited cards: what changed, such as `title`, `labels`, `body`, `due`.
    public var changedFields: [String]

    /// Creates an event.
    public init(kind: Kind, slug: String, title: String, column: String, previousColumn: String? = nil, path: String,
                previousPath: String? = nil, changedFields: [String] = []) {
        self.kind = kind
        self.slug = slug
        self.title = title
        self.column = column
        self.previousColumn = previousColumn
        self.path = path
        self.previousPath = previousPath
        self.changedFields = changedFields
    }

    /// The event a store operation's change describes; nil for board-level changes (columns, labels, repairs),
    /// which carry no card, and for changes that touched no file.
    public init?(_ change: BoardChange) {
        guard !change.paths.isEmpty else { return nil }
        switch (change.previous, change.card) {
        case (nil, let card?):
            self.init(kind: .added, slug: card.slug, title: card.title, column: card.column, path: card.path)
        case (let previous?, nil):
            self.init(kind: .deleted, slug: previous.slug, title: previous.title, column: previous.column, path: previous.path)
        case (let previous?, let card?):
            let kind: Kind
            var fields: [String] = []
            if !previous.isArchived && card.isArchived {
                kind = .archived
            } else if previous.isArchived && !card.isArchived {
                kind = .unarchived
            } else if previous.column != card.column {
                kind = .moved
            } else {
                fields = Self.changedFields(from: previous, to: card)
                kind = fields == ["position"] ? .reordered : .edited
                if kind == .reordered { fields = [] }
            }
            self.init(kind: kind, slug: card.slug, title: card.title, column: card.isArchived ? previous.column : card.column,
                      previousColumn: kind == .moved ? previous.column : nil, path: card.path,
                      previousPath: previous.path == card.path ? nil : previous.path, changedFields: fields)
        case (nil, nil):
            return nil
        }
    }

    /// Every file the event concerns: the card's file now and before.
    public var paths: [String] {
        [path] + (previousPath.map { [$0] } ?? [])
    }

    /// What changed between two versions of a card, by key (`title`, `labels`, `position`, other keys) and `body`;
    /// `modified` and `column` are left out.
    package static func changedFields(from old: Card, to new: Card) -> [String] {
        var fields: [String] = []
        if old.title != new.title { fields.append("title") }
        if old.labels != new.labels { fields.append("labels") }
        if old.position != new.position { fields.append("position") }
        if let before = old.body, let after = new.body, before != after { fields.append("body") }
        var keys: [String] = []
        for entry in old.fields + new.fields where !keys.contains(entry.key) { keys.append(entry.key) }
        for key in keys where !sameValue(old.field(key), new.field(key)) { fields.append(key) }
        if old.created != new.created { fields.append("created") }
        return fields
    }
}

/// Whether two frontmatter values hold the same data, whatever their quoting or list style.
func sameValue(_ lhs: YAMLValue?, _ rhs: YAMLValue?) -> Bool {
    switch (lhs, rhs) {
    case (nil, nil):
        return true
    case (.scalar(let left)?, .scalar(let right)?):
        return left.value == right.value
    case (.list(let left)?, .list(let right)?):
        return left.count == right.count && zip(left, right).allSatisfy { sameValue($0, $1) }
    case (.map(let left)?, .map(let right)?):
        return left.count == right.count && zip(left, right).allSatisfy { $0.key == $1.key && sameValue($0.value, $1.value) }
    default:
        return false
    }
}
