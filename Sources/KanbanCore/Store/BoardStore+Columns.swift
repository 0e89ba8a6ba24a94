extension BoardStore {
    /// Adds a column to `board.md` and makes its directory.
    /// - Parameters:
    ///   - id: The new column's id (letters, digits, `-`, `_`, `.`), which names its directory.
    ///   - name: Its display name.
    ///   - index: Where it goes in the column order; last when nil.
    @discardableResult
    public func addColumn(id: String, name: String, at index: Int? = nil) throws(KanbanError) -> BoardChange {
        guard Column.isValidID(id) else {
            throw KanbanError(.invalidArgument, "'\(id)' cannot be a column id: use letters, digits, '-', '_' or '.'")
        }
        let name = name.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, !name.contains("\n") else { throw KanbanError(.invalidArgument, "a column needs a one-line name") }
        return try editBoard { (file: inout BoardFile) throws(KanbanError) in
            var columns = file.board.columns
            guard !columns.contains(where: { $0.id == id }) else {
                throw KanbanError(.alreadyExists, "column '\(id)' already exists")
            }
            let position = min(max(index ?? columns.count, 0), columns.count)
            columns.insert(Column(id: id, name: name), at: position)
            file.setColumns(columns)
            try FileSystem.makeDirectory(directory + "/cards/" + id)
        }
    }

    /// Changes a column's display name (its id and directory stay).
    @discardableResult
    public func renameColumn(_ id: String, to name: String) throws(KanbanError) -> BoardChange {
        let name = name.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, !name.contains("\n") else { throw KanbanError(.invalidArgument, "a column needs a one-line name") }
        return try editBoard { (file: inout BoardFile) throws(KanbanError) in
            var columns = file.board.columns
            let index = try columnIndex(id, in: file.board)
            columns[index].name = name
            file.setColumns(columns)
        }
    }

    /// Shows or hides a column narrow in board views.
    @discardableResult
    public func setColumnCollapsed(_ id: String, _ isCollapsed: Bool) throws(KanbanError) -> BoardChange {
        try editBoard { (file: inout BoardFile) throws(KanbanError) in
            var columns = file.board.columns
            let index = try columnIndex(id, in: file.board)
            columns[index].isCollapsed = isCollapsed
            file.setColumns(columns)
        }
    }

    /// Moves a column to `index` in the column order.
    @discardableResult
    public func moveColumn(_ id: String, to index: Int) throws(KanbanError) -> BoardChange {
        try editBoard { (file: inout BoardFile) throws(KanbanError) in
            var columns = file.board.columns
            let from = try columnIndex(id, in: file.board)
            let column = columns.remove(at: from)
            columns.insert(column, at: min(max(index, 0), columns.count))
            file.setColumns(columns)
        }
    }

    /// Removes a column from `board.md`. A column that holds cards is removed only with `movingCardsTo`,
    /// whose bottom receives its cards in order; its directory is removed when nothing else is left in it.
    /// - Throws: ``KanbanError/Code/columnNotEmpty`` when the column holds cards and no target is given.
    @discardableResult
    public func removeColumn(_ id: String, movingCardsTo target: String? = nil) throws(KanbanError) -> BoardChange {
        try withLock { () throws(KanbanError) -> BoardChange in
            var file = try readBoardFile()
            let index = try columnIndex(id, in: file.board)
            guard file.board.columns.count > 1 else {
                throw KanbanError(.invalidArgument, "'\(id)' is the board's only column")
            }
            if let target {
                try requireColumn(target, in: file.board)
                guard target != id else { throw KanbanError(.invalidArgument, "cannot move the cards of '\(id)' into itself") }
            }
            let cardFiles = try listCardFiles(.active, columns: [id], board: file.board).files
            var written: [String] = []
            var removed: [String] = []
            if !cardFiles.isEmpty {
                guard let target else {
                    throw KanbanError(.columnNotEmpty, "column '\(id)' holds \(cardFiles.count) card\(cardFiles.count == 1 ? "" : "s"); give a column to move them to")
                }
                let loaded = CardLoader.load(cardFiles, root: directory, includeBodies: false)
                if let bad = loaded.first(where: { $0.card == nil }), let diagnostic = bad.diagnostics.first {
                    throw KanbanError(.invalidCard, "cannot move a card that does not parse: \(diagnostic.message)", at: diagnostic.location)
                }
                let cards = loaded.compactMap(\.card).sorted(by: Card.precedes)
                // Check every destination first, so that a clash leaves the board as it was.
                for card in cards where FileSystem.exists(directory + "/cards/\(target)/\(card.slug).md") {
                    throw KanbanError(.alreadyExists, "column '\(target)' already has a card '\(card.slug)'; rename or move one of them first (nothing was changed)",
                                      at: SourceLocation(path: "cards/\(target)/\(card.slug).md"))
                }
                for card in cards {
                    let source = CardFile.active(name: card.slug + ".md", column: id)
                    var (current, document) = try readCard(source, includeBody: false)
                    let plan = try planPlacement(.bottom, in: target, moving: nil)
                    completeFrontmatter(&document, card: current)
                    document.setValue(.string(target), forKey: "column")
                    document.setValue(.string(plan.key), forKey: "position")
                    document.setValue(.unquoted(timestamp()), forKey: "modified")
                    let destination = CardFile.active(name: source.slug + ".md", column: target)
                    try FileSystem.createAtomically(document.bytes(), at: directory + "/" + destination.path)
                    try FileSystem.remove(directory + "/" + source.path)
                    written.append(destination.path)
                    written += try applyRekeys(plan.rekeyed)
                    removed.append(source.path)
                    current.column = target
                }
            }
            var columns = file.board.columns
            columns.remove(at: index)
            file.setColumns(columns)
            try FileSystem.writeAtomically(file.bytes(), to: directory + "/" + BoardFile.path)
            FileSystem.removeDirectoryIfEmpty(directory + "/cards/" + id)
            return BoardChange(card: nil, previous: nil, writtenPaths: [BoardFile.path] + written, removedPaths: removed)
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

    /// Declares a new label.
    @discardableResult
    public func addLabel(id: String, name: String? = nil, color: String? = nil) throws(KanbanError) -> BoardChange {
        guard Label.isValidID(id) else {
            throw KanbanError(.invalidArgument, "'\(id)' cannot be a label id: no spaces, commas, brackets, quotes, ':' or '#'")
        }
        if let color { try requireColor(color) }
        return try editBoard { (file: inout BoardFile) throws(KanbanError) in
            var labels = file.board.labels
            guard !labels.contains(where: { $0.id == id }) else { throw KanbanError(.alreadyExists, "label '\(id)' already exists") }
            labels.append(Label(id: id, name: name ?? id, color: color))
            file.setLabels(labels)
        }
    }

    /// Changes a label's display name and/or colour (its id, which cards use, stays).
    @discardableResult
    public func renameLabel(_ id: String, to name: String? = nil, color: String? = nil) throws(KanbanError) -> BoardChange {
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

    /// Removes a label from `board.md`; with `strippingCards`, also from every card (active and archived) that has it.
    @discardableResult
    public func removeLabel(_ id: String, strippingCards: Bool = false) throws(KanbanError) -> BoardChange {
        try withLock { () throws(KanbanError) -> BoardChange in
            var file = try readBoardFile()
            var labels = file.board.labels
            guard let index = labels.firstIndex(where: { $0.id == id }) else {
                throw KanbanError(.labelNotFound, "no label '\(id)' on this board", candidates: labels.map(\.id))
            }
            var written: [String] = []
            if strippingCards {
                let files = try listCardFiles(.all, columns: nil, board: file.board).files
                for loaded in CardLoader.load(files, root: directory, includeBodies: false) {
                    guard let card = loaded.card, card.labels.contains(id) else { continue }
                    let source = card.isArchived ? CardFile.archived(name: String(card.path.dropFirst("archive/".count)))
                        : CardFile.active(name: card.slug + ".md", column: card.column)
                    var (_, document) = try readCard(source, includeBody: false)
                    document.setValue(.list(card.labels.filter { $0 != id }.map { .string($0) }), forKey: "labels")
                    document.setValue(.unquoted(timestamp()), forKey: "modified")
                    try FileSystem.writeAtomically(document.bytes(), to: directory + "/" + source.path)
                    written.append(source.path)
                }
            }
            labels.remove(at: index)
            file.setLabels(labels)
            try FileSystem.writeAtomically(file.bytes(), to: directory + "/" + BoardFile.path)
            return BoardChange(card: nil, previous: nil, writtenPaths: [BoardFile.path] + written, removedPaths: [])
        }
    }

    // MARK: Helpers

    /// Reads `board.md` under the lock, lets `edit` change it, and writes it back.
    private func editBoard(_ edit: (inout BoardFile) throws(KanbanError) -> Void) throws(KanbanError) -> BoardChange {
        try withLock { () throws(KanbanError) -> BoardChange in
            var file = try readBoardFile()
            try edit(&file)
            try FileSystem.writeAtomically(file.bytes(), to: directory + "/" + BoardFile.path)
            return BoardChange(card: nil, previous: nil, writtenPaths: [BoardFile.path], removedPaths: [])
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
