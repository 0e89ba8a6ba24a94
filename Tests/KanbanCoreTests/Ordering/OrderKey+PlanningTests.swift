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
        #expect(OrderKey.plan(insertingAt: 0, into: []) == OrderKeyPlan(key: "a1"))
    }

    @Test(arguments: [
        (["a1", "a2"], 0, "Zz"), (["a1", "a2"], 1, "a1V"), (["a1", "a2"], 2, "a3"), (["n", "t", "yj", "zzi"], 1, "q"),
        (["a1", nil], 1, "a2"), (["a1", nil, nil], 0, "Zz"),
    ] as [([String?], Int, String)])
    func writesOnlyTheNewCardWhenItsKeyFits(keys: [String?], index: Int, expected: String) {
        #expect(OrderKey.plan(insertingAt: index, into: keys) == OrderKeyPlan(key: expected))
    }

    @Test func rekeysOneNeighbourWhenNothingFits() {
        // Nothing fits between "n" and "n0": the card above moves up instead.
        let plan = OrderKey.plan(insertingAt: 1, into: ["n", "n0"])
        #expect(plan.rekeyed.count == 1)
        #expect(Self.isStrictlyIncreasing(Self.applying(plan, at: 1, to: ["n", "n0"])))
    }

    @Test func rekeysTheShorterSideOfARunOfDuplicates() {
        let keys: [String?] = ["c", "n", "n", "n", "n", "n", "t"]
        let plan = OrderKey.plan(insertingAt: 2, into: keys)
        // Re-key "n" at 1 (between "c" and the next "n"), not the four below.
        #expect(plan.rekeyed.map(\.index) == [1])
        #expect(Self.isStrictlyIncreasing(Self.applying(plan, at: 2, to: keys).prefix(4).map { $0 }))
    }

    @Test func givesKeysToCardsWithoutOneAboveTheInsertionPoint() {
        let keys: [String?] = ["a1", nil, nil, nil]
        let plan = OrderKey.plan(insertingAt: 3, into: keys)
        #expect(plan.rekeyed == [.init(index: 1, key: "a2"), .init(index: 2, key: "a3")])
        #expect(plan.key == "a4")
        #expect(Self.applying(plan, at: 3, to: keys) == ["a1", "a2", "a3", "a4", nil])
    }

    @Test func givesKeysToAColumnWithoutAny() {
        let plan = OrderKey.plan(insertingAt: 2, into: [nil, nil])
        #expect(Self.applying(plan, at: 2, to: [nil, nil]) == ["a1", "a2", "a3"])
    }

    @Test func rekeysOverLongHandWrittenNeighbours() {
        let keys: [String?] = ["abcdefghijklmnop1", "abcdefghijklmnop2"]
        let plan = OrderKey.plan(insertingAt: 1, into: keys)
        #expect(plan.rekeyed.count == 1)
        #expect(plan.key.utf8.count <= OrderKey.rekeyedLength)
        #expect(Self.isStrictlyIncreasing(Self.applying(plan, at: 1, to: keys)))
    }

    @Test func rekeysWhenTheNewKeyWouldBeOverLong() {
        // "a1" and "a100000001" leave only 11-character keys between them.
        let keys: [String?] = ["a0", "a1", "a100000001", "a2"]
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

    @Test func nothingBelowZeroOrAboveTilde() {
        let top = OrderKey.plan(insertingAt: 0, into: ["0", "1"])
        #expect(Self.isStrictlyIncreasing(Self.applying(top, at: 0, to: ["0", "1"])))
        let bottom = OrderKey.plan(insertingAt: 2, into: ["a", "~"])
        #expect(Self.isStrictlyIncreasing(Self.applying(bottom, at: 2, to: ["a", "~"])))
    }
}
