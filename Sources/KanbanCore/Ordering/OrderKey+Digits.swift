extension OrderKey {
    /// The smallest digit; a generated key never ends with it.
    static let zeroDigit = UInt8(ascii: "0")
    /// The largest digit.
    static let lastDigit = UInt8(ascii: "z")
    /// The key of the first card of an empty column: the integer 1 ("a0", the integer 0, ends in '0').
    static let initialKey: [UInt8] = Array("a1".utf8)

    /// The value (0..<62) of `byte` as a digit of the alphabet, or nil for any other byte.
    @inline(__always)
    static func digitValue(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte) - 0x30
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): Int(byte) - 0x41 + 10
        case UInt8(ascii: "a")...UInt8(ascii: "z"): Int(byte) - 0x61 + 36
        default: nil
        }
    }

    /// The byte of the digit whose value is `value` (0..<62).
    @inline(__always)
    static func digit(_ value: Int) -> UInt8 {
        switch value {
        case 0..<10: UInt8(0x30 + value)
        case 10..<36: UInt8(0x41 + value - 10)
        default: UInt8(0x61 + value - 36)
        }
    }

    /// True when `key` could have been generated: not empty, only digits of the alphabet, not ending in '0'.
    ///
    /// Such keys are dense: between any two of them there is always another, which is why every key
    /// `OrderKey` hands out has this shape.
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
    /// keys strictly above the original *with room between* are exactly those above `k`, and the same below.
    /// So "n0" and "n!" become "n" (nothing fits between "n" and "n0"), "y~" becomes "z", "n:" becomes "nA".
    enum Cut: Equatable {
        /// Below every generatable key ("", "000", "!x").
        case bottom
        /// Stands for this generatable key.
        case key([UInt8])
        /// Above every generatable key ("~", "zz\u{7F}").
        case top
    }

    /// The cut of a key on disk; the same for a lower and an upper bound. - Complexity: O(n).
    static func cut(of key: [UInt8]) -> Cut {
        let end = key.firstIndex { digitValue($0) == nil } ?? key.endIndex
        var prefix = Array(key[..<end])
        guard end < key.endIndex else { return stripped(prefix) }
        let byte = key[end]
        switch byte {
        case ..<zeroDigit:
            // "n!" sorts after "n" and before "n0": nothing fits between it and "n", so it stands where "n" does.
            return stripped(prefix)
        case UInt8(ascii: ":")...UInt8(ascii: "@"):
            prefix.append(UInt8(ascii: "A"))
            return .key(prefix)
        case UInt8(ascii: "[")...UInt8(ascii: "`"):
            prefix.append(UInt8(ascii: "a"))
            return .key(prefix)
        default:
            // Above 'z' (punctuation or any non-ASCII byte): just below the next prefix up.
            guard let bumped = successor(of: prefix) else { return .top }
            return .key(bumped)
        }
    }

    /// `prefix` without trailing '0's, or `.bottom` when nothing is left.
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

    // MARK: - The integer head

    /// The number of digits that follow `head`, or nil when `head` is not a head ('a'...'z' or 'A'...'Z').
    @inline(__always)
    static func integerDigitCount(head: UInt8) -> Int? {
        switch head {
        case UInt8(ascii: "a")...UInt8(ascii: "z"): Int(head - UInt8(ascii: "a")) + 1
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): Int(UInt8(ascii: "Z") - head) + 1
        default: nil
        }
    }

    /// Where the integer part of `key` starts and ends: the first position from which a head and all of its
    /// digits can be read, with only digits before it. Keys we generate start with their integer, or carry it
    /// after a prefix when they had to be made past a key of another scheme ("zzja1" after "zzi").
    /// - Complexity: O(n).
    static func integerRange(in key: [UInt8]) -> Range<Int>? {
        let digitsEnd = key.firstIndex { digitValue($0) == nil } ?? key.endIndex
        for start in 0..<digitsEnd {
            if let count = integerDigitCount(head: key[start]), start + 1 + count <= digitsEnd {
                return start..<(start + 1 + count)
            }
        }
        return nil
    }

    /// The next integer that does not end in '0', or nil past the largest. - Complexity: O(n).
    static func increment(_ integer: ArraySlice<UInt8>) -> [UInt8]? {
        guard var next = stepped(integer, up: true) else { return nil }
        if next.last == zeroDigit {
            guard let again = stepped(next[...], up: true) else { return nil }
            next = again
        }
        return next
    }

    /// The previous integer that does not end in '0', or nil below the smallest. - Complexity: O(n).
    static func decrement(_ integer: ArraySlice<UInt8>) -> [UInt8]? {
        guard var previous = stepped(integer, up: false) else { return nil }
        if previous.last == zeroDigit {
            guard let again = stepped(previous[...], up: false) else { return nil }
            previous = again
        }
        return previous
    }

    /// One step up or down, carrying into the head: "az" + 1 = "b00", "a0" - 1 = "Zz", "Z0" - 1 = "Yzz".
    private static func stepped(_ integer: ArraySlice<UInt8>, up: Bool) -> [UInt8]? {
        guard let head = integer.first else { return nil }
        var digits = Array(integer.dropFirst())
        let (limit, wrapped) = up ? (61, zeroDigit) : (0, lastDigit)
        for position in digits.indices.reversed() {
            guard let value = digitValue(digits[position]) else { return nil }
            if value != limit {
                digits[position] = digit(up ? value + 1 : value - 1)
                return [head] + digits
            }
            digits[position] = wrapped
        }
        // Every digit carried: the head changes and the integer gains or loses a digit.
        switch (head, up) {
        case (UInt8(ascii: "Z"), true): return [UInt8(ascii: "a"), zeroDigit]
        case (UInt8(ascii: "a"), false): return [UInt8(ascii: "Z"), lastDigit]
        case (UInt8(ascii: "z"), true), (UInt8(ascii: "A"), false): return nil
        default:
            let newHead = up ? head + 1 : head - 1
            let isPositive = newHead >= UInt8(ascii: "a")
            if isPositive == up {
                digits.append(wrapped)
            } else if !digits.isEmpty {
                digits.removeLast()
            }
            return [newHead] + digits
        }
    }

    // MARK: - Midpoint

    /// A generatable key strictly between two generatable keys, reading them as base-62 fractions;
    /// `lower` empty is 0, `upper` nil is 1. Shortest where one digit does, else it halves the gap
    /// (the midpoint of the Figma / Rocicorp scheme). Nil only when the arguments are not in order.
    /// - Complexity: O(n).
    static func midpoint(_ lower: ArraySlice<UInt8>, _ upper: ArraySlice<UInt8>?) -> [UInt8]? {
        var lower = lower
        var upper = upper
        var result: [UInt8] = []
        while true {
            if let bound = upper {
                // Copy the common prefix, reading missing digits of `lower` as '0'.
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
            var upperDigit = 62
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

    /// The multiples of 62^-`length` strictly between two cuts, as integers: the keys of at most `length`
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
        case .top: largest = power62(length) - 1
        case .key(let key):
            // A key with more digits than `length` lies above the multiple its first digits spell.
            largest = scaled(key, length: length) - (key.count > length ? 0 : 1)
        }
        return smallest <= largest ? smallest...largest : nil
    }

    /// 62^exponent, for 0...10.
    static func power62(_ exponent: Int) -> Int {
        var result = 1
        for _ in 0..<exponent { result *= 62 }
        return result
    }

    /// The first `length` digits of `key` (padded with '0') as an integer.
    static func scaled(_ key: [UInt8], length: Int) -> Int {
        var value = 0
        for position in 0..<length {
            let digitValue = position < key.count ? (digitValue(key[position]) ?? 0) : 0
            value = value * 62 + digitValue
        }
        return value
    }

    /// The digits of `value` (0 < value < 62^length) at `length` places, without trailing '0's.
    static func unscaled(_ value: Int, length: Int) -> [UInt8] {
        var digits = [UInt8](repeating: zeroDigit, count: length)
        var value = value
        for position in digits.indices.reversed() {
            digits[position] = digit(value % 62)
            value /= 62
        }
        while digits.last == zeroDigit { digits.removeLast() }
        return digits
    }
}
