import Foundation
import Testing
@testable import KanbanCore

@Suite struct CardCodableTests {
    private func roundTrip<T: Codable & Equatable>(_ value: T) throws -> T {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try JSONDecoder().decode(T.self, from: encoder.encode(value))
    }

    @Test func everyCardAndTheBoardOfTheSampleSurviveJSON() throws {
        try withTemporaryBoard(.sample) { board in
            let store = try BoardStore(directory: board.path, clock: { fixedNow })
            let snapshot = try store.load(.all, includeBodies: true)
            #expect(snapshot.cards.count > 10)
            for card in snapshot.cards {
                #expect(try roundTrip(card) == card)
            }
            #expect(try roundTrip(snapshot.board) == snapshot.board)
        }
    }

    @Test func fieldsKeepTheirShapeOrderAndStyle() throws {
        let fields = [
            YAMLMapEntry(key: "due", value: .scalar(YAMLScalar("2026-03-01"))),
            YAMLMapEntry(key: "note", value: .scalar(YAMLScalar("it's", style: .singleQuoted))),
            YAMLMapEntry(key: "tags", value: .list([.scalar(YAMLScalar("b")), .scalar(YAMLScalar("a"))])),
            YAMLMapEntry(key: "review", value: .map([
                YAMLMapEntry(key: "who", value: .scalar(YAMLScalar("sam"))),
                YAMLMapEntry(key: "at", value: .scalar(YAMLScalar("noon", style: .doubleQuoted))),
            ])),
        ]
        let card = Card(slug: "fix-login", title: "Fix login", column: "todo", columnField: "todo", position: "n",
                        created: fixedNow, modified: fixedNow, labels: ["bug"], fields: fields, path: "cards/todo/fix-login.md",
                        isArchived: false, archivedOn: nil, hasFrontmatter: true, body: "Body.\n")
        let decoded = try roundTrip(card)
        #expect(decoded == card)
        #expect(decoded.fields.map(\.key) == ["due", "note", "tags", "review"])
        #expect(decoded.id == "fix-login")
    }

    @Test func aValueWithNoKnownKeyIsRejected() {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(YAMLValue.self, from: Data(#"{"number": 2}"#.utf8))
        }
    }

    @Test func syncValuesSurviveJSON() throws {
        let event = CardEvent(kind: .moved, slug: "fix-login", title: "Fix login", column: "done", previousColumn: "todo",
                              path: "cards/done/fix-login.md", previousPath: "cards/todo/fix-login.md")
        #expect(try roundTrip(event) == event)
        let resolution = CardResolution(slug: "fix-login", keptPath: "cards/done/fix-login.md", removedPaths: ["cards/todo/fix-login.md"],
                                        kind: .keptAfterDelete)
        #expect(try roundTrip(resolution) == resolution)
        let entry = HistoryEntry(commit: "0123456789abcdef", date: fixedNow, author: "Ana", subject: "Move \"Fix login\"",
                                 trailers: [CommitTrailer("Card", "fix-login")], path: "cards/done/fix-login.md")
        #expect(try roundTrip(entry) == entry)
    }
}
