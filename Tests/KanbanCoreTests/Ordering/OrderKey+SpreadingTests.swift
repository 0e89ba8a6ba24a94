import Testing
@testable import KanbanCore

@Suite struct OrderKeySpreadingTests {
    @Test func zeroKeysIsEmpty() {
        #expect(OrderKey.keys(count: 0, between: "n", "n") == [])
    }

    @Test func openEndsContinueTheIntegerSequence() {
        #expect(OrderKey.keys(count: 3, between: nil, nil) == ["a1", "a2", "a3"])
        #expect(OrderKey.keys(count: 3, between: "az", nil) == ["b01", "b02", "b03"])
        #expect(OrderKey.keys(count: 3, between: nil, "n") == ["Zy", "Zz", "a1"])
    }

    @Test func boundedKeysAreShortAndEvenlySpread() throws {
        let keys = try #require(OrderKey.keys(count: 5, between: "a1", "a2"))
        #expect(keys == ["a1B", "a1L", "a1V", "a1f", "a1p"])  // 61 three-character keys, every tenth
        let one = try #require(OrderKey.keys(count: 1, between: "n", "t"))
        #expect(one == ["q"])
    }

    @Test func keysDoNotFitPastMaxLength() {
        // Between "a1" and "a2" there are 61 keys of 3 characters ("a11" … "a1z").
        #expect(OrderKey.keys(count: 61, between: "a1", "a2", maxLength: 3)?.count == 61)
        #expect(OrderKey.keys(count: 62, between: "a1", "a2", maxLength: 3) == nil)
        #expect(OrderKey.keys(count: 62, between: "a1", "a2", maxLength: 4)?.count == 62)
        #expect(OrderKey.keys(count: 2, between: "n", "n0") == nil)
        #expect(OrderKey.keys(count: 1, between: "t", "n") == nil)
        #expect(OrderKey.keys(count: 1, between: nil, nil, maxLength: 0) == nil)
    }

    @Test func manyKeysBetweenForeignBoundsAreOrderedWithRoom() throws {
        let pairs: [(String?, String?)] = [
            ("n", "n01"), ("y~", "zV"), ("n!", "n1"), (nil, "1"), ("zz", nil), ("1. first", "2) second"), ("n", "t"),
            ("a0", "a00V"), (nil, "é"), ("n:", "nB"),
        ]
        for (lower, upper) in pairs {
            let keys = try #require(OrderKey.keys(count: 40, between: lower, upper, maxLength: 10))
            #expect(keys.count == 40)
            let all = [lower].compactMap { $0 } + keys + [upper].compactMap { $0 }
            for (left, right) in zip(all, all.dropFirst()) {
                #expect(left.utf8Precedes(right), "\(left) \(right)")
                #expect(OrderKey.between(left, right) != nil, "no room between \(left) and \(right)")
            }
            #expect(keys.allSatisfy { OrderKey.isValidGenerated($0) && $0.utf8.count <= 10 })
        }
    }
}
