import Foundation
import Testing
@testable import KanbanCore

extension ReportTests {
    /// Forecasts, aging and the flow charts' figures on histories whose answers are known by hand.
    @Suite struct FlowForecastTests {
        typealias Flow = FlowReportTests

        /// One card made at `day` and finished the same day at noon, and so on for each day in `days`.
        static func finishing(on days: [Int]) -> [CardHistory] {
            days.enumerated().map { index, day in
                Flow.card("c\(index)", [(Double(day), "todo"), (Double(day) + 0.25, "doing"), (Double(day) + 0.5, "done")])
            }
        }

        /// The report to the end of day `until` over `cards`.
        static func report(_ cards: [CardHistory], until: Int, board: Board = Flow.board, serviceLevel: Int = 85) throws -> FlowReport {
            try FlowReport(board: board, cards: cards, options: FlowReport.Options(
                until: Flow.day(Double(until) + 1).addingTimeInterval(-1), serviceLevelPercentile: serviceLevel))
        }

        static func forecast(_ report: FlowReport, _ question: FlowForecast.Question, trials: Int = 10_000, seed: UInt64 = 38) throws -> FlowForecast {
            try FlowForecast(report, options: FlowForecast.Options(question: question, trials: trials, seed: seed))
        }

        @Test func oneCardADayFinishesTenCardsInTenDaysAtEveryConfidence() throws {
            let report = try Self.report(Self.finishing(on: Array(0..<90)), until: 89)
            let forecast = try Self.forecast(report, .when(cards: 10))
            #expect(forecast.samples == Array(repeating: 1, count: 90))
            #expect(forecast.finishedInWindow == 90)
            #expect(forecast.results.map(\.percentile) == [50, 70, 85, 95])
            #expect(forecast.results.map(\.days) == [10, 10, 10, 10])
            #expect(forecast.results.allSatisfy { $0.date == report.until.addingTimeInterval(10 * FlowReport.day) })
            #expect(forecast.histogram == [10: 10_000])
            // And by a date 10 days on, 10 cards, whatever the confidence.
            let byDate = try Self.forecast(report, .howMany(by: Flow.day(99)))
            #expect(byDate.results.map(\.cards) == [10, 10, 10, 10])
        }

        @Test func noCardFinishedIsRefused() throws {
            let waiting = (0..<30).map { Flow.card("w\($0)", [(Double($0), "todo"), (Double($0) + 0.5, "doing")]) }
            let report = try Self.report(waiting, until: 40)
            #expect { try Self.forecast(report, .when(cards: 5)) } throws: { error in
                let message = (error as? KanbanError)?.message ?? ""
                return message.contains("too little history to forecast from: no card finished in the 41 days")
            }
        }

        @Test func tooShortAHistoryIsRefused() throws {
            let report = try Self.report(Self.finishing(on: Array(0..<10)), until: 9)
            #expect { try Self.forecast(report, .when(cards: 5)) } throws: { error in
                ((error as? KanbanError)?.message ?? "").contains("10 days (2026-01-05 to 2026-01-14); a forecast needs at least 14 days")
            }
        }

        /// Half the days finish a card, half none: by a date two days on, 0, 1 or 2 cards with chances 1/4, 1/2, 1/4,
        /// so 75 % of futures finish at least one and 25 % two. At 50 % and 70 % confidence: at least 1; at 85 % and
        /// 95 %: at least 0. Until the first card: within 1 day 1/2, 2 days 3/4, 3 days 7/8, 4 days 15/16, 5 days
        /// 31/32; so 70 % → 2 days, 85 % → 3, 95 % → 5 (50 % is exactly the edge of day 1).
        @Test func twoValueThroughputGivesThePercentilesWorkedOutByHand() throws {
            let report = try Self.report(Self.finishing(on: Array(stride(from: 0, to: 40, by: 2))), until: 39)
            #expect(forecastSamples(report) == Array(repeating: [1, 0], count: 20).flatMap { $0 })
            let byDate = try Self.forecast(report, .howMany(by: Flow.day(41)))
            #expect(byDate.results.map(\.cards) == [1, 1, 0, 0])
            let share = Double(byDate.histogram[1] ?? 0) / 10_000
            #expect(abs(share - 0.5) < 0.03, "about half the trials finish one card: \(share)")
            let when = try Self.forecast(report, .when(cards: 1))
            // At 50 % the answer sits on the edge (exactly half the futures finish on day 1): 1 or 2 by the draw.
            #expect(when.results.dropFirst().map(\.days) == [2, 3, 5])
            #expect([1, 2].contains(when.results[0].days))
        }

        private func forecastSamples(_ report: FlowReport) -> [Int] {
            (try? Self.forecast(report, .when(cards: 1), trials: 100).samples) ?? []
        }

        @Test func theSameSeedGivesTheSameForecast() throws {
            let report = try Self.report(Self.finishing(on: [0, 1, 1, 3, 6, 6, 6, 9, 12, 13, 20, 21, 25]), until: 29)
            let one = try Self.forecast(report, .when(cards: 30), seed: 2026)
            let two = try Self.forecast(report, .when(cards: 30), seed: 2026)
            #expect(one == two)
            let days = one.results.compactMap(\.days)
            #expect(days.count == 4 && days == days.sorted(), "more confidence, more days")
            let other = try Self.forecast(report, .when(cards: 30), seed: 2027)
            #expect(other.histogram != one.histogram)
        }

        @Test(arguments: [
            (FlowForecast.Question.when(cards: 0), "from 1 to 100000"),
            (.when(cards: 100_001), "from 1 to 100000"),
            (.howMany(by: Flow.day(29)), "must come after"),
            (.howMany(by: Flow.day(29 + 3_651)), "within ten years"),
        ]) func numbersOutOfRangeAreRefused(question: FlowForecast.Question, message: String) throws {
            let report = try Self.report(Self.finishing(on: Array(0..<30)), until: 29)
            #expect { try Self.forecast(report, question) } throws: { error in ((error as? KanbanError)?.message ?? "").contains(message) }
            #expect(throws: KanbanError.self) { try FlowForecast(report, options: .init(question: .when(cards: 1), trials: 99)) }
            #expect(throws: KanbanError.self) { try FlowForecast(report, options: .init(question: .when(cards: 1), windowDays: 0)) }
        }

        @Test func aForecastPastTheHorizonSaysSo() throws {
            // Five cards in the window: 100,000 more would take about 500 years.
            let report = try Self.report(Self.finishing(on: [0, 20, 40, 60, 80]), until: 89)
            let forecast = try Self.forecast(report, .when(cards: 100_000), trials: 100)
            #expect(forecast.results.allSatisfy { $0.days == nil && $0.date == nil })
        }

        @Test func theWindowIsTheLastDaysOfThePeriod() throws {
            // Two cards a day before day 60, none after: a 30-day window sees only the idle days.
            let cards = Self.finishing(on: Array(0..<60) + Array(0..<60))
            let report = try Self.report(cards, until: 89)
            #expect(throws: KanbanError.self) { try FlowForecast(report, options: .init(question: .when(cards: 1), windowDays: 30, seed: 1)) }
            let whole = try FlowForecast(report, options: .init(question: .when(cards: 1), windowDays: 90, seed: 1))
            #expect(whole.samples.count == 90 && whole.finishedInWindow == 120)
            #expect(whole.windowStart == Flow.day(0))
        }

        // MARK: Aging and the service level

        @Test func agingCardsAgainstThePercentilesOfCycleTimes() throws {
            // Cycle times 1...20 days: percentiles 50 → 10, 70 → 14, 85 → 17, 95 → 19.
            var cards = (1...20).map { Flow.card("f\($0)", [(0, "todo"), (1, "doing"), (1 + Double($0), "done")]) }
            // In progress at day 30: started on days 25 (5 days old), 18 (12), 14 (16), 12 (18), 5 (25).
            for (slug, start) in [("young", 25.0), ("twelve", 18), ("sixteen", 14), ("eighteen", 12), ("old", 5)] {
                cards.append(Flow.card(slug, [(0, "todo"), (start, "doing")]))
            }
            let report = try FlowReport(board: Flow.board, cards: cards, options: .init(until: Flow.day(30)))
            #expect(FlowReport.percentiles.map { report.cycleTime?.percentile($0) } == [10, 14, 17, 19])
            #expect(report.serviceLevel == 17)
            let aging = Dictionary(uniqueKeysWithValues: report.aging.map { ($0.flow.history.slug, $0) })
            #expect(aging["young"]?.ageDays == 5 && aging["young"]?.percentileReached == nil)
            #expect(aging["twelve"]?.percentileReached == 50)
            #expect(aging["sixteen"]?.percentileReached == 70 && aging["sixteen"]?.isPastServiceLevel == false)
            #expect(aging["eighteen"]?.percentileReached == 85 && aging["eighteen"]?.isPastServiceLevel == true)
            #expect(aging["old"]?.percentileReached == 95 && aging["old"]?.column == "doing")
            let stricter = try FlowReport(board: Flow.board, cards: cards, options: .init(until: Flow.day(30), serviceLevelPercentile: 50))
            #expect(stricter.serviceLevel == 10)
            #expect(stricter.aging.filter(\.isPastServiceLevel).count == 4)
            #expect(throws: KanbanError.self) { try FlowReport(board: Flow.board, cards: cards, options: .init(until: Flow.day(30), serviceLevelPercentile: 0)) }
        }

        // MARK: Charts' figures

        @Test func workInProgressDaysOverLimitAndHistograms() throws {
            var board = Flow.board
            board.columns[1].wipLimit = 1
            board.columns[2].isQueue = true
            let cards = [
                Flow.card("a", [(0, "todo"), (1, "doing"), (3, "review"), (4, "done")]),
                Flow.card("b", [(0, "todo"), (2, "doing"), (5, "review"), (9, "done")]),
                Flow.card("c", [(0.5, "todo"), (2.5, "doing"), (6.5, "done")]),
            ]
            let report = try FlowReport(board: board, cards: cards, options: .init(until: Flow.day(10).addingTimeInterval(-1)))
            // In progress (doing + review) at the end of days 0...9.
            #expect(report.workInProgressByDay == [0, 1, 3, 3, 2, 2, 1, 1, 1, 0])
            // Doing held 2 cards at the end of days 2, 3 and 4 (b and c; a left on day 3 for review): 3 days.
            #expect(report.daysOverLimit == ["doing": 3])
            #expect(report.finishedByDay == [0, 0, 0, 0, 1, 0, 1, 0, 0, 1])
            #expect(report.throughputHistogram == [7, 3])
            // Cycle times 3, 7 and 4 days.
            #expect(report.cycleTimeHistogram == [0, 0, 0, 1, 1, 0, 0, 1])
            // Time in progress: a 2 doing + 1 review, b 3 + 4, c 4 + 0 = 9 active of 14.
            #expect(report.flowEfficiency.map { ($0 * 1000).rounded() } == 643)
        }

        @Test func flowEfficiencyNeedsAQueue() throws {
            let report = try Self.report(Self.finishing(on: Array(0..<20)), until: 19)
            #expect(report.flowEfficiency == nil)
        }
    }
}
