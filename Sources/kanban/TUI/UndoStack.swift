import KanbanCore

/// The changes made in one `kanban tui` session, newest last, each with what it takes to undo it.
struct UndoStack: Sendable {
    /// How many changes are remembered; older ones are forgotten.
    static let limit = 100

    private(set) var entries: [UndoEntry] = []

    var isEmpty: Bool { entries.isEmpty }

    /// Remembers a change, forgetting the oldest beyond ``limit``.
    mutating func push(_ entry: UndoEntry) {
        entries.append(entry)
        if entries.count > Self.limit { entries.removeFirst(entries.count - Self.limit) }
    }

    /// The newest change, forgotten.
    mutating func pop() -> UndoEntry? {
        entries.popLast()
    }
}

/// A change made in `kanban tui` and how to undo it: each case holds what the inverse change needs, which is made
/// through the store like any other (see ``ChangeRunner/undo(_:)``).
enum UndoEntry: Hashable, Sendable {
    /// A card moved to another column or place; it goes back to `column`, next to the cards it was between.
    case moved(path: String, title: String, column: String, place: Place)
    /// A card was added; undoing deletes it.
    case created(path: String, title: String)
    /// A card's title changed from `title`.
    case retitled(path: String, title: String)
    /// A label was put on (`isAdded`) or taken off a card.
    case labelled(path: String, title: String, label: String, isAdded: Bool)
    /// A card was archived from `column`; undoing brings it back to its place there.
    case archived(archivePath: String, title: String, column: String, place: Place)
    /// A card was deleted; undoing writes its file back as it was.
    case deleted(bytes: [UInt8], slug: String, title: String, column: String)

    /// Where a card was in its column: after the card above it, or before the one below it.
    struct Place: Hashable, Sendable {
        /// The path of the card just above, if any.
        var above: String?
        /// The path of the card just below, if any.
        var below: String?

        /// The placements that put a card back, in order of preference: after the card that was above it, else
        /// before the one that was below it (either may have gone since), else the top or bottom.
        var placements: [Placement] {
            var result: [Placement] = []
            if let above { result.append(.after(above)) }
            if let below { result.append(.before(below)) }
            result.append(above == nil ? .top : .bottom)
            return result
        }
    }

    /// The change, for the status line after `undid`: `moving "Fix login"`.
    var summary: String {
        switch self {
        case .moved(_, let title, _, _): return "moving \"\(title)\""
        case .created(_, let title): return "adding \"\(title)\""
        case .retitled(_, let title): return "retitling \"\(title)\""
        case .labelled(_, let title, let label, let isAdded): return isAdded ? "putting label \(label) on \"\(title)\"" : "taking label \(label) off \"\(title)\""
        case .archived(_, let title, _, _): return "archiving \"\(title)\""
        case .deleted(_, _, let title, _): return "deleting \"\(title)\""
        }
    }
}
