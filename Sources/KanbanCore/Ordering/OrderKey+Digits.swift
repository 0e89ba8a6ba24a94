extension OrderKey {
    /// The smallest digit; a generated key never ends with it.
    static let zeroDigit = UInt8(ascii: "b")
    /// The largest digit.
    static let lastDigit = UInt8(ascii: "z")
    /// How many digits there are: every other letter from `b` to `z`.
    static let base = 13
    /// The key of the first card of an empty column, as in SimpleKanban: the middle digit, a little under a half.
    static let initialKey: [UInt8] = Array("n".utf8)
    /// How many digits a step of appending or prepending has: keys of four letters count up and down in steps of
    /// 13⁻⁴, so that 14,000 appends (or prepends) from `n` stay within four letters.
    static let stepLength = 4

    /// The value (0..<13) of `byte` as a digit of the alphabet, or nil for any other byte (`a`, `c`, `e`, … are not
    /// digits).
    @inline(__always)
    static func digitValue(_ byte: UInt8) -> Int? {
        byte >= zeroDigit && byte <= lastDigit && (byte - zeroDigit) % 2 == 0 ? Int(byte - zeroDigit) / 2 : nil
    }

    /// The byte of the digit whose value is `value` (0..<13).
    @inline(__always)
    static func digit(_ value: Int) -> UInt8 {
        zeroDigit + UInt8(2 * value)
    }

    /// True when `key` could have been generated: not empty, only digits of the alphabet, not ending in 'b'.
    ///
    /// Such keys are dense — between any two of them there is always another — which is why every key `OrderKey`
    /// hands out has this shape.
    static func isValidGenerated(_ key: String) -> Bool {
        guard let last = key.utf8.last, last != zeroDigit else { return false }
        return key.utf8.allSatisfy { digitValue($0) != nil }
    }

    /// Byte-wise comparison, the order of keys on disk.
    @inline(__always)
    static func precedes(_ lhs: some Collection<UInt8>, _ rhs: some Collection<UInt8>) -> Bool {
        lhs.lexicographicallyPrecedes(rhs)
    }

    // MARK: - Cuts

    /// Where a key sits among generatable keys (see ``isValidGenerated(_:)``).
    ///
    /// A key on disk may be anything; `cut(of:)` replaces it by the generatable key `k` such that the generatable
    /// keys strictly above the original *with room between* are those above `k` (all of them, or all but `k`
    /// itself), and the generatable keys below it exactly those below `k`. So "nb", "na" and "n1" become "n"
    /// (nothing fits between "n" and "nb"), "y~" becomes "z", "w" becomes "x" (no key starts with "w"), and keys
    /// of earlier versions such as "a1" or "Zz" stand below every generatable key.
    enum Cut: Equatable {
        /// Below every generatable key ("", "bbb", "a1", "Zz").
        case bottom
        /// Stands for this generatable key.
        case key([UInt8])
        /// Above every generatable key ("~", "zz{").
        case top
    }

    /// The cut of a key on disk; the same for a lower and an upper bound. - Complexity: O(n).
    static func cut(of key: [UInt8]) -> Cut {
        let end = key.firstIndex { digitValue($0) == nil } ?? key.endIndex
        var prefix = Array(key[..<end])
        guard end < key.endIndex else { return stripped(prefix) }
        let byte = key[end]
        if byte < zeroDigit {
            // "n1" sorts after "n" and before "nb": nothing fits between it and "n", so it stands where "n" does.
            return stripped(prefix)
        }
        if byte < lastDigit {
            // A letter between two digits ("w" between "v" and "x"): no key starts with it.
            prefix.append(byte + 1)
            return .key(prefix)
        }
        // Above 'z' (punctuation or any non-ASCII byte): just below the next prefix up.
        guard let bumped = successor(of: prefix) else { return .top }
        return .key(bumped)
    }

    /// `prefix` without trailing 'b's, or `.bottom` when nothing is left.
    private static func stripped(_ prefix: [UInt8]) -> Cut {
        var prefix = prefix
        while prefix.last == zeroDigit { prefix.removeLast() }
        return prefix.isEmpty ? .bottom : .key(prefix)
    }

    /// The shortest digit string above every extension of `prefix`, or nil when `prefix` is all 'z'.
    private static func successor(of prefix: [UInt8]) -> [UInt8]? {
        var prefix = prefix
        while prefix.last == lastDigit { prefix.removeLast() }
        guard let last = prefix.last, let value = digitValue(last) else { return nil }
        prefix[prefix.count - 1] = digit(value + 1)
        return prefix
    }

    // MARK: - Steps

    /// The key one step above the generatable key `key`, reading keys as base-13 fractions: `key` rounded down to
    /// ``stepLength`` digits, plus 13⁻⁴, without trailing 'b's. Past the largest four-letter key ("zzzz") the step is
    /// at the eighth letter ("zzzzbbbd", "zzzzbbbf", …), and past "zzzzzzzz" at the key's own last letter or one
    /// further. - Complexity: O(n).
    static func stepped(above key: [UInt8]) -> [UInt8]? {
        for length in stepLengths(for: key) {
            var digits = Array(key.prefix(length)) + [UInt8](repeating: zeroDigit, count: max(0, length - key.count))
            // Add one at the last place, carrying.
            var position = length - 1
            while position >= 0, digits[position] == lastDigit {
                digits[position] = zeroDigit
                position -= 1
            }
            if position >= 0, let value = digitValue(digits[position]) {
                digits[position] = digit(value + 1)
                return trimmed(digits)
            }
        }
        return nil
    }

    /// The key one step below the generatable key `key`: `key` itself rounded down to ``stepLength`` digits when that
    /// is below it, else one step (13⁻⁴) less, without trailing 'b's; finer past the smallest four-letter key, as
    /// ``stepped(above:)``. - Complexity: O(n).
    static func stepped(below key: [UInt8]) -> [UInt8]? {
        for length in stepLengths(for: key) {
            if key.count > length {
                let rounded = trimmed(Array(key.prefix(length)))
                if !rounded.isEmpty, precedes(rounded, key) { return rounded }
            }
            var digits = Array(key.prefix(length)) + [UInt8](repeating: zeroDigit, count: max(0, length - key.count))
            // Take one at the last place, borrowing.
            var position = length - 1
            while position >= 0, digits[position] == zeroDigit {
                digits[position] = lastDigit
                position -= 1
            }
            if position >= 0, let value = digitValue(digits[position]) {
                digits[position] = digit(value - 1)
                let result = trimmed(digits)
                if !result.isEmpty { return result }
            }
        }
        return nil
    }

    /// The places a step is tried at, in order: the fourth letter, the eighth (another 14,000 steps each way past
    /// the four-letter keys), then `key`'s own last letter and those after it.
    private static func stepLengths(for key: [UInt8]) -> [Int] {
        [stepLength, 2 * stepLength] + Array(max(2 * stepLength + 1, key.count)...(max(2 * stepLength, key.count) + maximumLength))
    }

    /// `digits` without trailing 'b's.
    private static func trimmed(_ digits: [UInt8]) -> [UInt8] {
        var digits = digits
        while digits.last == zeroDigit { digits.removeLast() }
        return digits
    }

    // MARK: - Midpoint

    /// A generatable key strictly between two generatable keys, reading them as base-13 fractions;
    /// `lower` empty is 0, `upper` nil is 1. Shortest where one digit does, else it halves the gap
    /// (the midpoint of the Figma / Rocicorp scheme). Nil only when the arguments are not in order.
    /// - Complexity: O(n).
    static func midpoint(_ lower: ArraySlice<UInt8>, _ upper: ArraySlice<UInt8>?) -> [UInt8]? {
        var lower = lower
        var upper = upper
        var result: [UInt8] = []
        while true {
            if let bound = upper {
                // Copy the common prefix, reading missing digits of `lower` as 'b'.
                var common = 0
                while common < bound.count,
                      (common < lower.count ? lower[lower.startIndex + common] : zeroDigit)
                        == bound[bound.startIndex + common] {
                    common += 1
                }
                guard common < bound.count else { return nil }
                result += bound.prefix(common)
                lower = lower.dropFirst(common)
                upper = bound.dropFirst(common)
            }
            var lowerDigit = 0
            if let first = lower.first {
                guard let value = digitValue(first) else { return nil }
                lowerDigit = value
            }
            var upperDigit = base
            if let bound = upper {
                guard let first = bound.first, let value = digitValue(first) else { return nil }
                upperDigit = value
            }
            guard upperDigit > lowerDigit else { return nil }
            if upperDigit - lowerDigit > 1 {
                result.append(digit((lowerDigit + upperDigit + 1) / 2))
                return result
            }
            if let bound = upper, bound.count > 1, let first = bound.first {
                // Consecutive digits and `upper` goes on: its first digit alone is between.
                result.append(first)
                return result
            }
            // Consecutive digits: keep the lower one and find a key above the rest of `lower`.
            result.append(digit(lowerDigit))
            lower = lower.dropFirst()
            upper = nil
        }
    }

    // MARK: - Capacity

    /// How many generatable keys of at most `length` (1...10) characters lie strictly between two cuts.
    /// - Complexity: O(length).
    static func capacity(between lower: Cut, _ upper: Cut, length: Int) -> Int {
        grid(between: lower, upper, length: length)?.count ?? 0
    }

    /// The multiples of 13^-`length` strictly between two cuts, as integers: the keys of at most `length`
    /// characters that fit. Nil when none do.
    static func grid(between lower: Cut, _ upper: Cut, length: Int) -> ClosedRange<Int>? {
        let length = min(length, 10)
        guard length > 0 else { return nil }
        let smallest: Int
        switch lower {
        case .bottom: smallest = 1
        case .top: return nil
        case .key(let key): smallest = scaled(key, length: length) + 1
        }
        let largest: Int
        switch upper {
        case .bottom: return nil
        case .top: largest = power(length) - 1
        case .key(let key):
            // A key with more digits than `length` lies above the multiple its first digits spell.
            largest = scaled(key, length: length) - (key.count > length ? 0 : 1)
        }
        return smallest <= largest ? smallest...largest : nil
    }

    /// 13^exponent, for 0...10.
    static func power(_ exponent: Int) -> Int {
        var result = 1
        for _ in 0..<exponent { result *= base }
        return result
    }

    /// The first `length` digits of `key` (padded with 'b') as an integer.
    static func scaled(_ key: [UInt8], length: Int) -> Int {
        var value = 0
        for position in 0..<length {
            let digitValue = position < key.count ? (digitValue(key[position]) ?? 0) : 0
            value = value * base + digitValue
        }
        return value
    }

    /// The digits of `value` (0 < value < 13^length) at `length` places, without trailing 'b's.
    static func unscaled(_ value: Int, length: Int) -> [UInt8] {
        var digits = [UInt8](repeating: zeroDigit, count: length)
        var value = value
        for position in digits.indices.reversed() {
            digits[position] = digit(value % base)
            value /= base
        }
        while digits.last == zeroDigit { digits.removeLast() }
        return digits
    }
}
