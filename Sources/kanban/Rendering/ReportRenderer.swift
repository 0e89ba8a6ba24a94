import Foundation
import KanbanCore
import KanbanServer

/// `kanban report` in the terminal: the figures, then the charts drawn with block characters to the given width.
struct ReportRenderer {
    var report: FlowReport
    var title: String
    var notInHistory: [String]
    var forecast: FlowForecast?
    var width: Int
    var stylist: Stylist

    /// Every line of the report.
    func lines() -> [String] {
        var lines = summary()
        lines.append("")
        lines += ReportChart.flow(report, width: width).rendered(stylist)
        lines.append("")
        lines += ReportChart.throughput(report, width: width).rendered(stylist)
        lines.append("")
        lines += ReportChart.cycleTimes(report, width: width).rendered(stylist)
        lines.append("")
        lines += ReportChart.workInProgress(report, width: width).rendered(stylist)
        return lines
    }

    /// The figures (``ReportSummary``), styled for the terminal.
    func summary() -> [String] {
        ReportSummary(report: report, title: title, notInHistory: notInHistory, forecast: forecast) { style, text in
            switch style {
            case .bold: stylist.apply(.bold, to: text)
            case .dim: stylist.apply(.dim, to: text)
            case .yellow: stylist.apply(.yellow, to: text)
            case .red: stylist.apply(.red, to: text)
            }
        }.lines()
    }
}
