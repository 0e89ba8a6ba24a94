/// How far apart two names are, for "did you mean" suggestions.
package enum EditDistance {
    /// The Damerau–Levenshtein distance between `source` and `target`: the fewest
    /// insertions, deletions, substitutions and transpositions of adjacent characters that
    /// turn one into the other (`"lsit"` → `"list"` is 1).
    ///
    /// This is the unrestricted distance, in which a transposed pair may be edited further.
    ///
    /// - Complexity: O(*m* × *n*) in the lengths of the strings.
    package static func between(_ source: String, _ target: String) -> Int {
        let a = Array(source)
        let b = Array(target)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }

        let infinity = a.count + b.count
        // Rows and columns are shifted by two: index 0 holds `infinity`, index 1 the empty prefix.
        var table = Array(repeating: Array(repeating: 0, count: b.count + 2), count: a.count + 2)
        table[0][0] = infinity
        for i in 0...a.count {
            table[i + 1][0] = infinity
            table[i + 1][1] = i
        }
        for j in 0...b.count {
            table[0][j + 1] = infinity
            table[1][j + 1] = j
        }

        var lastRowOfCharacter: [Character: Int] = [:]
        for i in 1...a.count {
            var lastMatchingColumn = 0
            for j in 1...b.count {
                let k = lastRowOfCharacter[b[j - 1]] ?? 0
                let l = lastMatchingColumn
                let cost: Int
                if a[i - 1] == b[j - 1] {
                    cost = 0
                    lastMatchingColumn = j
                } else {
                    cost = 1
                }
                table[i + 1][j + 1] = min(
                    table[i][j] + cost,
                    table[i + 1][j] + 1,
                    table[i][j + 1] + 1,
                    table[k][l] + (i - k - 1) + 1 + (j - l - 1))
            }
            lastRowOfCharacter[a[i - 1]] = i
        }
        return table[a.count + 1][b.count + 1]
    }
}
