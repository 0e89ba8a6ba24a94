import Foundation

extension ImportedBoard {
    /// The cards of `kanban export json` (or `kanban list --json`): an array of cards, each with `title` and
    /// optionally `slug`, `column`, `position`, `labels`, `created`, `modified`, `archived`, `path` (an archived
    /// card's day is read from it), `fields` (kept in file order) and `body`. A card is known on a later import by
    /// its slug.
    /// - Throws: ``KanbanError/Code/invalidArgument`` at `path:line:column` for text that is not JSON, or not such an
    ///   array.
    public init(json bytes: [UInt8], path: String) throws(KanbanError) {
        let json = try JSONDocument.parse(bytes, path: path, largestFile: ImportText.largestFile)
        let reader = ImportJSONReader(path: path)
        guard let items = json.items else {
            throw reader.failure("the file is not a card export: it is \(json.kindName), not the array of cards 'kanban export json' writes", at: json)
        }
        self.init(format: .json)
        var columnNames: Set<String> = []
        var labelNames: Set<String> = []
        for (index, item) in items.enumerated() {
            let owner = "card \(index + 1)"
            let card = try reader.object(item, owner)
            func date(_ key: String) throws(KanbanError) -> Date? {
                guard let text = try reader.text(card, key, of: owner) else { return nil }
                guard let date = ISO8601.date(from: text) else { throw reader.failure("\(owner)'s '\(key)' is not an ISO 8601 date: '\(text)'", at: card[key]) }
                return date
            }
            let title = try reader.requiredText(card, "title", of: owner)
            let column = try reader.text(card, "column", of: owner) ?? ""
            if !column.isEmpty, columnNames.insert(column).inserted { columns.append(ImportedColumn(name: column)) }
            let labels = try reader.texts(card, "labels", of: owner)
            for label in labels where labelNames.insert(label).inserted { self.labels.append(ImportedLabel(name: label)) }
            let fields = try reader.object(card, "fields", of: owner)?.members?.compactMap { member in
                Self.yamlValue(member.value).map { YAMLMapEntry(key: member.key, value: $0) }
            } ?? []
            let archivedOn = try reader.text(card, "path", of: owner).flatMap { path -> String? in
                path.hasPrefix("archive/") ? BoardStore.validDay(String(path.dropFirst("archive/".count).prefix(10))) : nil
            }
            cards.append(ImportedCard(sourceID: nil, slug: try reader.text(card, "slug", of: owner), title: title, column: column,
                                      position: try reader.text(card, "position", of: owner), labels: labels,
                                      body: try reader.text(card, "body", of: owner) ?? "", fields: fields,
                                      isArchived: try reader.bool(card, "archived", of: owner), archivedOn: archivedOn,
                                      created: try date("created"), modified: try date("modified")))
        }
    }

    /// A JSON value as a card key's value: text and numbers as plain scalars where YAML allows, lists and objects
    /// nested in order; nil for null.
    static func yamlValue(_ value: JSONDocument) -> YAMLValue? {
        switch value.kind {
        case .null: nil
        case .bool(let flag): .unquoted(flag ? "true" : "false")
        case .number(let text): .unquoted(text)
        case .string(let text): fieldValue(text)
        case .array(let items): .list(items.compactMap(yamlValue))
        case .object(let members): .map(members.compactMap { member in yamlValue(member.value).map { YAMLMapEntry(key: member.key, value: $0) } })
        }
    }
}
