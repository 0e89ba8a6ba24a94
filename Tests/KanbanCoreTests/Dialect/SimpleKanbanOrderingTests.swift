import KanbanTestSupport
import Testing
@testable import KanbanCore

/// kanban's keys against SimpleKanban's `LexPosition`: the app makes its keys by averaging letters without carry,
/// which goes wrong between some pairs of keys, and wrong for every key outside `a`–`z`. kanban's keys must not
/// make it go wrong more often than its own keys do, and never at the ends of a column.
@Suite struct SimpleKanbanOrderingTests {
    /// How often the app's `between`, `before` and `after` give a key out of order, applied to a column's keys.
    struct Failures: CustomStringConvertible {
        var between = 0
        var pairs = 0
        var ends = 0
        var rate: Double { pairs == 0 ? 0 : Double(between) / Double(pairs) }
        var description: String { "\(between) of \(pairs) pairs (\(String(format: "%.2f", rate * 100))%), \(ends) ends" }

        init(_ keys: [String]) {
            for (low, high) in zip(keys, keys.dropFirst()) {
                pairs += 1
                let key = SimpleKanbanApp.between(low, high)
                if !(low.utf8Precedes(key) && key.utf8Precedes(high)) { between += 1 }
            }
            if let first = keys.first, !SimpleKanbanApp.before(first).utf8Precedes(first) { ends += 1 }
            if let last = keys.last, !last.utf8Precedes(SimpleKanbanApp.after(last)) { ends += 1 }
        }
    }

    /// The same random operations on one column twice: keys made by kanban, and keys made by the app.
    static func simulate(operations: Int, seed: UInt64) -> (kanban: [String], app: [String]) {
        var random = SeededGenerator(seed: seed)
        var ours: [String] = []
        var theirs: [String] = []
        func insert(at index: Int) {
            let plan = OrderKey.plan(insertingAt: index, into: ours.map { Optional($0) })
            for rekey in plan.rekeyed { ours[rekey.index] = rekey.key }
            ours.insert(plan.key, at: index)
            theirs.insert(SimpleKanbanApp.key(insertingAt: index, into: theirs), at: index)
        }
        for _ in 0..<operations {
            let roll = Int.random(in: 0..<100, using: &random)
            // A column of a couple of thousand cards at most: past that, cards leave it.
            if ours.count > 2_000 || (roll >= 70 && ours.count > 1) {
                let index = Int.random(in: 0..<ours.count, using: &random)
                ours.remove(at: index)
                theirs.remove(at: index)
                continue
            }
            switch roll {
            case 0..<30: insert(at: ours.count)  // add at the bottom, or move to the bottom of another column
            case 30..<40: insert(at: 0)  // to the top
            case 40..<55: insert(at: Int.random(in: 0...ours.count, using: &random))  // before or after a card
            default:
                // Reordered within the column: out of its place and into another.
                guard ours.count > 1 else { insert(at: 0); continue }
                let from = Int.random(in: 0..<ours.count, using: &random)
                ours.remove(at: from)
                theirs.remove(at: from)
                insert(at: Int.random(in: 0...ours.count, using: &random))
            }
        }
        return (ours, theirs)
    }

    @Test(arguments: [(1, 100_000), (2, 20_000), (3, 20_000)] as [(UInt64, Int)])
    func theAppGoesWrongOnKanbansKeysNoMoreOftenThanOnItsOwn(seed: UInt64, operations: Int) {
        let (kanban, app) = Self.simulate(operations: operations, seed: seed)
        #expect(kanban.allSatisfy { OrderKey.isValidGenerated($0) }, "keys of a to z, never ending in a")
        #expect(zip(kanban, kanban.dropFirst()).allSatisfy { $0.utf8Precedes($1) })
        let ours = Failures(kanban)
        let theirs = Failures(app)
        print("SimpleKanban's LexPosition after \(operations) operations (seed \(seed)): on kanban's keys \(ours); on its own keys \(theirs)")
        #expect(ours.ends == 0)
        #expect(ours.rate <= theirs.rate, "kanban's keys: \(ours); the app's own: \(theirs)")
    }

    /// Why kanban's keys never trip the app: two keys of every other letter differ, where they first differ, by at
    /// least two letters, so the app's average there lands strictly between; a key that is a prefix of another
    /// is followed in it by letters that are not all `b`.
    @Test(arguments: [1, 2] as [UInt64])
    func theAppsAverageOfAnyTwoKeysOfTheAlphabetIsBetweenThem(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let letters = Array(OrderKey.alphabet)
        func key() -> String {
            var text = String((0..<Int.random(in: 1...8, using: &random)).map { _ in letters.randomElement(using: &random)! })
            while text.hasSuffix("b") { text.removeLast() }
            return text.isEmpty ? "n" : text
        }
        for _ in 0..<50_000 {
            let (one, two) = (key(), key())
            guard one != two else { continue }
            let (low, high) = one.utf8Precedes(two) ? (one, two) : (two, one)
            let middle = SimpleKanbanApp.between(low, high)
            #expect(low.utf8Precedes(middle) && middle.utf8Precedes(high), "\(low) \(high) gave \(middle)")
        }
    }

    @Test func beforeAndAfterAreInOrderForEveryKeyKanbanMakes() {
        var keys: [String] = []
        for _ in 0..<2_000 { keys.append(OrderKey.plan(insertingAt: keys.count, into: keys.map { Optional($0) }).key) }
        for _ in 0..<2_000 { keys.insert(OrderKey.plan(insertingAt: 0, into: keys.map { Optional($0) }).key, at: 0) }
        for key in keys {
            #expect(SimpleKanbanApp.before(key).utf8Precedes(key), "\(key)")
            #expect(key.utf8Precedes(SimpleKanbanApp.after(key)), "\(key)")
        }
    }

    @Test func theKeysOfEarlierVersionsAreWhatBrokeTheApp() {
        // Keys kanban wrote before (digits and capitals) and what the app made of them.
        #expect(SimpleKanbanApp.before("Zz") == "]m")
        #expect(SimpleKanbanApp.between("az", "b01") == "aUIm")
        #expect(SimpleKanbanApp.between("a1", "a1V") == "a1[m")
        // And its own failure between two of its keys, which kanban's keys avoid where it can.
        #expect(SimpleKanbanApp.between("az", "ba") == "amm")
    }
}
