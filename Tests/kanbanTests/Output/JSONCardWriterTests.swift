import Foundation
import KanbanTestSupport
import Testing

@testable import KanbanCore
@testable import KanbanServer
@testable import kanban

/// `list --json` writes cards with `JSON.appendCard` instead of building a tree; the text must be the tree's.
@Suite struct JSONCardWriterTests {
    /// Every card of the fixture boards and the sample board, archived ones too, with their bodies.
    static func cards() throws -> [Card] {
        var cards: [Card] = []
        for directory in [TestFixtures.board("messy"), TestFixtures.board("simplekanban"), TestFixtures.packageRoot + "/SampleBoards/product-launch"] {
            cards += try BoardStore(directory: directory).load(.all, includeBodies: true).cards
        }
        return cards
    }

    @Test func writesWhatTheTreeRendersForEveryFixtureCard() throws {
        let cards = try Self.cards()
        #expect(cards.count > 30)
        #expect(cards.contains { !$0.fields.isEmpty } && cards.contains { $0.labels.isEmpty } && cards.contains(where: \.isArchived))
        for card in cards {
            for pretty in [true, false] {
                for includeBody in [false, true] {
                    var streamed = ""
                    JSON.appendCard(card, includeBody: includeBody, to: &streamed, pretty: pretty, indent: 0)
                    #expect(streamed == JSON(card: card, includeBody: includeBody).rendered(pretty: pretty), "\(card.path)")
                }
            }
        }
    }

    /// What `write` sends to a `BufferedOutput`, read back from a temporary file.
    private func written(_ write: (BufferedOutput) -> Void) throws -> String {
        let path = NSTemporaryDirectory() + "kanban-json-\(UUID().uuidString)"
        let descriptor = open(path, O_RDWR | O_CREAT | O_EXCL, 0o600)
        try #require(descriptor >= 0)
        defer {
            close(descriptor)
            unlink(path)
        }
        let output = BufferedOutput(descriptor: descriptor, isLineBuffered: false, capacity: 1_000)
        write(output)
        output.flush()
        return try String(contentsOfFile: path, encoding: .utf8)
    }

    @Test func writesTheSameArrayAsTheTreeInPieces() throws {
        let cards = Array(repeating: try Self.cards(), count: 100).flatMap { $0 }  // enough cards for several pieces
        let text = try written { output in
            JSONCardArrayWriter.write(cards, to: output)
        }
        #expect(text.utf8.count > 200_000)
        #expect(text == JSON.array(cards.map { JSON(card: $0) }).rendered() + "\n")
    }

    @Test(arguments: [nil, ["todo", "empty"], [String]()])
    func writesTheBoardAsTheTreeRendersIt(columns: [String]?) throws {
        let store = try BoardStore(directory: TestFixtures.packageRoot + "/SampleBoards/product-launch")
        var snapshot = try store.load()
        // Enough cards for several pieces in one column.
        snapshot.cards += Array(repeating: snapshot.cards(inColumn: "todo"), count: 800).flatMap { $0 }
        let ids = columns ?? snapshot.columnIDs
        let text = try written { output in
            JSONCardArrayWriter.writeBoard(snapshot, columns: ids, to: output)
        }
        #expect(text == JSON(tree: snapshot, columns: ids).rendered() + "\n")
    }

    /// `list --json` and `board --json` written from the board index's entries (no card made) are the text the
    /// cards give: on the sample board, the SimpleKanban fixture, cards whose fields and titles need escaping, and
    /// cards with generated fields (nested, repeated keys, keys equal only as strings, numbers, nulls, quoted words).
    @Test(arguments: ["sample", "simplekanban", "escaping", "generated"])
    func writesTheSameFromTheIndexAsFromTheCards(board name: String) throws {
        let root = NSTemporaryDirectory() + "kanban-json-index-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let directory = root + "/board"
        try FileManager.default.copyItem(atPath: name == "simplekanban" ? TestFixtures.board("simplekanban") : TestFixtures.sampleBoard,
                                         toPath: directory)
        if name == "escaping" {
            let card = #"""
                ---
                title: Quote " back\slash é
                column: todo
                position: zz
                created: 2026-01-01T09:00:00.250Z
                modified: 2026-01-02T09:00:00Z
                labels: [bug]
                estimate: 3
                owner: "Ana \"A\" \t \u2028 \u0007"
                links:
                  - https://example.com/a
                  - b
                meta:
                  nested: {x: 1}
                  flag: true
                ---

                Body

                """#
            try card.write(toFile: directory + "/cards/todo/escaping.md", atomically: true, encoding: .utf8)
        }
        if name == "generated" {
            var random = SeededGenerator(seed: 25)
            for number in 0..<120 {
                let keys = Self.generatedKeys.shuffled(using: &random).prefix(Int.random(in: 0...5, using: &random))
                let fields = keys.map { Self.generatedField($0, indent: 0, depth: 0, using: &random) }
                let card = "---\ntitle: Card \(number)\ncolumn: todo\nposition: g\(number)\n" + fields.joined() + "---\n"
                try card.write(toFile: directory + "/cards/todo/generated-\(number).md", atomically: true, encoding: .utf8)
            }
        }
        var placement = IndexPlacement.automatic(cacheDirectory: root + "/cache")
        placement.racyInterval = 30_000_000
        let store = try BoardStore(directory: directory, index: placement)
        Thread.sleep(forTimeInterval: 0.2)  // every file older than the racy interval when the index is built
        try #require(try store.rebuildIndex() != nil)
        let board = try store.loadBoard()
        for scope in [CardScope.active, .all] {
            let listing = try #require(try store.indexedListing(scope, columns: nil, labels: [], board: board), "\(name) \(scope)")
            let cards = try store.load(scope).cards
            #expect(listing.count == cards.count && (name != "escaping" || cards.contains { $0.slug == "escaping" && !$0.fields.isEmpty }))
            let fromIndex = try written { JSONCardArrayWriter.write(listing, to: $0) }
            #expect(fromIndex == (try written { JSONCardArrayWriter.write(cards, to: $0) }), "\(name) \(scope)")
        }
        let snapshot = try store.load()
        let listing = try #require(try store.indexedListing(.active, columns: nil, labels: [], board: board))
        let fromIndex = try written { JSONCardArrayWriter.writeBoard(listing, board: board, columns: snapshot.columnIDs, to: $0) }
        #expect(fromIndex == (try written { JSONCardArrayWriter.writeBoard(snapshot, columns: snapshot.columnIDs, to: $0) }))
    }

    /// Keys in an order their bytes and their characters sort alike in, and not.
    private static let generatedKeys = ["a", "b", "owner", "Z", "a1", "é", "Ω", "z-last", "estimate", "e\u{301}x"]

    /// The frontmatter line (or lines) of field `key` at `indent` spaces: a scalar of any kind, a list or a map, nested.
    private static func generatedField(_ key: String, indent: Int, depth: Int, using random: inout SeededGenerator) -> String {
        let pad = String(repeating: " ", count: indent)
        let scalars = ["", "~", "null", "Null", "true", "FALSE", "3", "-0", "1.50", "1e3", "01", "1.", "x y", "'true'", "\"7\"",
                       "\"tab\\there\"", "'it''s'", "é", "[]", "{}", "[1, two, null]", "{k: v, a: 1}"]
        switch depth < 2 ? Int.random(in: 0..<4, using: &random) : 0 {
        case 1:
            let items = (0..<Int.random(in: 1...3, using: &random)).map { _ in
                pad + "  - " + scalars.randomElement(using: &random)! + "\n"
            }
            return pad + key + ":\n" + items.joined()
        case 2:
            let entries = generatedKeys.shuffled(using: &random).prefix(Int.random(in: 1...4, using: &random)).map {
                generatedField($0, indent: indent + 2, depth: depth + 1, using: &random)
            }
            return pad + key + ":\n" + entries.joined()
        case 3 where depth == 0:
            return pad + key + ": |\n" + pad + "  line one\n" + pad + "  line two\n"
        default:
            return pad + key + ": " + scalars.randomElement(using: &random)! + "\n"
        }
    }

    /// The cards' JSON is written to the terminal without the look for control characters every other output gets
    /// (`BufferedOutput.write(safeBytes:)`): so every control a card's text can hold (C0, DEL, C1, U+2028) must come
    /// out escaped by the JSON itself, the text still reading back as it was.
    @Test(arguments: [1, 2, 3])
    func theJSONOfCardsHoldsNoControlForTheTerminal(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let pieces = ["a", "Title ", "é", "©", "\u{85}", "\u{9B}", "\u{80}", "\u{9F}", "\u{A0}", "\u{7F}", "\u{1B}[2J", "\u{7}", "\t", "\n",
                      "\r", "\u{0}", "\u{2028}", "\u{2029}", "\u{2027}", "\"", "\\", "日本", "\u{C2}"]  // no U+FEFF: Foundation's reader drops it
        func text() -> String { (0..<Int.random(in: 0...12, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined() }
        let cards = (0..<300).map { number in
            var card = Card(unreadableAt: "cards/todo/card-\(number).md")!
            card.title = text()
            card.labels = (0..<Int.random(in: 0...2, using: &random)).map { _ in text() }
            card.position = text()
            card.body = text()
            card.fields = [YAMLMapEntry(key: text(), value: .scalar(YAMLScalar(text(), style: .doubleQuoted))),
                           YAMLMapEntry(key: "list", value: .list([.scalar(YAMLScalar(text(), style: .plain))]))]
            return card
        }
        for includeBody in [false, true] {
            let json = try written { JSONCardArrayWriter.write(cards, to: $0, includeBody: includeBody) }
            let bytes = Array(json.utf8)
            #expect(!bytes.withUnsafeBufferPointer(VisibleControls.needsEscaping), "seed \(seed)")
            let parsed = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [[String: Any]])
            #expect(parsed.map { $0["title"] as? String } == cards.map(\.title))
            #expect(parsed.map { $0["labels"] as? [String] } == cards.map(\.labels))
            if includeBody { #expect(parsed.map { $0["body"] as? String } == cards.map(\.body)) }
        }
    }

    @Test func anEmptyArrayIsTwoBrackets() throws {
        let text = try written { output in
            JSONCardArrayWriter.write([Card](), to: output)
        }
        #expect(text == "[]\n")
    }
}

extension JSON {
    /// `board --json` as a tree, which the streamed text must equal.
    init(tree snapshot: BoardSnapshot, columns: [String]) {
        let board = snapshot.board
        self = .object([
            "title": .string(board.title),
            "columns": .array(columns.map { id in
                let column = board.column(withID: id)
                return .object([
                    "id": .string(id),
                    "name": .string(column?.name ?? id),
                    "collapsed": .bool(column?.isCollapsed ?? false),
                    "limit": column?.wipLimit.map { .number(String($0)) } ?? .null,
                    "cards": .array(snapshot.cards(inColumn: id).map { JSON(card: $0) }),
                ])
            }),
            "labels": .array(board.labels.map { label in
                .object(["id": .string(label.id), "name": .string(label.name), "color": label.color.map(JSON.string) ?? .null])
            }),
        ])
    }
}
