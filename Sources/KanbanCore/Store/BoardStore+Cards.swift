import Foundation

/// Changes to a card's content. Fields left nil or empty are not touched.
public struct CardUpdate: Sendable, Hashable {
    /// A new title (the file keeps its name: the slug is the card's identity).
    public var title: String?
    /// Replaces the labels when set.
    public var labels: [String]?
    /// Labels to add (after `labels` is applied), skipping ones the card has.
    public var addedLabels: [String] = []
    /// Labels to remove.
    public var removedLabels: [String] = []
    /// A new body.
    public var body: String?
    /// Other frontmatter keys to set, in order (`due`, `assignee`, ...). The format's own keys are refused.
    public var fields: [YAMLMapEntry] = []
    /// Other frontmatter keys to remove.
    public var removedFields: [String] = []

    /// Creates an update.
    public init(title: String? = nil, labels: [String]? = nil, addedLabels: [String] = [], removedLabels: [String] = [],
                body: String? = nil, fields: [YAMLMapEntry] = [], removedFields: [String] = []) {
        self.title = title
        self.labels = labels
        self.addedLabels = addedLabels
        self.removedLabels = removedLabels
        self.body = body
        self.fields = fields
        self.removedFields = removedFields
    }

    /// Whether the update changes nothing.
    public var isEmpty: Bool {
        title == nil && labels == nil && addedLabels.isEmpty && removedLabels.isEmpty && body == nil && fields.isEmpty
            && removedFields.isEmpty
    }
}

extension BoardStore {
    /// Makes a new card in SimpleKanban's layout.
    /// - Parameters:
    ///   - title: The title; the slug is made from it, with `-2`, `-3`... when taken anywhere on the board.
    ///   - column: The column id; when nil, the column of the card named by `placement`, else the first column.
    ///   - labels: Label ids, which `board.md` must declare.
    ///   - body: The body; the board's card template when nil.
    ///   - placement: Where in the column; the bottom by default.
    /// - Returns: The change, whose card is the new card.
    @discardableResult
    public func createCard(title: String, in column: String? = nil, labels: [String] = [], body: String? = nil,
                           placement: Placement = .bottom) throws(KanbanError) -> BoardChange {
        let title = title.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !title.isEmpty else { throw KanbanError(.invalidArgument, "a card needs a title") }
        guard !title.contains("\n") else { throw KanbanError(.invalidArgument, "a card title must be one line") }
        return try withLock { () throws(KanbanError) -> BoardChange in
            let board = try loadBoard()
            var columnID = column ?? board.columns[0].id
            if column == nil {
                switch placement {
                case .before(let other), .after(let other):
                    columnID = try readCard(try resolve(other, in: .active), includeBody: false).card.column
                case .top, .bottom:
                    break
                }
            }
            try requireColumn(columnID, in: board)
            try requireLabels(labels, in: board)
            let archived = Set(try listCardFiles(.archived, columns: nil, board: board).files.map(\.slug))
            let columns = try columnDirectories().directories
            let slug = Slug.unique(Slug.make(from: title)) { isSlugInUse($0, archivedSlugs: archived, columns: columns) }
            let file = CardFile.active(name: slug + ".md", column: columnID)
            let plan = try planPlacement(placement, in: columnID, moving: nil)
            let now = timestamp()
            var entries = [YAMLMapEntry(key: "title", value: .string(title)),
                           YAMLMapEntry(key: "column", value: .string(columnID)),
                           YAMLMapEntry(key: "position", value: .string(plan.key)),
                           YAMLMapEntry(key: "created", value: .unquoted(now)),
                           YAMLMapEntry(key: "modified", value: .unquoted(now))]
            entries.append(YAMLMapEntry(key: "labels", value: .list(uniqued(labels).map { .string($0) })))
            let document = FrontmatterDocument(entries: entries, body: body ?? board.cardTemplate)
            try FileSystem.makeDirectory(directory + "/cards/" + columnID)
            try FileSystem.createAtomically(document.bytes(), at: directory + "/" + file.path)
            let rekeyed = try applyRekeys(plan.rekeyed)
            let card = try CardReader.card(from: document, file: file, includeBody: true)
            return BoardChange(card: card, previous: nil, writtenPaths: [file.path] + rekeyed, removedPaths: [])
        }
    }

    /// Changes a card's title, labels, body or other keys, and sets `modified`.
    /// Only the lines of the keys that change are rewritten; every other byte of the file is kept.
    @discardableResult
    public func updateCard(_ reference: String, _ update: CardUpdate, in scope: CardScope = .active) throws(KanbanError) -> BoardChange {
        for entry in update.fields where Card.knownKeys.contains(entry.key) {
            throw KanbanError(.invalidArgument, "'\(entry.key)' is set by its own option, not as a field")
        }
        for key in update.removedFields where Card.knownKeys.contains(key) {
            throw KanbanError(.invalidArgument, "'\(key)' cannot be removed")
        }
        for entry in update.fields where !isValidFieldKey(entry.key) {
            throw KanbanError(.invalidArgument, "'\(entry.key)' cannot be a frontmatter key: use letters, digits, '-' and '_'")
        }
        if let title = update.title {
            let trimmed = title.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty, !trimmed.contains("\n") else {
                throw KanbanError(.invalidArgument, "a card title must be one non-empty line")
            }
        }
        return try withLock { () throws(KanbanError) -> BoardChange in
            let board = try loadBoard()
            try requireLabels((update.labels ?? []) + update.addedLabels, in: board)
            let file = try resolve(reference, in: scope)
            var (card, document) = try readCard(file, includeBody: true)
            let previous = card
            if update.isEmpty { return BoardChange(card: card, previous: previous, writtenPaths: [], removedPaths: []) }
            completeFrontmatter(&document, card: card)
            if let title = update.title?.trimmingCharacters(in: .whitespacesAndNewlines), title != card.title || document.value(forKey: "title") == nil {
                document.setValue(.string(title), forKey: "title")
            }
            var labels = update.labels ?? card.labels
            for label in update.addedLabels where !labels.contains(label) { labels.append(label) }
            labels.removeAll { update.removedLabels.contains($0) }
            if labels != card.labels {
                document.setValue(.list(labels.map { .string($0) }), forKey: "labels")
            }
            for entry in update.fields where document.value(forKey: entry.key) != entry.value {
                document.setValue(entry.value, forKey: entry.key)
            }
            for key in update.removedFields { document.removeValue(forKey: key) }
            if let body = update.body, body != card.body { document.setBody(body) }
            document.setValue(.unquoted(timestamp()), forKey: "modified")
            try FileSystem.writeAtomically(document.bytes(), to: directory + "/" + file.path)
            card = try CardReader.card(from: document, file: file, includeBody: true)
            return BoardChange(card: card, previous: previous, writtenPaths: [file.path], removedPaths: [])
        }
    }

    /// Moves a card to another column and/or another place in its column.
    /// - Parameters:
    ///   - column: The target column; the card's own column (or that of the `placement` card) when nil.
    ///   - placement: Where in the target column; the bottom when the column changes, required otherwise.
    /// - Returns: The change; the card's old and new paths, and any neighbours re-keyed to make room.
    @discardableResult
    public func moveCard(_ reference: String, to column: String? = nil, placement: Placement? = nil) throws(KanbanError) -> BoardChange {
        try withLock { () throws(KanbanError) -> BoardChange in
            let board = try loadBoard()
            let file = try resolve(reference, in: .active)
            var (card, document) = try readCard(file, includeBody: false)
            let previous = card
            var target = column
            if target == nil, let placement {
                switch placement {
                case .before(let other), .after(let other):
                    target = try readCard(try resolve(other, in: .active), includeBody: false).card.column
                case .top, .bottom:
                    break
                }
            }
            let targetColumn = target ?? card.column
            try requireColumn(targetColumn, in: board)
            let columnChanges = targetColumn != file.directoryColumn
            guard columnChanges || placement != nil else {
                return BoardChange(card: card, previous: previous, writtenPaths: [], removedPaths: [])
            }
            let plan = try planPlacement(placement ?? .bottom, in: targetColumn, moving: file)
            completeFrontmatter(&document, card: card)
            document.setValue(.string(plan.key), forKey: "position")
            if columnChanges || card.columnField != targetColumn {
                document.setValue(.string(targetColumn), forKey: "column")
            }
            document.setValue(.unquoted(timestamp()), forKey: "modified")
            let destination = CardFile.active(name: file.slug + ".md", column: targetColumn)
            var removed: [String] = []
            if columnChanges {
                try FileSystem.makeDirectory(directory + "/cards/" + targetColumn)
                try FileSystem.createAtomically(document.bytes(), at: directory + "/" + destination.path)
                try FileSystem.remove(directory + "/" + file.path)
                removed.append(file.path)
            } else {
                try FileSystem.writeAtomically(document.bytes(), to: directory + "/" + file.path)
            }
            let rekeyed = try applyRekeys(plan.rekeyed)
            card = try CardReader.card(from: document, file: destination, includeBody: false)
            return BoardChange(card: card, previous: previous, writtenPaths: [destination.path] + rekeyed, removedPaths: removed)
        }
    }

    /// Moves a card to `archive/YYYY-MM-DD-<slug>.md` (today's date), keeping its file byte for byte.
    @discardableResult
    public func archiveCard(_ reference: String) throws(KanbanError) -> BoardChange {
        try withLock { () throws(KanbanError) -> BoardChange in
            let file = try resolve(reference, in: .active)
            let (card, _) = try readCard(file, includeBody: false)
            try FileSystem.makeDirectory(directory + "/archive")
            let day = ISO8601.dayString(from: clock())
            var name = "\(day)-\(file.slug).md"
            var number = 2
            while FileSystem.exists(directory + "/archive/" + name) {
                name = "\(day)-\(file.slug)-\(number).md"
                number += 1
            }
            let destination = CardFile.archived(name: name)
            try FileSystem.renameNoReplace(directory + "/" + file.path, to: directory + "/" + destination.path)
            var archived = try readCard(destination, includeBody: false).card
            if archived.columnField == nil { archived.column = card.column }
            return BoardChange(card: archived, previous: card, writtenPaths: [destination.path], removedPaths: [file.path])
        }
    }

    /// Brings an archived card back, to the bottom of `column` or else of the column it was archived from
    /// (the first column when that one is gone).
    @discardableResult
    public func unarchiveCard(_ reference: String, to column: String? = nil) throws(KanbanError) -> BoardChange {
        try withLock { () throws(KanbanError) -> BoardChange in
            let board = try loadBoard()
            let file = try resolve(reference, in: .archived)
            var (card, document) = try readCard(file, includeBody: false)
            let previous = card
            let targetColumn: String
            if let column {
                try requireColumn(column, in: board)
                targetColumn = column
            } else if let old = card.columnField, board.column(withID: old) != nil {
                targetColumn = old
            } else {
                targetColumn = board.columns[0].id
            }
            let others = try listCardFiles(.all, columns: nil, board: board).files.filter { $0.path != file.path }
            let taken = Set(others.map(\.slug))
            let slug = Slug.unique(file.slug, isTaken: taken.contains)
            let plan = try planPlacement(.bottom, in: targetColumn, moving: nil)
            completeFrontmatter(&document, card: card)
            document.setValue(.string(targetColumn), forKey: "column")
            document.setValue(.string(plan.key), forKey: "position")
            document.setValue(.unquoted(timestamp()), forKey: "modified")
            let destination = CardFile.active(name: slug + ".md", column: targetColumn)
            try FileSystem.makeDirectory(directory + "/cards/" + targetColumn)
            try FileSystem.createAtomically(document.bytes(), at: directory + "/" + destination.path)
            try FileSystem.remove(directory + "/" + file.path)
            let rekeyed = try applyRekeys(plan.rekeyed)
            card = try CardReader.card(from: document, file: destination, includeBody: false)
            return BoardChange(card: card, previous: previous, writtenPaths: [destination.path] + rekeyed, removedPaths: [file.path])
        }
    }

    /// Removes a card's file.
    @discardableResult
    public func deleteCard(_ reference: String, in scope: CardScope = .active) throws(KanbanError) -> BoardChange {
        try withLock { () throws(KanbanError) -> BoardChange in
            let file = try resolve(reference, in: scope)
            let card = (try? readCard(file, includeBody: false).card)
            try FileSystem.remove(directory + "/" + file.path)
            return BoardChange(card: nil, previous: card, writtenPaths: [], removedPaths: [file.path])
        }
    }

    // MARK: Helpers

    /// Runs `body` holding the board's exclusive lock.
    func withLock<T>(_ body: () throws(KanbanError) -> T) throws(KanbanError) -> T {
        let lock = try BoardLock(directory: directory)
        defer { lock.unlock() }
        return try body()
    }

    func requireColumn(_ id: String, in board: Board) throws(KanbanError) {
        guard Column.isValidID(id) else {
            throw KanbanError(.outsideBoard, "'\(id)' cannot be a column id: use letters, digits, '-', '_' or '.'")
        }
        guard board.column(withID: id) != nil else {
            throw KanbanError(.columnNotFound, "no column '\(id)' on this board", candidates: board.columns.map(\.id))
        }
    }

    func requireLabels(_ labels: [String], in board: Board) throws(KanbanError) {
        for label in labels where board.label(withID: label) == nil {
            throw KanbanError(.labelNotFound, "no label '\(label)' on this board", candidates: board.labels.map(\.id))
        }
    }

    /// Gives a card without frontmatter the keys it needs before another key is set, so that SimpleKanban reads it.
    func completeFrontmatter(_ document: inout FrontmatterDocument, card: Card) {
        guard !document.hasFrontmatter else { return }
        document.setValue(.string(card.title), forKey: "title")
        if !card.isArchived { document.setValue(.string(card.column), forKey: "column") }
    }

    /// The key for a card placed in `column`, and the neighbours to re-key; `moving` is left out of the column.
    func planPlacement(_ placement: Placement, in column: String, moving: CardFile?) throws(KanbanError) -> PlacementPlan {
        let board = try loadBoard()
        let listing = try listCardFiles(.active, columns: [column], board: board)
        let files = listing.files.filter { $0.path != moving?.path }
        let cards = PositionReader.ordered(files, root: directory)
        let keys = cards.map(\.position)
        let index: Int
        switch placement {
        case .top:
            index = 0
        case .bottom:
            index = keys.lastIndex { $0 != nil }.map { $0 + 1 } ?? 0
        case .before(let reference), .after(let reference):
            let other = try resolve(reference, in: .active)
            if other.path == moving?.path {
                throw KanbanError(.invalidArgument, "a card cannot be placed relative to itself")
            }
            guard let found = cards.firstIndex(where: { $0.file.path == other.path }) else {
                throw KanbanError(.invalidArgument, "'\(other.slug)' is not in column '\(column)'")
            }
            if case .before = placement { index = found } else { index = found + 1 }
        }
        let plan = OrderKey.plan(insertingAt: index, into: keys)
        return PlacementPlan(key: plan.key, rekeyed: plan.rekeyed.map { (file: cards[$0.index].file, key: $0.key) })
    }

    /// Writes the new positions of re-keyed neighbours; returns their paths.
    func applyRekeys(_ rekeyed: [(file: CardFile, key: String)]) throws(KanbanError) -> [String] {
        var written: [String] = []
        for (file, key) in rekeyed {
            var (card, document) = try readCard(file, includeBody: false)
            completeFrontmatter(&document, card: card)
            document.setValue(.string(key), forKey: "position")
            try FileSystem.writeAtomically(document.bytes(), to: directory + "/" + file.path)
            card.position = key
            written.append(file.path)
        }
        return written
    }

    private func isValidFieldKey(_ key: String) -> Bool {
        guard let first = key.utf8.first, first != UInt8(ascii: "-") else { return false }
        return key.utf8.allSatisfy {
            ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x2D || $0 == 0x5F
        }
    }
}

/// A new card's key and the neighbours to re-key around it.
struct PlacementPlan {
    var key: String
    var rekeyed: [(file: CardFile, key: String)]
}

func uniqued(_ values: [String]) -> [String] {
    var seen: Set<String> = []
    return values.filter { seen.insert($0).inserted }
}
