import Foundation
import Testing

@testable import KanbanCore
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

    @Test func anEmptyArrayIsTwoBrackets() throws {
        let text = try written { output in
            JSONCardArrayWriter.write([Card](), to: output)
        }
        #expect(text == "[]\n")
    }
}
