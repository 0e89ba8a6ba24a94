import Foundation

extension FlowReport.Statistics {
    /// The smallest value at least `percent` % of the values are at or below (nearest rank): the 85th percentile of
    /// cycle times is the time 85 % of the cards finished within.
    /// - Parameter percent: From 1 to 100.
    public func percentile(_ percent: Int) -> Double {
        Self.nearestRank(percent, of: values)
    }

    /// The nearest-rank percentile of `sorted` (ascending, not empty).
    static func nearestRank<T>(_ percent: Int, of sorted: [T]) -> T {
        let rank = (percent * sorted.count + 99) / 100
        return sorted[max(0, min(sorted.count, rank) - 1)]
    }
}

extension FlowReport {
    /// The percentiles every chart and forecast shows.
    public static let percentiles = [50, 70, 85, 95]

    /// A card in progress at the end of the period, and how its age stands against the cycle times of the cards
    /// finished in the period.
    public struct AgingCard: Sendable, Hashable {
        /// The card.
        public var flow: CardFlow
        /// Its column.
        public var column: String
        /// Days since it started.
        public var ageDays: Double
        /// The highest of ``FlowReport/percentiles`` whose cycle time its age has reached; nil below the 50th, or when
        /// no card finished.
        public var percentileReached: Int?
        /// Whether it is older than the service-level expectation.
        public var isPastServiceLevel: Bool
    }

    /// The service-level expectation: the cycle time within which ``Options/serviceLevelPercentile`` % of the
    /// finished cards finished; nil when none did.
    public var serviceLevel: Double? {
        cycleTime?.percentile(serviceLevelPercentile)
    }

    /// Each card in progress with its age, the oldest first.
    public var aging: [AgingCard] {
        let lines = cycleTime.map { statistics in Self.percentiles.map { ($0, statistics.percentile($0)) } } ?? []
        let limit = serviceLevel
        return inProgress.map { flow in
            let age = until.timeIntervalSince(flow.started ?? until) / Self.day
            let reached = lines.last { age >= $0.1 }?.0
            return AgingCard(flow: flow, column: flow.place.column ?? "", ageDays: age, percentileReached: reached,
                             isPastServiceLevel: limit.map { age > $0 } ?? false)
        }
    }

    /// The cards one person or agent finished, and how long they took.
    public struct Worker: Sendable, Hashable {
        /// The agent's name (a `Kanban-Agent:` trailer), else the person's (the commit's author).
        public var name: String
        /// Whether the name is an agent's.
        public var isAgent: Bool
        /// Cycle times of the cards they started that finished in the period.
        public var cycleTime: Statistics
    }

    /// Cycle time by who started each card (the author of the commit that moved it into the start column): agents
    /// and people apart, the most cards first. Cards whose start has no known author are left out.
    public var workers: [Worker] {
        var times: [String: (isAgent: Bool, days: [Double])] = [:]
        for flow in finished {
            guard let author = flow.startedBy, let days = flow.cycleTimeDays else { continue }
            let key = (author.agent != nil ? "agent:" : "person:") + author.worker
            times[key, default: (author.agent != nil, [])].days.append(days)
        }
        return times.compactMap { key, value in
            Statistics(value.days).map { Worker(name: String(key.drop { $0 != ":" }.dropFirst()), isAgent: value.isAgent, cycleTime: $0) }
        }.sorted { first, second in
            if first.cycleTime.count != second.cycleTime.count { return first.cycleTime.count > second.cycleTime.count }
            if first.isAgent != second.isAgent { return !first.isAgent }
            return first.name < second.name
        }
    }

    /// The indices in ``columns`` of the columns where cards are in progress: from the start column up to (not
    /// including) the done column, and columns the board no longer has.
    public var inProgressColumns: [Int] {
        let start = columns.firstIndex { $0.id == startColumn } ?? 0
        let done = columns.firstIndex { $0.id == doneColumn } ?? columns.count
        return columns.indices.filter { ($0 >= start && $0 < done) || $0 >= boardColumnCount }
    }

    /// The cards in progress at the end of each day of the period (the WIP run chart).
    public var workInProgressByDay: [Int] {
        let indices = inProgressColumns
        return days.map { day in indices.reduce(0) { $0 + day.counts[$1] } }
    }

    /// For each column with a WIP limit, the days of the period that ended with more cards in it than its limit.
    public var daysOverLimit: [String: Int] {
        var result: [String: Int] = [:]
        for (index, column) in columns.enumerated() {
            guard let limit = column.wipLimit else { continue }
            result[column.id] = days.count { $0.counts[index] > limit }
        }
        return result
    }

    /// The cards finished on each day of the period (UTC), the first day first.
    public var finishedByDay: [Int] {
        guard let first = days.first?.date else { return [] }
        var counts = Array(repeating: 0, count: days.count)
        for flow in finished {
            guard let date = flow.finished else { continue }
            let index = Int((date.timeIntervalSince(first) / Self.day).rounded(.down))
            if counts.indices.contains(index) { counts[index] += 1 }
        }
        return counts
    }

    /// How many days of the period saw 0, 1, 2... cards finished: the throughput histogram.
    public var throughputHistogram: [Int] {
        let byDay = finishedByDay
        var histogram = Array(repeating: 0, count: (byDay.max() ?? 0) + 1)
        for count in byDay { histogram[count] += 1 }
        return histogram
    }

    /// How many finished cards took under 1 day, 1 to 2 days, and so on: the cycle-time histogram.
    public var cycleTimeHistogram: [Int] {
        let days = finished.compactMap(\.cycleTimeDays).map { Int($0.rounded(.down)) }
        var histogram = Array(repeating: 0, count: (days.max() ?? -1) + 1)
        for day in days { histogram[day] += 1 }
        return histogram
    }

    /// Flow efficiency: the share of the finished cards' time in progress they spent in columns that are not queues
    /// (board.md marks queues with `queue: true`). Nil when no column in progress is a queue, or no card finished.
    public var flowEfficiency: Double? {
        let inProgress = Set(inProgressColumns.map { columns[$0].id })
        let queues = Set(columns.filter(\.isQueue).map(\.id)).intersection(inProgress)
        guard !queues.isEmpty, !finished.isEmpty else { return nil }
        var active = 0.0
        var total = 0.0
        for flow in finished {
            for (column, days) in flow.timeInColumn where inProgress.contains(column) {
                total += days
                if !queues.contains(column) { active += days }
            }
        }
        return total > 0 ? active / total : nil
    }
}
