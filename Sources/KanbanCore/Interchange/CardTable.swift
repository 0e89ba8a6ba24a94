import Foundation

extension CSVTable {
    /// The columns every card export starts with, in this order; the cards' other keys follow, then `body`.
    public static let cardColumns = ["slug", "title", "column", "position", "labels", "created", "modified"]

    /// `cards` as a table: one row a card, the columns of ``cardColumns``, then each other key the cards have (in the
    /// order first met), then `body`. Labels are joined by `, `; a list value by `, ` too; a map's value is left empty.
    /// - Parameter bodies: Each card's body, by path; a card without one has an empty body.
    public init(cards: [Card], bodies: [String: String] = [:]) {
        // Each other key once, in the order first met; one named like a column of the table as `field-<key>`.
        let named = Set(Self.cardColumns + ["body"])
        var keys: [(column: String, key: String)] = []
        var seen: Set<String> = []
        for card in cards {
            for entry in card.fields where seen.insert(entry.key).inserted {
                keys.append((named.contains(entry.key) ? "field-" + entry.key : entry.key, entry.key))
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
            for (_, key) in keys { row.append(card.field(key).map(text) ?? "") }
            row.append(bodies[card.path] ?? card.body ?? "")
            return row
        }
        self.init(header: Self.cardColumns + keys.map(\.column) + ["body"], rows: rows)
    }
}
