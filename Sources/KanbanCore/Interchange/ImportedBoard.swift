import Foundation

/// A board as an importer read it from another tracker's export, in the source's own terms (columns and labels by
/// name), before it is matched against a board on disk by ``ImportPlan``.
///
/// Every importer (``ImportFormat``) makes one of these from the source's bytes and nothing else: it reads no file,
/// so what it does is the same in a test, the CLI and an app.
public struct ImportedBoard: Sendable, Hashable {
    /// The source's format.
    public var format: ImportFormat
    /// The source's name for the board, if it has one (a Trello board's name, an Obsidian file's name).
    public var title: String?
    /// The source's columns in its order. Every card's column is one of these names.
    public var columns: [ImportedColumn]
    /// The labels the cards carry, each once, in the source's order.
    public var labels: [ImportedLabel]
    /// The cards, in the source's order within each column (the order they take on the board).
    public var cards: [ImportedCard]

    /// Creates a board.
    public init(format: ImportFormat, title: String? = nil, columns: [ImportedColumn] = [], labels: [ImportedLabel] = [],
                cards: [ImportedCard] = []) {
        self.format = format
        self.title = title
        self.columns = columns
        self.labels = labels
        self.cards = cards
    }
}

/// The sources `kanban import` reads.
public enum ImportFormat: String, Sendable, Hashable, CaseIterable {
    /// A Trello board's JSON export (Menu › Print, export and share › Export as JSON).
    case trello
    /// `gh issue list --json ...` or `gh project item-list --format json` output.
    case github
    /// A Backlog.md project: the `backlog` folder (tasks in `backlog/tasks/*.md`, done ones in `backlog/completed`).
    case backlog
    /// An Obsidian Kanban plugin board: one markdown file of `## Column` headings and `- [ ]` items.
    case obsidian
    /// A CSV table with a header row (this tool's `export csv` among others).
    case csv
    /// This tool's `export json`: an array of cards.
    case json
}

/// A column of an imported board.
public struct ImportedColumn: Sendable, Hashable {
    /// The name the source shows (`To Do`, `In progress`); the board's column id is made from it.
    public var name: String

    /// Creates a column.
    public init(name: String) {
        self.name = name
    }
}

/// A label of an imported board.
public struct ImportedLabel: Sendable, Hashable {
    /// The name the source shows; the label id is made from it.
    public var name: String
    /// A colour as `#rrggbb`, when the source gives one (an importer turns a named colour into this).
    public var color: String?

    /// Creates a label.
    public init(name: String, color: String? = nil) {
        self.name = name
        self.color = color
    }
}

/// A card of an imported board.
public struct ImportedCard: Sendable, Hashable {
    /// What names the card in the source, with the format before it (`trello:5f1a…`, `github:owner/repo#12`), kept in
    /// the card's `source` key so that a second import finds the card it made; nil for a source whose cards carry
    /// their own slug (this tool's exports), matched by ``slug``.
    public var sourceID: String?
    /// The slug to give the card, for a source that has one (this tool's exports); else made from the title.
    public var slug: String?
    /// The title.
    public var title: String
    /// The name of the card's column (one of ``ImportedBoard/columns``); empty for the board's first column.
    public var column: String
    /// The position to keep, for a source that has one (this tool's exports); else the card follows the one before.
    public var position: String?
    /// The names of its labels (each one of ``ImportedBoard/labels``).
    public var labels: [String]
    /// The markdown body (a checklist as `- [ ]`/`- [x]` task items).
    public var body: String
    /// Other frontmatter keys, in order: links back to the source (`url`), `due`, `assignees`...; never one of
    /// ``Card/knownKeys`` nor `source`.
    public var fields: [YAMLMapEntry]
    /// Whether the card is closed or archived in the source; it goes to `archive/`.
    public var isArchived: Bool
    /// The day it was archived, `YYYY-MM-DD`, which names its file in `archive/`; when nil, the day of ``modified``
    /// (else today).
    public var archivedOn: String?
    /// When the card was made, if the source says.
    public var created: Date?
    /// When it last changed (or was archived), if the source says.
    public var modified: Date?

    /// Creates a card.
    public init(sourceID: String?, slug: String? = nil, title: String, column: String, position: String? = nil,
                labels: [String] = [], body: String = "", fields: [YAMLMapEntry] = [], isArchived: Bool = false,
                archivedOn: String? = nil, created: Date? = nil, modified: Date? = nil) {
        self.sourceID = sourceID
        self.slug = slug
        self.title = title
        self.column = column
        self.position = position
        self.labels = labels
        self.body = body
        self.fields = fields
        self.isArchived = isArchived
        self.archivedOn = archivedOn
        self.created = created
        self.modified = modified
    }

    /// The key that holds ``sourceID`` in a card's frontmatter.
    public static let sourceKey = "source"
}

/// One file of a source that is a folder (a Backlog.md project), as read for an importer.
public struct ImportFile: Sendable, Hashable {
    /// The path inside the folder, with `/` between names (`tasks/task-1 - Fix the login.md`).
    public var path: String
    /// How errors name the file (the path as the user gave it, joined with ``path``).
    public var shownPath: String
    /// The file's bytes.
    public var bytes: [UInt8]

    /// Creates a file.
    public init(path: String, shownPath: String, bytes: [UInt8]) {
        self.path = path
        self.shownPath = shownPath
        self.bytes = bytes
    }
}
