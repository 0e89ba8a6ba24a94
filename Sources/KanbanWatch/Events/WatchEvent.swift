import Foundation
import KanbanCore

/// One change to the board, at the level of cards, as a watcher reports it once the files have settled.
///
/// Raw file-system notifications are only hints: the watcher re-reads what they point at and compares it
/// with its own index of the board, so that an editor's save (temporary files, renames, backups) is one
/// ``Kind/modified`` and a `touch` that changes nothing is no event at all.
///
/// Which properties are set depends on ``kind``:
///
/// | kind | slug, title, column, path | from → to | changes | message |
/// | --- | --- | --- | --- | --- |
/// | `created` | the new card | | | |
/// | `modified` | the card | | what changed | |
/// | `moved` | the card, in its new column | old column → new column | what changed besides | |
/// | `renamed` | the card, under its new slug | old slug → new slug | what changed besides | |
/// | `deleted` | the card as last seen | | | |
/// | `archived` | the card, at its `archive/` path; `column` is where it was | column → | | |
/// | `unarchived` | the card, back in a column | → column | | |
/// | `invalid` | the file (slug and column from its path) | | | the parse error |
/// | `board` | `path` is `board.md` | | what changed | |
/// | `column-added`, `column-removed` | `column` is the directory's name, `path` is `cards/<id>` | | | |
/// | `root-lost` | `path` is the board directory | | | why |
public struct WatchEvent: Sendable, Hashable, Codable {
    /// What happened.
    public enum Kind: String, Sendable, Hashable, CaseIterable, Codable {
        /// A card file appeared that matches no card that went away.
        case created
        /// A card's file changed; ``WatchEvent/changes`` says which parts.
        case modified
        /// A card went from one column directory to another (matched by slug or inode).
        case moved
        /// A card's file was renamed within its column (or within the archive).
        case renamed
        /// A card file went away and did not turn up elsewhere.
        case deleted
        /// A card went from a column to `archive/`.
        case archived
        /// A card came back from `archive/` to a column.
        case unarchived
        /// A card file (or `board.md`) that can no longer be parsed.
        case invalid
        /// `board.md` changed.
        case board
        /// A new directory under `cards/`.
        case columnAdded = "column-added"
        /// A directory under `cards/` went away.
        case columnRemoved = "column-removed"
        /// The board directory itself went away; the watcher stops after reporting it.
        case rootLost = "root-lost"
    }

    /// Which parts of a card (or of `board.md`) changed.
    public struct Changes: OptionSet, Sendable, Hashable, Codable {
        public let rawValue: Int
        /// Creates a set of changes from its raw value.
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// The `title:` (or for `board.md`, the board title).
        public static let title = Changes(rawValue: 1 << 0)
        /// The `labels:` (or the labels `board.md` declares).
        public static let labels = Changes(rawValue: 1 << 1)
        /// The `position:` ordering key.
        public static let position = Changes(rawValue: 1 << 2)
        /// The markdown body.
        public static let body = Changes(rawValue: 1 << 3)
        /// Frontmatter keys the format does not define (`due`, `assignee`, ...).
        public static let fields = Changes(rawValue: 1 << 4)
        /// The `column:` field.
        public static let columnField = Changes(rawValue: 1 << 5)
        /// The `created:` or `modified:` timestamps.
        public static let timestamps = Changes(rawValue: 1 << 6)
        /// Only the bytes: quoting, comments, line endings, frontmatter added around the same values.
        public static let formatting = Changes(rawValue: 1 << 7)
        /// The columns `board.md` declares.
        public static let columns = Changes(rawValue: 1 << 8)

        /// Every change with its name, in the order names are listed.
        public static let named: [(Changes, String)] = [
            (.title, "title"), (.labels, "labels"), (.position, "position"), (.body, "body"), (.fields, "fields"),
            (.columnField, "column"), (.timestamps, "timestamps"), (.formatting, "formatting"), (.columns, "columns"),
        ]

        /// The names of the changes in the set: `["title", "labels"]`.
        public var names: [String] {
            Self.named.compactMap { contains($0.0) ? $0.1 : nil }
        }
    }

    /// What happened.
    public var kind: Kind
    /// The card's slug (the file name without `.md`, and for archived cards without the date).
    public var slug: String?
    /// The card's title, or for a deleted card its title as last seen.
    public var title: String?
    /// The column the card is in (for archived cards, the column it was archived from).
    public var column: String?
    /// Where it came from: the old column for `moved` and `archived`, the old slug for `renamed`.
    public var from: String?
    /// Where it went: the new column for `moved` and `unarchived`, the new slug for `renamed`.
    public var to: String?
    /// The file's path relative to the board directory (the new path for moves and renames).
    public var path: String?
    /// The old path for `moved`, `renamed`, `archived` and `unarchived`.
    public var previousPath: String?
    /// Which parts changed, for `modified`, `moved`, `renamed`, `archived`, `unarchived` and `board`.
    public var changes: Changes
    /// For `invalid` and `root-lost`: what is wrong, one lowercase sentence.
    public var message: String?
    /// For `invalid`: where, with a 1-based line and column when the parser knows them.
    public var location: SourceLocation?
    /// The card as it is now (or as last seen, for `deleted`), without its body.
    public var card: Card?
    /// When the watcher reported the event.
    public var time: Date

    /// Creates an event.
    public init(_ kind: Kind, slug: String? = nil, title: String? = nil, column: String? = nil, from: String? = nil,
                to: String? = nil, path: String? = nil, previousPath: String? = nil, changes: Changes = [],
                message: String? = nil, location: SourceLocation? = nil, card: Card? = nil, time: Date = Date()) {
        self.kind = kind
        self.slug = slug
        self.title = title
        self.column = column
        self.from = from
        self.to = to
        self.path = path
        self.previousPath = previousPath
        self.changes = changes
        self.message = message
        self.location = location
        self.card = card
        self.time = time
    }
}

extension WatchEvent: CustomStringConvertible {
    /// A one-line summary for logs and test failures: `moved fix-login todo → done`.
    public var description: String {
        var parts = [kind.rawValue]
        if let slug { parts.append(slug) } else if let path { parts.append(path) }
        if from != nil || to != nil { parts.append("\(from ?? "") → \(to ?? "")") }
        if !changes.isEmpty { parts.append("[\(changes.names.joined(separator: ", "))]") }
        if let message { parts.append(message) }
        return parts.joined(separator: " ")
    }
}
