import Foundation

extension ImportedBoard {
    /// The header names (compared without case) read as each of a card's own parts; the first present wins.
    static let csvRoles: [(role: String, names: [String])] = [
        ("title", ["title", "name", "summary", "task"]),
        ("column", ["column", "status", "list", "state", "stage"]),
        ("labels", ["labels", "label", "tags"]),
        ("body", ["body", "description"]),
        ("id", ["id", "key", "issue key", "issue id"]),
        ("slug", ["slug"]), ("position", ["position"]), ("created", ["created"]), ("modified", ["modified"]),
        ("archived", ["archived"]),
    ]

    /// The cards of a CSV table with a header row, as a spreadsheet or `kanban export csv` writes it.
    ///
    /// A column named `title` (or `name`, `summary`, `task`) is required; `column` (or `status`, `list`, `state`,
    /// `stage`) names the card's column (empty: the board's first), `labels` (or `label`, `tags`) its labels split at
    /// `,` and `;`, `body` (or `description`) its body, `archived` (a day such as `2026-01-31`, or `true`, `yes`, `1`, `x`) sends it to the archive,
    /// `created` and `modified` are dates. Every other column is a key of the card, its name made a key
    /// (`Due Date` → `due-date`, `field-title` → `title`'s clash undone as `export csv` wrote it); an empty cell
    /// sets nothing, `[a, b]` or `{k: v}` is read as a YAML list or map, and text of several lines is written as a
    /// literal block (`|`).
    ///
    /// A card is known on a later import by its `id` column (`csv:<id>`), else by its `slug` (this tool's export),
    /// else by its title (`csv:<title>`, `csv:<title> (2)` for the second card of that title).
    /// - Throws: ``KanbanError/Code/invalidArgument`` naming `path` for a table without a title column or a date that
    ///   does not read.
    public init(csv table: CSVTable, path: String) throws(KanbanError) {
        var roles: [String: Int] = [:]
        var claimed: Set<Int> = []
        let header = table.header.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        for (role, names) in Self.csvRoles {
            if let index = names.lazy.compactMap({ header.firstIndex(of: $0) }).first(where: { !claimed.contains($0) }) {
                roles[role] = index
                claimed.insert(index)
            }
        }
        guard let titleIndex = roles["title"] else {
            throw KanbanError(.invalidArgument, "the table has no title column (name one title, name or summary); its columns are: \(table.header.joined(separator: ", "))",
                              at: SourceLocation(path: path, line: 1))
        }
        var fieldColumns: [(index: Int, key: String)] = []
        var keys: Set<String> = []
        for (index, name) in table.header.enumerated() where !claimed.contains(index) {
            let key = Self.fieldKey(fromColumn: name)
            guard !key.isEmpty, keys.insert(key).inserted else { continue }
            fieldColumns.append((index, key))
        }
        self.init(format: .csv)
        var columnNames: Set<String> = []
        var labelNames: Set<String> = []
        var titles: [String: Int] = [:]
        for (number, row) in table.rows.enumerated() {
            func cell(_ role: String) -> String? {
                roles[role].map { row[$0] }.flatMap { $0.isEmpty ? nil : $0 }
            }
            func date(_ role: String) throws(KanbanError) -> Date? {
                guard let text = cell(role)?.trimmingCharacters(in: .whitespaces) else { return nil }
                guard let date = ImportText.date(text) else {
                    throw KanbanError(.invalidArgument, "row \(number + 1): '\(text)' in column \(table.header[roles[role]!]) is not a date (give 2026-01-31 or 2026-01-31T09:00:00Z)",
                                      at: SourceLocation(path: path))
                }
                return date
            }
            let title = row[titleIndex]
            let column = cell("column")?.trimmingCharacters(in: .whitespaces) ?? ""
            if !column.isEmpty, columnNames.insert(column).inserted { columns.append(ImportedColumn(name: column)) }
            let labels = (cell("labels") ?? "").split(whereSeparator: { $0 == "," || $0 == ";" })
                .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            for label in labels where labelNames.insert(label).inserted { self.labels.append(ImportedLabel(name: label)) }
            var sourceID: String?
            let slug = cell("slug")
            if let id = cell("id") {
                sourceID = "csv:" + id
            } else if slug == nil {
                titles[title, default: 0] += 1
                let count = titles[title]!
                sourceID = "csv:" + title + (count > 1 ? " (\(count))" : "")
            }
            let archivedCell = cell("archived")?.trimmingCharacters(in: .whitespaces)
            let archivedOn = archivedCell.flatMap(BoardStore.validDay)
            let archived = archivedOn != nil || archivedCell.map { ["true", "yes", "1", "x"].contains($0.lowercased()) } ?? false
            var fields: [YAMLMapEntry] = []
            for (index, key) in fieldColumns where !row[index].isEmpty {
                fields.append(YAMLMapEntry(key: key, value: Self.csvValue(row[index])))
            }
            cards.append(ImportedCard(sourceID: sourceID, slug: slug, title: title, column: column, position: cell("position"),
                                      labels: labels, body: cell("body") ?? "", fields: fields, isArchived: archived,
                                      archivedOn: archivedOn, created: try date("created"), modified: try date("modified")))
        }
    }

    /// Reads `bytes` as a CSV table (see ``CSVTable/init(parsing:path:)``) and then as ``init(csv:path:)`` does.
    public init(csv bytes: [UInt8], path: String) throws(KanbanError) {
        try self.init(csv: try CSVTable(parsing: bytes, path: path), path: path)
    }

    /// A card key for a table's column name: `field-KEY` as KEY, else lowercase with each run of other characters
    /// one `-` (`Due Date` → `due-date`, as ``ImportText/key(fromName:)`` makes it); empty when nothing is left.
    static func fieldKey(fromColumn name: String) -> String {
        if name.hasPrefix("field-"), BoardStore.isFieldKey(String(name.dropFirst(6))) { return String(name.dropFirst(6)) }
        return ImportText.key(fromName: name)
    }

    /// A cell as a key's value: `[...]` and `{...}` read as YAML when they are, anything else as the text.
    static func csvValue(_ text: String) -> YAMLValue {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if (trimmed.hasPrefix("[") && trimmed.hasSuffix("]")) || (trimmed.hasPrefix("{") && trimmed.hasSuffix("}")),
           !trimmed.contains("\n"),
           let document = try? FrontmatterDocument(bytes: Array("---\nvalue: \(trimmed)\n---\n".utf8)),
           let value = document.value(forKey: "value"), value.list != nil || value.map != nil {
            return value
        }
        return fieldValue(text)
    }

    /// Text as a key's value: plain where YAML allows (`2026-01-31`, `1`), a literal block (`|`) when it has
    /// several lines, as a person would write it.
    public static func fieldValue(_ text: String) -> YAMLValue {
        text.contains("\n") ? .scalar(YAMLScalar(text, style: .literal)) : .unquoted(text)
    }
}
