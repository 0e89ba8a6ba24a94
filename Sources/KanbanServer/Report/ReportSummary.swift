import Foundation
import KanbanCore

/// The figures of `kanban report`: period, finished cards and throughput, lead and cycle time, time in column, work
/// in progress, the oldest cards in progress. The terminal shows them styled, the HTML report in plain text.
package struct ReportSummary {
    /// The styles the lines ask for.
    package enum Style: Sendable {
        case bold, dim, yellow, red
    }

    package var report: FlowReport
    package var title: String
    package var notInHistory: [String]
    /// The forecast asked for, if any.
    package var forecast: FlowForecast?
    /// Applies a style to a piece of a line; the text as it is by default.
    package var style: (Style, String) -> String

    /// How many cards the oldest-in-progress list shows.
    package static let oldestShown = 5
    /// How many people and agents the cycle time by worker shows.
    package static let workersShown = 8

    package init(report: FlowReport, title: String, notInHistory: [String], forecast: FlowForecast? = nil,
                 style: @escaping (Style, String) -> String = { $1 }) {
        self.report = report
        self.title = title
        self.notInHistory = notInHistory
        self.forecast = forecast
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
        if let cycleTime = report.cycleTime {
            row("Percentiles", FlowReport.percentiles.map { "\($0)% \(ReportFormat.number(cycleTime.percentile($0)))" }.joined(separator: " · ")
                + " days" + style(.dim, "  (of cycle time)"))
        }
        if let level = report.serviceLevel {
            row("SLE", "\(report.serviceLevelPercentile)% of cards finish within \(ReportFormat.number(level)) days"
                + style(.dim, "  (the \(ReportFormat.ordinal(report.serviceLevelPercentile)) percentile)"))
        }
        let waits = report.columns.compactMap { column in
            report.meanTimeInColumn[column.id].map { "\(column.name) \(ReportFormat.number($0)) d" }
        }
        if !waits.isEmpty { row("Time in", waits.joined(separator: " · ") + style(.dim, "  (mean over finished cards)")) }
        if let efficiency = report.flowEfficiency {
            let queues = report.inProgressColumns.map { report.columns[$0] }.filter(\.isQueue).map(\.name).joined(separator: ", ")
            row("Efficiency", "\(Int((efficiency * 100).rounded()))% of time in progress was worked on" + style(.dim, "  (the rest waited in \(queues))"))
        }
        let wip = zip(report.columns, report.workInProgress).map { column, count in
            guard let limit = column.wipLimit else { return "\(column.name) \(count)" }
            let text = "\(column.name) \(count)/\(limit)"
            return count > limit ? style(.red, text) : text
        }
        row("Now", wip.joined(separator: " · "))
        let overLimit = report.daysOverLimit
        if !overLimit.isEmpty {
            let parts = report.columns.compactMap { column in
                overLimit[column.id].map { "\(column.name) \($0) day\($0 == 1 ? "" : "s")" }
            }
            row("Over limit", parts.joined(separator: " · ") + style(.dim, "  (days that ended over the column's WIP limit)"))
        }
        let workers = report.workers
        if !workers.isEmpty {
            lines.append(bold("Cycle time by who started the card") + style(.dim, "  (median, 85th percentile; cards)"))
            let width = min(30, workers.map { ($0.name + (($0.isAgent) ? " (agent)" : "")).terminalWidth }.max() ?? 0)
            for worker in workers.prefix(Self.workersShown) {
                let name = VisibleControls.visible(worker.name) + (worker.isAgent ? " (agent)" : "")
                lines.append("  " + name.truncated(toWidth: width).padded(toWidth: width) + "  "
                             + "\(ReportFormat.number(worker.cycleTime.median)) d, \(ReportFormat.number(worker.cycleTime.percentile85)) d"
                             + style(.dim, "; \(worker.cycleTime.count)"))
            }
            if workers.count > Self.workersShown { lines.append(style(.dim, "  and \(workers.count - Self.workersShown) more")) }
        }
        let aging = report.aging
        if !aging.isEmpty {
            let heading = report.serviceLevel.map { "Aging work in progress (SLE \(ReportFormat.number($0)) days)" } ?? "Oldest in progress"
            lines.append(bold(heading))
            let names = Dictionary(report.columns.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
            let shown = aging.prefix(Self.oldestShown)
            let columnWidth = shown.map { (names[$0.column] ?? "").terminalWidth }.max() ?? 0
            for card in shown {
                let age = (ReportFormat.number(card.ageDays) + " d").padded(toWidth: 7, alignment: .trailing)
                let mark = card.isPastServiceLevel ? style(.red, "  past the SLE") : card.percentileReached.map { style(.dim, "  past \($0)%") } ?? ""
                lines.append("  " + style(card.isPastServiceLevel ? .red : .yellow, age) + "  "
                             + (names[card.column] ?? "").padded(toWidth: columnWidth) + "  " + card.flow.history.slug + "  "
                             + style(.dim, VisibleControls.visible(card.flow.history.title)) + mark)
            }
            let past = aging.count { $0.isPastServiceLevel }
            if aging.count > shown.count || past > 0 {
                lines.append(style(.dim, "  \(aging.count) in progress, \(past) past the SLE"))
            }
        }
        if let forecast {
            lines += ReportFormat.describe(forecast).enumerated().map { offset, text in
                (offset == 0 ? bold("Forecast".padded(toWidth: 12)) : String(repeating: " ", count: 12)) + " " + (offset == 0 ? text : style(.dim, text))
            }
        }
        if !notInHistory.isEmpty {
            lines.append(style(.dim, "Not in the history yet (not committed): " + notInHistory.joined(separator: ", ")))
        }
        return lines
    }
}
