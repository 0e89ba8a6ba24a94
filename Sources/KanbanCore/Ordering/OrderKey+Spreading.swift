extension OrderKey {
    /// `count` distinct keys in increasing order strictly between the bounds, as short as possible and evenly
    /// spread, or nil when they don't fit in `maxLength` characters.
    ///
    /// Between two bounds the keys are spread evenly over the gap, using the fewest characters that give
    /// enough room. Towards an open end (nil) they continue in steps from the other bound, as consecutive appends
    /// or prepends would (`n`, `nbbd`, `nbbf`, … after nothing), unless that would exceed `maxLength`. Like
    /// ``between(_:_:)``, every key is made of ``alphabet`` digits, never ends in `b`, and leaves room next to the
    /// bounds.
    ///
    /// - Parameters:
    ///   - count: How many keys to make; 0 gives an empty array.
    ///   - lower: The key just above the first, or nil for none.
    ///   - upper: The key just below the last, or nil for none.
    ///   - maxLength: The most characters a key may have; at most 10 are used.
    /// - Returns: The keys in increasing order, or nil when `count` keys of at most `maxLength` characters
    ///   don't fit between the bounds (always the case when `lower >= upper`).
    /// - Complexity: O(`count` × `maxLength` + n), n the length of the bounds.
    public static func keys(count: Int, between lower: String?, _ upper: String?, maxLength: Int = 6) -> [String]? {
        generatedKeys(
            count: count, between: lower.map { Array($0.utf8) }, upper.map { Array($0.utf8) }, maxLength: maxLength
        )?.map(string)
    }

    /// ``keys(count:between:_:maxLength:)`` on UTF-8 bytes.
    static func generatedKeys(count: Int, between lower: [UInt8]?, _ upper: [UInt8]?, maxLength: Int) -> [[UInt8]]? {
        precondition(count >= 0, "count must not be negative")
        guard count > 0 else { return [] }
        if let lower, let upper, !precedes(lower, upper) { return nil }
        let lowerCut = lower.map(cut) ?? .bottom
        let upperCut = upper.map(cut) ?? .top
        if let sequence = stepSequence(count: count, between: lower, upper, lowerCut, upperCut, maxLength: maxLength) {
            return sequence
        }
        guard maxLength > 0 else { return nil }
        for length in 1...min(maxLength, 10) {
            guard let grid = grid(between: lowerCut, upperCut, length: length), grid.count >= count else { continue }
            return spread(count: count, over: grid).map { unscaled($0, length: length) }
        }
        return nil
    }

    /// Towards an open end, the keys repeated appends (or prepends) would give; nil when an end is closed or a
    /// key would exceed `maxLength`.
    private static func stepSequence(
        count: Int, between lower: [UInt8]?, _ upper: [UInt8]?, _ lowerCut: Cut, _ upperCut: Cut, maxLength: Int
    ) -> [[UInt8]]? {
        var sequence: [[UInt8]] = []
        sequence.reserveCapacity(min(count, 1024))
        switch (lowerCut, upperCut) {
        case (.bottom, .top), (.key, .top):
            var next = key(between: lower, nil)
            while let current = next, current.count <= maxLength {
                sequence.append(current)
                if sequence.count == count { return sequence }
                next = stepped(above: current)
            }
        case (.bottom, .key):
            var next = key(between: nil, upper)
            while let current = next, current.count <= maxLength {
                sequence.append(current)
                if sequence.count == count { return sequence.reversed() }
                next = stepped(below: current)
            }
        default:
            break
        }
        return nil
    }

    /// `count` distinct values of `grid` (which has at least `count`), evenly spaced.
    private static func spread(count: Int, over grid: ClosedRange<Int>) -> [Int] {
        // Value j (1...count) sits at floor(j × size / (count + 1)): distinct because size >= count.
        let size = grid.count
        return (1...count).map { position in
            let product = position.multipliedFullWidth(by: size)
            return grid.lowerBound + (count + 1).dividingFullWidth(product).quotient
        }
    }
}
