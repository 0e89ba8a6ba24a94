import Foundation
import Testing
@testable import KanbanCore

extension ReportTests {
    /// The figures of a report from card histories with known times.
    @Suite struct FlowReportTests {
        static let board = Board(title: "T", columns: [Column(id: "todo", name: "To Do"), Column(id: "doing", name: "Doing"),
                                                       Column(id: "review", name: "Review"), Column(id: "done", name: "Done")])
        /// Midnight UTC of Monday 5 January 2026.
        static let monday = Date(timeIntervalSince1970: 1_767_571_200)

        /// A time `days` after ``monday``.
        static func day(_ days: Double) -> Date { monday.addingTimeInterval(days * FlowReport.day) }

        /// A card through `places` (column ids, `archive`, `deleted`) at the given days.
        static func card(_ slug: String, _ steps: [(Double, String)], labels: [String] = []) -> CardHistory {
            var changes: [CardPlaceChange] = []
            for (index, step) in steps.enumerated() {
                let place: CardPlace = step.1 == "archive" ? .archived : step.1 == "deleted" ? .deleted : .column(step.1)
                changes.append(CardPlaceChange(time: day(step.0), commit: "c\(index)", from: changes.last?.to, to: place))
            }
            return CardHistory(slug: slug, title: slug, labels: labels, changes: changes)
        }

        func report(_ cards: [CardHistory], since: Double? = nil, until: Double = 14, start: String? = nil, done: String? = nil,
                    labels: [String] = []) throws -> FlowReport {
            try FlowReport(board: Self.board, cards: cards, options: FlowReport.Options(
                since: since.map(Self.day), until: Self.day(until), startColumn: start, doneColumn: done, labels: labels))
        }

        @Test func leadAndCycleTimes() throws {
            let report = try report([
                Self.card("a", [(0, "todo"), (2, "doing"), (3, "review"), (5, "done")]),
                Self.card("b", [(1, "todo"), (4, "doing"), (8, "done")]),
                Self.card("c", [(1, "todo"), (2, "doing")]),
            ])
            let a = try #require(report.cards.first { $0.history.slug == "a" })
            #expect(a.leadTimeDays == 5)
            #expect(a.cycleTimeDays == 3)
            #expect(a.timeInColumn == ["todo": 2, "doing": 1, "review": 2])
            #expect(report.finished.map(\.history.slug) == ["a", "b"])
            #expect(report.leadTime == FlowReport.Statistics([5, 7]))
            #expect(report.cycleTime?.median == 3.5)
            #expect(report.cycleTime?.percentile85 == 4)
            #expect(report.startedCount == 3)
            #expect(report.createdCount == 3)
            #expect(report.workInProgress == [0, 1, 0, 2])
            #expect(report.inProgress.map(\.history.slug) == ["c"])
            #expect(report.meanTimeInColumn == ["todo": 2.5, "doing": 2.5, "review": 1])
            #expect(report.since == Self.day(0))
            #expect(report.throughputPerWeek == 1)
        }

        @Test func aCardMovedBackOutOfDoneFinishesWhenItReturns() throws {
            let report = try report([Self.card("a", [(0, "todo"), (1, "doing"), (2, "done"), (3, "review"), (6, "done")])])
            #expect(report.cards[0].finished == Self.day(6))
            #expect(report.cards[0].cycleTimeDays == 5)
            let before = try self.report([Self.card("a", [(0, "todo"), (1, "doing"), (2, "done"), (3, "review"), (6, "done")])], until: 4)
            #expect(before.cards[0].finished == nil)
            #expect(before.finished.isEmpty)
        }

        @Test func archivedFromDoneIsFinishedAndDeletedIsNot() throws {
            let report = try report([
                Self.card("archived", [(0, "todo"), (1, "doing"), (2, "done"), (4, "archive")]),
                Self.card("dropped", [(0, "todo"), (1, "archive")]),
                Self.card("deleted", [(0, "todo"), (1, "doing"), (2, "done"), (3, "deleted")]),
                Self.card("unarchived", [(0, "done"), (1, "archive"), (2, "todo")]),
            ], until: 5)
            #expect(report.finished.map(\.history.slug) == ["archived"])
            #expect(report.cards.first { $0.history.slug == "archived" }?.archivedFrom == "done")
            #expect(report.cards.first { $0.history.slug == "unarchived" }?.finished == nil)
            // The flow diagram keeps the archived card in Done; the deleted one counted there until the delete.
            let counts = report.days.map(\.counts)
            // Each day is counted just before its midnight: by the end of day 1, "dropped" has left, "archived" and
            // "deleted" are in doing, "unarchived" stays in done though archived; "deleted" leaves on day 3,
            // "archived" stays in done once archived.
            #expect(counts[0] == [3, 0, 0, 1])
            #expect(counts[1] == [0, 2, 0, 1])
            #expect(counts[2] == [1, 0, 0, 2])
            #expect(counts[3] == [1, 0, 0, 1])
            #expect(counts[5] == [1, 0, 0, 1])
            #expect(report.workInProgress == [1, 0, 0, 0])
        }

        @Test func startAndDoneColumnsChooseTheSteps() throws {
            let cards = [Self.card("a", [(0, "todo"), (2, "doing"), (3, "review"), (5, "done")])]
            let report = try report(cards, start: "review", done: "review")
            #expect(report.cards[0].started == Self.day(3))
            #expect(report.cards[0].finished == Self.day(3))
            #expect(report.cards[0].cycleTimeDays == 0)
            #expect(report.cards[0].leadTimeDays == 3)
            #expect(throws: KanbanError.self) { try self.report(cards, start: "done", done: "doing") }
            #expect(throws: KanbanError.self) { try self.report(cards, start: "nowhere") }
        }

        @Test func theFlowDiagramCountsEachColumnAtTheEndOfEachDay() throws {
            let report = try report([
                Self.card("a", [(0.5, "todo"), (1.5, "doing"), (2.25, "done")]),
                Self.card("b", [(1.2, "todo")]),
            ], until: 3.5)
            #expect(report.days.map(\.date) == [Self.day(0), Self.day(1), Self.day(2), Self.day(3)])
            #expect(report.days.map(\.counts) == [[1, 0, 0, 0], [1, 1, 0, 0], [1, 0, 0, 1], [1, 0, 0, 1]])
        }

        @Test func throughputCountsEachWeekFromMonday() throws {
            let report = try report([
                Self.card("a", [(0, "todo"), (1, "done")]),
                Self.card("b", [(0, "todo"), (6.9, "done")]),
                Self.card("c", [(0, "todo"), (7.1, "done")]),
            ], since: 2, until: 13)
            #expect(report.weeks.map(\.start) == [Self.day(0), Self.day(7)])
            #expect(report.weeks.map(\.finished) == [1, 1])
            // Cards finished before the period are not counted.
            #expect(report.finished.map(\.history.slug) == ["b", "c"])
        }

        @Test func labelsChooseTheCards() throws {
            let report = try report([
                Self.card("a", [(0, "todo"), (1, "done")], labels: ["bug", "ui"]),
                Self.card("b", [(0, "todo"), (1, "done")], labels: ["bug"]),
            ], labels: ["bug", "ui"])
            #expect(report.cards.map(\.history.slug) == ["a"])
        }

        @Test(arguments: [
            ([1.0], 1.0, 1.0, 1.0),
            ([4.0, 1, 3, 2], 2.5, 4, 2.5),
            ([1.0, 2, 3, 4, 5, 6, 7, 8, 9, 10], 5.5, 9, 5.5),
        ])
        func statistics(values: [Double], median: Double, percentile85: Double, mean: Double) throws {
            let statistics = try #require(FlowReport.Statistics(values))
            #expect(statistics.median == median)
            #expect(statistics.percentile85 == percentile85)
            #expect(statistics.mean == mean)
        }
    }
}
