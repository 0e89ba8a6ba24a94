import Foundation
import Synchronization

/// A regular expression (ICU syntax, through `NSRegularExpression`) compiled once and matched with a budget.
///
/// ICU's matcher backtracks, and some patterns take time exponential in the line's length (`(a+)+b` against
/// `aaaa…c`). Matching asks ICU to report progress (about every ten thousand steps of its matcher) and counts the
/// reports: past ``lineBudget`` on one line, or ``searchBudget`` over a whole search, the match is given up and the
/// matcher is marked exhausted; the search then fails with ``KanbanError/Code/patternTooExpensive``. The budgets
/// count steps, not seconds, so the same pattern on the same board fails the same way on every machine.
final class RegularExpressionMatcher: Sendable {
    /// Progress reports allowed for one line: some 5 million steps of ICU's matcher.
    static let lineBudget = 500
    /// Progress reports allowed for one search: some 200 million steps.
    static let searchBudget = 20_000

    let pattern: String
    private let expression: NSRegularExpression
    private let state = Mutex(State())

    private struct State {
        var reports = 0
        var exhausted: String?
    }

    /// - Throws: ``KanbanError/Code/invalidArgument`` when the pattern does not compile.
    init(_ pattern: String) throws(KanbanError) {
        do {
            expression = try NSRegularExpression(pattern: pattern)
        } catch {
            throw KanbanError(.invalidArgument, "invalid regular expression '\(pattern)'")
        }
        self.pattern = pattern
    }

    /// The ranges where the expression matches `line` (empty when it does not), or nil when the budget ran out
    /// (here, or earlier in the search). `path` names the card for the error.
    func matches(in line: String, of path: String) -> [Range<String.Index>]? {
        if state.withLock({ $0.exhausted != nil }) { return nil }
        var ranges: [Range<String.Index>] = []
        var reports = 0
        var exhausted = false
        expression.enumerateMatches(in: line, options: [.reportProgress], range: NSRange(line.startIndex..., in: line)) { result, _, stop in
            if let result {
                if let range = Range(result.range, in: line) { ranges.append(range) }
                return
            }
            reports += 1
            if reports > Self.lineBudget || reports % 50 == 0 && self.state.withLock({ $0.reports + reports > Self.searchBudget }) {
                exhausted = true
                stop.pointee = true
            }
        }
        state.withLock { state in
            state.reports += reports
            if exhausted && state.exhausted == nil { state.exhausted = path }
        }
        return exhausted ? nil : ranges
    }

    /// The error for a search that ran out of budget, or nil.
    var exhaustion: KanbanError? {
        guard let path = state.withLock({ $0.exhausted }) else { return nil }
        return KanbanError(.patternTooExpensive,
                           "the pattern '\(pattern)' is too expensive: matching it against \(path) took more than the search allows; simplify it (nested repetition such as '(a+)+' makes a regular expression backtrack without end)")
    }
}
