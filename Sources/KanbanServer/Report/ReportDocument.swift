import Foundation
import KanbanCore

/// `kanban report --svg` and `--html`: the charts as one standalone file, with inline SVG and CSS, no script and
/// nothing fetched, for a wiki page or a retrospective.
package enum ReportDocument {
    static let chartWidth = 720.0
    static let chartHeight = 220.0
    static let margin = (left: 44.0, right: 12.0, top: 28.0, bottom: 34.0)

    /// The three charts stacked in one SVG document.
    /// - Parameter note: A line shown under the title (that the history is shallow).
    package static func svg(_ report: FlowReport, title: String, note: String? = nil) -> String {
        let charts = [flow(report), throughput(report), cycleTimes(report)]
        let top: Double = note == nil ? 40 : 56
        let height = chartHeight * Double(charts.count) + top
        var text = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(format(chartWidth))" height="\(format(height))" \
            viewBox="0 0 \(format(chartWidth)) \(format(height))" font-family="system-ui, sans-serif" font-size="11">
            <title>\(escaped(title)): flow report</title>
            <rect width="100%" height="100%" fill="#ffffff"/>
            <text x="\(format(margin.left))" y="22" font-size="15" font-weight="bold">\(escaped(title)) \
            <tspan font-weight="normal" fill="#666">\(ReportFormat.day(report.since)) to \(ReportFormat.day(report.until))</tspan></text>

            """
        if let note { text += "<text x=\"\(format(margin.left))\" y=\"40\" fill=\"#a15c00\">\(escaped(note))</text>\n" }
        for (index, chart) in charts.enumerated() {
            text += "<g transform=\"translate(0 \(format(top + chartHeight * Double(index))))\">\n\(chart)</g>\n"
        }
        return text + "</svg>\n"
    }

    /// A page with the figures and the charts.
    /// - Parameter form: The page's Report view: its way back and the form of its options; none in a file.
    package static func html(_ report: FlowReport, title: String, notInHistory: [String], note: String? = nil, form: Form? = nil) -> String {
        let lines = ReportSummary(report: report, title: title, notInHistory: notInHistory).lines()
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <title>\(escaped(title)): flow report</title>
            <style>
            \(style)
            </style>
            </head>
            <body>
            \(form.map { $0.html } ?? "")
            <h1>\(escaped(title))</h1>
            \(note.map { "<p><strong>Note:</strong> \(escaped($0))</p>" } ?? "")
            <pre>\(escaped(lines.dropFirst(2).joined(separator: "\n")))</pre>
            \(svg(report, title: title, note: note))</body>
            </html>

            """
    }

    // MARK: Charts

    static var plotWidth: Double { chartWidth - margin.left - margin.right }
    static var plotHeight: Double { chartHeight - margin.top - margin.bottom }

    /// The frame of a chart: its title, the axes with their top value, and the period's first and last day.
    static func frame(_ title: String, top: Double, report: FlowReport) -> String {
        let bottom = margin.top + plotHeight
        return """
            <text x="\(format(margin.left))" y="16" font-weight="bold">\(escaped(title))</text>
            <line x1="\(format(margin.left))" y1="\(format(margin.top))" x2="\(format(margin.left))" y2="\(format(bottom))" stroke="#999"/>
            <line x1="\(format(margin.left))" y1="\(format(bottom))" x2="\(format(margin.left + plotWidth))" y2="\(format(bottom))" stroke="#999"/>
            <text x="\(format(margin.left - 4))" y="\(format(margin.top + 4))" text-anchor="end" fill="#666">\(ReportFormat.axisNumber(top))</text>
            <text x="\(format(margin.left - 4))" y="\(format(bottom))" text-anchor="end" fill="#666">0</text>
            <text x="\(format(margin.left))" y="\(format(bottom + 14))" fill="#666">\(ReportFormat.day(report.since))</text>
            <text x="\(format(margin.left + plotWidth))" y="\(format(bottom + 14))" text-anchor="end" fill="#666">\(ReportFormat.day(report.until))</text>

            """
    }

    static func legend(_ entries: [(color: String, name: String)]) -> String {
        var x = margin.left
        var text = ""
        let y = chartHeight - 8
        for entry in entries {
            text += "<rect x=\"\(format(x))\" y=\"\(format(y - 9))\" width=\"10\" height=\"10\" fill=\"\(entry.color)\"/>"
            text += "<text x=\"\(format(x + 14))\" y=\"\(format(y))\">\(escaped(entry.name))</text>\n"
            x += 24 + Double(entry.name.count) * 6.5
        }
        return text
    }

    /// The cumulative flow diagram: one filled band per column, stacked, the done column at the bottom.
    static func flow(_ report: FlowReport) -> String {
        let days = report.days
        let colors = ReportFormat.colors(report)
        let order = ReportFormat.bandOrder(report).filter { index in days.contains { $0.counts[index] > 0 } }
        let top = Double(max(days.map { $0.counts.reduce(0, +) }.max() ?? 0, 1))
        var text = frame("Cumulative flow", top: top, report: report)
        guard !days.isEmpty else { return text }
        func x(_ index: Int) -> Double { margin.left + (days.count == 1 ? 0 : Double(index) / Double(days.count - 1) * plotWidth) }
        func y(_ value: Double) -> Double { margin.top + plotHeight - value / top * plotHeight }
        var lower = Array(repeating: 0.0, count: days.count)
        for index in order {
            let upper = days.enumerated().map { lower[$0.offset] + Double($0.element.counts[index]) }
            var points = upper.enumerated().map { "\(format(x($0.offset))),\(format(y($0.element)))" }
            points += lower.enumerated().reversed().map { "\(format(x($0.offset))),\(format(y($0.element)))" }
            text += "<polygon fill=\"\(colors[index])\" points=\"\(points.joined(separator: " "))\"><title>\(escaped(report.columns[index].name))</title></polygon>\n"
            lower = upper
        }
        return text + legend(order.map { (colors[$0], report.columns[$0].name) })
    }

    /// One bar a week.
    static func throughput(_ report: FlowReport) -> String {
        let weeks = report.weeks
        let top = Double(max(weeks.map(\.finished).max() ?? 0, 1))
        var text = frame("Throughput (cards finished each week)", top: top, report: report)
        // Each bar spans its week on the same time axis as the other charts (the first and last weeks cut to the
        // period), so that a bar stands under the dots of the cards it counts.
        let span = max(report.until.timeIntervalSince(report.since), 1)
        func x(_ date: Date) -> Double { margin.left + min(max(date.timeIntervalSince(report.since) / span, 0), 1) * plotWidth }
        for week in weeks where week.finished > 0 {
            let height = Double(week.finished) / top * plotHeight
            let left = x(week.start)
            let width = x(week.start.addingTimeInterval(7 * FlowReport.day)) - left
            text += "<rect x=\"\(format(left + width * 0.1))\" y=\"\(format(margin.top + plotHeight - height))\" "
                + "width=\"\(format(max(width * 0.8, 1)))\" height=\"\(format(height))\" fill=\"#2ecc71\">"
                + "<title>week of \(ReportFormat.day(week.start)): \(week.finished)</title></rect>\n"
        }
        return text
    }

    /// A dot per finished card at its finish, its cycle time up the side, and the 85th percentile as a dashed line.
    static func cycleTimes(_ report: FlowReport) -> String {
        let points = report.finished.compactMap { flow in flow.finished.flatMap { date in flow.cycleTimeDays.map { (flow, date, $0) } } }
        let percentile = report.cycleTime?.percentile85
        let top = ReportFormat.roundedUp(max((points.map(\.2).max() ?? 0) * 1.05, percentile ?? 0))
        var text = frame("Cycle time of each finished card (days)", top: top, report: report)
        let span = max(report.until.timeIntervalSince(report.since), 1)
        func y(_ value: Double) -> Double { margin.top + plotHeight - value / top * plotHeight }
        if let percentile {
            text += "<line x1=\"\(format(margin.left))\" y1=\"\(format(y(percentile)))\" x2=\"\(format(margin.left + plotWidth))\" "
                + "y2=\"\(format(y(percentile)))\" stroke=\"#e74c3c\" stroke-dasharray=\"4 3\"/>\n"
        }
        for (flow, date, days) in points {
            let x = margin.left + date.timeIntervalSince(report.since) / span * plotWidth
            text += "<circle cx=\"\(format(x))\" cy=\"\(format(y(days)))\" r=\"3\" fill=\"#3498db\">"
                + "<title>\(escaped(flow.history.title)): \(ReportFormat.number(days)) days</title></circle>\n"
        }
        var entries = [(color: "#3498db", name: "a finished card")]
        if let percentile { entries.append(("#e74c3c", "85th percentile, \(ReportFormat.number(percentile)) days")) }
        return text + legend(entries)
    }

    /// A coordinate with at most one decimal.
    static func format(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }

    /// Text made safe for XML and HTML, scalar by scalar: a `"` or `<` that a combining mark or a prefix character
    /// joins into one Character with its neighbour is escaped all the same. Controls other than line feed and tab,
    /// which XML cannot hold, become U+FFFD.
    static func escaped(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result.append(contentsOf: "&amp;".unicodeScalars)
            case "<": result.append(contentsOf: "&lt;".unicodeScalars)
            case ">": result.append(contentsOf: "&gt;".unicodeScalars)
            case "\"": result.append(contentsOf: "&quot;".unicodeScalars)
            case "'": result.append(contentsOf: "&#39;".unicodeScalars)
            case _ where scalar.value < 0x20 && scalar != "\n" && scalar != "\t": result.append("\u{FFFD}")
            default: result.append(scalar)
            }
        }
        return String(result)
    }
}
