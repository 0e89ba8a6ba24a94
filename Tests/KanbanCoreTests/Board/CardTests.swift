import Testing
@testable import KanbanCore

@Suite struct CardTests {
    private func card(_ slug: String, _ position: String?, column: String = "todo") -> Card {
        Card(slug: slug, title: slug, column: column, columnField: column, position: position, created: nil, modified: nil,
             labels: [], fields: [], path: "cards/\(column)/\(slug).md", isArchived: false, archivedOn: nil,
             hasFrontmatter: true, body: nil)
    }

    private func ordered(_ cards: [Card]) -> [String] {
        cards.sorted(by: Card.precedes).map(\.slug)
    }

    @Test func positionsCompareByteByByte() {
        // Uppercase sorts before lowercase and digits before both, as in ASCII; `nm` sits between `n` and `t`.
        let cards = [card("t", "t"), card("n", "n"), card("nm", "nm"), card("Zz", "Zz"), card("a0", "a0"), card("9", "9")]
        #expect(ordered(cards) == ["9", "Zz", "a0", "n", "nm", "t"])
    }

    @Test func equalPositionsAreOrderedBySlug() {
        let cards = [card("set-up-staging-site", "n"), card("choose-a-font-pairing", "n"), card("compress-hero-images", "n")]
        #expect(ordered(cards) == ["choose-a-font-pairing", "compress-hero-images", "set-up-staging-site"])
        #expect(ordered(cards.reversed()) == ordered(cards))
    }

    @Test func cardsWithoutAPositionComeLastOrderedBySlug() {
        let cards = [card("b-unpositioned", nil), card("z", "z"), card("a-unpositioned", nil), card("a", "a")]
        #expect(ordered(cards) == ["a", "z", "a-unpositioned", "b-unpositioned"])
    }

    @Test func theOrderIsStrictAndTotal() {
        let cards = [card("x", "n"), card("y", "n"), card("x", "n", column: "done"), card("w", nil), card("v", "a")]
        for lhs in cards {
            #expect(!Card.precedes(lhs, lhs))
            for rhs in cards where lhs != rhs {
                #expect(Card.precedes(lhs, rhs) != Card.precedes(rhs, lhs), "\(lhs.path) vs \(rhs.path)")
            }
        }
    }

    @Test func aLongKeyComparesLikeAnyOther() {
        let long = "a1zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzV"
        let cards = [card("after", "a2"), card("long", long), card("before", "a1")]
        #expect(ordered(cards) == ["before", "long", "after"])
    }

    @Test func fieldLooksUpOtherKeys() {
        var card = card("c", "n")
        card.fields = [YAMLMapEntry(key: "due", value: .string("2026-12-01"))]
        #expect(card.field("due") == .string("2026-12-01"))
        #expect(card.field("assignee") == nil)
    }

    @Test func theFormatKnowsSixKeys() {
        #expect(Card.knownKeys == ["title", "column", "position", "created", "modified", "labels"])
    }
}
