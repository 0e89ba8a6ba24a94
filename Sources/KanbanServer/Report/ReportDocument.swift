import Foundation
import KanbanCore

/// `kanban report --svg` and `--html`: the charts as one standalone file, with inline SVG and CSS, no script and
/// nothing fetched, for a wiki page or a retrospective.
package enum ReportDocument {
    static let chartWidth = 720.0
    static let chartHeight = 220.0
    static let margin = (left: 44.0, right: 12.0, top: 28.0, bottom: 34.0)

    /// The charts stacked in one SVG document: the cumulative flow, throughput by week, the cycle-time scatter, the
    /// WIP run chart, aging work in progress, the throughput and cycle-time histograms, and the forecast's outcomes.
    /// - Parameters:
    ///   - note: A line shown under the title (that the history is shallow).
    ///   - forecast: The forecast asked for, drawn last.
    package static func svg(_ report: FlowReport, title: String, note: String? = nil, forecast: FlowForecast? = nil) -> String {
        var charts = [flow(report), throughput(report), cycleTimes(report), workInProgress(report), aging(report),
                      throughputHistogram(report), cycleTimeHistogram(report)]
        if let forecast { charts.append(outcomes(forecast)) }
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
    package static func html(_ report: FlowReport, title: String, notInHistory: [String], note: String? = nil, forecast: FlowForecast? = nil,
                             form: Form? = nil) -> String {
        let lines = ReportSummary(report: report, title: title, notInHistory: notInHistory, forecast: forecast).lines()
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
            \(svg(report, title: title, note: note, forecast: forecast))</body>
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

    /// A dot per finished card at its finish, its cycle time up the side, and the 50th, 70th, 85th and 95th
    /// percentiles as dashed lines.
    static func cycleTimes(_ report: FlowReport) -> String {
        let points = report.finished.compactMap { flow in flow.finished.flatMap { date in flow.cycleTimeDays.map { (flow, date, $0) } } }
        let lines = percentileLines(report)
        let top = ReportFormat.roundedUp(max((points.map(\.2).max() ?? 0) * 1.05, lines.last?.1 ?? 0))
        var text = frame("Cycle time of each finished card (days)", top: top, report: report)
        let span = max(report.until.timeIntervalSince(report.since), 1)
        func y(_ value: Double) -> Double { margin.top + plotHeight - value / top * plotHeight }
        text += horizontalLines(lines, y: y)
        for (flow, date, days) in points {
            let x = margin.left + date.timeIntervalSince(report.since) / span * plotWidth
            text += "<circle cx=\"\(format(x))\" cy=\"\(format(y(days)))\" r=\"3\" fill=\"#3498db\">"
                + "<title>\(escaped(flow.history.title)): \(ReportFormat.number(days)) days</title></circle>\n"
        }
        return text + legend([(color: "#3498db", name: "a finished card")] + lines.map { (ReportFormat.percentileColor($0.0), "\($0.0)%") })
    }

    /// The 50th, 70th, 85th and 95th percentiles of cycle time; none when no card finished.
    static func percentileLines(_ report: FlowReport) -> [(Int, Double)] {
        report.cycleTime.map { statistics in FlowReport.percentiles.map { ($0, statistics.percentile($0)) } } ?? []
    }

    /// Dashed lines across the plot at each percentile's value, each labelled at its right end.
    static func horizontalLines(_ lines: [(Int, Double)], y: (Double) -> Double) -> String {
        var text = ""
        for (index, (percentile, value)) in lines.enumerated() {
            let color = ReportFormat.percentileColor(percentile)
            // Labels side by side from the right, the highest percentile last, so that close lines keep them apart.
            let labelX = margin.left + plotWidth - 2 - Double(lines.count - 1 - index) * 78
            text += "<line x1=\"\(format(margin.left))\" y1=\"\(format(y(value)))\" x2=\"\(format(margin.left + plotWidth))\" "
                + "y2=\"\(format(y(value)))\" stroke=\"\(color)\" stroke-dasharray=\"4 3\"><title>\(percentile)th percentile: "
                + "\(ReportFormat.number(value)) days</title></line>\n"
            text += "<text x=\"\(format(labelX))\" y=\"\(format(y(value) - 3))\" text-anchor=\"end\" fill=\"\(color)\">"
                + "\(percentile)% \(ReportFormat.number(value)) d</text>\n"
        }
        return text
    }

    /// The cards in progress at the end of each day, as a line.
    static func workInProgress(_ report: FlowReport) -> String {
        let values = report.workInProgressByDay
        let top = Double(max(values.max() ?? 0, 1))
        var text = frame("Work in progress (cards started, not finished, at the end of each day)", top: top, report: report)
        guard !values.isEmpty else { return text }
        func x(_ index: Int) -> Double { margin.left + (values.count == 1 ? 0 : Double(index) / Double(values.count - 1) * plotWidth) }
        func y(_ value: Int) -> Double { margin.top + plotHeight - Double(value) / top * plotHeight }
        // Steps: a day's count holds until the next day's.
        var points: [String] = []
        for (index, value) in values.enumerated() {
            if index > 0 { points.append("\(format(x(index))),\(format(y(values[index - 1])))") }
            points.append("\(format(x(index))),\(format(y(value)))")
        }
        text += "<polyline fill=\"none\" stroke=\"#f39c12\" stroke-width=\"2\" points=\"\(points.joined(separator: " "))\"/>\n"
        // The sum of the in-progress columns' WIP limits, when each has one.
        let limits = report.inProgressColumns.filter { $0 < report.boardColumnCount }.map { report.columns[$0].wipLimit }
        if !limits.isEmpty, limits.allSatisfy({ $0 != nil }) {
            let limit = limits.compactMap { $0 }.reduce(0, +)
            if Double(limit) <= top * 1.5 {
                let yLimit = margin.top + plotHeight - min(Double(limit) / top, 1) * plotHeight
                text += "<line x1=\"\(format(margin.left))\" y1=\"\(format(yLimit))\" x2=\"\(format(margin.left + plotWidth))\" y2=\"\(format(yLimit))\" "
                    + "stroke=\"#e74c3c\" stroke-dasharray=\"2 2\"><title>WIP limits: \(limit)</title></line>\n"
            }
        }
        return text + legend([("#f39c12", "cards in progress"), ("#e74c3c", "the in-progress columns' WIP limits")])
    }

    /// Each card in progress as a dot in its column, at its age, against the percentiles of cycle time.
    static func aging(_ report: FlowReport) -> String {
        let columns = report.inProgressColumns.map { report.columns[$0] }
        let cards = report.aging
        let lines = percentileLines(report)
        let top = ReportFormat.roundedUp(max((cards.map(\.ageDays).max() ?? 0) * 1.05, lines.last?.1 ?? 0, 1))
        let bottom = margin.top + plotHeight
        var text = "<text x=\"\(format(margin.left))\" y=\"16\" font-weight=\"bold\">Aging work in progress (days since each card started)"
        text += report.serviceLevel.map { " · SLE \(ReportFormat.number($0)) days" } ?? ""
        text += "</text>\n" + axes(top: top)
        func y(_ value: Double) -> Double { bottom - value / top * plotHeight }
        text += horizontalLines(lines, y: y)
        let width = plotWidth / Double(max(columns.count, 1))
        for (index, column) in columns.enumerated() {
            let left = margin.left + Double(index) * width
            text += "<text x=\"\(format(left + width / 2))\" y=\"\(format(bottom + 14))\" text-anchor=\"middle\" fill=\"#666\">\(escaped(column.name))</text>\n"
            if index > 0 {
                text += "<line x1=\"\(format(left))\" y1=\"\(format(margin.top))\" x2=\"\(format(left))\" y2=\"\(format(bottom))\" stroke=\"#eee\"/>\n"
            }
            let here = cards.filter { $0.column == column.id }
            for (offset, card) in here.enumerated() {
                // Spread across the column so that cards of one age stay apart.
                let x = left + width * (Double(offset) + 1) / Double(here.count + 1)
                let color = card.isPastServiceLevel ? "#e74c3c" : card.percentileReached.map(ReportFormat.percentileColor) ?? "#3498db"
                text += "<circle cx=\"\(format(x))\" cy=\"\(format(y(card.ageDays)))\" r=\"4\" fill=\"\(color)\">"
                    + "<title>\(escaped(card.flow.history.title)): \(ReportFormat.number(card.ageDays)) days</title></circle>\n"
            }
        }
        return text + legend([("#3498db", "younger than the 50th percentile"), ("#e74c3c", "past the SLE")])
    }

    /// How many days saw 0, 1, 2... cards finished.
    static func throughputHistogram(_ report: FlowReport) -> String {
        let bars = report.throughputHistogram.enumerated().map { (label: String($0.offset), value: $0.element) }
        return histogram("Throughput histogram (days by cards finished that day)", bars: bars, color: "#27ae60", unit: "cards a day")
    }

    /// How many cards took under 1 day, 1 to 2, and so on, with the percentiles.
    static func cycleTimeHistogram(_ report: FlowReport) -> String {
        let bars = report.cycleTimeHistogram.enumerated().map { (label: String($0.offset), value: $0.element) }
        let marks = percentileLines(report).map { (position: $0.1, color: ReportFormat.percentileColor($0.0), label: "\($0.0)%") }
        return histogram("Cycle-time histogram (cards by whole days from start to finish)", bars: bars, color: "#3498db", unit: "days", marks: marks)
    }

    /// The forecast's outcomes: how many trials came to each number of days (or cards), with the answers marked.
    static func outcomes(_ forecast: FlowForecast) -> String {
        let values = forecast.histogram.keys.sorted()
        guard let first = values.first, let last = values.last else { return "" }
        // A histogram of at most a few hundred bars: wide ranges are grouped.
        let step = max(1, (last - first + 1 + 199) / 200)
        var bars: [(label: String, value: Int)] = []
        var value = first
        while value <= last {
            let trials = (value..<(value + step)).reduce(0) { $0 + (forecast.histogram[$1] ?? 0) }
            let shown = value > FlowForecast.horizonDays ? "later" : String(value)
            bars.append((label: shown, value: trials))
            value += step
        }
        let title: String
        let unit: String
        var marks: [(position: Double, color: String, label: String)] = []
        switch forecast.question {
        case .when(let cards):
            title = "Forecast: days until \(cards) more card\(cards == 1 ? "" : "s") are done (\(ReportFormat.grouped(forecast.trials)) trials)"
            unit = "days"
            for result in forecast.results {
                guard let days = result.days else { continue }
                marks.append((Double(days - first) / Double(step) + 0.5, ReportFormat.percentileColor(result.percentile), "\(result.percentile)%"))
            }
        case .howMany(let date):
            title = "Forecast: cards done by \(ReportFormat.day(date)) (\(ReportFormat.grouped(forecast.trials)) trials)"
            unit = "cards"
            for result in forecast.results {
                guard let cards = result.cards else { continue }
                marks.append((Double(cards - first) / Double(step) + 0.5, ReportFormat.percentileColor(result.percentile), "\(result.percentile)%"))
            }
        }
        return histogram(title, bars: bars, color: "#9b59b6", unit: unit, marks: marks)
    }

    /// A bar chart over categories: `bars` left to right, the first and last labelled under the axis, and `marks`
    /// as vertical dashed lines at a position counted in bars from the left edge (2.5: the middle of the third).
    static func histogram(_ title: String, bars: [(label: String, value: Int)], color: String, unit: String,
                          marks: [(position: Double, color: String, label: String)] = []) -> String {
        let top = Double(max(bars.map(\.value).max() ?? 0, 1))
        let bottom = margin.top + plotHeight
        var text = "<text x=\"\(format(margin.left))\" y=\"16\" font-weight=\"bold\">\(escaped(title))</text>\n" + axes(top: top)
        guard !bars.isEmpty else { return text }
        let width = plotWidth / Double(bars.count)
        for (index, bar) in bars.enumerated() where bar.value > 0 {
            let height = Double(bar.value) / top * plotHeight
            text += "<rect x=\"\(format(margin.left + Double(index) * width + width * 0.1))\" y=\"\(format(bottom - height))\" "
                + "width=\"\(format(max(width * 0.8, 0.5)))\" height=\"\(format(height))\" fill=\"\(color)\"><title>\(escaped(bar.label)) \(unit): "
                + "\(bar.value)</title></rect>\n"
        }
        text += "<text x=\"\(format(margin.left + width / 2))\" y=\"\(format(bottom + 14))\" text-anchor=\"middle\" fill=\"#666\">\(escaped(bars[0].label))</text>\n"
        if bars.count > 1 {
            text += "<text x=\"\(format(margin.left + plotWidth))\" y=\"\(format(bottom + 14))\" text-anchor=\"end\" fill=\"#666\">"
                + "\(escaped(bars[bars.count - 1].label)) \(unit)</text>\n"
        }
        for (offset, mark) in marks.enumerated() {
            let x = margin.left + min(max(mark.position, 0), Double(bars.count)) * width
            text += "<line x1=\"\(format(x))\" y1=\"\(format(margin.top))\" x2=\"\(format(x))\" y2=\"\(format(bottom))\" stroke=\"\(mark.color)\" "
                + "stroke-dasharray=\"4 3\"/>\n"
            text += "<text x=\"\(format(x + 2))\" y=\"\(format(margin.top + 10 + Double(offset % 4) * 11))\" fill=\"\(mark.color)\">\(escaped(mark.label))</text>\n"
        }
        return text
    }

    /// The two axes of a chart whose x axis is not time, with the top and 0 of the y axis.
    static func axes(top: Double) -> String {
        let bottom = margin.top + plotHeight
        return """
            <line x1="\(format(margin.left))" y1="\(format(margin.top))" x2="\(format(margin.left))" y2="\(format(bottom))" stroke="#999"/>
            <line x1="\(format(margin.left))" y1="\(format(bottom))" x2="\(format(margin.left + plotWidth))" y2="\(format(bottom))" stroke="#999"/>
            <text x="\(format(margin.left - 4))" y="\(format(margin.top + 4))" text-anchor="end" fill="#666">\(ReportFormat.axisNumber(top))</text>
            <text x="\(format(margin.left - 4))" y="\(format(bottom))" text-anchor="end" fill="#666">0</text>

            """
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
