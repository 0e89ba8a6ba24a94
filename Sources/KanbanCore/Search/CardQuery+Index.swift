extension CardQuery {
    /// Whether the query reads the body of nearly every card: a regular expression, or a word that may be in the body
    /// with no positive term on the title, a label or the column, which the index could decide a card on.
    var readsEveryBody: Bool {
        pattern != nil || (terms.contains { $0.field == .any && !$0.isNegated } && !terms.contains { $0.field != .any && !$0.isNegated })
    }

    /// What the query says about `card` without its body: a match when the body cannot change it, no match when
    /// the body cannot make one, nil when the body must be read. A regular expression always reads it.
    ///
    /// Terms on labels, the column and the title are decided here. A word that may be in the body decides only
    /// when the title holds a word of the query (the title is then the line a match shows, body or not) and no
    /// negated word could be in the body.
    func matchWithoutBody(_ card: Card) -> SearchMatch?? {
        guard pattern == nil else { return nil }
        // An ASCII card is matched on its bytes, its title folded on the fly (no array made per card).
        let match = asciiMatch(card, body: UnsafeBufferPointer(start: nil, count: 0)) ?? match(card, body: "")
        if !terms.contains(where: { $0.field == .any }) { return .some(match) }
        guard let match, !terms.contains(where: { $0.field == .any && $0.isNegated }), !match.ranges.isEmpty else { return nil }
        return .some(match)
    }
}
