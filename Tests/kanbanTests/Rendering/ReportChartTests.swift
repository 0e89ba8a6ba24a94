import Foundation
import Testing

@testable import KanbanCore
@testable import KanbanServer
@testable import kanban

/// The charts of `kanban report`, in the terminal and as SVG.
@Suite struct ReportChartTests {
    static let board = Board(title: "T <&>", columns: [Column(id: "todo", name: "To Do"), Column(id: "doing", name: "Doing"),
                                                    Column(id: "done", name: "Done")])
    /// Midnight UTC of Monday 5 January 2026.
    static let monday = Date(timeIntervalSince1970: 1_767_571_200)

    static func card(_ slug: String, _ steps: [(Double, String)]) -> CardHistory {
        var changes: [CardPlaceChange] = []
        for (index, step) in steps.enumerated() {
            changes.append(CardPlaceChange(time: monday.addingTimeInterval(step.0 * FlowReport.day), commit: "c\(index)",
                                           from: changes.last?.to, to: .column(step.1)))
        }
        return CardHistory(slug: slug, title: slug, changes: changes)
    }

    static func report() throws -> FlowReport {
        try FlowReport(board: board, cards: [
            card("a", [(0, "todo"), (1, "doing"), (3, "done")]),
            card("b", [(0, "todo"), (2, "doing"), (9, "done")]),
            card("c", [(1, "todo")]),
        ], options: FlowReport.Options(until: monday.addingTimeInterval(13.5 * FlowReport.day)))
    }

    @Test func theFlowDiagramStacksTheDoneColumnAtTheBottomAndFillsTheWidth() throws {
        let lines = ReportChart.flow(try Self.report(), width: 40, height: 3).rendered(.plain)
        #expect(lines == [
            "Cumulative flow (cards in each column at the end of each day)",
            "    3 ┤   ░░░░░░░░░░░░░░░░░░░░░░░░░░░░░",
            "      ┤░░░░░▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓███████████",
            "      ┤░░░▓▓▓▓█████████████████████████",
            "    0 └────────────────────────────────",
            "       2026-01-05            2026-01-18",
            "       █ Done  ▓ Doing  ░ To Do",
        ])
        #expect(lines.dropFirst().allSatisfy { $0.count <= 40 })
    }

    @Test func throughputHasABarAWeek() throws {
        let lines = ReportChart.throughput(try Self.report(), width: 40, height: 2).rendered(.plain)
        #expect(lines[1] == "    1 ┤███████████████ ████████████████")
        #expect(lines[2] == "      ┤███████████████ ████████████████")
    }

    @Test func theCycleTimeChartMarksThePercentiles() throws {
        let chart = ReportChart.cycleTimes(try Self.report(), width: 40, height: 4)
        #expect(chart.top == 8)
        let lines = chart.rendered(.plain)
        #expect(lines[1].contains("┄") && lines[1].contains("●"))
        #expect(lines.last == "       ● a card (days from start to finish)  ┄ 50% 2.0, 70% 7.0, 85% 7.0, 95% 7.0 days (percentiles)")
    }

    @Test func theDocumentsAreStandaloneAndEscapeText() throws {
        let report = try Self.report()
        let svg = ReportDocument.svg(report, title: Self.board.title)
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(svg.contains("<title>T &lt;&amp;&gt;: flow report</title>"))
        #expect(svg.components(separatedBy: "<polygon").count == 4)
        #expect(svg.components(separatedBy: "<circle").count == 3)
        let html = ReportDocument.html(report, title: Self.board.title, notInHistory: [])
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(!html.contains("<script"))
        #expect(!html.contains("<link"))
        #expect(html.contains("Finished     2 cards"))
    }
}
