import Testing
@testable import KanbanCore

@Suite struct OrderKeyPlanningTests {
    /// The column's keys after applying `plan` for an insertion at `index`.
    private static func applying(_ plan: OrderKeyPlan, at index: Int, to keys: [String?]) -> [String?] {
        var keys = keys
        for rekey in plan.rekeyed { keys[rekey.index] = rekey.key }
        keys.insert(plan.key, at: index)
        return keys
    }

    /// True when the non-nil keys strictly increase and the nil keys come last.
    private static func isStrictlyIncreasing(_ keys: [String?]) -> Bool {
        let present = keys.prefix { $0 != nil }.compactMap { $0 }
        guard keys.dropFirst(present.count).allSatisfy({ $0 == nil }) else { return false }
        return zip(present, present.dropFirst()).allSatisfy { $0.utf8Precedes($1) }
    }

    @Test func firstCardOfAnEmptyColumn() {
        #expect(OrderKey.plan(insertingAt: 0, into: []) == OrderKeyPlan(key: "n"))
    }

    @Test(arguments: [
        (["n", "nbbd"], 0, "lzzz"), (["n", "nbbd"], 1, "nbbbp"), (["n", "nbbd"], 2, "nbbf"), (["n", "t", "yj", "zzi"], 1, "r"),
        (["n", nil], 1, "nbbd"), (["n", nil, nil], 0, "lzzz"),
    ] as [([String?], Int, String)])
    func writesOnlyTheNewCardWhenItsKeyFits(keys: [String?], index: Int, expected: String) {
        #expect(OrderKey.plan(insertingAt: index, into: keys) == OrderKeyPlan(key: expected))
    }

    @Test func rekeysOneNeighbourWhenNothingFits() {
        // Nothing fits between "n" and "nb": the card above moves up instead.
        let plan = OrderKey.plan(insertingAt: 1, into: ["n", "nb"])
        #expect(plan.rekeyed.count == 1)
        #expect(Self.isStrictlyIncreasing(Self.applying(plan, at: 1, to: ["n", "nb"])))
    }

    @Test func rekeysTheShorterSideOfARunOfDuplicates() {
        let keys: [String?] = ["c", "n", "n", "n", "n", "n", "t"]
        let plan = OrderKey.plan(insertingAt: 2, into: keys)
        // Re-key "n" at 1 (between "c" and the next "n"), not the four below.
        #expect(plan.rekeyed.map(\.index) == [1])
        #expect(Self.isStrictlyIncreasing(Self.applying(plan, at: 2, to: keys).prefix(4).map { $0 }))
    }

    @Test func givesKeysToCardsWithoutOneAboveTheInsertionPoint() {
        let keys: [String?] = ["n", nil, nil, nil]
        let plan = OrderKey.plan(insertingAt: 3, into: keys)
        #expect(plan.rekeyed == [.init(index: 1, key: "nbbd"), .init(index: 2, key: "nbbf")])
        #expect(plan.key == "nbbh")
        #expect(Self.applying(plan, at: 3, to: keys) == ["n", "nbbd", "nbbf", "nbbh", nil])
    }

    @Test func givesKeysToAColumnWithoutAny() {
        let plan = OrderKey.plan(insertingAt: 2, into: [nil, nil])
        #expect(Self.applying(plan, at: 2, to: [nil, nil]) == ["n", "nbbd", "nbbf"])
    }

    @Test func rekeysOverLongHandWrittenNeighbours() {
        let keys: [String?] = ["abcdefghijklmnop1", "abcdefghijklmnop2"]
        let plan = OrderKey.plan(insertingAt: 1, into: keys)
        #expect(plan.rekeyed.count == 1)
        #expect(plan.key.utf8.count <= OrderKey.rekeyedLength)
        #expect(Self.isStrictlyIncreasing(Self.applying(plan, at: 1, to: keys)))
    }

    @Test func rekeysWhenTheNewKeyWouldBeOverLong() {
        // "n" and "nbbbbbbbbd" leave only 11-character keys between them.
        let keys: [String?] = ["lzzz", "n", "nbbbbbbbbd", "nbbd"]
        let plan = OrderKey.plan(insertingAt: 2, into: keys)
        #expect(!plan.rekeyed.isEmpty)
        #expect(([plan.key] + plan.rekeyed.map(\.key)).allSatisfy { $0.utf8.count <= OrderKey.rekeyedLength })
        #expect(Self.isStrictlyIncreasing(Self.applying(plan, at: 2, to: keys)))
    }

    @Test func aLargeColumnOfDuplicatesIsRekeyedOnTheSideWithFewerCards() {
        let keys = [String?](repeating: "n", count: 20_000)
        let plan = OrderKey.plan(insertingAt: 5_000, into: keys)
        #expect(plan.rekeyed.map(\.index) == Array(0..<5_000))
        let result = Self.applying(plan, at: 5_000, to: keys)
        #expect(Self.isStrictlyIncreasing(Array(result.prefix(5_002))))
        #expect(result.allSatisfy { ($0?.utf8.count ?? 0) <= OrderKey.rekeyedLength })
    }

    @Test func aLargeColumnWithRoomWritesOneFile() throws {
        let keys = try #require(OrderKey.keys(count: 20_000, between: nil, nil))
        let plan = OrderKey.plan(insertingAt: 10_000, into: keys)
        #expect(plan.rekeyed.isEmpty)
        #expect(keys[9_999].utf8Precedes(plan.key) && plan.key.utf8Precedes(keys[10_000]))
    }

    @Test func keysOutOfOrderDoNotTrap() {
        // Hand edits can leave a column that is not sorted; the plan is still made.
        for index in 0...4 {
            let plan = OrderKey.plan(insertingAt: index, into: ["z", "a", nil, "m", "~"])
            #expect(OrderKey.isValidGenerated(plan.key))
        }
    }

    @Test func keysOfEarlierVersionsAreRekeyedOntoLetters() {
        // kanban once wrote digits and capitals, below every key of letters: a card goes above them by re-keying them.
        let keys: [String?] = ["Zz", "a1", "a2", "b01"]
        let plan = OrderKey.plan(insertingAt: 0, into: keys)
        let result = Self.applying(plan, at: 0, to: keys)
        #expect(Self.isStrictlyIncreasing(result))
        #expect(result.compactMap { $0 }.filter { OrderKey.isValidGenerated($0) }.count >= 2)
        #expect(OrderKey.isValidGenerated(plan.key))
        // Appending after them needs no re-keying: every key of letters is above them.
        #expect(OrderKey.plan(insertingAt: 4, into: keys) == OrderKeyPlan(key: "n"))
    }

    @Test func nothingBelowZeroOrAboveTilde() {
        let top = OrderKey.plan(insertingAt: 0, into: ["0", "1"])
        #expect(Self.isStrictlyIncreasing(Self.applying(top, at: 0, to: ["0", "1"])))
        let bottom = OrderKey.plan(insertingAt: 2, into: ["a", "~"])
        #expect(Self.isStrictlyIncreasing(Self.applying(bottom, at: 2, to: ["a", "~"])))
    }
}
