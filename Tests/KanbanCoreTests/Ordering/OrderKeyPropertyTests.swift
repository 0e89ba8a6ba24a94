import KanbanTestSupport
import Testing
@testable import KanbanCore

/// Thousands of random column operations from a seeded generator, so a failure reproduces from its seed.
@Suite struct OrderKeyPropertyTests {
    // MARK: - Growth of keys

    @Test func tenThousandAppendsStayWithinFourCharacters() {
        var column = SimulatedColumn(keys: [])
        for _ in 0..<10_000 {
            let touched = column.insert(at: column.count)
            #expect(touched == 1)
        }
        #expect(column.longestKey <= 4)
        #expect(column.isInDisplayOrder)
    }

    @Test func tenThousandPrependsStayWithinFourCharacters() {
        var column = SimulatedColumn(keys: [])
        for _ in 0..<10_000 {
            let touched = column.insert(at: 0)
            #expect(touched == 1)
        }
        #expect(column.longestKey <= 4)
        #expect(column.isInDisplayOrder)
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func tenThousandRandomInsertsStayWithinTenCharacters(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var column = SimulatedColumn(keys: [])
        for _ in 0..<10_000 {
            column.insert(at: Int.random(in: 0...column.count, using: &random))
        }
        #expect(column.longestKey <= 10)
        #expect(column.isInDisplayOrder)
    }

    // MARK: - Inserting at one spot again and again

    /// 10,000 insertions at one spot: how many files each touched (1 + neighbours re-keyed) and the longest key.
    ///
    /// Bounds: plain inserts halve the gap, and a key gains a letter about every 3.7 halvings (base 13), so after a
    /// re-key (keys of at most 7 letters) some 11 inserts pass before a key would exceed 10 letters. A re-key at
    /// one spot needs a window of a few cards, so the average stays under 1 + 1.5/11 ≈ 1.14: we allow 1.15.
    /// Measured: 1.04 (at most 2) between the first and second card; 1.07 (at most 4) after a fixed card in the
    /// middle; 1.12 (at most 7) in the middle of 40 appended cards, whose keys are one step apart.
    @Test(arguments: [(5, 1), (5, 3), (2, 1), (40, 20)])
    func insertingAtOneSpotKeepsKeysShortAndTouchesFewFiles(cards: Int, index: Int) {
        var column = SimulatedColumn(keys: [])
        for _ in 0..<cards { column.insert(at: column.count) }
        var total = 0
        var most = 0
        for _ in 0..<10_000 {
            let touched = column.insert(at: index)
            total += touched
            most = max(most, touched)
        }
        #expect(column.longestKey <= OrderKey.maximumLength)
        print("inserting 10,000 cards at \(index) of \(cards): \(Double(total) / 10_000) files a card on average, at most \(most)")
        #expect(Double(total) / 10_000 <= 1.15)
        #expect(most <= 8)
        #expect(column.isInDisplayOrder)
    }

    // MARK: - Random operations

    static let simpleKanbanKeys = ["c", "h", "n", "n", "n", "n", "t", "t", "yj", "zzi", "zzzx"]
    static let handWrittenKeys = [
        "", "0", "00", "!", "a-b", "a-c", "n", "n0", "n!", "n:", "n_", "y~", "z", "zz~", "~", "é", "Ünïcode", "1. first",
        "2) second", "position 3", "a0", "a00", "Zz", "b01", "done", "todo", "n0V", "zzzzzzzzzzzz", "abcdefghijklmnop",
    ]

    @Test(arguments: [11, 12] as [UInt64])
    func randomOperationsOnAnEmptyColumn(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var column = SimulatedColumn(keys: [])
        column.runRandomOperations(4_000, using: &random)
    }

    @Test(arguments: [21, 22] as [UInt64])
    func randomOperationsFromSimpleKanbanKeys(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let keys = (0..<80).map { _ in Self.simpleKanbanKeys.randomElement(using: &random) }
        var column = SimulatedColumn(keys: keys)
        column.runRandomOperations(4_000, using: &random)
    }

    @Test(arguments: [31, 32] as [UInt64])
    func randomOperationsOnAColumnFullOfDuplicates(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var column = SimulatedColumn(keys: [String?](repeating: "n", count: 200) + ["t", "t", "t"])
        column.runRandomOperations(4_000, using: &random)
    }

    @Test(arguments: [41, 42] as [UInt64])
    func randomOperationsAmongHandWrittenKeys(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var keys = (0..<80).map { _ in Self.handWrittenKeys.randomElement(using: &random) }
        keys += [String?](repeating: nil, count: 6)
        var column = SimulatedColumn(keys: keys)
        column.runRandomOperations(4_000, using: &random)
    }

    @Test(arguments: [51, 52] as [UInt64])
    func randomKeysBetweenRandomHandWrittenBoundsAgreeWithBruteForce(seed: UInt64) {
        // Bounds built from bytes around the alphabet's edges, where cuts and room matter most.
        let bytes: [UInt8] = Array("!01:AZ_`abcdmnoyz{~".utf8) + [0xC3]
        var random = SeededGenerator(seed: seed)
        func randomKey() -> [UInt8] {
            (0..<Int.random(in: 0...3, using: &random)).map { _ in bytes.randomElement(using: &random) ?? 0x30 }
        }
        for _ in 0..<4_000 {
            let pair = [randomKey(), randomKey()].sorted { $0.lexicographicallyPrecedes($1) }
            let lower = Bool.random(using: &random) ? pair[0] : nil
            let upper = Bool.random(using: &random) ? pair[1] : nil
            // An open end behaves as "" below or as a byte above every key.
            let low = lower ?? [], high = upper ?? [0xFF]
            let key = OrderKey.between(
                lower.map { String(decoding: $0, as: UTF8.self) }, upper.map { String(decoding: $0, as: UTF8.self) }
            )
            #expect((key != nil) == BruteForce.hasRoom(low, high), "\(low) \(high) gave \(String(describing: key))")
            guard let key else { continue }
            let bytes = Array(key.utf8)
            #expect(OrderKey.isValidGenerated(key))
            #expect(low.lexicographicallyPrecedes(bytes) && bytes.lexicographicallyPrecedes(high), "\(key)")
            #expect(BruteForce.someKey(after: low, before: bytes) != nil, "no room between \(low) and \(key)")
            #expect(BruteForce.someKey(after: bytes, before: high) != nil, "no room between \(key) and \(high)")
        }
    }
}

/// An independent answer to "does a key of the alphabet not ending in 'b' fit between these bytes?".
private enum BruteForce {
    static let digits = Array(OrderKey.alphabet.utf8)

    /// Some generatable key strictly between `lower` and `upper`, or nil when there is none.
    ///
    /// If one exists, one of these does: a prefix of `lower` followed by a larger digit, or by 'b's and a 'd'
    /// (with fewer 'b's than `upper` has bytes, plus two).
    static func someKey(after lower: [UInt8], before upper: [UInt8]) -> [UInt8]? {
        for length in 0...lower.count {
            let prefix = Array(lower[..<length])
            guard prefix.allSatisfy(digits.contains) else { break }
            for digit in digits where length == lower.count || digit > lower[length] {
                for zeros in -1...(upper.count + 1) {
                    let candidate = prefix + [digit] + (zeros < 0 ? [] : [UInt8](repeating: 0x62, count: zeros) + [0x64])
                    if candidate.last != 0x62, lower.lexicographicallyPrecedes(candidate),
                       candidate.lexicographicallyPrecedes(upper) {
                        return candidate
                    }
                }
            }
        }
        return nil
    }

    /// True when a key fits between the bounds with room on both sides: when two keys fit.
    static func hasRoom(_ lower: [UInt8], _ upper: [UInt8]) -> Bool {
        guard let key = someKey(after: lower, before: upper) else { return false }
        return someKey(after: lower, before: key) != nil || someKey(after: key, before: upper) != nil
    }
}

/// A column of cards in display order, changed only through `OrderKey.plan`, as the store does.
private struct SimulatedColumn {
    /// The cards' keys and slugs, index by index.
    private(set) var keys: [String?]
    private var slugs: [String]
    private var nextSlug = 0

    /// A column holding `keys`, sorted into display order with made-up slugs.
    init(keys: [String?]) {
        let cards = keys.enumerated()
            .map { (key: $0.element, slug: Self.slug($0.offset)) }
            .sorted { Self.isInOrder($0, $1) }
        self.keys = cards.map(\.key)
        slugs = cards.map(\.slug)
        nextSlug = keys.count
    }

    var count: Int { keys.count }

    var longestKey: Int { keys.map { $0?.utf8.count ?? 0 }.max() ?? 0 }

    var isInDisplayOrder: Bool {
        keys.indices.dropFirst().allSatisfy { isInOrder($0 - 1, $0) }
    }

    /// Inserts a new card at `index` and returns how many files that wrote.
    @discardableResult
    mutating func insert(at index: Int) -> Int {
        defer { nextSlug += 1 }
        return place(slug: Self.slug(nextSlug), at: index)
    }

    /// Moves the card at `source` so that it ends up at `destination` among the others.
    @discardableResult
    mutating func move(from source: Int, to destination: Int) -> Int {
        keys.remove(at: source)
        return place(slug: slugs.remove(at: source), at: destination)
    }

    mutating func remove(at index: Int) {
        keys.remove(at: index)
        slugs.remove(at: index)
    }

    mutating func runRandomOperations(_ operations: Int, using random: inout SeededGenerator) {
        for step in 0..<operations {
            let size = count
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<15: insert(at: size)
            case 15..<30: insert(at: 0)
            case 30..<55 where size > 0:
                // Often at one spot, which is what forces re-keying.
                insert(at: Int.random(in: 0...min(size, 3), using: &random))
            case 55..<70: insert(at: Int.random(in: 0...size, using: &random))
            case 70..<90 where size > 1:
                move(from: Int.random(in: 0..<size, using: &random), to: Int.random(in: 0..<size, using: &random))
            case 90..<100 where size > 300:
                remove(at: Int.random(in: 0..<size, using: &random))
            default:
                insert(at: Int.random(in: 0...size, using: &random))
            }
            if step % 200 == 0 { #expect(isInDisplayOrder) }
        }
        #expect(isInDisplayOrder)
    }

    /// Plans and applies the insertion of a card at `index`, checking the plan against the rules.
    private mutating func place(slug: String, at index: Int) -> Int {
        let plan = OrderKey.plan(insertingAt: index, into: keys)
        #expect(OrderKey.isValidGenerated(plan.key))
        #expect(plan.key.utf8.count <= OrderKey.maximumLength)
        var previous = -1
        for rekey in plan.rekeyed {
            #expect(rekey.index > previous && rekey.index < count, "re-keyed indices out of order or range")
            previous = rekey.index
            #expect(OrderKey.isValidGenerated(rekey.key))
            #expect(rekey.key.utf8.count <= OrderKey.rekeyedLength)
            #expect(keys[rekey.index] != rekey.key, "re-keyed to the same key")
            keys[rekey.index] = rekey.key
        }
        keys.insert(plan.key, at: index)
        slugs.insert(slug, at: index)
        #expect(index == 0 || keys[index - 1] != nil, "a card above the new one has no key")
        // Every card written sits strictly between its neighbours, with room on both sides.
        for position in [index] + plan.rekeyed.map({ $0.index < index ? $0.index : $0.index + 1 }) {
            guard let key = keys[position] else { continue }
            if position > 0, let above = keys[position - 1] {
                #expect(above.utf8Precedes(key) && OrderKey.between(above, key) != nil, "\(above) \(key)")
            }
            if position + 1 < count, let below = keys[position + 1] {
                #expect(key.utf8Precedes(below) && OrderKey.between(key, below) != nil, "\(key) \(below)")
            }
        }
        return 1 + plan.rekeyed.count
    }

    private func isInOrder(_ first: Int, _ second: Int) -> Bool {
        Self.isInOrder((keys[first], slugs[first]), (keys[second], slugs[second]))
    }

    private static func slug(_ number: Int) -> String {
        let digits = String(number)
        return "card-" + String(repeating: "0", count: max(0, 6 - digits.count)) + digits
    }

    /// Display order: by key byte by byte, then slug; cards without a key last.
    private static func isInOrder(_ lhs: (key: String?, slug: String), _ rhs: (key: String?, slug: String)) -> Bool {
        switch (lhs.key, rhs.key) {
        case (nil, nil): lhs.slug.utf8.lexicographicallyPrecedes(rhs.slug.utf8)
        case (nil, _): false
        case (_, nil): true
        case (let left?, let right?):
            left.utf8.elementsEqual(right.utf8)
                ? lhs.slug.utf8.lexicographicallyPrecedes(rhs.slug.utf8)
                : left.utf8Precedes(right)
        }
    }
}

