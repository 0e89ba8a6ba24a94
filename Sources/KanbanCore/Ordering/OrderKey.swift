/// Ordering keys: generation between neighbours and re-keying plans.
///
/// A card's `position:` is an ordering key. Keys compare byte by byte (UTF-8) and a column shows its cards
/// in (key, slug) order, so moving or inserting a card rewrites only that card's file.
///
/// **The scheme.** Keys are made of every other lowercase letter, `b d f h j l n p r t v x z` (``alphabet``),
/// and read as base-13 fractions (`b` is 0, `z` is 12). SimpleKanban's own `LexPosition` makes a key between two
/// keys by averaging their letters one by one, without carry, which goes wrong between some pairs of its own keys
/// (`az` and `ba` give `amm`) and for any key outside `a`–`z`. Two keys of this alphabet, where they first differ,
/// differ by at least two letters, so the app's average there lands strictly between them: the app orders cards
/// correctly between any two keys kanban writes, and before and after them.
///
/// The first card of an empty column gets `n`, as in SimpleKanban. Appending after the last card counts up in
/// steps of 13⁻⁴ (`n`, `nbbd`, `nbbf`, … `nbbz`, `nbd`, `nbdd`, …) and prepending counts down (`lzzz`, `lzzx`, …),
/// so keys have at most four letters for the first 14,000 appends or prepends; past `zzzz` the steps are four
/// letters finer. Inserting between two cards takes the midpoint of their keys, the shortest where one letter does.
///
/// **Never ending in `b`.** Nothing fits between `n` and `nb`, so no key handed out ends with `b`; keys of that
/// shape are dense — there is always room between two of them. No key holds `a`, which SimpleKanban's averaging
/// treats as a missing letter.
///
/// **Foreign keys.** Files hold keys from other tools and from earlier versions of kanban (SimpleKanban writes `n`,
/// `t`, `yj`, `zzi`, and many cards share `n`; kanban once wrote `a1`, `Zz`, `b01`) and keys typed by hand, with any
/// characters. Each bound is first replaced by the key of our shape that stands where it stands: `nb`, `na` and
/// `n1` stand where `n` does, `w` where `x` does (no key of ours starts with `w`), `y~` where `z` does, and `a1`
/// or `Zz` at the bottom. When no key of the alphabet fits at all — equal keys, `n` and `nb`, `a1` and `a2`, or
/// anything below `a1` — ``between(_:_:)`` returns nil and the neighbours are re-keyed, which moves a board of old
/// keys onto the alphabet a few cards at a time.
///
/// **Re-keying.** Inserting again and again at one spot must lengthen keys. ``plan(insertingAt:into:)``
/// takes the generated key while it has at most ``maximumLength`` characters; past that, or when nothing
/// fits, it rewrites the smallest run of neighbours around the insertion point that can be given evenly
/// spread keys of at most ``rekeyedLength`` characters, the new card's key included.
///
/// Every function is deterministic: the same inputs give the same keys, so two people inserting at the same
/// spot on two branches get the same key, which the store's checks report as a duplicate.
public enum OrderKey {
    /// The digits keys are generated from, in increasing byte order: every other letter from `b` to `z`.
    public static let alphabet = "bdfhjlnprtvxz"

    /// The length above which a key is over-long: ``plan(insertingAt:into:)`` re-keys instead of writing it.
    public static let maximumLength: Int = 10

    /// The length every key written by a re-keying fits in.
    public static let rekeyedLength: Int = 7

    /// A key strictly between `lower` and `upper`, or nil when no key of the alphabet fits.
    ///
    /// The result is made of ``alphabet`` digits, never ends in `b`, and leaves room on both sides: another
    /// key always fits between it and either bound. Below the first card it is a step below it (`n` gives `lzzz`),
    /// after the last a step above (`nbbd`), between two cards their midpoint (`n` and `t` give `r`).
    ///
    /// - Parameters:
    ///   - lower: The key just above, or nil to make a key before `upper` (the top of the column).
    ///   - upper: The key just below, or nil to make a key after `lower` (the bottom of the column).
    /// - Returns: The key, or nil when none fits — including `lower >= upper`, which hand-edited files
    ///   produce, and bounds with nothing of the alphabet between them such as `n` and `nb`.
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
            return stepped(below: high)
        case (.key(let low), .top):
            return stepped(above: low)
        case (.key(let low), .key(let high)):
            guard precedes(low, high) else { return nil }
            return midpoint(low[...], high[...])
        }
    }

    /// A key's bytes as a string; generated keys are ASCII.
    static func string(_ bytes: [UInt8]) -> String {
        String(decoding: bytes, as: UTF8.self)
    }
}
