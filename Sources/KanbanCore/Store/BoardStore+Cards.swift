import Dispatch
import Foundation
import Synchronization

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
    ///   - strictLimits: Refuse to put the column over its WIP limit (``KanbanError/Code/overLimit``) rather than
    ///     say so in the change's ``BoardChange/overLimit``; board.md's `wip-limits: strict` refuses either way.
    /// - Returns: The change, whose card is the new card.
    @discardableResult
    public func createCard(title: String, in column: String? = nil, labels: [String] = [], body: String? = nil,
                           placement: Placement = .bottom, strictLimits: Bool = false) throws(KanbanError) -> BoardChange {
        let title = try Self.checkedName(title, as: "a card title")
        return try withLock { () throws(KanbanError) -> BoardChange in
            let root = try openRoot()
            let board = try readBoardFile(in: root).board
            var columnID = column ?? board.columns[0].id
            if column == nil {
                switch placement {
                case .before(let other), .after(let other):
                    columnID = try readCard(try resolve(other, in: .active, root: root), includeBody: false, in: root).card.column
                case .top, .bottom:
                    break
                }
            }
            try requireColumn(columnID, in: board, root: root)
            try requireLabels(labels, in: board)
            let overLimit = try limitCheck(adding: columnID, board: board, strict: strictLimits, root: root)
            // The slug and the place are found at once: each may list a directory of thousands of cards. The
            // column the card goes to is listed once, for its place and for the slugs taken in it.
            let base = Slug.make(from: title)
            let collisions = SlugCollisions(base)
            let target = columnID
            let columnPath = "cards/" + target
            let (elsewhere, placed) = try Self.both(
                { () throws(KanbanError) in try self.takenSlugs(collisions, root: root, in: { $0 != columnPath }) },
                { () throws(KanbanError) in self.indexedPlacement(placement, in: target, moving: nil, root: root, collecting: collisions) })
            var taken = elsewhere
            let plan: PlacementPlan
            if let placed {
                plan = placed.plan
                taken.keys.formUnion(placed.taken)
            } else {
                plan = try planPlacement(placement, in: target, moving: nil, root: root, usingIndex: false)
                taken.formUnion(try takenSlugs(collisions, root: root, in: { $0 == columnPath }))
            }
            let slug = Slug.unique(base, isTaken: taken.contains)
            let file = CardFile.active(name: slug + ".md", column: columnID)
            let now = timestamp()
            var entries = [YAMLMapEntry(key: "title", value: .string(title)),
                           YAMLMapEntry(key: "column", value: .string(columnID)),
                           YAMLMapEntry(key: "position", value: .string(plan.key)),
                           YAMLMapEntry(key: "created", value: .unquoted(now)),
                           YAMLMapEntry(key: "modified", value: .unquoted(now))]
            entries.append(YAMLMapEntry(key: "labels", value: .list(uniqued(labels).map { .string($0) })))
            let document = FrontmatterDocument(entries: entries, body: body ?? board.cardTemplate, dialect: .card)
            var transaction = BoardTransaction("add \(slug) to \(columnID)")
            transaction.write(document.bytes(), to: file.path, replacing: nil)
            try rekey(plan.rekeyed, into: &transaction, root: root)
            try apply(transaction, in: root)
            let card = try CardReader.card(from: document, file: file, includeBody: true)
            var change = BoardChange(card: card, previous: nil, transaction: transaction)
            change.overLimit = overLimit
            return change
        }
    }

    /// Changes a card's title, labels, body or other keys, and sets `modified`.
    /// Only the lines of the keys that change are rewritten; every other byte of the file is kept. An update that
    /// changes nothing (the same title, a label the card has) writes nothing, and `modified` stays.
    @discardableResult
    public func updateCard(_ reference: String, _ update: CardUpdate, in scope: CardScope = .active) throws(KanbanError) -> BoardChange {
        for entry in update.fields where Card.knownKeys.contains(entry.key) {
            throw KanbanError(.invalidArgument, "'\(entry.key)' is set by its own option, not as a field")
        }
        for key in update.removedFields where Card.knownKeys.contains(key) {
            throw KanbanError(.invalidArgument, "'\(key)' cannot be removed")
        }
        for entry in update.fields where !Self.isFieldKey(entry.key) {
            throw KanbanError(.invalidArgument, "'\(entry.key)' cannot be a frontmatter key: use letters, digits, '-' and '_'")
        }
        if let title = update.title { _ = try Self.checkedName(title, as: "a card title") }
        for entry in update.fields {
            if let problem = entry.value.stringValues.lazy.compactMap({ BoardText.fieldValueProblem($0, key: entry.key) }).first {
                throw KanbanError(.invalidArgument, problem)
            }
        }
        return try withLock { () throws(KanbanError) -> BoardChange in
            let root = try openRoot()
            let board = try readBoardFile(in: root).board
            try requireLabels((update.labels ?? []) + update.addedLabels, in: board)
            let file = try resolve(reference, in: scope, root: root)
            var (card, document, bytes) = try readCard(file, includeBody: true, in: root)
            let previous = card
            var changed = false
            if let title = update.title?.trimmingCharacters(in: .whitespacesAndNewlines), title != card.title || document.value(forKey: "title") == nil {
                completeFrontmatter(&document, card: card)
                document.setValue(.string(title), forKey: "title")
                changed = true
            }
            var labels = update.labels ?? card.labels
            var present = Set(labels)
            for label in update.addedLabels where present.insert(label).inserted { labels.append(label) }
            if !update.removedLabels.isEmpty {
                let removed = Set(update.removedLabels)
                labels.removeAll { removed.contains($0) }
            }
            if labels != card.labels {
                completeFrontmatter(&document, card: card)
                document.setValue(.list(labels.map { .string($0) }), forKey: "labels")
                changed = true
            }
            for entry in update.fields where !sameValue(document.value(forKey: entry.key), entry.value) {
                completeFrontmatter(&document, card: card)
                document.setValue(entry.value, forKey: entry.key)
                changed = true
            }
            for key in update.removedFields where document.value(forKey: key) != nil {
                document.removeValue(forKey: key)
                changed = true
            }
            if let body = update.body, body != card.body {
                document.setBody(body)
                changed = true
            }
            guard changed else { return BoardChange(card: card, previous: previous, writtenPaths: [], removedPaths: []) }
            document.setValue(.unquoted(timestamp()), forKey: "modified")
            var transaction = BoardTransaction("edit \(file.slug)")
            transaction.write(document.bytes(), to: file.path, replacing: bytes)
            try apply(transaction, in: root)
            bytes = document.bytes()
            card = try CardReader.card(from: document, file: file, includeBody: true)
            return BoardChange(card: card, previous: previous, transaction: transaction)
        }
    }

    /// Sets a card's `modified` to now, for a change made to its file some other way (an editor the caller ran):
    /// the sync rules take the version with the later `modified` as the later change, and an edit that left the old
    /// time would lose to any earlier change made with kanban. Only the `modified` line is written (added when the
    /// card has none); when it already holds this second, nothing is.
    /// - Parameters:
    ///   - reference: The card: a slug, a unique slug prefix or a path.
    ///   - scope: Where to look for it.
    ///   - date: When the change was made (whole seconds are written); now when nil.
    /// - Returns: The change; no paths when nothing was written.
    /// - Throws: ``KanbanError`` when the card cannot be found or does not parse (it is left as it is).
    @discardableResult
    public func markModified(_ reference: String, in scope: CardScope = .all, at date: Date? = nil) throws(KanbanError) -> BoardChange {
        try withLock { () throws(KanbanError) -> BoardChange in
            let root = try openRoot()
            let file = try resolve(reference, in: scope, root: root)
            let (card, document, bytes) = try readCard(file, includeBody: true, in: root)
            let now = date.map { ISO8601.string(from: $0.flooredToSeconds) } ?? timestamp()
            guard document.hasFrontmatter, document.value(forKey: "modified")?.string != now else {
                return BoardChange(card: card, previous: card, writtenPaths: [], removedPaths: [])
            }
            var stamped = document
            stamped.setValue(.unquoted(now), forKey: "modified")
            var transaction = BoardTransaction("stamp \(file.slug)")
            transaction.write(stamped.bytes(), to: file.path, replacing: bytes)
            try apply(transaction, in: root)
            return BoardChange(card: try CardReader.card(from: stamped, file: file, includeBody: true), previous: card, transaction: transaction)
        }
    }

    /// Moves a card to another column and/or another place in its column.
    ///
    /// A move that would leave the card where it is (the same column, and the same place among its neighbours)
    /// writes nothing.
    /// - Parameters:
    ///   - column: The target column; the card's own column (or that of the `placement` card) when nil.
    ///   - placement: Where in the target column; the bottom when the column changes, required otherwise.
    ///   - strictLimits: Refuse to put the column over its WIP limit (``KanbanError/Code/overLimit``) rather than
    ///     say so in the change's ``BoardChange/overLimit``; board.md's `wip-limits: strict` refuses either way.
    /// - Returns: The change; the card's old and new paths, and any neighbours re-keyed to make room.
    @discardableResult
    public func moveCard(_ reference: String, to column: String? = nil, placement: Placement? = nil,
                         strictLimits: Bool = false) throws(KanbanError) -> BoardChange {
        try moveCard(reference, to: column, placement: placement, strictLimits: strictLimits, editing: nil)
    }

    /// Moves a card as ``moveCard(_:to:placement:)`` does, changing other keys of its frontmatter in the same write
    /// (`editing`, which returns whether it changed anything): a claim and its move are one change, all or nothing.
    /// A move that leaves the card in place still writes the edit.
    func moveCard(_ reference: String, to column: String?, placement: Placement?, strictLimits: Bool = false,
                  editing: ((inout FrontmatterDocument) -> Bool)?) throws(KanbanError) -> BoardChange {
        try withLock { () throws(KanbanError) -> BoardChange in
            let root = try openRoot()
            let board = try readBoardFile(in: root).board
            let file = try resolve(reference, in: .active, root: root)
            var (card, document, bytes) = try readCard(file, includeBody: false, in: root)
            let previous = card
            var target = column
            if target == nil, let placement {
                switch placement {
                case .before(let other), .after(let other):
                    target = try readCard(try resolve(other, in: .active, root: root), includeBody: false, in: root).card.column
                case .top, .bottom:
                    break
                }
            }
            let targetColumn = target ?? card.column
            try requireColumn(targetColumn, in: board, root: root)
            let columnChanges = targetColumn != file.directoryColumn
            let overLimit = columnChanges ? try limitCheck(adding: targetColumn, board: board, strict: strictLimits, root: root) : nil
            var edited = false
            if let editing {
                completeFrontmatter(&document, card: card)
                edited = editing(&document)
            }
            let plan = columnChanges || placement != nil ? try planPlacement(placement ?? .bottom, in: targetColumn, moving: file, root: root) : nil
            if !columnChanges && plan?.keepsPlace ?? true && !edited {
                return BoardChange(card: card, previous: previous, writtenPaths: [], removedPaths: [])
            }
            completeFrontmatter(&document, card: card)
            if let plan, columnChanges || !plan.keepsPlace { document.setValue(.string(plan.key), forKey: "position") }
            if columnChanges || card.columnField != targetColumn {
                document.setValue(.string(targetColumn), forKey: "column")
            }
            document.setValue(.unquoted(timestamp()), forKey: "modified")
            let destination = CardFile.active(name: file.slug + ".md", column: targetColumn)
            var transaction = BoardTransaction("move \(file.slug) to \(targetColumn)")
            if columnChanges {
                if try root.kind(of: destination.path) != nil {
                    throw KanbanError(.alreadyExists, "column '\(targetColumn)' already has a card '\(file.slug)'; rename or move one of them first",
                                      at: SourceLocation(path: destination.path))
                }
                transaction.write(document.bytes(), to: destination.path, replacing: nil)
                transaction.remove(file.path, before: bytes)
            } else {
                transaction.write(document.bytes(), to: file.path, replacing: bytes)
            }
            if let plan, columnChanges || !plan.keepsPlace { try rekey(plan.rekeyed, into: &transaction, root: root) }
            try apply(transaction, in: root)
            bytes = document.bytes()
            card = try CardReader.card(from: document, file: destination, includeBody: false)
            var change = BoardChange(card: card, previous: previous, transaction: transaction)
            change.overLimit = overLimit
            return change
        }
    }

    /// Moves a card to `archive/YYYY-MM-DD-<slug>.md` (today's date), keeping its file as it was except for
    /// `modified`, which records when it was archived (so that a sync tells an archive after a move from one before).
    @discardableResult
    public func archiveCard(_ reference: String) throws(KanbanError) -> BoardChange {
        try withLock { () throws(KanbanError) -> BoardChange in
            let root = try openRoot()
            let file = try resolve(reference, in: .active, root: root)
            var (card, document, bytes) = try readCard(file, includeBody: false, in: root)
            let previous = card
            // The local day, as the app names archived cards (a card archived at 08:00 in Kiritimati is archived today).
            let day = ISO8601.dayString(from: clock(), in: .current)
            var name = "\(day)-\(file.slug).md"
            var number = 2
            while try root.kind(of: "archive/" + name) != nil {
                name = "\(day)-\(file.slug)-\(number).md"
                number += 1
            }
            let destination = CardFile.archived(name: name)
            completeFrontmatter(&document, card: card)
            document.setValue(.unquoted(timestamp()), forKey: "modified")
            var transaction = BoardTransaction("archive \(file.slug)")
            transaction.write(document.bytes(), to: destination.path, replacing: nil)
            transaction.remove(file.path, before: bytes)
            try apply(transaction, in: root)
            bytes = document.bytes()
            card = try CardReader.card(from: document, file: destination, includeBody: false)
            if card.columnField == nil { card.column = previous.column }
            return BoardChange(card: card, previous: previous, transaction: transaction)
        }
    }

    /// Brings an archived card back, to the bottom of `column` or else of the column it was archived from
    /// (the first column when that one is gone).
    @discardableResult
    public func unarchiveCard(_ reference: String, to column: String? = nil) throws(KanbanError) -> BoardChange {
        try withLock { () throws(KanbanError) -> BoardChange in
            let root = try openRoot()
            let board = try readBoardFile(in: root).board
            let file = try resolve(reference, in: .archived, root: root)
            var (card, document, bytes) = try readCard(file, includeBody: false, in: root)
            let previous = card
            let targetColumn: String
            if let column {
                try requireColumn(column, in: board, root: root)
                targetColumn = column
            } else if let old = card.columnField, board.column(withID: old) != nil {
                targetColumn = old
            } else {
                targetColumn = board.columns[0].id
            }
            try requireColumn(targetColumn, in: board, root: root)
            let overLimit = try limitCheck(adding: targetColumn, board: board, strict: false, root: root)
            let slug = try unusedSlug(file.slug, board: board, root: root, ignoring: file.path)
            let plan = try planPlacement(.bottom, in: targetColumn, moving: nil, root: root)
            completeFrontmatter(&document, card: card)
            document.setValue(.string(targetColumn), forKey: "column")
            document.setValue(.string(plan.key), forKey: "position")
            document.setValue(.unquoted(timestamp()), forKey: "modified")
            let destination = CardFile.active(name: slug + ".md", column: targetColumn)
            var transaction = BoardTransaction("unarchive \(file.slug) to \(targetColumn)")
            transaction.write(document.bytes(), to: destination.path, replacing: nil)
            transaction.remove(file.path, before: bytes)
            try rekey(plan.rekeyed, into: &transaction, root: root)
            try apply(transaction, in: root)
            bytes = document.bytes()
            card = try CardReader.card(from: document, file: destination, includeBody: false)
            var change = BoardChange(card: card, previous: previous, transaction: transaction)
            change.overLimit = overLimit
            return change
        }
    }

    /// Removes a card's file.
    @discardableResult
    public func deleteCard(_ reference: String, in scope: CardScope = .active) throws(KanbanError) -> BoardChange {
        try withLock { () throws(KanbanError) -> BoardChange in
            let root = try openRoot()
            let file = try resolve(reference, in: scope, root: root)
            let bytes = try root.read(file.path)
            let card = try? CardReader.read(bytes, file: file, includeBody: false).0
            var transaction = BoardTransaction("delete \(file.slug)")
            transaction.remove(file.path, before: bytes)
            try apply(transaction, in: root)
            return BoardChange(card: nil, previous: card, transaction: transaction)
        }
    }

    /// Puts back a card that ``deleteCard(_:in:)`` removed from a column, byte for byte, under its old name: what
    /// undoing a delete does (`kanban tui`). The column must still be on the board, and no card may have taken the slug.
    /// - Parameters:
    ///   - bytes: The file as it was before the delete.
    ///   - slug: Its file name without `.md`.
    ///   - column: The column directory it was in.
    /// - Returns: The change, whose card is the card read back.
    /// - Throws: ``KanbanError/Code/invalidArgument`` when `slug` cannot name a card file (empty, hidden, holding `/`,
    ///   NUL or another control character), ``KanbanError/Code/invalidCard`` when `bytes` are not a card this store
    ///   reads, ``KanbanError/Code/alreadyExists`` when the slug is taken again, ``KanbanError/Code/columnNotFound``.
    ///   Nothing is written when it throws.
    @discardableResult
    public func restoreCard(_ bytes: [UInt8], slug: String, in column: String) throws(KanbanError) -> BoardChange {
        guard Slug.isValid(slug), CardFile.isCardFileName(slug + ".md"), !BoardText.hasControl(slug) else {
            throw KanbanError(.invalidArgument, "'\(slug)' cannot name a card file: no '/', '\\' or control characters, not hidden, not empty")
        }
        if let problem = Column.idProblem(column) { throw KanbanError(.invalidArgument, problem) }
        let file = CardFile.active(name: slug + ".md", column: column)
        // The text must read back as a card, or the restore would leave a file every listing reports as unreadable.
        let card = try CardReader.read(bytes, file: file, includeBody: false).0
        return try withLock { () throws(KanbanError) -> BoardChange in
            let root = try openRoot()
            let board = try readBoardFile(in: root).board
            try requireColumn(column, in: board, root: root)
            guard try unusedSlug(slug, board: board, root: root) == slug else {
                throw KanbanError(.alreadyExists, "a card named '\(slug)' is on the board again", at: SourceLocation(path: file.path))
            }
            var transaction = BoardTransaction("restore \(slug) to \(column)")
            transaction.write(bytes, to: file.path, replacing: nil)
            try apply(transaction, in: root)
            return BoardChange(card: card, previous: nil, transaction: transaction)
        }
    }

    // MARK: Helpers

    /// `base`, or `base-2`, `base-3`, ...: the first slug no card on the board uses (in any column or the archive),
    /// comparing without regard to case or Unicode normalisation, so that two names never differ only in case
    /// (which a case-insensitive disk, macOS's default, cannot hold).
    func unusedSlug(_ base: String, board: Board, root: BoardRoot, ignoring path: String? = nil) throws(KanbanError) -> String {
        let taken = try takenSlugs(SlugCollisions(base), root: root, ignoring: path)
        return Slug.unique(base, isTaken: taken.contains)
    }

    /// The slugs that `base` or `base-N` could collide with, in the card directories `chosen` names (all by
    /// default), leaving out the card at `path`.
    ///
    /// A directory unchanged since the index last listed it is not listed again: the index has its names' keys (the
    /// directory of the card at `path` is, to leave that card out). The others are listed on every core, a
    /// directory to a thread, as bytes: a name is made into a card file only when it might collide.
    func takenSlugs(_ collisions: SlugCollisions, root: BoardRoot, ignoring path: String? = nil,
                    in chosen: (String) -> Bool = { _ in true }) throws(KanbanError) -> TakenSlugs {
        let index = indexFile?.read(directories: [])
        let ignoredDirectory = path.map { ($0 as NSString).deletingLastPathComponent }
        var taken = TakenSlugs()
        var unlisted: [(directory: FileSystem.OpenDirectory, column: String?)] = []
        func consider(_ directoryPath: String, column: String?) throws(KanbanError) {
            guard chosen(directoryPath), let opened = try root.openDirectory(directoryPath) else { return }
            if directoryPath != ignoredDirectory, let listing = index?.listing(of: directoryPath, descriptor: opened.descriptor) {
                taken.listings.append(listing)
            } else {
                unlisted.append((opened, column))
            }
        }
        for column in columnDirectories(in: root).directories { try consider("cards/" + column, column: column) }
        if refusal(of: "archive", in: root) == nil { try consider("archive", column: nil) }
        let toList = unlisted
        let listed = Mutex<[Result<Set<String>, KanbanError>]>([])
        DispatchQueue.concurrentPerform(iterations: toList.count) { number in
            let (opened, column) = toList[number]
            var keys: Set<String> = []
            let result = Result { () throws(KanbanError) -> Set<String> in
                try opened.forEachEntry { bytes, kind in
                    guard CardFile.isCardFileName(bytes), collisions.mightCollide(bytes, isArchived: column == nil),
                          let name = String(validating: bytes, as: UTF8.self) else { return }
                    let file = column.map { CardFile.active(name: name, column: $0) } ?? CardFile.archived(name: name)
                    guard file.path != path, case .read = CardAdmission.decide(FileSystem.Entry(name: name, kind: kind), file: file, root: root)
                    else { return }
                    keys.insert(Slug.collisionKey(file.slug))
                }
                return keys
            }
            listed.withLock { $0.append(result) }
        }
        for result in listed.withLock({ $0 }) { taken.keys.formUnion(try result.get()) }
        return taken
    }

    func requireColumn(_ id: String, in board: Board, root: BoardRoot) throws(KanbanError) {
        if let problem = Column.idProblem(id) { throw KanbanError(.outsideBoard, problem) }
        guard board.column(withID: id) != nil else {
            throw KanbanError(.columnNotFound, "no column '\(id)' on this board", candidates: board.columns.map(\.id))
        }
        // A column directory (or `cards`) that is a link leading out of the board is never written through.
        _ = try root.openDirectory("cards/" + id)
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
    func planPlacement(_ placement: Placement, in column: String, moving: CardFile?, root: BoardRoot,
                       usingIndex: Bool = true) throws(KanbanError) -> PlacementPlan {
        if usingIndex, let placed = indexedPlacement(placement, in: column, moving: moving, root: root) { return placed.plan }
        let board = try readBoardFile(in: root).board
        let listing = try listCardFiles(.active, columns: [column], board: board, in: root)
        let columnIndex = indexFile?.read(directories: ["cards/" + column])
        // At the top or the bottom, only the first or last key matters: no need to put the column in order.
        if moving?.directoryColumn != column, let atTop = placement.isTop,
           let plan = PlacementPlan.atEnd(atTop: atTop, of: PositionReader.read(listing.files, root: root, index: columnIndex).compactMap(\.position)) {
            return plan
        }
        let ordered = PositionReader.ordered(listing.files, root: root, index: columnIndex)
        let currentIndex = moving.flatMap { moving in ordered.firstIndex { $0.file.path == moving.path } }
        let cards = ordered.filter { $0.file.path != moving?.path }
        let keys = cards.map(\.position)
        let index: Int
        switch placement {
        case .top:
            index = 0
        case .bottom:
            index = keys.lastIndex { $0 != nil }.map { $0 + 1 } ?? 0
        case .before(let reference), .after(let reference):
            let other = try resolve(reference, in: .active, root: root)
            if other.path == moving?.path {
                throw KanbanError(.invalidArgument, "a card cannot be placed relative to itself")
            }
            guard let found = cards.firstIndex(where: { $0.file.path == other.path }) else {
                throw KanbanError(.invalidArgument, "'\(other.slug)' is not in column '\(column)'")
            }
            if case .before = placement { index = found } else { index = found + 1 }
        }
        let plan = OrderKey.plan(insertingAt: index, into: keys)
        // The card already sits between the same neighbours, with a key that keeps it there.
        let keepsPlace = currentIndex == index && ordered[currentIndex ?? 0].position != nil
        return PlacementPlan(key: plan.key, rekeyed: plan.rekeyed.map { (file: cards[$0.index].file, key: $0.key) }, keepsPlace: keepsPlace)
    }

    /// Adds the new positions of re-keyed neighbours to `transaction`.
    func rekey(_ rekeyed: [(file: CardFile, key: String)], into transaction: inout BoardTransaction, root: BoardRoot) throws(KanbanError) {
        for (file, key) in rekeyed {
            var (card, document, bytes) = try readCard(file, includeBody: false, in: root)
            completeFrontmatter(&document, card: card)
            document.setValue(.string(key), forKey: "position")
            transaction.write(document.bytes(), to: file.path, replacing: bytes)
            bytes = []
            card.position = key
        }
    }
}

extension BoardStore {
    /// The results of `first` and `second`, run at once on two threads.
    static func both<A: Sendable, B: Sendable>(_ first: @Sendable () throws(KanbanError) -> A,
                                               _ second: @Sendable () throws(KanbanError) -> B) throws(KanbanError) -> (A, B) {
        let results = Mutex<(Result<A, KanbanError>?, Result<B, KanbanError>?)>((nil, nil))
        DispatchQueue.concurrentPerform(iterations: 2) { turn in
            if turn == 0 {
                let result = Result { () throws(KanbanError) -> A in try first() }
                results.withLock { $0.0 = result }
            } else {
                let result = Result { () throws(KanbanError) -> B in try second() }
                results.withLock { $0.1 = result }
            }
        }
        let (a, b) = results.withLock { $0 }
        return (try a!.get(), try b!.get())
    }
}

/// Which listed names could collide with a slug made from `base` (`base` or `base-N`): only one whose key starts
/// with `base`'s key (an ASCII name is compared as bytes; a board of 100,000 cards has a handful).
struct SlugCollisions: Sendable {
    let baseKey: [UInt8]
    let baseIsASCII: Bool

    init(_ base: String) {
        baseKey = Array(Slug.collisionKey(base).utf8)
        baseIsASCII = baseKey.allSatisfy { $0 < 0x80 }
    }

    /// Whether the card file `name` (ending in `.md`) might take `base` or `base-N`.
    func mightCollide(_ name: UnsafeBufferPointer<UInt8>, isArchived: Bool) -> Bool {
        var stem = UnsafeBufferPointer(rebasing: name[0..<(name.count - 3)])
        guard stem.allSatisfy({ $0 < 0x80 }) else { return true }
        guard baseIsASCII else { return false }
        func digit(_ index: Int) -> Bool { stem[index] >= 0x30 && stem[index] <= 0x39 }
        // `YYYY-MM-DD-` before an archived card's slug, as ``CardFile/archived(name:)`` reads it.
        if isArchived, stem.count > 11, (0..<4).allSatisfy(digit), stem[4] == UInt8(ascii: "-"), digit(5), digit(6),
           stem[7] == UInt8(ascii: "-"), digit(8), digit(9), stem[10] == UInt8(ascii: "-") {
            stem = UnsafeBufferPointer(rebasing: stem[11...])
        }
        guard stem.count >= baseKey.count else { return false }
        for (offset, byte) in baseKey.enumerated() {
            let letter = stem[offset]
            if (letter >= 0x41 && letter <= 0x5A ? letter | 0x20 : letter) != byte { return false }
        }
        return true
    }
}

/// The slugs taken on a board, as far as a new slug is concerned: collision keys from listings, and the index's
/// listings of directories not listed again.
struct TakenSlugs: Sendable {
    var keys: Set<String> = []
    var listings: [CardIndex.DirectoryListing] = []

    func contains(_ candidate: String) -> Bool {
        if keys.contains(Slug.collisionKey(candidate)) { return true }
        let key = CardIndex.nameKey(ofSlug: candidate)
        return listings.contains { $0.holds(key) }
    }

    mutating func formUnion(_ other: TakenSlugs) {
        keys.formUnion(other.keys)
        listings += other.listings
    }
}

extension Placement {
    /// True at the top, false at the bottom, nil next to another card.
    var isTop: Bool? {
        switch self {
        case .top: true
        case .bottom: false
        case .before, .after: nil
        }
    }
}

/// A new card's key and the neighbours to re-key around it.
struct PlacementPlan: Sendable {
    var key: String
    var rekeyed: [(file: CardFile, key: String)]
    /// Whether the card being moved is already at the planned place (a move there changes nothing).
    var keepsPlace = false

    /// The plan for a card put first (`atTop`) or last in a column whose cards have the positions `keys` (in any
    /// order): only the first or last key matters. Nil when a neighbour would need a new key, which needs the
    /// column in order.
    static func atEnd(atTop: Bool, of keys: [String]) -> PlacementPlan? {
        let extreme = atTop ? keys.min { $0.utf8Precedes($1) } : keys.max { $0.utf8Precedes($1) }
        let plan = OrderKey.plan(insertingAt: atTop || extreme == nil ? 0 : 1, into: extreme.map { [$0] } ?? [])
        return plan.rekeyed.isEmpty ? PlacementPlan(key: plan.key, rekeyed: []) : nil
    }
}

func uniqued(_ values: [String]) -> [String] {
    var seen: Set<String> = []
    return values.filter { seen.insert($0).inserted }
}
