extension OrderKey {
    /// Plans an insertion at `index` (0...keys.count) into a column whose current keys are `keys`, in display
    /// order: sorted by key then slug, so duplicates are adjacent, with the cards without a position (nil) last.
    ///
    /// The new card gets ``between(_:_:)`` of its neighbours when that key exists and has at most
    /// ``maximumLength`` characters. Otherwise — the spot has been split too often, or nothing fits, as between
    /// duplicates (`n`, `n`) or `n` and `n0` — the plan rewrites the fewest contiguous neighbours around `index`
    /// that can be given keys of at most ``rekeyedLength`` characters, evenly spread; among windows of that
    /// size it takes the one with the most room. Cards without a key before `index` always receive one.
    /// To move a card within a column, remove it from `keys` first and plan its insertion at the target index.
    ///
    /// - Parameters:
    ///   - index: Where the new card goes: the number of cards that will precede it.
    ///   - keys: The column's keys in display order; nil for a card without a position.
    /// - Returns: The new card's key and the neighbours to re-key, by index into `keys`. Never fails: in the
    ///   worst case it re-keys the whole column.
    /// - Complexity: O(n) in the length of the two neighbouring keys when the new key fits, which is the common
    ///   case; otherwise O(w²) at worst for a window of w cards, and O(w) when the window spans runs of equal keys.
    public static func plan(insertingAt index: Int, into keys: [String?]) -> OrderKeyPlan {
        precondition((0...keys.count).contains(index), "insertion index \(index) is outside 0...\(keys.count)")
        var firstForced = index
        while firstForced > 0, keys[firstForced - 1] == nil { firstForced -= 1 }
        if firstForced == index {
            let lower = index > 0 ? keys[index - 1] : nil
            let upper = index < keys.count ? keys[index] : nil
            if let key = between(lower, upper), key.utf8.count <= maximumLength {
                return OrderKeyPlan(key: key)
            }
        }

        var search = WindowSearch(keys: keys, index: index, firstForced: firstForced)
        let window = search.smallestWindow()
        let lower = window.lowerBound > 0 ? keys[window.lowerBound - 1] : nil
        let upper = window.upperBound < keys.count ? keys[window.upperBound] : nil
        let count = window.count + 1
        let fresh = generatedKeys(
            count: count, between: lower.map { Array($0.utf8) }, upper.map { Array($0.utf8) }, maxLength: rekeyedLength
        )
        guard let fresh, fresh.count == count else {
            // Unreachable: the window was chosen because its keys fit. Rather than fail, re-key the whole column.
            return wholeColumnPlan(insertingAt: index, into: keys)
        }
        var rekeyed: [OrderKeyPlan.Rekey] = []
        for (offset, position) in window.enumerated() {
            let key = fresh[position < index ? offset : offset + 1]
            if let old = keys[position], old.utf8.elementsEqual(key) { continue }
            rekeyed.append(OrderKeyPlan.Rekey(index: position, key: string(key)))
        }
        return OrderKeyPlan(key: string(fresh[index - window.lowerBound]), rekeyed: rekeyed)
    }

    /// Consecutive steps from ``initialKey`` for every card up to the first without a key after `index`.
    private static func wholeColumnPlan(insertingAt index: Int, into keys: [String?]) -> OrderKeyPlan {
        var end = index
        while end < keys.count, keys[end] != nil { end += 1 }
        var current = initialKey
        var fresh: [[UInt8]] = []
        for _ in 0...end {
            fresh.append(current)
            current = stepped(above: current) ?? current + initialKey
        }
        let rekeyed = (0..<end).map { position in
            OrderKeyPlan.Rekey(index: position, key: string(fresh[position < index ? position : position + 1]))
        }
        return OrderKeyPlan(key: string(fresh[index]), rekeyed: rekeyed)
    }
}

/// The search for the smallest window of neighbours to re-key around an insertion point.
///
/// A window `lower..<upper` re-keys the cards at those indices; with the new card it needs `count + 1` keys
/// strictly between `keys[lower - 1]` (or nothing) and `keys[upper]` (or nothing, also when that card has no
/// key). Room only grows as the window widens, so the search tries windows of at most 8, 64, 512, … cards,
/// looking no further from the insertion point than the current limit; and it only tries ends where the
/// bounding key changes, since a bound equal to the previous one gives the same room for a larger window.
private struct WindowSearch {
    let keys: [String?]
    let index: Int
    /// The lowest index the window must include: cards without a key just before `index`.
    let firstForced: Int

    /// Cuts of `keys[upper]` for `upper` from `index` on, computed once.
    private var upperCuts: [OrderKey.Cut] = []
    /// How far `upperCuts` has been filled without meeting an open end, and the open end once met.
    private var openEnd: Int?

    init(keys: [String?], index: Int, firstForced: Int) {
        self.keys = keys
        self.index = index
        self.firstForced = firstForced
    }

    mutating func smallestWindow() -> Range<Int> {
        var limit = 8
        while true {
            if let window = search(limit: limit) { return window }
            // A window reaching from the top to the first card without a key always fits, and the last
            // pass, with a limit above the column's size, tries it.
            if limit > keys.count { return 0..<farthestEnd(atMost: keys.count) }
            limit *= 8
        }
    }

    /// The smallest window of at most `limit` cards, most room first among equals, or nil.
    private mutating func search(limit: Int) -> Range<Int>? {
        var best: (window: Range<Int>, capacity: Int)?
        var lower = firstForced
        while lower >= 0 {
            defer { lower -= 1 }
            let widest = min(limit, best?.window.count ?? limit)
            if index - lower > widest { break }
            if lower < firstForced, lower > 0, Self.isSameKey(keys[lower - 1], keys[lower]) { continue }
            let lowerCut = cut(below: lower)
            let farthest = farthestEnd(atMost: lower + widest)
            if capacity(lowerCut, upperCut(at: farthest)) < index - lower + 1 { continue }
            var upper = index
            while upper <= farthest {
                defer { upper += 1 }
                if upper > index, upper < farthest, Self.isSameKey(keys[upper - 1], keys[upper]) { continue }
                let capacity = capacity(lowerCut, upperCut(at: upper))
                guard capacity >= upper - lower + 1 else { continue }
                let window = lower..<upper
                if let current = best,
                   current.window.count < window.count
                    || (current.window.count == window.count && current.capacity >= capacity) {
                    break
                }
                best = (window, capacity)
                break
            }
        }
        return best?.window
    }

    private func capacity(_ lower: OrderKey.Cut, _ upper: OrderKey.Cut) -> Int {
        OrderKey.capacity(between: lower, upper, length: OrderKey.rekeyedLength)
    }

    /// The cut of the key above a window starting at `lower`.
    private func cut(below lower: Int) -> OrderKey.Cut {
        guard lower > 0, let key = keys[lower - 1] else { return .bottom }
        return OrderKey.cut(of: Array(key.utf8))
    }

    /// The cut of the key below a window ending at `upper`; `upper` at most ``farthestEnd(atMost:)``.
    private mutating func upperCut(at upper: Int) -> OrderKey.Cut {
        _ = farthestEnd(atMost: upper)
        return upperCuts[upper - index]
    }

    /// `limit`, or the first index from `index` on with no key (or the column's end) if that comes first.
    private mutating func farthestEnd(atMost limit: Int) -> Int {
        if let openEnd, openEnd <= limit { return openEnd }
        while index + upperCuts.count <= limit {
            let upper = index + upperCuts.count
            guard upper < keys.count, let key = keys[upper] else {
                upperCuts.append(.top)
                openEnd = upper
                return upper
            }
            upperCuts.append(OrderKey.cut(of: Array(key.utf8)))
        }
        return limit
    }

    private static func isSameKey(_ lhs: String?, _ rhs: String?) -> Bool {
        switch (lhs, rhs) {
        case (nil, nil): true
        case (let lhs?, let rhs?): lhs.utf8.elementsEqual(rhs.utf8)
        default: false
        }
    }
}
