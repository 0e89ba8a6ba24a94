import Testing
@testable import KanbanCore

@Suite struct OrderKeyTests {
    /// Keys of every kind found on disk: ours, SimpleKanban's, Rocicorp's, and hand-written ones.
    static let foreignKeys = [
        "", "0", "00", "01", "1", "9", "A", "Z", "Zz", "a", "a0", "a00", "a0V", "a1", "az", "b", "b01", "ba", "aa", "ab", "nb",
        "na", "nab", "mz", "oab", "`", "{", "n{", "`n", "nbbd", "lzzz", "nbbbp", "bbbd", "zzzz", "w", "c", "y",
        "n", "n0", "n00", "n01", "n1", "n!", "n0!", "a10!", "m~", "o0-", "n-a", "n-b", "n:", "n_", "nz~", "t", "yj", "y~", "z", "zV", "zzi",
        "zz~", "zzz", "~", "!", " first", "1. first", "2) second", "position 3", "é", "Ünïcode", "n\u{7F}",
    ]

    @Test func alphabetIsEveryOtherLetterFromBToZ() {
        #expect(OrderKey.alphabet == "bdfhjlnprtvxz")
    }

    @Test func firstKeyOfAnEmptyColumnIsSimpleKanbansN() {
        #expect(OrderKey.between(nil, nil) == "n")
    }

    @Test(arguments: [
        // Appending and prepending count in steps of four letters.
        (nil, "n", "lzzz"), ("n", nil, "nbbd"), ("nbbz", nil, "nbd"), ("nzzz", nil, "p"), (nil, "nbbd", "n"),
        ("zzzz", nil, "zzzzbbbd"), (nil, "bbbd", "bbbbzzzz"), ("zzzzzzzz", nil, "zzzzzzzzd"), ("nbbbn", nil, "nbbd"), (nil, "nbbbn", "n"),
        // Between two keys: the midpoint, the shortest where one letter does.
        ("n", "p", "np"), ("n", "r", "p"), ("n", "t", "r"), ("n", "nbbd", "nbbbp"), ("nbbd", "nbbf", "nbbdp"),
        // Next to foreign keys: where they stand among ours.
        ("zzi", nil, "zzjd"), ("t", nil, "tbbd"), (nil, "t", "rzzz"), ("w", nil, "xbbd"), (nil, "w", "vzzz"), ("y~", nil, "zbbd"),
        // Keys of earlier versions (digits, capitals) stand below every key of the alphabet.
        ("a1", nil, "n"), ("Zz", nil, "n"),
    ] as [(String?, String?, String)])
    func generatesExpectedKeys(lower: String?, upper: String?, expected: String) {
        #expect(OrderKey.between(lower, upper) == expected)
    }

    @Test(arguments: [
        ("n", "n"), ("t", "n"), ("n", "nb"), ("n", "nbb"), ("n", "na"), ("n", "n!"), ("n-a", "n-b"), ("y~", "z"), ("y~", "z!"),
        ("a1", "a1"), ("zz~", nil), ("~", nil), ("~z", nil), ("é", nil), (nil, "b"), (nil, "bbb"), (nil, ""), (nil, "!"),
        (nil, "a"), (nil, "b!"), (nil, "a1"), (nil, "Zz"), ("a1", "a2"), ("n", "n0"), ("az", "ba"), ("w", "x"),
    ] as [(String?, String?)])
    func returnsNilWhenNothingFits(lower: String?, upper: String?) {
        #expect(OrderKey.between(lower, upper) == nil)
        #expect(OrderKey.keys(count: 1, between: lower, upper, maxLength: 10) == nil)
    }

    @Test func simpleKanbansCarrylessAverageIsNotRepeated() throws {
        // SimpleKanban's LexPosition gives "amm", below its lower bound. No key of ours fits between the two: the
        // plan re-keys a neighbour instead, and the column stays in order.
        let plan = OrderKey.plan(insertingAt: 1, into: ["az", "ba"])
        var keys: [String] = ["az", "ba"]
        for rekey in plan.rekeyed { keys[rekey.index] = rekey.key }
        keys.insert(plan.key, at: 1)
        #expect(zip(keys, keys.dropFirst()).allSatisfy { $0.utf8Precedes($1) }, "\(keys)")
        #expect(OrderKey.isValidGenerated(plan.key))
    }

    @Test(arguments: ["n", "d", "bd", "t", "zzi", "nbbd", "lzzz", "nbbbp", "bbbd", "~", "é", "n-a", "w", "d!"])
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

    @Test(arguments: ["n", "zzi", "yj", "z", "zzz", "y~", "a", "0", "Z", "", "!", "a1", "Zz", "nbbd", "zzzz", "zzzm"])
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
        #expect(!OrderKey.isOverLong("nbdfhjlnpr"))
        #expect(OrderKey.isOverLong("nbdfhjlnprt"))
        #expect(OrderKey.isOverLong("ééééé1"))
        #expect(OrderKey.maximumLength == 10)
        #expect(OrderKey.rekeyedLength == 7)
    }

    @Test func validGeneratedKeysAreEveryOtherLetterNotEndingInB() {
        #expect(OrderKey.isValidGenerated("nbbd"))
        #expect(OrderKey.isValidGenerated("n"))
        #expect(!OrderKey.isValidGenerated("nb"))
        #expect(!OrderKey.isValidGenerated("na"))
        #expect(!OrderKey.isValidGenerated("nc"))
        #expect(!OrderKey.isValidGenerated("a1"))
        #expect(!OrderKey.isValidGenerated("Zz"))
        #expect(!OrderKey.isValidGenerated(""))
        #expect(!OrderKey.isValidGenerated("n-b"))
        #expect(!OrderKey.isValidGenerated("é"))
    }
}
