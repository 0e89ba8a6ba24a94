/// Ordering keys: generation between neighbours and re-keying plans.
///
/// A card's `position:` is an ordering key. Keys compare byte by byte (UTF-8) and a column shows its cards
/// in (key, slug) order, so moving or inserting a card rewrites only that card's file.
///
/// **The scheme.** Keys are made of the 62 digits `0-9A-Za-z` (``alphabet``, in ASCII order) and read like
/// the fractional indices popularised by Figma and Rocicorp: an integer part, then an optional fraction.
/// The integer's first character, its *head*, says how many digits follow: `a` one, `b` two, … `z` 26 for
/// non-negative integers; `Z` one, `Y` two, … `A` 26 for negative ones. So `Zz` < `a1` < `az` < `b01`, and
/// appending or prepending only counts the integer up or down: keys grow by one character each time the
/// integer gains a digit, which keeps 10,000 appends (or prepends) within 4 characters. Inserting between
/// two keys takes the next integer when it fits, else the midpoint of the two read as base-62 fractions,
/// which costs about one character per six halvings. The first key of an empty column is `a1`.
///
/// **Never ending in `0`.** Nothing fits between `n` and `n0`, so no key handed out ends with the smallest
/// digit: integers that would end in `0` are skipped (`az` + 1 is `b01`, and `a1` − 1 is `Zz`), and fractions
/// never end in `0`. Keys of that shape are dense — there is always room between two of them.
///
/// **Foreign keys.** Files hold keys from other tools (SimpleKanban writes `n`, `t`, `yj`, `zzi`, and many
/// cards share `n`) and keys typed by hand, with any characters. Each bound is first replaced by the key of
/// our shape that stands where it stands: `n0` and `n!` stand where `n` does, `y~` where `z` does. Past a
/// foreign key with no integer of its own, the integer goes after a prefix: after `zzi` comes `zzja1`,
/// then `zzja2`; before `1` comes `0a1`, then `0Zz`. When no key of the alphabet fits at all — equal
/// keys, `n` and `n0`, `n-a` and `n-b`, or nothing below `0` — ``between(_:_:)`` returns nil.
///
/// **Re-keying.** Inserting again and again at one spot must lengthen keys. ``plan(insertingAt:into:)``
/// takes the generated key while it has at most ``maximumLength`` characters; past that, or when nothing
/// fits, it rewrites the smallest run of neighbours around the insertion point that can be given evenly
/// spread keys of at most ``rekeyedLength`` characters, the new card's key included.
///
/// Every function is deterministic: the same inputs give the same keys, so two people inserting at the same
/// spot on two branches get the same key, which the store's checks report as a duplicate.
public enum OrderKey {
    /// The digits keys are generated from, in increasing byte order: `0-9A-Za-z`.
    public static let alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

    /// The length above which a key is over-long: ``plan(insertingAt:into:)`` re-keys instead of writing it.
    public static let maximumLength: Int = 10

    /// The length every key written by a re-keying fits in.
    public static let rekeyedLength: Int = 6

    /// A key strictly between `lower` and `upper`, or nil when no key of the alphabet fits.
    ///
    /// The result is made of ``alphabet`` digits, never ends in `0`, and leaves room on both sides: another
    /// key always fits between it and either bound.
    ///
    /// - Parameters:
    ///   - lower: The key just above, or nil to make a key before `upper` (the top of the column).
    ///   - upper: The key just below, or nil to make a key after `lower` (the bottom of the column).
    /// - Returns: The key, or nil when none fits — including `lower >= upper`, which hand-edited files
    ///   produce, and bounds with nothing of the alphabet between them such as `n` and `n0`.
    /// - Complexity: O(n) in the length of the keys.
    public static func between(_ lower: String?, _ upper: String?) -> String? {
        key(between: lower.map { Array($0.utf8) }, upper.map { Array($0.utf8) }).map(string)
    }

    /// True when `key` is longer than ``maximumLength`` bytes, which the store's checks report as
    /// an over-long key.
    ///
    /// - Complexity: O(1) for native strings.
    public static func isOverLong(_ key: String) -> Bool {
        key.utf8.count > maximumLength
    }

    // MARK: - Generation on bytes

    /// ``between(_:_:)`` on UTF-8 bytes. - Complexity: O(n).
    static func key(between lower: [UInt8]?, _ upper: [UInt8]?) -> [UInt8]? {
        if let lower, let upper, !precedes(lower, upper) { return nil }
        switch (lower.map(cut) ?? .bottom, upper.map(cut) ?? .top) {
        case (.top, _), (_, .bottom):
            return nil
        case (.bottom, .top):
            return initialKey
        case (.bottom, .key(let high)):
            return key(before: upper ?? high, cut: high)
        case (.key(let low), .top):
            return key(after: lower ?? low, cut: low)
        case (.key(let low), .key(let high)):
            guard precedes(low, high) else { return nil }
            // The next integer when it fits, as Rocicorp does; else the midpoint.
            for original in candidates(lower, cut: low) {
                if let next = incremented(original), precedes(low, next), precedes(next, high) {
                    return next
                }
            }
            return midpoint(low[...], high[...])
        }
    }

    /// A key after `original`, whose cut is the generatable key `low`. - Complexity: O(n).
    static func key(after original: [UInt8], cut low: [UInt8]) -> [UInt8]? {
        for candidate in candidates(original, cut: low) {
            if let next = incremented(candidate), precedes(low, next) { return next }
        }
        if precedes(low, initialKey) { return initialKey }
        // No integer to count up from: start one after a prefix that is above `low`, as short as possible.
        var prefix = low
        if let position = low.firstIndex(where: { $0 != lastDigit }), let value = digitValue(low[position]) {
            prefix = Array(low[..<position])
            prefix.append(digit(value + 1))
        }
        return prefix + initialKey
    }

    /// A key before `original`, whose cut is the generatable key `high`. - Complexity: O(n).
    static func key(before original: [UInt8], cut high: [UInt8]) -> [UInt8]? {
        for candidate in candidates(original, cut: high) {
            guard let range = integerRange(in: candidate) else { continue }
            let prefix = candidate[..<range.lowerBound]
            // A key with a fraction has its own integer below it, unless that ends in '0'.
            if range.upperBound < candidate.count, candidate[range.upperBound - 1] != zeroDigit {
                let integer = Array(candidate[..<range.upperBound])
                if precedes(integer, high) { return integer }
            }
            if let previous = decrement(candidate[range]), precedes(prefix + previous, high) {
                return prefix + previous
            }
        }
        if precedes(initialKey, high) { return initialKey }
        // No integer to count down from: start one after a prefix that is below `high`.
        guard let position = high.firstIndex(where: { $0 != zeroDigit }),
              let value = digitValue(high[position]), value > 0
        else { return nil }
        var prefix = Array(high[..<position])
        prefix.append(digit(value - 1))
        return prefix + initialKey
    }

    /// The key as written, then its cut if that differs: "a0" counts up to "a1", its cut "a" has no integer.
    private static func candidates(_ original: [UInt8]?, cut: [UInt8]) -> [[UInt8]] {
        guard let original, original != cut else { return [cut] }
        return [original, cut]
    }

    /// `key` with its integer part counted up, or nil when it has none or it is the largest.
    static func incremented(_ key: [UInt8]) -> [UInt8]? {
        guard let range = integerRange(in: key), let next = increment(key[range]) else { return nil }
        return Array(key[..<range.lowerBound]) + next
    }

    /// A key's bytes as a string; generated keys are ASCII.
    static func string(_ bytes: [UInt8]) -> String {
        String(decoding: bytes, as: UTF8.self)
    }
}
