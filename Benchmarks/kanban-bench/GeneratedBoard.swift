import KanbanCore

/// One generated card file: where it goes and its bytes.
struct GeneratedCard {
    /// Path relative to the board directory.
    var path: String
    var slug: String
    /// The column directory, or nil for an archived card.
    var column: String?
    var bytes: [UInt8]
}

/// A synthetic board of `cardCount` cards in SimpleKanban's layout, deterministic for a given seed.
///
/// Which column each card is in (and its rank there) is decided up front; everything else about card `index`
/// comes from a generator seeded with the index alone, so any one card can be rebuilt on its own. The
/// single-card operations use that to put back the files they changed.
struct GeneratedBoard {
    let directory: String
    let cardCount: Int
    private let seed: UInt64
    /// Index into ``CardText/columnIDs`` for each card.
    private var columnOfCard: [UInt8]
    /// The card's rank in its column, or -1 for an archived card.
    private var rankOfCard: [Int32]
    private(set) var archivedCount = 0

    /// Percent of cards that are archived.
    static let archivedPercent = 5
    /// 2025-01-01, counted in days from 1970-01-01.
    private static let firstDay = 20_089

    init(directory: String, cardCount: Int, seed: UInt64 = 0x6B61_6E62_616E) {
        self.directory = directory
        self.cardCount = cardCount
        self.seed = seed ^ UInt64(cardCount)
        columnOfCard = []
        rankOfCard = []
        columnOfCard.reserveCapacity(cardCount)
        rankOfCard.reserveCapacity(cardCount)
        var generator = SeededGenerator(seed: self.seed)
        var counts = Array(repeating: 0, count: CardText.columnIDs.count)
        for _ in 0..<cardCount {
            var draw = generator.below(100)
            var column = 0
            while draw >= CardText.columnWeights[column] {
                draw -= CardText.columnWeights[column]
                column += 1
            }
            columnOfCard.append(UInt8(column))
            if generator.chance(Self.archivedPercent) {
                rankOfCard.append(-1)
                archivedCount += 1
            } else {
                rankOfCard.append(Int32(counts[column]))
                counts[column] += 1
            }
        }
    }

    var activeCount: Int { cardCount - archivedCount }

    func isArchived(_ index: Int) -> Bool { rankOfCard[index] < 0 }

    func column(of index: Int) -> String { CardText.columnIDs[Int(columnOfCard[index])] }

    /// Writes `board.md`, the column directories, `archive/` and every card, straight to disk.
    /// - Returns: The bytes written for cards.
    @discardableResult
    func write() throws(BenchmarkError) -> Int {
        try POSIX.makeDirectory(directory)
        try POSIX.writeFile(directory + "/board.md", boardFile())
        try POSIX.makeDirectory(directory + "/cards")
        for column in CardText.columnIDs { try POSIX.makeDirectory(directory + "/cards/" + column) }
        try POSIX.makeDirectory(directory + "/archive")
        var total = 0
        for index in 0..<cardCount {
            let card = card(index)
            try POSIX.writeFile(directory + "/" + card.path, card.bytes)
            total += card.bytes.count
        }
        return total
    }

    /// Puts the file at `path` (relative to the board) back as generated, or removes it when the board had no
    /// such file (a card the benchmark created or moved there).
    func restore(_ path: String) throws(BenchmarkError) {
        if let index = index(ofPath: path) {
            let card = card(index)
            try POSIX.writeFile(directory + "/" + card.path, card.bytes)
        } else {
            try POSIX.remove(directory + "/" + path)
        }
    }

    /// The generated card whose file is at `path`, if any: slugs end in `-<index>`.
    func index(ofPath path: String) -> Int? {
        guard path.hasSuffix(".md"), let name = path.split(separator: "/").last else { return nil }
        let stem = name.dropLast(3)
        guard let hyphen = stem.lastIndex(of: "-"), let index = Int(stem[stem.index(after: hyphen)...]),
              index >= 0, index < cardCount else { return nil }
        return card(index).path == path ? index : nil
    }

    /// Card files relative to `root`, from directory listings alone.
    static func cardFilePaths(in root: String) throws(BenchmarkError) -> [String] {
        var paths: [String] = []
        for column in try POSIX.entries(of: root + "/cards").filter(\.isDirectory).map(\.name) {
            for entry in try POSIX.entries(of: root + "/cards/" + column) where entry.name.hasSuffix(".md") {
                paths.append("cards/\(column)/\(entry.name)")
            }
        }
        for entry in try POSIX.entries(of: root + "/archive") where entry.name.hasSuffix(".md") {
            paths.append("archive/\(entry.name)")
        }
        return paths
    }

    /// Card `index`, with its file's bytes.
    func card(_ index: Int) -> GeneratedCard {
        var generator = SeededGenerator(seed: seed &+ UInt64(index) &* 0xD1B5_4A32_D192_ED03)
        let columnID = column(of: index)
        let verb = generator.pick(CardText.verbs)
        let subject = generator.pick(CardText.subjects)
        let qualifier = generator.pick(CardText.qualifiers)
        let slug = "\(verb.1)-\(subject.1)\(qualifier.1)-\(index)"

        let created = Self.firstDay + generator.below(640)
        let modified = created + generator.below(60)
        var text = ByteWriter(capacity: 768)
        text.write("---\ntitle: ")
        text.write(verb.0)
        text.write(" ")
        text.write(subject.0)
        text.write(qualifier.0)
        text.write("\ncolumn: ")
        text.write(columnID)
        let rank = Int(rankOfCard[index])
        if rank >= 0 || generator.chance(80) {
            // Archived files keep the position they had; a few old ones never had one.
            text.write("\nposition: ")
            text.write(CardText.positionKey(rank: rank >= 0 ? rank : generator.below(4000)))
        }
        text.write("\ncreated: ")
        text.writeTimestamp(day: created, minute: 8 * 60 + generator.below(10 * 60))
        text.write("\nmodified: ")
        text.writeTimestamp(day: modified, minute: 8 * 60 + generator.below(10 * 60))
        text.write("\nlabels: [")
        let labelCount = generator.below(4)
        let firstLabel = generator.below(CardText.labels.count)
        for offset in 0..<labelCount {
            if offset > 0 { text.write(", ") }
            text.write(CardText.labels[(firstLabel + offset * 2) % CardText.labels.count].id)
        }
        text.write("]\n")
        if generator.chance(30) {
            text.write("assignee: ")
            text.write(generator.pick(CardText.assignees))
            text.write("\n")
        }
        if generator.chance(20) {
            text.write("due: ")
            text.writeDay(modified + 7 + generator.below(50))
            text.write("\n")
        }
        text.write("---\n\n## Description\n\n")
        for _ in 0..<(1 + generator.below(2)) {
            writeSentence(to: &text, words: 7 + generator.below(8), using: &generator)
            text.write(" ")
        }
        text.bytes.removeLast()
        text.write("\n\n")
        for _ in 0..<(2 + generator.below(3)) {
            text.write(generator.chance(40) ? "- [x] " : "- [ ] ")
            text.write(generator.pick(CardText.checklistItems))
            text.write("\n")
        }
        if generator.chance(25) {
            text.write("\nPR: https://github.com/lumen-app/lumen/pull/")
            text.write(1000 + generator.below(9000))
            text.write("\n")
        }
        text.write("\n## Acceptance ")
        text.write(CardText.wordInEveryCard)
        text.write("\n\n")
        text.write(generator.pick(CardText.acceptance))
        text.write("\n")

        if rank >= 0 {
            return GeneratedCard(path: "cards/\(columnID)/\(slug).md", slug: slug, column: columnID, bytes: text.bytes)
        }
        var name = ByteWriter(capacity: 16)
        name.writeDay(modified + generator.below(10))
        return GeneratedCard(path: "archive/\(String(decoding: name.bytes, as: UTF8.self))-\(slug).md", slug: slug,
                             column: nil, bytes: text.bytes)
    }

    private func writeSentence(to text: inout ByteWriter, words count: Int, using generator: inout SeededGenerator) {
        text.write(generator.pick(CardText.capitalizedWords))
        for _ in 1..<count {
            text.write(" ")
            text.write(generator.pick(CardText.words))
        }
        text.write(".")
    }

    private func boardFile() -> [UInt8] {
        var text = ByteWriter(capacity: 2048)
        text.write("---\ntitle: Benchmark board (\(cardCount) cards)\ncolumns:\n")
        for (id, name) in zip(CardText.columnIDs, CardText.columnNames) {
            text.write("  - id: \(id)\n    name: \(name)\n")
        }
        text.write("labels:\n")
        for label in CardText.labels {
            text.write("  - id: \(label.id)\n    name: \(label.name)\n    color: \"\(label.color)\"\n")
        }
        text.write("""
            ---

            # Benchmark board

            Generated by kanban-bench: \(cardCount) cards, seeded, so every run sees the same board.

            ## Card Template

            ## Description

            ## Acceptance criteria

            """)
        return text.bytes
    }
}
