/// A problem found in a board: a file that cannot be read, or a check that failed.
///
/// A person sees one line, in the format compilers use:
/// `cards/todo/a.md:3:1: error: frontmatter opened by '---' on line 1 is not closed`.
public struct Diagnostic: Sendable, Hashable, Codable {
    /// How serious a problem is.
    public enum Severity: String, Sendable, Hashable, Codable {
        /// The file is skipped or the board is inconsistent; `kanban doctor` fails.
        case error
        /// Worth fixing, but the board works.
        case warning
    }

    /// What kind of problem this is, so that tools can act on it (the fix tool, for one).
    public enum Code: String, Sendable, Hashable, Codable {
        /// A card file that cannot be parsed (bad UTF-8, unclosed or malformed frontmatter, bad known keys).
        case invalidFile = "invalid-file"
        /// `board.md` itself cannot be parsed or lacks a required key.
        case invalidBoard = "invalid-board"
        /// A card's `column:` field disagrees with the directory it lives in.
        case staleColumn = "stale-column"
        /// A directory under `cards/` that `board.md` does not declare.
        case undeclaredColumn = "undeclared-column"
        /// Two card files with the same slug.
        case duplicateSlug = "duplicate-slug"
        /// Two cards in one column with the same `position`.
        case duplicatePosition = "duplicate-position"
        /// A card label that `board.md` does not declare.
        case undeclaredLabel = "undeclared-label"
        /// A card label written in quotes (`["2024"]`), which SimpleKanban reads as part of the id.
        case quotedLabel = "quoted-label"
        /// Git conflict markers left in a card.
        case conflictMarkers = "conflict-markers"
        /// A `position` longer than the ordering scheme keeps keys.
        case overLongKey = "over-long-key"
        /// A card file without frontmatter (it still loads, placed after the positioned cards).
        case missingFrontmatter = "missing-frontmatter"
        /// A card whose frontmatter has no `title` (its title comes from a heading or the file name).
        case missingTitle = "missing-title"
        /// A card without a `position` (placed after the positioned cards).
        case missingPosition = "missing-position"
        /// A file or link that points outside the board directory.
        case outsideBoard = "outside-board"
        /// A card name that is a FIFO, a socket, a device or a directory (never read, so nothing can block on it).
        case notRegularFile = "not-a-regular-file"
        /// A file whose name is not valid UTF-8.
        case invalidFileName = "invalid-file-name"
        /// A temporary file left by a write that was interrupted.
        case temporaryFile = "temporary-file"
        /// A record of an interrupted change that could not be settled.
        case interruptedChange = "interrupted-change"
        /// Two slugs that differ only in case or Unicode normalisation, which a case-insensitive disk cannot hold.
        case slugCaseCollision = "slug-case-collision"
        /// Two column ids in `board.md` that differ only in case, which a case-insensitive disk holds in one directory.
        case columnCaseCollision = "column-case-collision"
        /// A value SimpleKanban owns that the app (and kanban) read one way and a YAML reader another
        /// (`title: Fix bug #123`), or that the app cannot read at all (a value over several lines).
        case readsDifferently = "reads-differently"
        /// A label in `board.md` without a `color`, which SimpleKanban drops (and removes when it saves the board).
        case labelWithoutColor = "label-without-color"
        /// A column's `wip-limit` in `board.md` that is no whole number from 1 to 100,000: the column has no limit.
        case invalidWIPLimit = "invalid-wip-limit"
        /// A card holding a section of text a merge kept, because both sides changed the same lines (``KeptText``).
        case keptText = "kept-text"
        /// A card holding another card that `git merge` met under the same name, kept inside it by the merge driver.
        case keptCard = "kept-card"
        /// A card's `depends-on` names a card that is on the board nowhere (deleted, or renamed by hand).
        case unknownDependency = "unknown-dependency"
        /// Cards whose `depends-on` lists lead back to themselves: none of them can ever be ready.
        case dependencyCycle = "dependency-cycle"
        /// A commit rewrote a card the way SimpleKanban does and dropped its `depends-on` (or its claim).
        case droppedKeys = "dropped-keys"
    }

    /// How serious the problem is.
    public var severity: Severity
    /// What kind of problem this is.
    public var code: Code
    /// Where it is.
    public var location: SourceLocation
    /// One lowercase sentence without a final period.
    public var message: String

    /// Creates a diagnostic.
    public init(_ severity: Severity, _ code: Code, at location: SourceLocation, _ message: String) {
        self.severity = severity
        self.code = code
        self.location = location
        self.message = message
    }
}

extension Diagnostic: CustomStringConvertible {
    /// `path:line:column: severity: message`.
    public var description: String {
        "\(location): \(severity.rawValue): \(message)"
    }
}
