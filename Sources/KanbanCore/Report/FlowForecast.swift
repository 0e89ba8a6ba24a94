import Foundation

/// When will N more cards be done, or how many by a date: a Monte Carlo simulation over the board's daily
/// throughput.
///
/// Each trial replays the future one day at a time, each day finishing as many cards as a day picked at random from
/// the window (by default the last 90 days of the report's period, weekends and idle days included) did. After
/// ``Options/trials`` trials, the answer at a confidence of 85 % is the number of days 85 % of the trials needed at
/// most, or the number of cards 85 % of them finished at least. The assumptions are the method's: the coming days
/// look like the window's, one day independent of the next, and the cards to come are like the ones finished.
///
/// ```swift
/// let report = try FlowReport(board: board, cards: histories, options: FlowReport.Options(until: .now))
/// let forecast = try FlowForecast(report, options: FlowForecast.Options(question: .when(cards: 20), seed: 7))
/// print(forecast.results.map { "\($0.percentile)%: \($0.days ?? 0) days" })
/// ```
public struct FlowForecast: Sendable, Hashable {
    /// What the forecast answers.
    public enum Question: Sendable, Hashable {
        /// How many days until this many more cards are finished.
        case when(cards: Int)
        /// How many cards will be finished by the end of this day.
        case howMany(by: Date)
    }

    /// How to forecast.
    public struct Options: Sendable, Hashable {
        /// The question.
        public var question: Question
        /// Days of history the throughput is sampled from, ending at the report's end.
        public var windowDays: Int
        /// How many futures to simulate.
        public var trials: Int
        /// The seed of the random numbers: the same seed gives the same forecast.
        public var seed: UInt64

        /// Creates options.
        public init(question: Question, windowDays: Int = FlowForecast.defaultWindowDays, trials: Int = FlowForecast.defaultTrials,
                    seed: UInt64 = UInt64.random(in: 0...UInt64(Int64.max))) {
            self.question = question
            self.windowDays = windowDays
            self.trials = trials
            self.seed = seed
        }
    }

    /// One answer: at `percentile` % confidence, within `days` (``Question/when(cards:)``) or at least `cards`
    /// (``Question/howMany(by:)``).
    public struct Result: Sendable, Hashable {
        /// The confidence, in percent.
        public var percentile: Int
        /// Days from the report's end (when); nil when more than ``horizonDays`` were needed.
        public var days: Int?
        /// The date that many days after the report's end (when).
        public var date: Date?
        /// Cards finished at least (how many).
        public var cards: Int?
    }

    public static let defaultWindowDays = 90
    public static let defaultTrials = 10_000
    /// The fewest days of history a forecast stands on.
    public static let minimumWindowDays = 14
    /// The fewest cards finished in the window a forecast stands on.
    public static let minimumFinished = 5
    /// The furthest a trial looks ahead: ten years.
    public static let horizonDays = 3_650
    /// The bounds every number is checked against before any arithmetic.
    public static let cardRange = 1...100_000
    public static let windowRange = 1...3_650
    public static let trialRange = 100...1_000_000

    /// The question.
    public var question: Question
    /// Where the future starts: the report's end.
    public var start: Date
    /// The first day of the window (midnight UTC).
    public var windowStart: Date
    /// Cards finished on each day of the window, the first day first.
    public var samples: [Int]
    /// The trials.
    public var trials: Int
    /// The seed.
    public var seed: UInt64
    /// How many trials came to each outcome (days, or cards); outcomes no trial reached are left out. A when-trial
    /// that passed the horizon counts as ``horizonDays`` + 1.
    public var histogram: [Int: Int]
    /// The answers at ``FlowReport/percentiles``.
    public var results: [Result]

    /// The cards finished in the window.
    public var finishedInWindow: Int { samples.reduce(0, +) }

    /// Forecasts from the throughput of `report`'s finished cards.
    /// - Throws: ``KanbanError/Code/invalidArgument`` for numbers out of range or a date not after the report's end,
    ///   and when the window has fewer than ``minimumWindowDays`` days of history or ``minimumFinished`` cards
    ///   finished: too little to stand on.
    public init(_ report: FlowReport, options: Options) throws(KanbanError) {
        guard Self.windowRange.contains(options.windowDays) else {
            throw KanbanError(.invalidArgument, "the forecast's window must be from 1 to \(Self.windowRange.upperBound) days, not \(options.windowDays)")
        }
        guard Self.trialRange.contains(options.trials) else {
            throw KanbanError(.invalidArgument, "the forecast's trials must be from \(Self.trialRange.lowerBound) to \(Self.trialRange.upperBound), not \(options.trials)")
        }
        let day = FlowReport.day
        let lastDay = (report.until.timeIntervalSince1970 / day).rounded(.down)
        // The window ends with the report's last day, and starts no earlier than the history.
        let historyStart = (report.since.timeIntervalSince1970 / day).rounded(.down)
        let firstDay = max(lastDay - Double(options.windowDays - 1), historyStart)
        let dayCount = Int(lastDay - firstDay) + 1
        var samples = Array(repeating: 0, count: dayCount)
        for flow in report.finished {
            guard let date = flow.finished else { continue }
            let index = Int((date.timeIntervalSince1970 / day).rounded(.down) - firstDay)
            if samples.indices.contains(index) { samples[index] += 1 }
        }
        let window = "\(ISO8601.dayString(from: Date(timeIntervalSince1970: firstDay * day))) to \(ISO8601.dayString(from: report.until))"
        guard dayCount >= Self.minimumWindowDays else {
            throw KanbanError(.invalidArgument, "too little history to forecast from: \(dayCount) day\(dayCount == 1 ? "" : "s") (\(window)); "
                + "a forecast needs at least \(Self.minimumWindowDays) days of the board's history")
        }
        let finished = samples.reduce(0, +)
        guard finished >= Self.minimumFinished else {
            throw KanbanError(.invalidArgument, "too little history to forecast from: \(finished == 0 ? "no card" : "only \(finished) card\(finished == 1 ? "" : "s")") "
                + "finished in the \(dayCount) days from \(window); a forecast needs at least \(Self.minimumFinished) (give a longer --forecast-window?)")
        }
        var generator = SeededGenerator(seed: options.seed)
        var outcomes: [Int] = []
        outcomes.reserveCapacity(options.trials)
        let count = UInt64(samples.count)
        switch options.question {
        case .when(let cards):
            guard Self.cardRange.contains(cards) else {
                throw KanbanError(.invalidArgument, "the number of cards to forecast must be from 1 to \(Self.cardRange.upperBound), not \(cards)")
            }
            for _ in 0..<options.trials {
                var done = 0
                var days = 0
                while done < cards && days <= Self.horizonDays {
                    done += samples[Int(generator.next() % count)]
                    days += 1
                }
                outcomes.append(done >= cards ? days : Self.horizonDays + 1)
            }
        case .howMany(let date):
            let target = (date.timeIntervalSince1970 / day).rounded(.down)
            let days = Int(target - lastDay)
            guard days >= 1 else {
                throw KanbanError(.invalidArgument, "the forecast's date must come after the report's last day, \(ISO8601.dayString(from: report.until))")
            }
            guard days <= Self.horizonDays else {
                throw KanbanError(.invalidArgument, "the forecast's date must be within ten years (\(Self.horizonDays) days)")
            }
            for _ in 0..<options.trials {
                var done = 0
                for _ in 0..<days { done += samples[Int(generator.next() % count)] }
                outcomes.append(done)
            }
        }
        outcomes.sort()
        var histogram: [Int: Int] = [:]
        for outcome in outcomes { histogram[outcome, default: 0] += 1 }
        let start = report.until
        results = FlowReport.percentiles.map { percentile in
            switch options.question {
            case .when:
                // The days within which `percentile` % of the trials were done.
                let days = FlowReport.Statistics.nearestRank(percentile, of: outcomes)
                guard days <= Self.horizonDays else { return Result(percentile: percentile) }
                return Result(percentile: percentile, days: days, date: start.addingTimeInterval(Double(days) * day))
            case .howMany:
                // The most cards at least `percentile` % of the trials finished: the k-th smallest outcome, where the
                // n - k + 1 trials from it on are `percentile` % of all.
                let rank = outcomes.count - (percentile * outcomes.count + 99) / 100 + 1
                let cards = outcomes[max(rank, 1) - 1]
                return Result(percentile: percentile, cards: cards)
            }
        }
        question = options.question
        self.start = start
        windowStart = Date(timeIntervalSince1970: firstDay * day)
        self.samples = samples
        trials = options.trials
        seed = options.seed
        self.histogram = histogram
    }
}
