import Foundation

extension CSVTable {
    /// The columns every card export starts with, in this order; the cards' other keys follow, then `body`.
    public static let cardColumns = ["slug", "title", "column", "position", "labels", "created", "modified"]

    /// `cards` as a table: one row a card, the columns of ``cardColumns``, then each other key the cards have (in the
    /// order first met), then `body`. Labels are joined by `, `; a list value by `, ` too; a map's value is left empty.
    /// - Parameter bodies: Each card's body, by path; a card without one has an empty body.
    public init(cards: [Card], bodies: [String: String] = [:]) {
        var keys: [String] = []
        // A key named like a column of the table keeps its own column, as `field-<key>`.
        var seen = Set(Self.cardColumns + ["body"])
        for card in cards {
            for entry in card.fields where seen.insert(entry.key).inserted || Self.cardColumns.contains(entry.key) || entry.key == "body" {
                let column = Self.cardColumns.contains(entry.key) || entry.key == "body" ? "field-" + entry.key : entry.key
                if !keys.contains(column) { keys.append(column) }
            }
        }
        func text(_ value: YAMLValue) -> String {
            if let string = value.string { return string }
            if let items = value.list { return items.compactMap(\.string).joined(separator: ", ") }
            return ""
        }
        let rows = cards.map { card -> [String] in
            var row = [card.slug, card.title, card.column, card.position ?? "", card.labels.joined(separator: ", "),
                       card.created.map(ISO8601.string(from:)) ?? "", card.modified.map(ISO8601.string(from:)) ?? ""]
            for key in keys {
                let name = key.hasPrefix("field-") && card.field(key) == nil ? String(key.dropFirst(6)) : key
                row.append(card.field(name).map(text) ?? "")
            }
            row.append(bodies[card.path] ?? card.body ?? "")
            return row
        }
        self.init(header: Self.cardColumns + keys + ["body"], rows: rows)
    }
}
