import Foundation
import KanbanCore

/// `kanban report` in the terminal: the figures, then the charts drawn with block characters to the given width.
struct ReportRenderer {
    var report: FlowReport
    var title: String
    var notInHistory: [String]
    var width: Int
    var stylist: Stylist

    /// How many cards the oldest-in-progress list shows.
    static let oldestShown = 5

    /// Every line of the report.
    func lines() -> [String] {
        var lines = summary()
        lines.append("")
        lines += ReportChart.flow(report, width: width).rendered(stylist)
        lines.append("")
        lines += ReportChart.throughput(report, width: width).rendered(stylist)
        lines.append("")
        lines += ReportChart.cycleTimes(report, width: width).rendered(stylist)
        return lines
    }

    /// The figures: period, finished cards and throughput, lead and cycle time, time in column, work in progress, the
    /// oldest cards in progress.
    func summary() -> [String] {
        let bold = { (text: String) in stylist.apply(.bold, to: text) }
        let days = report.until.timeIntervalSince(report.since) / FlowReport.day
        var lines = [bold(title) + stylist.apply(.dim, to: "  \(Self.day(report.since)) to \(Self.day(report.until)) (\(Self.number(days)) days)")]
        lines.append("")
        func row(_ label: String, _ text: String) { lines.append(bold(label.padded(toWidth: 12)) + " " + text) }
        row("Finished", "\(report.finished.count) \(report.finished.count == 1 ? "card" : "cards"), \(Self.number(report.throughputPerWeek)) a week"
            + stylist.apply(.dim, to: "  (started \(report.startedCount), created \(report.createdCount))"))
        row("Lead time", Self.describe(report.leadTime))
        row("Cycle time", Self.describe(report.cycleTime))
        let waits = report.columns.compactMap { column in
            report.meanTimeInColumn[column.id].map { "\(column.name) \(Self.number($0)) d" }
        }
        if !waits.isEmpty { row("Time in", waits.joined(separator: " · ") + stylist.apply(.dim, to: "  (mean over finished cards)")) }
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
                lines.append("  " + stylist.apply(.yellow, to: (Self.number(age) + " d").padded(toWidth: 7, alignment: .trailing)) + "  "
                             + column.padded(toWidth: columnWidth) + "  " + flow.history.slug + "  " + stylist.apply(.dim, to: VisibleControls.visible(flow.history.title)))
            }
        }
        if !notInHistory.isEmpty {
            lines.append(stylist.apply(.dim, to: "Not in the history yet (not committed): " + notInHistory.joined(separator: ", ")))
        }
        return lines
    }

    static func describe(_ statistics: FlowReport.Statistics?) -> String {
        guard let statistics else { return "no card finished" }
        return "median \(number(statistics.median)) days, 85th percentile \(number(statistics.percentile85)), mean \(number(statistics.mean))"
    }

    /// A figure with one decimal.
    static func number(_ value: Double) -> String {
        String(format: "%.1f", value)
    }

    /// `2026-11-22`.
    static func day(_ date: Date) -> String {
        String(JSON.timestamp(date).prefix(10))
    }
}
