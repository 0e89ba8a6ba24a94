import Foundation

/// How work flowed over a board, measured from its history: lead and cycle times, throughput, work in progress, and
/// the daily counts of a cumulative flow diagram.
///
/// A card is *started* when it first enters the start column or one after it (by default: when it first leaves the
/// board's first column), and *finished* when it enters the done column or one after it (by default the last column)
/// and stays there or is archived from there; a card moved back out is open again, and finishes when it returns.
/// Lead time runs from the card's first commit to its finish, cycle time from its start to its finish. A deleted card
/// counts where it was until the delete, and never as finished.
///
/// ```swift
/// let report = try FlowReport(board: store.loadBoard(), cards: provider.cardHistories(), options: FlowReport.Options(until: .now))
/// print(report.finished.count, report.cycleTime?.median ?? 0)
/// ```
public struct FlowReport: Sendable {
    /// What to measure.
    public struct Options: Sendable, Hashable {
        /// The start of the period; nil for the first commit.
        public var since: Date?
        /// The end of the period: later commits are left out, and cards are as they were then.
        public var until: Date
        /// The column whose entry starts a card; nil for the board's second column.
        public var startColumn: String?
        /// The column whose entry finishes a card; nil for the board's last column.
        public var doneColumn: String?
        /// Only cards with all these labels.
        public var labels: [String]
        /// The percentile of cycle times that makes the service-level expectation (85: the time 85 % of the cards
        /// finished within), from 1 to 100.
        public var serviceLevelPercentile: Int

        /// Creates options.
        public init(since: Date? = nil, until: Date, startColumn: String? = nil, doneColumn: String? = nil, labels: [String] = [],
                    serviceLevelPercentile: Int = 85) {
            self.since = since
            self.until = until
            self.startColumn = startColumn
            self.doneColumn = doneColumn
            self.labels = labels
            self.serviceLevelPercentile = serviceLevelPercentile
        }

        /// Throws unless the columns and labels these options name are on `board`: the one check every surface makes
        /// (the command line, the page's Report view) before it reads any history.
        /// - Parameter option: How the surface names an option in its message (`--start` on the command line).
        public func check(against board: Board, option: (String) -> String = { $0 }) throws(KanbanError) {
            for (name, id) in [("start", startColumn), ("done", doneColumn)] {
                if let id, board.column(withID: id) == nil {
                    throw KanbanError(.columnNotFound, "no column '\(id)' on the board (\(option(name)))", candidates: board.columns.map(\.id))
                }
            }
            for label in labels where board.label(withID: label) == nil {
                throw KanbanError(.labelNotFound, "no label '\(label)' on the board", candidates: board.labels.map(\.id))
            }
        }
    }

    /// Median, 85th percentile (nearest rank) and mean of a set of durations, in days, and the values themselves.
    public struct Statistics: Sendable, Hashable {
        /// The values, smallest first.
        public var values: [Double]
        /// How many values.
        public var count: Int
        /// The middle value (the mean of the two middle ones for an even count).
        public var median: Double
        /// The smallest value at least 85 % of the values are at or below (nearest rank).
        public var percentile85: Double
        /// The mean.
        public var mean: Double

        /// The statistics of `values`; nil when there are none.
        public init?(_ values: [Double]) {
            guard !values.isEmpty else { return nil }
            let sorted = values.sorted()
            self.values = sorted
            count = sorted.count
            median = sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
            let rank = Int((0.85 * Double(sorted.count)).rounded(.up))
            percentile85 = sorted[max(0, min(sorted.count, rank) - 1)]
            mean = sorted.reduce(0, +) / Double(sorted.count)
        }
    }

    /// One card's flow.
    public struct CardFlow: Sendable, Hashable {
        /// Its history.
        public var history: CardHistory
        /// Its first commit.
        public var created: Date
        /// When it was started, if it was.
        public var started: Date?
        /// Who started it: the author of the commit that moved it into the start column (or made it there).
        public var startedBy: CommitAuthor?
        /// When it was finished, if it is.
        public var finished: Date?
        /// Where it is at the end of the period.
        public var place: CardPlace
        /// For an archived card, the column it was archived from.
        public var archivedFrom: String?
        /// Days spent in each column before the done column (to the end of the period for open cards).
        public var timeInColumn: [String: Double]

        /// Days from its first commit to its finish.
        public var leadTimeDays: Double? { finished.map { $0.timeIntervalSince(created) / FlowReport.day } }
        /// Days from its start to its finish.
        public var cycleTimeDays: Double? {
            guard let finished else { return nil }
            return finished.timeIntervalSince(started ?? finished) / FlowReport.day
        }
    }

    /// The cards in each column at the end of one day (UTC).
    public struct Day: Sendable, Hashable {
        /// Midnight UTC starting the day.
        public var date: Date
        /// Counts in the order of ``FlowReport/columns``.
        public var counts: [Int]
    }

    /// The cards finished in one week (Monday to Sunday, UTC).
    public struct Week: Sendable, Hashable {
        /// Midnight UTC starting the Monday.
        public var start: Date
        /// The cards finished that week.
        public var finished: Int
    }

    /// Seconds in a day.
    public static let day: TimeInterval = 86_400

    /// The columns, in board order, then columns of the history the board no longer has.
    public var columns: [Column]
    /// How many of ``columns`` are the board's.
    public var boardColumnCount: Int
    /// The percentile of cycle times that makes the service-level expectation.
    public var serviceLevelPercentile: Int
    /// The column whose entry starts a card.
    public var startColumn: String
    /// The column whose entry finishes a card.
    public var doneColumn: String
    /// The start of the period: the option, else the first commit of a card.
    public var since: Date
    /// The end of the period.
    public var until: Date
    /// Every card whose history began by `until`, in the order their histories began.
    public var cards: [CardFlow]
    /// The cards finished within the period, in the order they finished.
    public var finished: [CardFlow]
    /// How many cards were made within the period.
    public var createdCount: Int
    /// How many cards were started within the period.
    public var startedCount: Int
    /// Lead times of the cards finished within the period; nil when none was.
    public var leadTime: Statistics?
    /// Cycle times of the cards finished within the period; nil when none was.
    public var cycleTime: Statistics?
    /// Mean days spent in each column by the cards finished within the period.
    public var meanTimeInColumn: [String: Double]
    /// Cards in each column at `until`, in the order of ``columns``.
    public var workInProgress: [Int]
    /// The cards started and not finished at `until`, the oldest start first.
    public var inProgress: [CardFlow]
    /// The cumulative flow diagram: one entry per day of the period.
    public var days: [Day]
    /// The throughput: one entry per week of the period.
    public var weeks: [Week]

    /// Cards finished per week over the period.
    public var throughputPerWeek: Double {
        let weeks = max(until.timeIntervalSince(since) / (7 * Self.day), 1.0 / 7)
        return Double(finished.count) / weeks
    }

    /// Measures `cards` against the columns of `board`.
    /// - Throws: ``KanbanError/Code/columnNotFound`` when the start or done column is not on the board, and
    ///   ``KanbanError/Code/invalidArgument`` when the start column comes after the done column or the period is empty.
    public init(board: Board, cards histories: [CardHistory], options: Options) throws(KanbanError) {
        guard !board.columns.isEmpty else {
            throw KanbanError(.invalidArgument, "the board has no columns")
        }
        var columns = board.columns
        var known = Set(columns.map(\.id))
        for history in histories {
            for change in history.changes {
                if let id = change.to.column, known.insert(id).inserted { columns.append(Column(id: id, name: id)) }
            }
        }
        func index(of id: String?, default fallback: Int) throws(KanbanError) -> Int {
            guard let id else { return fallback }
            guard let index = board.columns.firstIndex(where: { $0.id == id }) else {
                throw KanbanError(.columnNotFound, "no column '\(id)' on the board", candidates: board.columns.map(\.id))
            }
            return index
        }
        // The options, else what board.md names for the agents' flow (start-column, done-column), else the defaults.
        func setting(_ key: String) -> String? {
            guard let id = board.fields.first(where: { $0.key == key })?.value.string, board.columns.contains(where: { $0.id == id }) else { return nil }
            return id
        }
        let startIndex = try index(of: options.startColumn ?? setting(WorkFlow.startKey), default: min(1, board.columns.count - 1))
        let doneIndex = try index(of: options.doneColumn ?? setting(WorkFlow.doneKey), default: board.columns.count - 1)
        guard startIndex <= doneIndex else {
            // Name where each column came from: one of them may be the default the person never gave.
            let start = "the start column '\(board.columns[startIndex].id)'" + (options.startColumn == nil ? " (the default: the second column; give --start)" : "")
            let done = "the done column '\(board.columns[doneIndex].id)'" + (options.doneColumn == nil ? " (the default: the last column; give --done)" : "")
            throw KanbanError(.invalidArgument, "\(start) comes after \(done)")
        }
        let order = Dictionary(board.columns.enumerated().map { ($0.element.id, $0.offset) }, uniquingKeysWith: { first, _ in first })
        // A column the board no longer has counts as work in progress.
        func isStarted(_ id: String) -> Bool { order[id].map { $0 >= startIndex } ?? true }
        func isDone(_ id: String) -> Bool { order[id].map { $0 >= doneIndex } ?? false }

        let until = options.until
        let selected = histories.filter { history in
            options.labels.allSatisfy(history.labels.contains) && (history.changes.first.map { $0.time <= until } ?? false)
        }
        let flows = selected.map { Self.flow(of: $0, until: until, isStarted: isStarted, isDone: isDone) }
        // A period that ends before the history begins has nothing to show: said, not drawn as empty charts.
        if let first = histories.compactMap({ $0.changes.first?.time }).min(), until < first {
            throw KanbanError(.invalidArgument, "the period ends on \(ISO8601.dayString(from: until)), before the board's history begins on "
                + "\(ISO8601.dayString(from: first)); give a later --until")
        }
        // The period starts with the board's history, whatever the labels chosen: rates for two labels compare.
        let since = options.since ?? histories.compactMap { $0.changes.first?.time }.filter { $0 <= until }.min() ?? until
        guard since <= until else { throw KanbanError(.invalidArgument, "the period is empty: it starts after it ends") }

        guard (1...100).contains(options.serviceLevelPercentile) else {
            throw KanbanError(.invalidArgument, "the service-level percentile must be from 1 to 100, not \(options.serviceLevelPercentile)")
        }
        self.columns = columns
        boardColumnCount = board.columns.count
        serviceLevelPercentile = options.serviceLevelPercentile
        startColumn = board.columns[startIndex].id
        doneColumn = board.columns[doneIndex].id
        self.since = since
        self.until = until
        cards = flows
        finished = flows.compactMap { flow in flow.finished.flatMap { $0 >= since ? ($0, flow) : nil } }
            .sorted { $0.0 < $1.0 }.map(\.1)
        createdCount = flows.count { $0.created >= since }
        startedCount = flows.count { flow in flow.started.map { $0 >= since } ?? false }
        leadTime = Statistics(finished.compactMap(\.leadTimeDays))
        cycleTime = Statistics(finished.compactMap(\.cycleTimeDays))
        var totals: [String: Double] = [:]
        for flow in finished { totals.merge(flow.timeInColumn, uniquingKeysWith: +) }
        let finishedCount = Double(finished.count)
        meanTimeInColumn = totals.mapValues { $0 / finishedCount }
        let columnIndex = Dictionary(columns.enumerated().map { ($0.element.id, $0.offset) }, uniquingKeysWith: { first, _ in first })
        var counts = Array(repeating: 0, count: columns.count)
        for flow in flows { if let id = flow.place.column, let index = columnIndex[id] { counts[index] += 1 } }
        workInProgress = counts
        inProgress = flows.compactMap { flow in flow.finished == nil && flow.place.column != nil ? flow.started.map { ($0, flow) } : nil }
            .sorted { ($0.0, $0.1.history.slug) < ($1.0, $1.1.history.slug) }.map(\.1)
        days = Self.days(flows, columns: columnIndex, count: columns.count, since: since, until: until, isDone: isDone)
        weeks = Self.weeks(finished, since: since, until: until)
    }

    /// A card's start, finish, place and time in each column, from its changes up to `until`.
    static func flow(of history: CardHistory, until: Date, isStarted: (String) -> Bool, isDone: (String) -> Bool) -> CardFlow {
        let changes = history.changes(through: until)
        let created = changes.first?.time ?? until
        var started: Date?
        var startedBy: CommitAuthor?
        var finished: Date?
        var archivedFrom = history.archivedFrom
        var timeInColumn: [String: Double] = [:]
        for (offset, change) in changes.enumerated() {
            let end = offset + 1 < changes.count ? changes[changes.startIndex + offset + 1].time : until
            let column: String?
            switch change.to {
            case .column(let id):
                column = id
                archivedFrom = nil
                if !isDone(id) { timeInColumn[id, default: 0] += end.timeIntervalSince(change.time) / day }
            case .archived:
                if let id = change.from?.column { archivedFrom = id }
                column = archivedFrom
            case .deleted:
                column = nil
            }
            if started == nil, let column, isStarted(column) {
                started = change.time
                startedBy = change.author
            }
            if let column, isDone(column) {
                if finished == nil { finished = change.time }
            } else {
                finished = nil
            }
        }
        let place = changes.last?.to ?? .deleted
        return CardFlow(history: history, created: created, started: started, startedBy: startedBy, finished: finished, place: place,
                        archivedFrom: place == .archived ? archivedFrom : nil, timeInColumn: timeInColumn)
    }

    /// The cumulative flow diagram: for each day, the cards in each column at its end (at `until` on the last day). A
    /// card archived from a done column stays in it; other archived and deleted cards leave.
    static func days(_ flows: [CardFlow], columns: [String: Int], count: Int, since: Date, until: Date, isDone: (String) -> Bool) -> [Day] {
        let first = (since.timeIntervalSince1970 / day).rounded(.down)
        let last = (until.timeIntervalSince1970 / day).rounded(.down)
        let dayCount = Int(last - first) + 1
        let start = first * day
        /// The first day whose sample is at or after `time`. A day is sampled just before its midnight (a card that
        /// arrives at midnight counts from the day it starts, one that leaves at midnight on the day it ends), the
        /// last day at `until`.
        func firstDay(sampledAtOrAfter time: Date) -> Int {
            if time > until { return dayCount }
            let index = Int(((time.timeIntervalSince1970 - start + 0.001) / day).rounded(.up)) - 1
            return min(max(index, 0), dayCount - 1)
        }
        // Differences per column: +1 where a stay begins to be counted, -1 where it stops.
        var differences = Array(repeating: Array(repeating: 0, count: dayCount + 1), count: count)
        for flow in flows {
            let changes = flow.history.changes(through: until)
            var archivedFrom = flow.history.archivedFrom
            for (offset, change) in changes.enumerated() {
                var column: String?
                switch change.to {
                case .column(let id):
                    column = id
                case .archived:
                    if let id = change.from?.column { archivedFrom = id }
                    column = archivedFrom.flatMap { isDone($0) ? $0 : nil }
                case .deleted:
                    column = nil
                }
                guard let id = column, let index = columns[id] else { continue }
                let next = offset + 1 < changes.count ? changes[changes.startIndex + offset + 1].time : Date.distantFuture
                let from = firstDay(sampledAtOrAfter: change.time)
                // Counted on the days sampled from its arrival until it left.
                let to = firstDay(sampledAtOrAfter: next)
                guard from < to else { continue }
                differences[index][from] += 1
                differences[index][to] -= 1
            }
        }
        var running = Array(repeating: 0, count: count)
        return (0..<dayCount).map { offset in
            for column in 0..<count { running[column] += differences[column][offset] }
            return Day(date: Date(timeIntervalSince1970: start + Double(offset) * day), counts: running)
        }
    }

    /// Cards finished per week, Monday to Sunday (UTC), from the week of `since` to the week of `until`.
    static func weeks(_ finished: [CardFlow], since: Date, until: Date) -> [Week] {
        func monday(_ date: Date) -> Int {
            let days = Int((date.timeIntervalSince1970 / day).rounded(.down))
            // 1 January 1970 was a Thursday.
            return days - ((days % 7 + 7 + 3) % 7)
        }
        let first = monday(since)
        let count = (monday(until) - first) / 7 + 1
        var weeks = (0..<count).map { Week(start: Date(timeIntervalSince1970: Double(first + 7 * $0) * day), finished: 0) }
        for flow in finished {
            guard let date = flow.finished else { continue }
            let index = (monday(date) - first) / 7
            if weeks.indices.contains(index) { weeks[index].finished += 1 }
        }
        return weeks
    }
}
