/// `board.md`: parsing it into a ``Board`` and editing its `columns` and `labels` without touching the rest.
package struct BoardFile: Sendable {
    package static let path = "board.md"

    var document: FrontmatterDocument
    package private(set) var board: Board

    /// Parses `board.md`. Errors carry `board.md:line:column`.
    package init(bytes: [UInt8]) throws(KanbanError) {
        do {
            document = try FrontmatterDocument(bytes: bytes, dialect: .board)
        } catch {
            throw KanbanError(.invalidBoard, error.message, at: SourceLocation(path: Self.path, line: error.line, column: error.column))
        }
        board = try Self.board(from: document)
    }

    /// A new `board.md` in SimpleKanban's layout.
    init(board: Board) {
        var entries = [YAMLMapEntry(key: "title", value: .string(board.title)),
                       YAMLMapEntry(key: "columns", value: Self.value(of: board.columns, keeping: nil))]
        if !board.labels.isEmpty {
            entries.append(YAMLMapEntry(key: "labels", value: Self.value(of: board.labels, keeping: nil)))
        }
        document = FrontmatterDocument(entries: entries + board.fields, body: board.body, dialect: .board)
        self.board = board
    }

    func bytes() -> [UInt8] { document.bytes() }

    /// The 1-based line declaring the item of the list `key` (`columns` or `labels`) whose `id` is `id`, for
    /// diagnostics; nil when it cannot be found.
    func line(ofItem id: String, in key: String) -> Int? {
        location(ofItem: id, in: key)?.line
    }

    /// The 1-based line and column (in UTF-8 bytes) of the `id` of the item of the list `key` (`columns` or
    /// `labels`) whose `id` is `id`, for diagnostics; nil when it cannot be found.
    func location(ofItem id: String, in key: String) -> (line: Int, column: Int)? {
        guard let start = document.location(ofKey: key)?.line else { return nil }
        let lines = String(decoding: document.bytes(), as: UTF8.self).lines()
        for index in max(0, start - 1)..<lines.count {
            let line = lines[index]
            var content = line.drop { $0 == " " || $0 == "\t" }
            if content.hasPrefix("- ") { content = content.dropFirst(2).drop { $0 == " " } }
            guard content.hasPrefix("id:") else { continue }
            let value = content.dropFirst(3).drop { $0 == " " }
            let text = value.trimmingCharacters(in: .whitespacesAndNewlines)
            if text == id || text == "\"\(id)\"" || text == "'\(id)'" {
                return (index + 1, line.utf8.distance(from: line.startIndex, to: value.startIndex) + 1)
            }
        }
        return nil
    }

    mutating func setColumns(_ columns: [Column]) {
        document.setValue(Self.value(of: columns, keeping: document.value(forKey: "columns")), forKey: "columns")
        board.columns = columns
    }

    mutating func setLabels(_ labels: [Label]) {
        if labels.isEmpty && document.value(forKey: "labels") == nil {
            board.labels = labels
            return
        }
        document.setValue(Self.value(of: labels, keeping: document.value(forKey: "labels")), forKey: "labels")
        board.labels = labels
    }

    mutating func setTitle(_ title: String) {
        document.setValue(.string(title), forKey: "title")
        board.title = title
    }

    private static func board(from document: FrontmatterDocument) throws(KanbanError) -> Board {
        func location(_ key: String) -> SourceLocation {
            let place = document.location(ofKey: key)
            return SourceLocation(path: path, line: place?.line ?? 1, column: place?.column)
        }
        guard document.hasFrontmatter else {
            throw KanbanError(.invalidBoard, "board.md has no frontmatter; it must start with '---' and declare 'title' and 'columns'",
                              at: SourceLocation(path: path, line: 1, column: 1))
        }
        guard let title = document.value(forKey: "title")?.string, !title.isEmpty else {
            throw KanbanError(.invalidBoard, "board.md must declare a 'title'", at: location("title"))
        }
        guard let columnItems = document.value(forKey: "columns")?.list, !columnItems.isEmpty else {
            throw KanbanError(.invalidBoard, "board.md must declare 'columns' as a list of maps with 'id' and 'name'",
                              at: location("columns"))
        }
        var columns: [Column] = []
        for item in columnItems {
            guard let id = item["id"]?.string, Column.isValidID(id) else {
                throw KanbanError(.invalidBoard,
                                  "every column needs an 'id' of letters, digits, '-', '_' or '.' (got \(describe(item["id"])))",
                                  at: location("columns"))
            }
            guard !columns.contains(where: { $0.id == id }) else {
                throw KanbanError(.invalidBoard, "column id '\(id)' is declared twice", at: location("columns"))
            }
            let name = item["name"]?.string ?? id
            let collapsed = item["collapsed"]?.string.map(isTrue) ?? false
            // A limit that is no whole number in range is no limit; `kanban doctor` says so (invalid-wip-limit).
            let limit = item[Column.wipLimitKey]?.string.flatMap(Column.wipLimit(from:))
            let queue = item[Column.queueKey]?.string.map(isTrue) ?? false
            columns.append(Column(id: id, name: name, isCollapsed: collapsed, wipLimit: limit, isQueue: queue))
        }
        var labels: [Label] = []
        if let labelValue = document.value(forKey: "labels"), !labelValue.isNull {
            guard let labelItems = labelValue.list else {
                throw KanbanError(.invalidBoard, "'labels' must be a list of maps with 'id', 'name' and 'color'", at: location("labels"))
            }
            for item in labelItems {
                guard let id = item["id"]?.string, !id.isEmpty else {
                    throw KanbanError(.invalidBoard, "every label needs an 'id'", at: location("labels"))
                }
                labels.append(Label(id: id, name: item["name"]?.string ?? id, color: item["color"]?.string))
            }
        }
        let others = document.entries.filter { !["title", "columns", "labels"].contains($0.key) }
        return Board(title: title, columns: columns, labels: labels, body: document.body, fields: others)
    }

    private static func isTrue(_ text: String) -> Bool {
        ["true", "yes", "on"].contains(text.lowercased())
    }

    private static func describe(_ value: YAMLValue?) -> String {
        guard let value else { return "nothing" }
        if let text = value.string { return "'\(text)'" }
        return "a list or map"
    }

    /// The YAML list for `columns`, keeping keys of each column map that we do not know about.
    private static func value(of columns: [Column], keeping old: YAMLValue?) -> YAMLValue {
        let oldItems = old?.list ?? []
        return .list(columns.map { column in
            var entries = oldItems.first { $0["id"]?.string == column.id }?.map ?? []
            set(&entries, "id", column.id)
            set(&entries, "name", column.name)
            if column.isCollapsed {
                set(&entries, "collapsed", "true", asIs: true)
            } else {
                entries.removeAll { $0.key == "collapsed" }
            }
            // Written only when set, and left as written while it means the same.
            if let limit = column.wipLimit {
                if entries.first(where: { $0.key == Column.wipLimitKey })?.value.string.flatMap(Column.wipLimit(from:)) != limit {
                    set(&entries, Column.wipLimitKey, String(limit), asIs: true)
                }
            } else {
                entries.removeAll { $0.key == Column.wipLimitKey && $0.value.string.flatMap(Column.wipLimit(from:)) != nil }
            }
            if column.isQueue {
                if !(entries.first(where: { $0.key == Column.queueKey })?.value.string.map(isTrue) ?? false) {
                    set(&entries, Column.queueKey, "true", asIs: true)
                }
            } else {
                entries.removeAll { $0.key == Column.queueKey }
            }
            return .map(entries)
        })
    }

    private static func value(of labels: [Label], keeping old: YAMLValue?) -> YAMLValue {
        let oldItems = old?.list ?? []
        return .list(labels.map { label in
            var entries = oldItems.first { $0["id"]?.string == label.id }?.map ?? []
            set(&entries, "id", label.id)
            set(&entries, "name", label.name)
            if let color = label.color {
                set(&entries, "color", color)
            } else {
                entries.removeAll { $0.key == "color" }
            }
            return .map(entries)
        })
    }

    /// Sets `key` of a column's or label's map to `text`, leaving an entry that already says it untouched, and
    /// writing a new value so that SimpleKanban reads it back: the item's first key (on the `- ` line) as it is,
    /// the others plain or quoted as ``AppDialect/text(for:rule:)`` decides.
    /// - Parameter asIs: Write `text` plain whatever YAML makes of it (`collapsed: true` is meant as a boolean).
    private static func set(_ entries: inout [YAMLMapEntry], _ key: String, _ text: String, asIs: Bool = false) {
        let index = entries.firstIndex(where: { $0.key == key }) ?? entries.count
        if index < entries.count, entries[index].value.string == text { return }
        var scalar = YAMLScalar(text)
        scalar.writtenAs = asIs ? text : AppDialect.text(for: text, rule: index == 0 ? .verbatim : .boardItemValue)
        if index < entries.count {
            entries[index].value = .scalar(scalar)
        } else {
            entries.append(YAMLMapEntry(key: key, value: .scalar(scalar)))
        }
    }
}
