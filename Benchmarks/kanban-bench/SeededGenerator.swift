/// SplitMix64: a small, fast generator whose output depends only on its seed, so a board of a given size is
/// the same on every machine and with every toolchain (the standard library's `random(in:using:)` makes no
/// such promise, hence ``below(_:)``).
struct SeededGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// A number in `0..<bound`.
    mutating func below(_ bound: Int) -> Int {
        precondition(bound > 0, "an empty range")
        return Int(next().multipliedFullWidth(by: UInt64(bound)).high)
    }

    /// Whether an event of probability `percent`/100 happened.
    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }

    mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
}
