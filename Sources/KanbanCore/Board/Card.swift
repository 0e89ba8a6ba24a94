import Foundation

/// One card: a markdown file in `cards/<column>/` or `archive/`.
///
/// The slug (the file name without `.md`) is the card's identity; changing the title does not rename the file.
/// It is also its ``id``: the store gives every card a slug no other card on the board uses (in any column or
/// the archive), and a move or an archiving keeps it, so a view that animates a card from column to column keys it
/// by slug. Two files with the same slug exist only when made by hand (`kanban doctor` reports them as
/// `duplicate-slug`); ``path`` tells such cards apart.
public struct Card: Sendable, Hashable, Identifiable, Codable {
    /// The file name without `.md` (for archived cards, without the `YYYY-MM-DD-` prefix too).
    public var slug: String
    /// The title: the `title:` field, else the first `# ` heading of the body, else made from the file name.
    public var title: String
    /// The column: for active cards the directory the file is in (the directory is the truth);
    /// for archived cards the `column:` field, the column it was archived from.
    public var column: String
    /// The `column:` field as written in the file, which may be stale after a hand-made `mv`.
    public var columnField: String?
    /// The ordering key within the column; `nil` when the file has none (such cards come last).
    public var position: String?
    /// When the card was made, if the file says.
    public var created: Date?
    /// When the card was last changed, if the file says.
    public var modified: Date?
    /// Label ids in file order.
    public var labels: [String]
    /// Every other frontmatter key, in file order, with its value (`due`, `assignee`, nested maps, ...).
    public var fields: [YAMLMapEntry]
    /// The path relative to the board directory, such as `cards/todo/fix-login.md`.
    public var path: String
    /// Whether the card lives in `archive/`.
    public var isArchived: Bool
    /// For archived cards, the `YYYY-MM-DD` date in the file name.
    public var archivedOn: String?
    /// Whether the file has frontmatter (files made by hand may not).
    public var hasFrontmatter: Bool
    /// The markdown body, when it was asked for; see ``BoardStore/body(of:)``.
    public var body: String?

    /// The card's identity: its ``slug``.
    public var id: String { slug }

    /// The value of another frontmatter key, such as `due`.
    public func field(_ key: String) -> YAMLValue? {
        fields.first { $0.key == key }?.value
    }

    /// The keys the format defines; everything else is kept in ``fields``.
    public static let knownKeys: Set<String> = ["title", "column", "position", "created", "modified", "labels"]
}

extension Card {
    /// A stand-in for the active card whose file at `path` (relative to the board) cannot be read, so that it can
    /// be shown in its place: slug and column from the path, the file name as title, no position (it sorts last).
    /// Nil when `path` is no active card's path.
    package init?(unreadableAt path: String) {
        guard let file = BoardPath(path)?.card, let column = file.directoryColumn else { return nil }
        self.init(slug: file.slug, title: file.slug + ".md", column: column, columnField: nil, position: nil, created: nil,
                  modified: nil, labels: [], fields: [], path: path, isArchived: false, archivedOn: nil, hasFrontmatter: false,
                  body: nil)
    }
}

extension Card {
    /// Board order inside a column: `position` compared byte by byte, cards without one last, ties broken by slug.
    public static func precedes(_ lhs: Card, _ rhs: Card) -> Bool {
        switch (lhs.position, rhs.position) {
        case let (left?, right?):
            if !left.utf8.elementsEqual(right.utf8) { return left.utf8Precedes(right) }
        case (.some, nil):
            return true
        case (nil, .some):
            return false
        case (nil, nil):
            break
        }
        if !lhs.slug.utf8.elementsEqual(rhs.slug.utf8) { return lhs.slug.utf8Precedes(rhs.slug) }
        return lhs.path.utf8Precedes(rhs.path)
    }
}
