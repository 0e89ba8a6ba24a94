import KanbanTestSupport
import Testing

@testable import KanbanCore
@testable import kanban

@Suite struct ListRendererTests {
    @Test func theLinesAreTheSameHoweverTheCardsAreSplitIntoRuns() throws {
        let store = try BoardStore(directory: TestFixtures.sampleBoard)
        let snapshot = try store.load(.all)
        for stylist in [Stylist.plain, Stylist(isEnabled: true)] {
            let renderer = ListRenderer(cards: snapshot.cards, board: snapshot.board, stylist: stylist)
            let whole = renderer.lines(0..<snapshot.cards.count)
            for size in [1, 2, 3, 7] {
                let pieces = stride(from: 0, to: snapshot.cards.count, by: size).map {
                    renderer.lines($0..<min(snapshot.cards.count, $0 + size))
                }
                #expect(pieces.joined() == whole, "runs of \(size)")
            }
        }
    }

    @Test func eachGroupHasAHeadingWithItsCount() throws {
        let store = try BoardStore(directory: TestFixtures.sampleBoard)
        let snapshot = try store.load()
        let text = ListRenderer(cards: snapshot.cards, board: snapshot.board, stylist: .plain).lines(0..<snapshot.cards.count)
        let headings = text.split(separator: "\n").filter { !$0.hasPrefix("  ") }
        #expect(headings.count == Set(snapshot.cards.map(\.column)).count)
        for column in snapshot.board.columns where !snapshot.cards(inColumn: column.id).isEmpty {
            #expect(headings.contains("\(column.name) (\(snapshot.cards(inColumn: column.id).count))"[...]))
        }
    }
}
