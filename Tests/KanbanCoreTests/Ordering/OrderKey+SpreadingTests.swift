import Testing
@testable import KanbanCore

@Suite struct OrderKeySpreadingTests {
    @Test func zeroKeysIsEmpty() {
        #expect(OrderKey.keys(count: 0, between: "n", "n") == [])
    }

    @Test func openEndsContinueTheIntegerSequence() {
        #expect(OrderKey.keys(count: 3, between: nil, nil) == ["n", "nbbd", "nbbf"])
        #expect(OrderKey.keys(count: 3, between: "nzzz", nil) == ["p", "pbbd", "pbbf"])
        #expect(OrderKey.keys(count: 3, between: nil, "n") == ["lzzv", "lzzx", "lzzz"])
    }

    @Test func boundedKeysAreShortAndEvenlySpread() throws {
        let keys = try #require(OrderKey.keys(count: 5, between: "n", "p"))
        #expect(keys == ["nh", "nl", "np", "nt", "nx"])  // 12 two-letter keys, every other one
        let one = try #require(OrderKey.keys(count: 1, between: "n", "t"))
        #expect(one == ["r"])
    }

    @Test func keysDoNotFitPastMaxLength() {
        // Between "n" and "p" there are 12 keys of 2 letters ("nd" … "nz").
        #expect(OrderKey.keys(count: 12, between: "n", "p", maxLength: 2)?.count == 12)
        #expect(OrderKey.keys(count: 13, between: "n", "p", maxLength: 2) == nil)
        #expect(OrderKey.keys(count: 13, between: "n", "p", maxLength: 3)?.count == 13)
        #expect(OrderKey.keys(count: 2, between: "n", "nb") == nil)
        #expect(OrderKey.keys(count: 1, between: "t", "n") == nil)
        #expect(OrderKey.keys(count: 1, between: nil, nil, maxLength: 0) == nil)
    }

    @Test func manyKeysBetweenForeignBoundsAreOrderedWithRoom() throws {
        let pairs: [(String?, String?)] = [
            ("n", "nbbd"), ("y~", "zd"), ("n!", "nd"), (nil, "d"), ("zz", nil), ("first", "second"), ("n", "t"),
            ("a1", "nd"), (nil, "é"), ("n:", "nd"), ("Zz", nil), ("zzi", nil), ("w", "y"), ("az", "bd"),
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
