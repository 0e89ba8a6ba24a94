import KanbanCore

/// Draws from KanbanCore's ``SeededGenerator`` (SplitMix64), whose output depends only on its seed, so a board of a
/// given size is the same on every machine and with every toolchain (the standard library's `random(in:using:)`
/// makes no such promise, hence ``below(_:)``).
extension SeededGenerator {
    /// A number in `0..<bound`.
    mutating func below(_ bound: Int) -> Int {
        precondition(bound > 0, "an empty range")
        return Int(next().multipliedFullWidth(by: UInt64(bound)).high)
    }

    /// Whether an event of probability `percent`/100 happened.
    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }

    mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
}
