import Foundation

/// What `kanban report --check` fails on: cards in progress for longer than the service-level expectation (or a
/// given age), and columns holding more cards than their WIP limit.
public struct FlowCheck: Sendable {
    /// One thing to look at.
    public enum Alert: Sendable, Hashable {
        /// A card in progress longer than `threshold` days (the SLE, unless `isGiven`: an age the caller chose).
        case aging(FlowReport.AgingCard, threshold: Double, isGiven: Bool)
        /// A column over its WIP limit now.
        case overLimit(WIPLimitExcess)

        /// One line: `aging: fix-login has been in progress 23.4 days (In Progress), past 17.0`.
        public var message: String {
            switch self {
            case .aging(let card, let threshold, let isGiven):
                "aging: \(card.flow.history.slug) has been in progress \(Self.days(card.ageDays)) days (now in '\(card.column)'), "
                    + "longer than \(isGiven ? "" : "the SLE of ")\(Self.days(threshold)) days"
            case .overLimit(let excess):
                "over-limit: \(excess.message)"
            }
        }

        private static func days(_ value: Double) -> String { String(format: "%.1f", value) }
    }

    /// The alerts: the cards, the oldest first, then the columns in board order.
    public var alerts: [Alert]
    /// The age past which a card is reported: the given age, else the service-level expectation; nil when neither
    /// is known (no card finished in the period).
    public var threshold: Double?
    /// How many cards are in progress.
    public var inProgressCount: Int
    /// The percentile the SLE stands for.
    public var serviceLevelPercentile: Int

    /// Checks the cards in progress at the report's end, and `cards` (the board as it is) against the limits.
    /// - Parameter maxAge: Days past which a card is reported; the report's SLE when nil.
    public init(report: FlowReport, board: Board, cards: [Card], maxAge: Double? = nil) {
        let threshold = maxAge ?? report.serviceLevel
        let aging = report.aging
        var alerts: [Alert] = []
        if let threshold {
            alerts += aging.filter { $0.ageDays > threshold }.map { Alert.aging($0, threshold: threshold, isGiven: maxAge != nil) }
        }
        var counts: [String: Int] = [:]
        for card in cards { counts[card.column, default: 0] += 1 }
        alerts += board.columnsOverLimit(counts: counts).map(Alert.overLimit)
        self.alerts = alerts
        self.threshold = threshold
        inProgressCount = aging.count
        serviceLevelPercentile = report.serviceLevelPercentile
    }

    /// The line that says all is well (or what could not be checked).
    public var summary: String {
        let ages: String
        if let threshold {
            ages = "\(inProgressCount) card\(inProgressCount == 1 ? "" : "s") in progress, none longer than \(String(format: "%.1f", threshold)) days"
        } else {
            ages = "no card finished in the period, so no SLE to check ages against (give --max-age)"
        }
        return ages + "; no column over its WIP limit"
    }
}
