import Foundation

extension CSVTable {
    /// The columns every card export starts with, in this order; the cards' other keys follow, then `body`.
    public static let cardColumns = ["slug", "title", "column", "position", "labels", "created", "modified"]

    /// `cards` as a table: one row a card, the columns of ``cardColumns``, then `archived` (the day, or `true`, or empty) when an
    /// archived card is among them, then each other key the cards have (in the order first met), then `body`. Labels
    /// are joined by `, `; a list or map value is written as YAML on one line (`[ana, mei]`), as `import csv` reads it.
    /// - Parameter bodies: Each card's body, by path; a card without one has an empty body.
    public init(cards: [Card], bodies: [String: String] = [:]) {
        // Each other key once, in the order first met; one named like a column of the table as `field-<key>`.
        let named = Set(Self.cardColumns + ["archived", "body"])
        let hasArchived = cards.contains(where: \.isArchived)
        var keys: [(column: String, key: String)] = []
        var seen: Set<String> = []
        for card in cards {
            for entry in card.fields where seen.insert(entry.key).inserted {
                keys.append((named.contains(entry.key) ? "field-" + entry.key : entry.key, entry.key))
            }
        }
        func text(_ value: YAMLValue) -> String {
            value.string ?? YAMLScalarWriter.render(value)
        }
        let rows = cards.map { card -> [String] in
            var row = [card.slug, card.title, card.column, card.position ?? "", card.labels.joined(separator: ", "),
                       card.created.map(ISO8601.string(from:)) ?? "", card.modified.map(ISO8601.string(from:)) ?? ""]
            if hasArchived { row.append(card.isArchived ? card.archivedOn ?? "true" : "") }
            for (_, key) in keys { row.append(card.field(key).map(text) ?? "") }
            row.append(bodies[card.path] ?? card.body ?? "")
            return row
        }
        self.init(header: Self.cardColumns + (hasArchived ? ["archived"] : []) + keys.map(\.column) + ["body"], rows: rows)
    }
}
