import KanbanCore
import KanbanSubprocess

/// Turns the paths that differ between the last commit and the working tree into card events.
///
/// A card's identity is its slug, so a card file gone from one place and a new one with the same slug elsewhere is a
/// move (between columns), an archiving (to `archive/`) or an unarchiving (back), whatever git's content-based
/// rename detection makes of it. Titles are read from the working tree, or from `HEAD` for removed cards.
struct PendingChanges: Sendable {
    /// A changed path of the board, relative to the board.
    struct Change: Sendable {
        var path: String
        var isInHead: Bool
        var isInWorkingTree: Bool
    }

    var events: [CardEvent] = []
    var boardFileChanged = false

    /// - Parameters:
    ///   - changes: The changed board paths.
    ///   - directory: The board directory, to read cards from the working tree.
    ///   - headVersion: The bytes of a board path in `HEAD`, or nil.
    init(_ changes: [Change], directory: String, headVersion: (String) -> [UInt8]?) {
        var removed: [CardFile] = []
        var added: [CardFile] = []
        var modified: [CardFile] = []
        for change in changes {
            switch BoardPath(change.path) {
            case .boardFile:
                boardFileChanged = true
            case .card(let file):
                switch (change.isInHead, change.isInWorkingTree) {
                case (true, false): removed.append(file)
                case (false, true): added.append(file)
                case (true, true): modified.append(file)
                case (false, false): break
                }
            case nil:
                break
            }
        }
        func current(_ file: CardFile) -> Card? {
            guard let bytes = try? FileSystem.readFile(directory + "/" + file.path) else { return nil }
            return try? CardReader.read(bytes, file: file, includeBody: true).0
        }
        func old(_ file: CardFile) -> Card? {
            guard let bytes = headVersion(file.path) else { return nil }
            return try? CardReader.read(bytes, file: file, includeBody: true).0
        }
        func title(_ card: Card?, _ file: CardFile) -> String { card?.title ?? CardReader.titleFromSlug(file.slug) }
        func column(_ card: Card?, _ file: CardFile) -> String { file.directoryColumn ?? card?.columnField ?? "" }

        var unpaired = removed
        for file in added {
            let card = current(file)
            guard let match = unpaired.firstIndex(where: { $0.slug == file.slug }) else {
                events.append(CardEvent(kind: .added, slug: file.slug, title: title(card, file), column: column(card, file), path: file.path))
                continue
            }
            let before = unpaired.remove(at: match)
            let kind: CardEvent.Kind
            switch (before.isArchived, file.isArchived) {
            case (false, true): kind = .archived
            case (true, false): kind = .unarchived
            case (false, false): kind = .moved
            case (true, true): kind = .edited
            }
            let previous = kind == .archived ? before.directoryColumn : nil
            events.append(CardEvent(
                kind: kind, slug: file.slug, title: title(card, file), column: previous ?? column(card, file),
                previousColumn: kind == .moved ? before.directoryColumn : nil, path: file.path, previousPath: before.path))
        }
        for file in unpaired {
            let card = old(file)
            events.append(CardEvent(kind: .deleted, slug: file.slug, title: title(card, file), column: column(card, file), path: file.path))
        }
        for file in modified {
            let card = current(file)
            var fields: [String] = []
            if let card, let before = old(file) { fields = CardEvent.changedFields(from: before, to: card) }
            let kind: CardEvent.Kind = fields == ["position"] ? .reordered : .edited
            events.append(CardEvent(kind: kind, slug: file.slug, title: title(card, file), column: column(card, file),
                                    path: file.path, changedFields: kind == .reordered ? [] : fields))
        }
        events.sort { $0.path.utf8Precedes($1.path) }
    }
}
