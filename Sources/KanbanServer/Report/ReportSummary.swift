import Foundation
import KanbanCore

/// The figures of `kanban report`: period, finished cards and throughput, lead and cycle time, time in column, work
/// in progress, the oldest cards in progress. The terminal shows them styled, the HTML report in plain text.
package struct ReportSummary {
    /// The styles the lines ask for.
    package enum Style: Sendable {
        case bold, dim, yellow
    }

    package var report: FlowReport
    package var title: String
    package var notInHistory: [String]
    /// Applies a style to a piece of a line; the text as it is by default.
    package var style: (Style, String) -> String

    /// How many cards the oldest-in-progress list shows.
    package static let oldestShown = 5

    package init(report: FlowReport, title: String, notInHistory: [String], style: @escaping (Style, String) -> String = { $1 }) {
        self.report = report
        self.title = title
        self.notInHistory = notInHistory
        self.style = style
    }

    /// Every line.
    package func lines() -> [String] {
        let bold = { (text: String) in style(.bold, text) }
        let days = report.until.timeIntervalSince(report.since) / FlowReport.day
        var lines = [bold(title) + style(.dim, "  \(ReportFormat.day(report.since)) to \(ReportFormat.day(report.until)) (\(ReportFormat.number(days)) days)")]
        lines.append("")
        func row(_ label: String, _ text: String) { lines.append(bold(label.padded(toWidth: 12)) + " " + text) }
        row("Finished", "\(report.finished.count) \(report.finished.count == 1 ? "card" : "cards"), \(ReportFormat.number(report.throughputPerWeek)) a week"
            + style(.dim, "  (started \(report.startedCount), created \(report.createdCount))"))
        row("Lead time", ReportFormat.describe(report.leadTime))
        row("Cycle time", ReportFormat.describe(report.cycleTime))
        let waits = report.columns.compactMap { column in
            report.meanTimeInColumn[column.id].map { "\(column.name) \(ReportFormat.number($0)) d" }
        }
        if !waits.isEmpty { row("Time in", waits.joined(separator: " · ") + style(.dim, "  (mean over finished cards)")) }
        let wip = zip(report.columns, report.workInProgress).map { "\($0.name) \($1)" }
        row("Now", wip.joined(separator: " · "))
        if !report.inProgress.isEmpty {
            lines.append(bold("Oldest in progress"))
            let names = Dictionary(report.columns.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
            let shown = report.inProgress.prefix(Self.oldestShown)
            let columnWidth = shown.map { (names[$0.place.column ?? ""] ?? "").terminalWidth }.max() ?? 0
            for flow in shown {
                let age = report.until.timeIntervalSince(flow.started ?? report.until) / FlowReport.day
                let column = names[flow.place.column ?? ""] ?? ""
                lines.append("  " + style(.yellow, (ReportFormat.number(age) + " d").padded(toWidth: 7, alignment: .trailing)) + "  "
                             + column.padded(toWidth: columnWidth) + "  " + flow.history.slug + "  " + style(.dim, VisibleControls.visible(flow.history.title)))
            }
        }
        if !notInHistory.isEmpty {
            lines.append(style(.dim, "Not in the history yet (not committed): " + notInHistory.joined(separator: ", ")))
        }
        return lines
    }
}
