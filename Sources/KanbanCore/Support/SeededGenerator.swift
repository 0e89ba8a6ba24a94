/// Sebastiano Vigna's SplitMix64: a small, fast generator whose output depends on its seed alone, on every machine
/// and with every toolchain, so that a forecast with a seed, a generated board or a failing generated test repeats
/// exactly. (The standard library's `random(in:using:)` makes no such promise across versions; draw with
/// `next() % n` or a multiply-shift instead.)
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator that starts from `seed`.
    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
