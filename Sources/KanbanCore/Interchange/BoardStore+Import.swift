import Foundation

extension BoardStore {
    /// What importing `source` would do to the board as it is now; nothing is written.
    ///
    /// - A column of the source lands in the column `columnMap` names for it (a board column's id or name, or the id
    ///   of a column to declare); else in the board's column of the same name or id (case aside); else in a new
    ///   column whose id is made from the name.
    /// - A label lands on the board's label of the same name or id, else is declared with the source's colour.
    /// - A card already imported (its `source` key holds the source's id; for this tool's exports, the card of its slug
    ///   made at the same second) is updated to what the source says: title, labels, body, the fields the source gives, its column, and whether
    ///   it is archived. Keys the source does not give stay, and so does its place while its column stays. A card
    ///   the source no longer has is left alone.
    /// - A new card gets a slug made from its title (unique on the board) and a place after the column's cards,
    ///   in the source's order; a title that is not one line becomes one.
    ///
    /// - Parameter columnMap: Source column names (compared without case) to board column ids or names.
    /// - Throws: ``KanbanError`` for a `columnMap` entry that names no column of the source or cannot be a column
    ///   id, two cards of the source with one id, or a board that cannot be read.
    public func planImport(_ source: ImportedBoard, columnMap: [String: String] = [:]) throws(KanbanError) -> ImportPlan {
        try makeImportPlan(source, columnMap: columnMap, root: try openRoot())
    }

    /// Imports `source` as ``planImport(_:columnMap:)`` plans it, under the board's lock, in one change that is
    /// made whole or not at all.
    /// - Returns: The plan as made, and the change (every file written and removed) to commit.
    @discardableResult
    public func applyImport(_ source: ImportedBoard, columnMap: [String: String] = [:]) throws(KanbanError) -> (plan: ImportPlan, change: BoardChange) {
        try withLock { () throws(KanbanError) -> (plan: ImportPlan, change: BoardChange) in
            let root = try openRoot()
            let plan = try makeImportPlan(source, columnMap: columnMap, root: root)
            var transaction = BoardTransaction("import \(plan.steps.count) cards from \(source.format.rawValue)")
            for file in (plan.boardFile.map { [$0] } ?? []) + plan.steps.flatMap(\.files) {
                if let after = file.after {
                    transaction.write(after, to: file.path, replacing: file.before)
                } else if let before = file.before {
                    transaction.remove(file.path, before: before)
                }
            }
            try apply(transaction, in: root)
            for column in plan.columns where column.isNew { try root.makeDirectory("cards/" + column.id) }
            return (plan, BoardChange(card: nil, previous: nil, transaction: transaction))
        }
    }

    private func makeImportPlan(_ source: ImportedBoard, columnMap: [String: String], root: BoardRoot) throws(KanbanError) -> ImportPlan {
        let boardBytes = try root.read(BoardFile.path)
        var boardFile = try BoardFile(bytes: boardBytes)
        var board = boardFile.board
        let columns = try Self.mapColumns(of: source, into: &board, columnMap: columnMap)
        let labels = Self.mapLabels(of: source, into: &board)
        let columnID = Dictionary(columns.map { ($0.source, $0.id) }, uniquingKeysWith: { first, _ in first })
        let labelID = Dictionary(labels.map { ($0.source, $0.label.id) }, uniquingKeysWith: { first, _ in first })

        let snapshot = try load(.all, includeBodies: true)
        var bySource: [String: Card] = [:]
        var bySlug: [String: Card] = [:]
        var taken: Set<String> = []
        var lastPosition: [String: String] = [:]
        for card in snapshot.cards {
            taken.insert(card.slug)
            if let id = card.field(ImportedCard.sourceKey)?.string, bySource[id] == nil { bySource[id] = card }
            if bySlug[card.slug] == nil || !card.isArchived { bySlug[card.slug] = card }
            if !card.isArchived, let position = card.position, position > lastPosition[card.column, default: ""] {
                lastPosition[card.column] = position
            }
        }
        // The slugs of the source's own cards (this tool's exports) are theirs: a card made from a title never takes one.
        var reserved: Set<String> = []
        for card in source.cards { if let slug = card.slug, bySlug[slug] == nil { reserved.insert(slug) } }

        var seen: Set<String> = []
        var archivedNames: Set<String> = []
        var steps: [ImportPlan.Step] = []
        steps.reserveCapacity(source.cards.count)
        for (index, imported) in source.cards.enumerated() {
            let identity = imported.sourceID ?? imported.slug ?? ""
            guard seen.insert(identity).inserted || identity.isEmpty else {
                throw KanbanError(.invalidArgument, "two cards of the source are '\(identity)' (the second is card \(index + 1)); an id must name one card")
            }
            let title = Self.importedTitle(imported.title)
            let column = columnID[imported.column] ?? board.columns[0].id
            let cardLabels = uniqued(imported.labels.compactMap { labelID[$0] })
            let fields = try Self.importedFields(imported)
            // A card of this tool's export is the board's card of its slug only when they were made at the same second:
            // another board's `fix-login` is another card, and never overwrites this one's.
            let existing = imported.sourceID.map { bySource[$0] } ?? imported.slug.flatMap { bySlug[$0] }.flatMap { card in
                guard let made = imported.created, let created = card.created else { return card }
                return made.flooredToSeconds == created.flooredToSeconds ? card : nil
            }
            func nextPosition() throws(KanbanError) -> String {
                let last = lastPosition[column]
                guard let key = OrderKey.between(last, nil) else {
                    throw KanbanError(.invalidArgument, "column '\(column)' has no room after position '\(last ?? "")'; run 'kanban doctor --fix' to spread its keys")
                }
                lastPosition[column] = key
                return key
            }
            if let existing {
                steps.append(try updateStep(existing, to: imported, title: title, column: column, labels: cardLabels, fields: fields,
                                            root: root, archivedNames: &archivedNames, nextPosition: nextPosition))
                continue
            }
            let slug: String
            if let wanted = imported.slug, Self.isUsableSlug(wanted), !taken.contains(wanted) {
                slug = wanted
            } else {
                slug = Slug.unique(imported.slug.flatMap { Self.isUsableSlug($0) ? $0 : nil } ?? Slug.make(from: title),
                                   isTaken: { taken.contains($0) || reserved.contains($0) })
            }
            taken.insert(slug)
            var position = imported.position.flatMap { $0.isEmpty || BoardText.lineProblem($0, as: "") != nil ? nil : $0 }
            if !imported.isArchived, position == nil { position = try nextPosition() }
            if let position, !imported.isArchived, position > lastPosition[column, default: ""] { lastPosition[column] = position }
            let now = timestamp()
            var entries = [YAMLMapEntry(key: "title", value: .string(title)),
                           YAMLMapEntry(key: "column", value: .string(column))]
            if let position { entries.append(YAMLMapEntry(key: "position", value: .string(position))) }
            entries += [YAMLMapEntry(key: "created", value: .unquoted(imported.created.map { ISO8601.string(from: $0.flooredToSeconds) } ?? now)),
                        YAMLMapEntry(key: "modified", value: .unquoted(imported.modified.map { ISO8601.string(from: $0.flooredToSeconds) } ?? now)),
                        YAMLMapEntry(key: "labels", value: .list(cardLabels.map { .string($0) }))]
            entries += fields
            if let id = imported.sourceID { entries.append(YAMLMapEntry(key: ImportedCard.sourceKey, value: .string(id))) }
            let document = FrontmatterDocument(entries: entries, body: imported.body, dialect: .card)
            let path: String
            if imported.isArchived {
                let day = imported.archivedOn.flatMap(Self.validDay) ?? ISO8601.dayString(from: imported.modified ?? imported.created ?? clock(), in: .current)
                path = try archivePath(day: day, slug: slug, root: root, taken: &archivedNames)
            } else {
                path = "cards/\(column)/\(slug).md"
            }
            var step = ImportPlan.Step(action: .create, sourceID: imported.sourceID, slug: slug, title: title, column: column,
                                       isArchived: imported.isArchived, path: path)
            step.files = [BoardTransaction.Step(path: path, before: nil, after: document.bytes())]
            steps.append(step)
        }
        var plan = ImportPlan(format: source.format, columns: columns, labels: labels, steps: steps)
        if board.columns != boardFile.board.columns || board.labels != boardFile.board.labels {
            boardFile.setColumns(board.columns)
            boardFile.setLabels(board.labels)
            plan.boardFile = BoardTransaction.Step(path: BoardFile.path, before: boardBytes, after: boardFile.bytes())
        }
        return plan
    }

    /// The step that makes `card` what the source says, or leaves it when it is.
    private func updateStep(_ card: Card, to imported: ImportedCard, title: String, column: String, labels: [String],
                            fields: [YAMLMapEntry], root: BoardRoot, archivedNames: inout Set<String>,
                            nextPosition: () throws(KanbanError) -> String) throws(KanbanError) -> ImportPlan.Step {
        let file = card.isArchived ? CardFile.archived(name: String(card.path.dropFirst("archive/".count)))
            : CardFile.active(name: card.slug + ".md", column: card.column)
        var (_, document, bytes) = try readCard(file, includeBody: true, in: root)
        completeFrontmatter(&document, card: card)
        var changes: [String] = []
        if card.title != title {
            document.setValue(.string(title), forKey: "title")
            changes.append("title")
        }
        if card.labels != labels {
            document.setValue(.list(labels.map { .string($0) }), forKey: "labels")
            changes.append("labels")
        }
        if (card.body ?? "") != imported.body {
            document.setBody(imported.body)
            changes.append("body")
        }
        for entry in fields where !sameValue(document.value(forKey: entry.key), entry.value) {
            document.setValue(entry.value, forKey: entry.key)
            changes.append(entry.key)
        }
        let columnChanges = card.column != column
        if columnChanges {
            document.setValue(.string(column), forKey: "column")
            changes.append("column")
        }
        if !imported.isArchived {
            if let position = imported.position, !position.isEmpty, position != card.position, BoardText.lineProblem(position, as: "") == nil {
                document.setValue(.string(position), forKey: "position")
                changes.append("position")
            } else if columnChanges || card.isArchived {
                document.setValue(.string(try nextPosition()), forKey: "position")
            }
        }
        if card.isArchived != imported.isArchived { changes.append("archived") }
        var step = ImportPlan.Step(action: changes.isEmpty ? .unchanged : .update, sourceID: imported.sourceID, slug: card.slug,
                                   title: title, column: column, isArchived: imported.isArchived, changes: changes, path: card.path)
        guard !changes.isEmpty else { return step }
        document.setValue(.unquoted(timestamp()), forKey: "modified")
        if imported.isArchived == card.isArchived && !(columnChanges && !card.isArchived) {
            step.files = [BoardTransaction.Step(path: card.path, before: bytes, after: document.bytes())]
            return step
        }
        if imported.isArchived {
            let day = ISO8601.dayString(from: clock(), in: .current)
            step.path = try archivePath(day: day, slug: card.slug, root: root, taken: &archivedNames)
        } else {
            step.path = "cards/\(column)/\(card.slug).md"
        }
        step.files = [BoardTransaction.Step(path: step.path, before: nil, after: document.bytes()),
                      BoardTransaction.Step(path: card.path, before: bytes, after: nil)]
        bytes = []
        return step
    }

    /// Declares what `source` needs of columns, and says where each of its columns lands.
    static func mapColumns(of source: ImportedBoard, into board: inout Board,
                            columnMap: [String: String]) throws(KanbanError) -> [ImportPlan.ColumnMapping] {
        var names: [String] = []
        var known: Set<String> = [""]
        for name in source.columns.map(\.name) + source.cards.map(\.column) where known.insert(name).inserted { names.append(name) }
        var map: [String: String] = [:]
        for (key, value) in columnMap {
            guard names.contains(where: { $0.lowercased() == key.lowercased() }) else {
                throw KanbanError(.invalidArgument, "--map names '\(key)', which is no column of the source; its columns are: \(names.joined(separator: ", "))")
            }
            map[key.lowercased()] = value
        }
        func existing(_ text: String) -> Column? {
            board.columns.first { $0.id == text } ?? board.columns.first { $0.name.lowercased() == text.lowercased() }
                ?? board.columns.first { $0.id.lowercased() == text.lowercased() }
        }
        var mappings: [ImportPlan.ColumnMapping] = []
        for name in names {
            if let target = map[name.lowercased()] {
                if let column = existing(target) {
                    mappings.append(ImportPlan.ColumnMapping(source: name, id: column.id, isNew: false))
                    continue
                }
                if let problem = Column.idProblem(target) { throw KanbanError(.invalidArgument, "--map \(name)=\(target): \(problem)") }
                board.columns.append(Column(id: target, name: Self.importedTitle(name)))
                mappings.append(ImportPlan.ColumnMapping(source: name, id: target, isNew: true))
                continue
            }
            let made = String(Slug.make(from: name).prefix(64))
            if let column = existing(name) ?? existing(made) {
                mappings.append(ImportPlan.ColumnMapping(source: name, id: column.id, isNew: false))
                continue
            }
            let ids = Set(board.columns.map { $0.id.lowercased() })
            let id = Slug.unique(made, isTaken: { ids.contains($0.lowercased()) })
            board.columns.append(Column(id: id, name: Self.importedTitle(name)))
            mappings.append(ImportPlan.ColumnMapping(source: name, id: id, isNew: true))
        }
        return mappings
    }

    /// Declares the labels `source` needs, and says which board label each of its labels is.
    private static func mapLabels(of source: ImportedBoard, into board: inout Board) -> [ImportPlan.LabelMapping] {
        var names: [String] = []
        var colors: [String: String] = [:]
        var known: Set<String> = []
        for label in source.labels where known.insert(label.name).inserted {
            names.append(label.name)
            colors[label.name] = label.color
        }
        for name in source.cards.flatMap(\.labels) where known.insert(name).inserted { names.append(name) }
        var mappings: [ImportPlan.LabelMapping] = []
        for name in names {
            let made = labelID(from: name)
            if let label = board.labels.first(where: { $0.id == name || $0.name.lowercased() == name.lowercased() || $0.id == made }) {
                mappings.append(ImportPlan.LabelMapping(source: name, label: label, isNew: false))
                continue
            }
            let ids = Set(board.labels.map(\.id))
            let color = colors[name].flatMap { Label.isValidColor($0) ? $0 : nil } ?? Label.defaultColor(besides: board.labels)
            let label = Label(id: Slug.unique(made, isTaken: ids.contains), name: importedTitle(name), color: color)
            board.labels.append(label)
            mappings.append(ImportPlan.LabelMapping(source: name, label: label, isNew: true))
        }
        return mappings
    }

    /// A label id for `name`: lowercase, white space and other signs as `-`, letters of any script kept
    /// (`Needs Review` → `needs-review`, `Ошибка` → `ошибка`); the slug of the name when that is no id.
    static func labelID(from name: String) -> String {
        var id = ""
        var pendingHyphen = false
        for scalar in name.lowercased().unicodeScalars {
            if scalar.properties.isAlphabetic || scalar.properties.numericType != nil || "_.+".unicodeScalars.contains(scalar) {
                if pendingHyphen && !id.isEmpty { id.append("-") }
                pendingHyphen = false
                id.unicodeScalars.append(scalar)
            } else {
                pendingHyphen = true
            }
        }
        while id.utf8.count > 64 { id.removeLast() }
        return Label.idProblem(id) == nil ? id : String(Slug.make(from: name).prefix(64))
    }

    /// `title` as one line without control characters; `untitled` when nothing is left.
    static func importedTitle(_ title: String) -> String {
        var line = ""
        var pendingSpace = false
        for scalar in title.unicodeScalars {
            if scalar.properties.isWhitespace || scalar.value == 0x2028 || scalar.value == 0x2029 {
                pendingSpace = true
            } else if !BoardText.isControl(scalar) {
                if pendingSpace && !line.isEmpty { line.append(" ") }
                pendingSpace = false
                line.unicodeScalars.append(scalar)
            }
        }
        return line.isEmpty ? "untitled" : line
    }

    /// The card's other keys as written: each key checked, control characters (but line feeds and tabs) dropped.
    private static func importedFields(_ card: ImportedCard) throws(KanbanError) -> [YAMLMapEntry] {
        func cleaned(_ value: YAMLValue) -> YAMLValue {
            switch value {
            case .scalar(var scalar):
                if BoardText.fieldValueProblem(scalar.value, key: "") != nil {
                    scalar.value = String(String.UnicodeScalarView(scalar.value.unicodeScalars.filter {
                        !BoardText.isControl($0) || $0 == "\n" || $0 == "\t"
                    }))
                }
                return .scalar(scalar)
            case .list(let items):
                return .list(items.map(cleaned))
            case .map(let entries):
                return .map(entries.map { YAMLMapEntry(key: $0.key, value: cleaned($0.value)) })
            }
        }
        var fields: [YAMLMapEntry] = []
        var keys: Set<String> = []
        for entry in card.fields {
            guard isFieldKey(entry.key), !Card.knownKeys.contains(entry.key), entry.key != ImportedCard.sourceKey else {
                throw KanbanError(.invalidArgument, "'\(entry.key)' cannot be a card's key: use letters, digits, '-' and '_', and none of \(Card.knownKeys.sorted().joined(separator: ", ")), source")
            }
            guard keys.insert(entry.key).inserted else { continue }
            fields.append(YAMLMapEntry(key: entry.key, value: cleaned(entry.value)))
        }
        return fields
    }

    /// `text` when it is a day as archive file names hold it (`2026-01-31`).
    static func validDay(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
              bytes.enumerated().allSatisfy({ $0.offset == 4 || $0.offset == 7 || ($0.element >= 0x30 && $0.element <= 0x39) }) else { return nil }
        return text
    }

    /// Whether `key` can be a card's key: ASCII letters, digits, `-` and `_`, not starting with `-`.
    static func isFieldKey(_ key: String) -> Bool {
        guard let first = key.utf8.first, first != UInt8(ascii: "-") else { return false }
        return key.utf8.allSatisfy {
            ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x2D || $0 == 0x5F
        }
    }

    /// Whether a slug the source gives can name a card file: what ``Slug/make(from:)`` could make.
    private static func isUsableSlug(_ slug: String) -> Bool {
        !slug.isEmpty && slug.utf8.count <= Slug.maximumLength + 8 && slug.utf8.first != UInt8(ascii: "-")
            && slug.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x2D }
    }

    /// `archive/DAY-SLUG.md`, or with `-2`, `-3`... when that is taken on disk or by this import.
    private func archivePath(day: String, slug: String, root: BoardRoot, taken: inout Set<String>) throws(KanbanError) -> String {
        var name = "\(day)-\(slug).md"
        var number = 2
        while try root.kind(of: "archive/" + name) != nil || taken.contains(name) {
            name = "\(day)-\(slug)-\(number).md"
            number += 1
        }
        taken.insert(name)
        return "archive/" + name
    }
}
