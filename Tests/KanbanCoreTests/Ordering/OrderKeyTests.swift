import Testing
@testable import KanbanCore

@Suite struct OrderKeyTests {
    /// Keys of every kind found on disk: ours, SimpleKanban's, Rocicorp's, and hand-written ones.
    static let foreignKeys = [
        "", "0", "00", "01", "1", "9", "A", "Z", "Zz", "a", "a0", "a00", "a0V", "a1", "az", "b", "b01", "ba",
        "n", "n0", "n00", "n01", "n1", "n!", "n0!", "a10!", "m~", "o0-", "n-a", "n-b", "n:", "n_", "nz~", "t", "yj", "y~", "z", "zV", "zzi",
        "zz~", "zzz", "~", "!", " first", "1. first", "2) second", "position 3", "é", "Ünïcode", "n\u{7F}",
    ]

    @Test func alphabetIsDigitsThenUpperThenLowerInByteOrder() {
        #expect(OrderKey.alphabet.count == 62)
        #expect(Array(OrderKey.alphabet.utf8) == Array(OrderKey.alphabet.utf8).sorted())
        #expect(OrderKey.alphabet.hasPrefix("0123456789ABC"))
        #expect(OrderKey.alphabet.hasSuffix("xyz"))
    }

    @Test func firstKeyOfAnEmptyColumnIsA1() {
        #expect(OrderKey.between(nil, nil) == "a1")
    }

    @Test(arguments: [
        // Appending and prepending count the integer, skipping integers that end in '0'.
        (nil, "a1", "Zz"), ("a1", nil, "a2"), ("az", nil, "b01"), ("Zz", nil, "a1"), ("Z1", nil, "Z2"),
        (nil, "Z1", "Yzz"), (nil, "b01", "az"), ("a0", nil, "a1"), (nil, "a0V", "Zz"), (nil, "a1V", "a1"),
        // Between two keys: the next integer when it fits, else the midpoint.
        ("a1", "a3", "a2"), ("a1", "a2", "a1V"), ("a1", "a1V", "a1G"), ("a1", "a11", "a10V"), ("n", "t", "q"),
        ("n", "n01", "n00V"), ("az", "ba", "b01"),
        // Past foreign keys without an integer, one starts after a prefix.
        ("zzi", nil, "zzja1"), ("zzja1", nil, "zzja2"), (nil, "1", "0a1"), (nil, "0a1", "0Zz"), (nil, "n", "a1"),
    ] as [(String?, String?, String)])
    func generatesExpectedKeys(lower: String?, upper: String?, expected: String) {
        #expect(OrderKey.between(lower, upper) == expected)
    }

    @Test(arguments: [
        ("n", "n"), ("t", "n"), ("n", "n0"), ("n", "n00"), ("n", "n!"), ("n-a", "n-b"), ("y~", "z"), ("y~", "z!"),
        ("a1", "a1"), ("zz~", nil), ("~", nil), ("~z", nil), ("é", nil), (nil, "0"), (nil, "000"), (nil, ""), (nil, "!"),
        (nil, "0!"),
    ] as [(String?, String?)])
    func returnsNilWhenNothingFits(lower: String?, upper: String?) {
        #expect(OrderKey.between(lower, upper) == nil)
        #expect(OrderKey.keys(count: 1, between: lower, upper, maxLength: 10) == nil)
    }

    @Test func ancestorsCarrylessAverageIsFixed() throws {
        // The ancestor gave "amm", below its lower bound.
        let key = try #require(OrderKey.between("az", "ba"))
        #expect("az".utf8Precedes(key) && key.utf8Precedes("ba"))
        #expect(OrderKey.isValidGenerated(key))
    }

    @Test(arguments: ["n", "a", "b", "t", "zzi", "A", "1", "Zz", "a0", "a1", "0a1", "~", "é", "n-a", "0001"])
    func movingToTheTopAgainAndAgainStaysValidAndShort(start: String) throws {
        // The ancestor produced a key starting with a backtick after four moves to the top.
        var first = start
        for _ in 0..<1000 {
            let key = try #require(OrderKey.between(nil, first))
            #expect(key.utf8Precedes(first))
            #expect(OrderKey.isValidGenerated(key))
            #expect(key.utf8.count <= 10)
            first = key
        }
    }

    @Test(arguments: ["n", "zzi", "yj", "z", "zzz", "y~", "a", "0", "Z", "", "!"])
    func appendingAgainAndAgainStaysValidAndShort(start: String) throws {
        var last = start
        for _ in 0..<1000 {
            let key = try #require(OrderKey.between(last, nil))
            #expect(last.utf8Precedes(key))
            #expect(OrderKey.isValidGenerated(key))
            #expect(key.utf8.count <= 10)
            last = key
        }
    }

    @Test func everyGeneratedKeyIsBetweenWithRoomOnBothSides() {
        let bounds: [String?] = [nil] + Self.foreignKeys
        for lower in bounds {
            for upper in bounds {
                guard let key = OrderKey.between(lower, upper) else {
                    #expect(OrderKey.keys(count: 1, between: lower, upper, maxLength: 10) == nil)
                    continue
                }
                #expect(OrderKey.isValidGenerated(key), "\(String(describing: lower)) \(String(describing: upper))")
                if let lower {
                    #expect(lower.utf8Precedes(key))
                    #expect(OrderKey.between(lower, key) != nil, "no room between \(lower) and \(key)")
                }
                if let upper {
                    #expect(key.utf8Precedes(upper))
                    #expect(OrderKey.between(key, upper) != nil, "no room between \(key) and \(upper)")
                }
            }
        }
    }

    @Test func sameInputsGiveTheSameKey() {
        for lower in Self.foreignKeys {
            #expect(OrderKey.between(lower, nil) == OrderKey.between(lower, nil))
            #expect(OrderKey.between(nil, lower) == OrderKey.between(nil, lower))
        }
        #expect(OrderKey.plan(insertingAt: 1, into: ["n", "n", "n"]) == OrderKey.plan(insertingAt: 1, into: ["n", "n", "n"]))
    }

    @Test func overLongMeansMoreThanTenBytes() {
        #expect(!OrderKey.isOverLong("a1234567VV"))
        #expect(OrderKey.isOverLong("a1234567VVV"))
        #expect(OrderKey.isOverLong("ééééé1"))
        #expect(OrderKey.maximumLength == 10)
        #expect(OrderKey.rekeyedLength == 6)
    }

    @Test func validGeneratedKeysAreDigitsNotEndingInZero() {
        #expect(OrderKey.isValidGenerated("a1"))
        #expect(OrderKey.isValidGenerated("n"))
        #expect(!OrderKey.isValidGenerated("a0"))
        #expect(!OrderKey.isValidGenerated(""))
        #expect(!OrderKey.isValidGenerated("a-1"))
        #expect(!OrderKey.isValidGenerated("é"))
    }
}
