import Foundation

/// A search over cards, parsed from what a person types.
///
/// Words match a card's title, body or labels, ignoring case and diacritics; every term must match.
/// `"quoted phrases"` match as a whole; `label:bug`, `column:done` and `title:word` restrict a term to one part of
/// the card; `claimed:NAME` (`claimed:*`: anyone) and `ready:` ask where it stands for agents (``WorkQueue``); a
/// leading `-` negates any term (`-label:wontfix`). Alternatively a regular expression
/// (``init(regularExpression:)``) is matched against the title and each line of the body.
public struct CardQuery: Sendable {
    /// One condition of the query.
    public struct Term: Sendable, Hashable {
        /// What part of the card a term looks at.
        public enum Field: String, Sendable, Hashable {
            /// Title, body or labels.
            case any
            /// A label id, matched whole.
            case label
            /// The column id, matched whole.
            case column
            /// The title only.
            case title
        }
        /// Where the term looks.
        public var field: Field
        /// The text, as typed (without quotes or the field prefix).
        public var text: String
        /// Whether the card must not match.
        public var isNegated: Bool
        var folded: [UInt8]
    }

    /// A condition on where a card stands for agents (``WorkQueue``), which the search checks after the text terms.
    public struct WorkTerm: Sendable, Hashable {
        /// What the term asks.
        public enum Kind: Sendable, Hashable {
            /// `claimed:NAME`: held by NAME (ignoring case and accents); `claimed:*` by anyone.
            case claimed(String)
            /// `ready:`: may be started (``WorkQueue/ready``).
            case ready
        }
        /// What the term asks.
        public var kind: Kind
        /// Whether the card must not match (`-ready:`, or `ready:no`).
        public var isNegated: Bool
    }

    /// The terms, all of which must hold.
    public private(set) var terms: [Term]
    /// The conditions on claims and readiness, all of which must hold too.
    public private(set) var workTerms: [WorkTerm] = []
    /// What matching on bytes needs from the terms, worked out once rather than for each card.
    private(set) var byteLevel = ByteLevelTerms([])
    private(set) var pattern: String?
    /// The compiled pattern, and what matching it has cost.
    private var expression: RegularExpressionMatcher?

    /// Parses a query such as `login -label:wontfix "error page" column:todo`.
    /// - Throws: ``KanbanError/Code/invalidArgument`` for an unterminated quote or an empty query.
    public init(parsing query: String) throws(KanbanError) {
        terms = []
        var index = query.startIndex
        while index < query.endIndex {
            while index < query.endIndex, query[index].isWhitespace { index = query.index(after: index) }
            guard index < query.endIndex else { break }
            var negated = false
            if query[index] == "-" {
                negated = true
                index = query.index(after: index)
            }
            if let (term, end) = try Self.workTerm(in: query, at: index, negated: negated) {
                workTerms.append(term)
                index = end
                continue
            }
            var field = Term.Field.any
            for candidate in [Term.Field.label, .column, .title] {
                let prefix = candidate.rawValue + ":"
                if query[index...].lowercased().hasPrefix(prefix) {
                    field = candidate
                    index = query.index(index, offsetBy: prefix.count)
                    break
                }
            }
            var text = ""
            let termStart = query.distance(from: query.startIndex, to: index) + 1
            let isQuoted = index < query.endIndex && query[index] == "\""
            if index < query.endIndex, query[index] == "\"" {
                let start = query.index(after: index)
                guard let end = query[start...].firstIndex(of: "\"") else {
                    throw KanbanError(.invalidArgument, "the quote opened at character \(query.distance(from: query.startIndex, to: index) + 1) is not closed")
                }
                text = String(query[start..<end])
                index = query.index(after: end)
            } else {
                let end = query[index...].firstIndex(where: \.isWhitespace) ?? query.endIndex
                text = String(query[index..<end])
                index = end
            }
            if text.isEmpty {
                if isQuoted {
                    throw KanbanError(.invalidArgument, "the phrase at character \(termStart) is empty: put words between the quotes (\"error page\"), or leave it out")
                }
                if negated && field == .any { continue }
                let example = ["label": "label:bug", "column": "column:done", "title": "title:login"][field.rawValue] ?? "-wontfix"
                throw KanbanError(.invalidArgument, "'\(field == .any ? "-" : field.rawValue + ":")' needs a word after it, such as '\(example)'")
            }
            terms.append(Term(field: field, text: text, isNegated: negated, folded: FoldedText(text).bytes))
        }
        guard !terms.isEmpty || !workTerms.isEmpty else { throw KanbanError(.invalidArgument, "the search query is empty") }
        byteLevel = ByteLevelTerms(terms)
    }

    /// The `claimed:NAME` or `ready:` term at `index`, and where it ends; nil when the text there is another term.
    private static func workTerm(in query: String, at index: String.Index, negated: Bool) throws(KanbanError) -> (WorkTerm, String.Index)? {
        let rest = query[index...]
        let lowered = rest.prefix(8).lowercased()
        let isClaimed = lowered.hasPrefix("claimed:")
        guard isClaimed || lowered.hasPrefix("ready:") else { return nil }
        let start = query.index(index, offsetBy: isClaimed ? 8 : 6)
        var end = query[start...].firstIndex(where: \.isWhitespace) ?? query.endIndex
        var value = String(query[start..<end])
        if value.hasPrefix("\"") {
            let open = query.index(after: start)
            guard let close = query[open...].firstIndex(of: "\"") else {
                throw KanbanError(.invalidArgument, "the quote opened at character \(query.distance(from: query.startIndex, to: start) + 1) is not closed")
            }
            value = String(query[open..<close])
            end = query.index(after: close)
        }
        if isClaimed {
            guard !value.isEmpty else {
                throw KanbanError(.invalidArgument, "'claimed:' needs a name after it, such as 'claimed:agent-1' (or 'claimed:*' for anyone)")
            }
            return (WorkTerm(kind: .claimed(value), isNegated: negated), end)
        }
        switch value.lowercased() {
        case "", "yes", "true": return (WorkTerm(kind: .ready, isNegated: negated), end)
        case "no", "false": return (WorkTerm(kind: .ready, isNegated: !negated), end)
        default: throw KanbanError(.invalidArgument, "'ready:' takes nothing, 'yes' or 'no' after it, not '\(value)'")
        }
    }

    /// Whether `card` meets the query's claim and readiness terms; `queue` is needed only for `ready:`
    /// (``needsWorkQueue``), and a card is not ready without one.
    public func matchesWork(_ card: Card, in queue: WorkQueue?) -> Bool {
        workTerms.allSatisfy { term in
            let holds: Bool
            switch term.kind {
            case .claimed(let name):
                if let holder = card.claim?.holder {
                    holds = name == "*" || FoldedText(holder).bytes == FoldedText(name).bytes
                } else {
                    holds = false
                }
            case .ready:
                holds = queue?.readiness(of: card) == .ready
            }
            return holds != term.isNegated
        }
    }

    /// Whether matching needs the board's ``WorkQueue`` (a `ready:` term).
    public var needsWorkQueue: Bool {
        workTerms.contains { $0.kind == .ready }
    }

    /// A query that matches cards whose title or a body line matches the regular expression (ICU syntax).
    ///
    /// Matching has a budget: a pattern that backtracks without end on some line (`(a+)+b` against a long run of
    /// `a`s) ends the search with ``KanbanError/Code/patternTooExpensive`` instead of running for ever.
    /// - Throws: ``KanbanError/Code/invalidArgument`` when the pattern does not compile.
    public init(regularExpression pattern: String) throws(KanbanError) {
        expression = try RegularExpressionMatcher(pattern)
        terms = []
        self.pattern = pattern
    }

    /// The error for a search whose regular expression ran out of budget, or nil when none did.
    public var budgetError: KanbanError? {
        expression?.exhaustion
    }

    /// Whether `card` (with `body`) matches, and where: the first matching line for display.
    public func match(_ card: Card, body: String) -> SearchMatch? {
        if let expression {
            return regexMatch(card, body: body, expression: expression)
        }
        let title = FoldedText(card.title)
        let foldedBody = FoldedText(body)
        for term in terms {
            let holds: Bool
            switch term.field {
            case .label: holds = card.labels.contains { FoldedText($0).bytes == term.folded }
            case .column: holds = FoldedText(card.column).bytes == term.folded
            case .title: holds = title.contains(term.folded)
            case .any:
                holds = title.contains(term.folded) || foldedBody.contains(term.folded)
                    || card.labels.contains { FoldedText($0).contains(term.folded) }
            }
            if holds == term.isNegated { return nil }
        }
        return firstLine(card, body: body)
    }

    /// The line to show: the first line of the title or body that holds a positive word, with every such word's range.
    private func firstLine(_ card: Card, body: String) -> SearchMatch {
        let needles = terms.filter { !$0.isNegated && ($0.field == .any || $0.field == .title) }.map(\.folded)
        var lineNumber = 0
        for line in [card.title] + body.lines().map(String.init) {
            let folded = FoldedText(line, keepOrigins: true)
            var ranges: [Range<String.Index>] = []
            for needle in needles where !needle.isEmpty {
                var start = 0
                while let found = folded.firstRange(of: needle, from: start) {
                    ranges.append(original(found, in: line, folded: folded))
                    start = found.upperBound
                }
            }
            if !ranges.isEmpty {
                return SearchMatch(line: line, lineNumber: lineNumber == 0 ? nil : lineNumber, ranges: Self.merged(ranges))
            }
            lineNumber += 1
        }
        return SearchMatch(line: card.title, lineNumber: nil, ranges: [])
    }

    private func regexMatch(_ card: Card, body: String, expression: RegularExpressionMatcher) -> SearchMatch? {
        var lineNumber = 0
        for line in [card.title] + body.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            guard let ranges = expression.matches(in: line, of: card.path) else { return nil }
            if !ranges.isEmpty {
                return SearchMatch(line: line, lineNumber: lineNumber == 0 ? nil : lineNumber, ranges: ranges.filter { !$0.isEmpty })
            }
            lineNumber += 1
        }
        return nil
    }

    private func original(_ range: Range<Int>, in line: String, folded: FoldedText) -> Range<String.Index> {
        let utf8 = line.utf8
        let start = folded.origins[range.lowerBound]
        var end = utf8.count
        if range.upperBound < folded.origins.count { end = folded.origins[range.upperBound] }
        if end <= start, let next = folded.origins[range.lowerBound...].first(where: { $0 > start }) { end = next }
        let lower = utf8.index(utf8.startIndex, offsetBy: start)
        let upper = utf8.index(utf8.startIndex, offsetBy: max(start, end))
        return (lower.samePosition(in: line) ?? line.startIndex)..<(upper.samePosition(in: line) ?? line.endIndex)
    }

    /// `ranges` sorted, with overlapping or touching ones joined.
    static func merged<Bound: Comparable>(_ ranges: [Range<Bound>]) -> [Range<Bound>] {
        // Usually one word found once, or words apart in order: nothing to do.
        if zip(ranges, ranges.dropFirst()).allSatisfy({ $0.upperBound < $1.lowerBound }) { return ranges }
        var result: [Range<Bound>] = []
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = result.last, range.lowerBound <= last.upperBound {
                result[result.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                result.append(range)
            }
        }
        return result
    }
}

/// Where a card matched a query: the line to show and the matched ranges in it.
public struct SearchMatch: Sendable, Hashable {
    /// The title or a body line.
    public var line: String
    /// The 1-based body line, or nil for the title.
    public var lineNumber: Int?
    /// The matched parts of ``line``, in order, not overlapping.
    public var ranges: [Range<String.Index>]
}

/// A card that matched a search, with where it matched.
public struct SearchHit: Sendable {
    /// The card.
    public var card: Card
    /// The line to show.
    public var match: SearchMatch
}

extension BoardStore {
    /// The cards matching `query`, in board order, and the files that might match but could not be read.
    ///
    /// Runs on every core and reads only what it must: a file whose bytes show it cannot match (it lacks a word
    /// the query needs) is not parsed, so a file that cannot be parsed is reported only when it might match.
    /// The cards of the hits carry no body; ``body(of:)`` reads it.
    /// - Throws: ``KanbanError/Code/labelNotFound`` for a `label:` term (negated or not) that names no label the board
    ///   declares or a card carries, as `kanban list --label` refuses one; ``KanbanError/Code/patternTooExpensive``
    ///   for a regular expression that ran out of budget.
    public func search(_ query: CardQuery, in scope: CardScope = .active) throws(KanbanError) -> (hits: [SearchHit], diagnostics: [Diagnostic]) {
        let root = try openRoot()
        settleIfUnlocked(root)
        let board = try readBoardFile(in: root).board
        var scan = CardScan<SearchMatch, SearchHit>(
            root: root, includeBodies: false, labels: nil, archivedColumns: nil,
            prefilter: { file, bytes in query.mightMatch(file, bytes: bytes) },
            inspect: { card, bytes, bodyOffset in query.match(card, bytes: bytes, bodyOffset: bodyOffset) },
            assemble: { card, match in SearchHit(card: card, match: match) })
        // A query that must read the body of every card its title does not match (a regular expression, or words
        // that may be in the body with no title, label or column term to rule cards out) gains nothing from the
        // index: each card's entry would be made only to send its file to be read. It reads the files, as grep does.
        if !query.readsEveryBody {
            scan.indexing = indexing { card in
                switch query.matchWithoutBody(card) {
                case .some(.some(let match)): return .keep(match)
                case .some(nil): return .drop
                case nil: return .read
                }
            }
            scan.indexing?.quickLook = { title in query.mightMatch(title: title) }
        }
        var (hits, diagnostics, _, _) = try load(board: board, scope: scope, columns: nil, scan: scan, root: root)
        if let error = query.budgetError { throw error }
        if !query.workTerms.isEmpty {
            let queue = query.needsWorkQueue ? try? workQueue() : nil
            hits.removeAll { !query.matchesWork($0.card, in: queue) }
        }
        try requireLabels(of: query, in: board, scope: scope, hits: hits)
        return (hits, diagnostics)
    }

    /// Checks the `label:` terms of `query`, as `kanban list --label` checks its labels: each must name a label
    /// `board.md` declares or a card in `scope` carries (compared as the search compares, ignoring case and accents).
    /// A positive term that matched is carried by a card; only the others make the store read the cards' labels.
    /// - Throws: ``KanbanError/Code/labelNotFound`` for the first that names none, with the declared ids as candidates.
    private func requireLabels(of query: CardQuery, in board: Board, scope: CardScope, hits: [SearchHit]) throws(KanbanError) {
        let declared = Set(board.labels.map { FoldedText($0.id).bytes })
        let unknown = query.terms.filter { term in
            term.field == .label && !declared.contains(term.folded) && (term.isNegated || hits.isEmpty)
        }
        guard !unknown.isEmpty else { return }
        var carried: Set<[UInt8]> = []
        for card in try load(scope).cards {
            for label in card.labels { carried.insert(FoldedText(label).bytes) }
        }
        if let term = unknown.first(where: { !carried.contains($0.folded) }) {
            throw board.labelNotFound(term.text)
        }
    }
}
