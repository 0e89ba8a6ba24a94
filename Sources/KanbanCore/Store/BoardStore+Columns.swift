extension BoardStore {
    /// Adds a column to `board.md` and makes its directory.
    /// - Parameters:
    ///   - id: The new column's id (letters, digits, `-`, `_`, `.`), which names its directory.
    ///   - name: Its display name.
    ///   - index: Where it goes in the column order; last when nil.
    @discardableResult
    public func addColumn(id: String, name: String, at index: Int? = nil) throws(KanbanError) -> BoardChange {
        if let problem = Column.idProblem(id) { throw KanbanError(.invalidArgument, problem) }
        let name = try Self.checkedName(name, as: "a column name")
        return try editBoard { (file: inout BoardFile) throws(KanbanError) in
            var columns = file.board.columns
            guard !columns.contains(where: { $0.id == id }) else {
                throw KanbanError(.alreadyExists, "column '\(id)' already exists")
            }
            if let other = columns.first(where: { $0.id.lowercased() == id.lowercased() }) {
                throw KanbanError(.alreadyExists, Column.caseCollisionMessage(id, other.id))
            }
            if let index { try Self.requireIndex(index, of: "new column", count: columns.count + 1) }
            let position = index ?? columns.count
            columns.insert(Column(id: id, name: name), at: position)
            file.setColumns(columns)
        } afterwards: { (root: BoardRoot) throws(KanbanError) in
            try root.makeDirectory("cards/" + id)
        }
    }

    /// Changes a column's display name (its id and directory stay).
    @discardableResult
    public func renameColumn(_ id: String, to name: String) throws(KanbanError) -> BoardChange {
        let name = try Self.checkedName(name, as: "a column name")
        return try editColumn(id) { $0.name = name }
    }

    /// Shows or hides a column narrow in board views.
    @discardableResult
    public func setColumnCollapsed(_ id: String, _ isCollapsed: Bool) throws(KanbanError) -> BoardChange {
        try editColumn(id) { $0.isCollapsed = isCollapsed }
    }

    /// Changes one column's settings in `board.md` (its other keys, and every other byte, kept).
    private func editColumn(_ id: String, _ change: (inout Column) -> Void) throws(KanbanError) -> BoardChange {
        try editBoard { (file: inout BoardFile) throws(KanbanError) in
            var columns = file.board.columns
            let index = try columnIndex(id, in: file.board)
            change(&columns[index])
            file.setColumns(columns)
        }
    }

    /// Sets or removes a column's WIP limit (`wip-limit:` in board.md). Cards already over it stay; adding or moving
    /// one more in warns (``BoardChange/overLimit``), or is refused where limits are strict.
    /// - Parameter limit: From 1 to 100,000; nil removes the limit.
    @discardableResult
    public func setColumnLimit(_ id: String, _ limit: Int?) throws(KanbanError) -> BoardChange {
        if let limit, !Column.wipLimitRange.contains(limit) {
            throw KanbanError(.invalidArgument, "a WIP limit is a whole number from 1 to \(Column.wipLimitRange.upperBound), not \(limit)")
        }
        return try editColumn(id) { $0.wipLimit = limit }
    }

    /// Marks a column as a queue, where cards wait rather than being worked on (`queue: true` in board.md), or as
    /// active again: the report's flow efficiency counts time in queues apart.
    @discardableResult
    public func setColumnQueue(_ id: String, _ isQueue: Bool) throws(KanbanError) -> BoardChange {
        try editColumn(id) { $0.isQueue = isQueue }
    }

    /// Moves a column to `index` in the column order.
    @discardableResult
    public func moveColumn(_ id: String, to index: Int) throws(KanbanError) -> BoardChange {
        try editBoard { (file: inout BoardFile) throws(KanbanError) in
            var columns = file.board.columns
            let from = try columnIndex(id, in: file.board)
            try Self.requireIndex(index, of: "column", count: columns.count)
            let column = columns.remove(at: from)
            columns.insert(column, at: index)
            file.setColumns(columns)
        }
    }

    /// Removes a column from `board.md`. A column that holds cards is removed only with `movingCardsTo`,
    /// whose bottom receives its cards in order; its directory is removed when nothing else is left in it.
    /// - Throws: ``KanbanError/Code/columnNotEmpty`` when the column holds cards and no target is given.
    @discardableResult
    public func removeColumn(_ id: String, movingCardsTo target: String? = nil) throws(KanbanError) -> BoardChange {
        try withLock { () throws(KanbanError) -> BoardChange in
            let root = try openRoot()
            let boardBytes = try root.read(BoardFile.path)
            var file = try BoardFile(bytes: boardBytes)
            let index = try columnIndex(id, in: file.board)
            guard file.board.columns.count > 1 else {
                throw KanbanError(.invalidArgument, "'\(id)' is the board's only column")
            }
            if let target {
                try requireColumn(target, in: file.board, root: root)
                guard target != id else { throw KanbanError(.invalidArgument, "cannot move the cards of '\(id)' into itself") }
            }
            let cardFiles = try listCardFiles(.active, columns: [id], board: file.board, in: root).files
            var transaction = BoardTransaction("remove column \(id)")
            if !cardFiles.isEmpty {
                guard let target else {
                    throw KanbanError(.columnNotEmpty, "column '\(id)' holds \(cardFiles.count) card\(cardFiles.count == 1 ? "" : "s"); give a column to move them to")
                }
                var moving: [(card: Card, document: FrontmatterDocument, bytes: [UInt8])] = []
                for cardFile in cardFiles {
                    do throws(KanbanError) {
                        moving.append(try readCard(cardFile, includeBody: false, in: root))
                    } catch {
                        throw KanbanError(.invalidCard, "cannot move a card that does not parse: \(error.message)", at: error.location ?? SourceLocation(path: cardFile.path))
                    }
                }
                moving.sort { Card.precedes($0.card, $1.card) }
                // Check every destination first, so that a clash leaves the board as it was.
                for entry in moving where try root.kind(of: "cards/\(target)/\(entry.card.slug).md") != nil {
                    throw KanbanError(.alreadyExists, "column '\(target)' already has a card '\(entry.card.slug)'; rename or move one of them first (nothing was changed)",
                                      at: SourceLocation(path: "cards/\(target)/\(entry.card.slug).md"))
                }
                // The cards go to the bottom of the target in their order: keys after the target's last one.
                let listing = try listCardFiles(.active, columns: [target], board: file.board, in: root)
                var targetCards = PositionReader.ordered(listing.files, root: root)
                // The documents of the cards moved so far, by their new path, in case a later one re-keys them.
                var moved: [String: FrontmatterDocument] = [:]
                for entry in moving {
                    let keys = targetCards.map(\.position)
                    let insertAt = keys.lastIndex { $0 != nil }.map { $0 + 1 } ?? 0
                    let plan = OrderKey.plan(insertingAt: insertAt, into: keys)
                    for rekey in plan.rekeyed {
                        let neighbour = targetCards[rekey.index].file
                        targetCards[rekey.index].position = rekey.key
                        if var document = moved[neighbour.path] {
                            document.setValue(.string(rekey.key), forKey: "position")
                            moved[neighbour.path] = document
                            transaction.write(document.bytes(), to: neighbour.path, replacing: nil)
                        } else {
                            try self.rekey([(neighbour, rekey.key)], into: &transaction, root: root)
                        }
                    }
                    var document = entry.document
                    completeFrontmatter(&document, card: entry.card)
                    document.setValue(.string(target), forKey: "column")
                    document.setValue(.string(plan.key), forKey: "position")
                    document.setValue(.unquoted(timestamp()), forKey: "modified")
                    let destination = CardFile.active(name: entry.card.slug + ".md", column: target)
                    moved[destination.path] = document
                    transaction.write(document.bytes(), to: destination.path, replacing: nil)
                    transaction.remove(entry.card.path, before: entry.bytes)
                    targetCards.insert((file: destination, position: plan.key), at: insertAt)
                }
            }
            var columns = file.board.columns
            columns.remove(at: index)
            file.setColumns(columns)
            transaction.write(file.bytes(), to: BoardFile.path, replacing: boardBytes)
            try apply(transaction, in: root)
            root.removeDirectoryIfEmpty("cards/" + id)
            return BoardChange(card: nil, previous: nil, writtenPaths: [BoardFile.path] + transaction.writtenPaths.filter { $0 != BoardFile.path },
                               removedPaths: transaction.removedPaths)
        }
    }

    /// Changes the board's title.
    @discardableResult
    public func setBoardTitle(_ title: String) throws(KanbanError) -> BoardChange {
        let title = title.trimmingCharacters(in: .whitespaces)
        guard !title.isEmpty, !title.contains("\n") else { throw KanbanError(.invalidArgument, "a board needs a one-line title") }
        return try editBoard { (file: inout BoardFile) throws(KanbanError) in file.setTitle(title) }
    }

    // MARK: Labels

    /// Declares a new label, with `color`, or else the first colour of ``Label/palette`` the board does not use
    /// (SimpleKanban ignores a label without one).
    @discardableResult
    public func addLabel(id: String, name: String? = nil, color: String? = nil) throws(KanbanError) -> BoardChange {
        if let problem = Label.idProblem(id) { throw KanbanError(.invalidArgument, problem) }
        let name = try name.map { (name: String) throws(KanbanError) in try Self.checkedName(name, as: "a label name") }
        if let color { try requireColor(color) }
        return try editBoard { (file: inout BoardFile) throws(KanbanError) in
            var labels = file.board.labels
            guard !labels.contains(where: { $0.id == id }) else { throw KanbanError(.alreadyExists, "label '\(id)' already exists") }
            labels.append(Label(id: id, name: name ?? id, color: color ?? Label.defaultColor(besides: labels)))
            file.setLabels(labels)
        }
    }

    /// Changes a label's display name and/or colour (its id, which cards use, stays).
    @discardableResult
    public func renameLabel(_ id: String, to name: String? = nil, color: String? = nil) throws(KanbanError) -> BoardChange {
        let name = try name.map { (name: String) throws(KanbanError) in try Self.checkedName(name, as: "a label name") }
        if let color { try requireColor(color) }
        return try editBoard { (file: inout BoardFile) throws(KanbanError) in
            var labels = file.board.labels
            guard let index = labels.firstIndex(where: { $0.id == id }) else {
                throw KanbanError(.labelNotFound, "no label '\(id)' on this board", candidates: labels.map(\.id))
            }
            if let name { labels[index].name = name }
            if let color { labels[index].color = color }
            file.setLabels(labels)
        }
    }

    /// Moves a label to `index` in the label order (the order the app lists them in).
    @discardableResult
    public func moveLabel(_ id: String, to index: Int) throws(KanbanError) -> BoardChange {
        try editBoard { (file: inout BoardFile) throws(KanbanError) in
            var labels = file.board.labels
            guard let from = labels.firstIndex(where: { $0.id == id }) else {
                throw KanbanError(.labelNotFound, "no label '\(id)' on this board", candidates: labels.map(\.id))
            }
            try Self.requireIndex(index, of: "label", count: labels.count)
            let label = labels.remove(at: from)
            labels.insert(label, at: index)
            file.setLabels(labels)
        }
    }

    /// Removes a label from `board.md`; with `strippingCards`, also from every card (active and archived) that has it.
    @discardableResult
    public func removeLabel(_ id: String, strippingCards: Bool = false) throws(KanbanError) -> BoardChange {
        try withLock { () throws(KanbanError) -> BoardChange in
            let root = try openRoot()
            let boardBytes = try root.read(BoardFile.path)
            var file = try BoardFile(bytes: boardBytes)
            var labels = file.board.labels
            guard let index = labels.firstIndex(where: { $0.id == id }) else {
                throw KanbanError(.labelNotFound, "no label '\(id)' on this board", candidates: labels.map(\.id))
            }
            var transaction = BoardTransaction("remove label \(id)")
            if strippingCards {
                let files = try listCardFiles(.all, columns: nil, board: file.board, in: root).files
                for cardFile in files {
                    guard let (card, document, bytes) = try? readCard(cardFile, includeBody: false, in: root), card.labels.contains(id) else { continue }
                    var edited = document
                    edited.setValue(.list(card.labels.filter { $0 != id }.map { .string($0) }), forKey: "labels")
                    edited.setValue(.unquoted(timestamp()), forKey: "modified")
                    transaction.write(edited.bytes(), to: cardFile.path, replacing: bytes)
                }
            }
            labels.remove(at: index)
            file.setLabels(labels)
            transaction.write(file.bytes(), to: BoardFile.path, replacing: boardBytes)
            try apply(transaction, in: root)
            return BoardChange(card: nil, previous: nil, writtenPaths: [BoardFile.path] + transaction.writtenPaths.filter { $0 != BoardFile.path },
                               removedPaths: [])
        }
    }

    // MARK: Helpers

    /// `name` trimmed, or the error that says why it cannot be a name (``BoardText/lineProblem(_:as:)``).
    static func checkedName(_ name: String, as what: String) throws(KanbanError) -> String {
        if let problem = BoardText.lineProblem(name, as: what) { throw KanbanError(.invalidArgument, problem) }
        return name.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Throws unless `index` is a place in a list of `count` items (0-based), naming the range a person can give.
    static func requireIndex(_ index: Int, of kind: String, count: Int) throws(KanbanError) {
        guard index >= 0, index < count else {
            throw KanbanError(.invalidArgument, "index \(index) is not a \(kind)'s place on this board: give 0 to \(count - 1)")
        }
    }

    /// Reads `board.md` under the lock, lets `edit` change it, writes it back, and then does `afterwards`.
    private func editBoard(_ edit: (inout BoardFile) throws(KanbanError) -> Void,
                           afterwards: (BoardRoot) throws(KanbanError) -> Void = { _ in }) throws(KanbanError) -> BoardChange {
        try withLock { () throws(KanbanError) -> BoardChange in
            let root = try openRoot()
            let bytes = try root.read(BoardFile.path)
            var file = try BoardFile(bytes: bytes)
            try edit(&file)
            var transaction = BoardTransaction("edit board.md")
            transaction.write(file.bytes(), to: BoardFile.path, replacing: bytes)
            try apply(transaction, in: root)
            try afterwards(root)
            return BoardChange(card: nil, previous: nil, transaction: transaction)
        }
    }

    private func columnIndex(_ id: String, in board: Board) throws(KanbanError) -> Int {
        guard let index = board.columns.firstIndex(where: { $0.id == id }) else {
            throw KanbanError(.columnNotFound, "no column '\(id)' on this board", candidates: board.columns.map(\.id))
        }
        return index
    }

    private func requireColor(_ color: String) throws(KanbanError) {
        guard Label.isValidColor(color) else {
            throw KanbanError(.invalidArgument, "'\(color)' is not a colour: use '#rrggbb' or '#rgb'")
        }
    }
}
