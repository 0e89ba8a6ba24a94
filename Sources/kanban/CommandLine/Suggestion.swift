import KanbanCore

/// Finding the name a person probably meant, for "Did you mean ...?".
enum Suggestion {
    /// The Damerau–Levenshtein distance between `source` and `target` (`"lsit"` → `"list"` is 1).
    static func editDistance(_ source: String, _ target: String) -> Int {
        EditDistance.between(source, target)
    }

    /// The candidate closest to `input`, if any is close enough to be a likely typo.
    ///
    /// Case is ignored. A candidate qualifies when its distance is at most a third of its
    /// length (at least 1, at most 3), or when `input` (two characters or more) is a prefix
    /// of it. The smallest distance wins; ties go to the earlier candidate.
    ///
    /// - Parameters:
    ///   - input: What was typed, without dashes.
    ///   - candidates: The real names, in the order they are declared.
    /// - Returns: The best candidate, as spelled in `candidates`.
    static func closest(to input: String, among candidates: [String]) -> String? {
        let typed = input.lowercased()
        guard !typed.isEmpty else { return nil }
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let name = candidate.lowercased()
            let threshold = min(max(name.count / 3, 1), 3)
            let isPrefix = typed.count >= 2 && name.hasPrefix(typed)
            // The distance is at least the difference in length; skip hopeless candidates
            // before paying O(m × n) for them.
            guard isPrefix || abs(typed.count - name.count) <= threshold else { continue }
            let distance = editDistance(typed, name)
            guard distance <= threshold || isPrefix else { continue }
            if best == nil || distance < best?.distance ?? .max {
                best = (candidate, distance)
            }
        }
        return best?.candidate
    }
}
