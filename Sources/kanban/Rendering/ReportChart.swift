import Foundation
import KanbanCore
import KanbanServer

/// One chart of `kanban report` drawn with block characters: a title, rows of cells each with a character and a
/// colour, a y axis on the left, the period's first and last day under it, and a legend.
struct ReportChart {
    /// One character cell of the plot.
    struct Cell {
        var character: Character = " "
        var color: String?
    }

    var title: String
    /// The plot, top row first.
    var rows: [[Cell]]
    /// The value at the top of the y axis, and at the middle.
    var top: Double
    var since: Date
    var until: Date
    /// Legend entries: a sample cell and its name.
    var legend: [(Cell, String)] = []

    /// Columns the y axis takes: up to five digits, a space and `┤`.
    static let axisWidth = 7

    /// The lines, styled by `stylist` (bands in colour on a terminal, told apart by shading without).
    func rendered(_ stylist: Stylist) -> [String] {
        var lines = [stylist.apply(.bold, to: title)]
        let height = rows.count
        for (index, row) in rows.enumerated() {
            var label = ""
            if index == 0 { label = ReportFormat.axisNumber(top) }
            if height > 4, index == height / 2, top > 1 { label = ReportFormat.axisNumber(top * Double(height - index) / Double(height)) }
            var line = stylist.apply(.dim, to: label.padded(toWidth: Self.axisWidth - 2, alignment: .trailing) + " ┤")
            // Runs of one colour take one escape sequence.
            var run = ""
            var runColor: String?
            for cell in row {
                let color = cell.character == " " ? nil : cell.color
                if color != runColor {
                    line += runColor.map { stylist.apply(.foreground(hex: $0), to: run) } ?? run
                    run = ""
                    runColor = color
                }
                run.append(cell.character)
            }
            line += runColor.map { stylist.apply(.foreground(hex: $0), to: run) } ?? run
            lines.append(line.trimmingTrailingSpaces())
        }
        let plotWidth = rows.first?.count ?? 0
        let first = ReportFormat.day(since)
        let last = ReportFormat.day(until)
        let gap = max(1, plotWidth - first.count - last.count)
        lines.append(stylist.apply(.dim, to: String(repeating: " ", count: Self.axisWidth - 3) + "0 └" + String(repeating: "─", count: plotWidth)))
        lines.append(stylist.apply(.dim, to: String(repeating: " ", count: Self.axisWidth) + first + String(repeating: " ", count: gap) + last))
        if !legend.isEmpty {
            let entries = legend.map { cell, name in
                (cell.color.map { stylist.apply(.foreground(hex: $0), to: String(cell.character)) } ?? String(cell.character)) + " " + name
            }
            lines.append(String(repeating: " ", count: Self.axisWidth) + entries.joined(separator: "  "))
        }
        return lines
    }

    // MARK: The three charts

    /// Shading that tells the bands apart without colour, the done column's first.
    static let shades: [Character] = ["█", "▓", "░", "▒", "#", "=", "+", ":", "·"]

    /// The plot's width for a terminal `width` columns wide: all of it but the axis.
    static func plotWidth(_ width: Int) -> Int {
        max(20, width - axisWidth - 1)
    }

    /// The cumulative flow diagram: for each day, the cards in each column stacked, the done column at the bottom.
    static func flow(_ report: FlowReport, width: Int, height: Int = 12) -> ReportChart {
        let days = report.days
        let plotWidth = Self.plotWidth(width)
        let colors = ReportFormat.colors(report)
        let order = ReportFormat.bandOrder(report).filter { index in days.contains { $0.counts[index] > 0 } || report.workInProgress[index] > 0 }
        let totals = days.map { $0.counts.reduce(0, +) }
        let top = Double(max(totals.max() ?? 0, 1))
        var rows = Array(repeating: Array(repeating: Cell(), count: plotWidth), count: height)
        for x in 0..<plotWidth where !days.isEmpty {
            let day = days[min(days.count - 1, x * days.count / plotWidth)]
            var stack: [(upper: Double, band: Int)] = []
            var running = 0.0
            for (rank, index) in order.enumerated() {
                running += Double(day.counts[index])
                stack.append((running, rank))
            }
            for row in 0..<height {
                let middle = (Double(height - 1 - row) + 0.5) / Double(height) * top
                guard let band = stack.first(where: { middle < $0.upper }) else { continue }
                let index = order[band.band]
                rows[row][x] = Cell(character: shades[band.band % shades.count], color: colors[index])
            }
        }
        let legend = order.enumerated().map { rank, index in (Cell(character: shades[rank % shades.count], color: colors[index]), report.columns[index].name) }
        return ReportChart(title: "Cumulative flow (cards in each column at the end of each day)", rows: rows, top: top,
                           since: report.since, until: report.until, legend: legend)
    }

    /// Cards finished per week, one bar a week.
    static func throughput(_ report: FlowReport, width: Int, height: Int = 8) -> ReportChart {
        let weeks = report.weeks
        let plotWidth = Self.plotWidth(width)
        let top = Double(max(weeks.map(\.finished).max() ?? 0, 1))
        var rows = Array(repeating: Array(repeating: Cell(), count: plotWidth), count: height)
        let eighths: [Character] = [" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
        let slot = max(1, plotWidth / max(weeks.count, 1))
        for x in 0..<plotWidth where !weeks.isEmpty {
            let week = min(weeks.count - 1, x * weeks.count / plotWidth)
            // A gap between bars when there is room for one.
            if slot > 1, (x + 1) * weeks.count / plotWidth != week, x + 1 < plotWidth { continue }
            let value = Double(weeks[week].finished) / top * Double(height)
            for row in 0..<height {
                let level = value - Double(height - 1 - row)
                guard level > 0 else { continue }
                rows[row][x] = Cell(character: eighths[min(8, max(1, Int((level * 8).rounded())))], color: "#2ecc71")
            }
        }
        return ReportChart(title: "Throughput (cards finished each week)", rows: rows, top: top, since: report.since, until: report.until)
    }

    /// Cycle time of each card finished in the period, at the time it finished, with the 50th, 70th, 85th and 95th
    /// percentiles as lines.
    static func cycleTimes(_ report: FlowReport, width: Int, height: Int = 10) -> ReportChart {
        let plotWidth = Self.plotWidth(width)
        let points = report.finished.compactMap { flow in flow.finished.flatMap { date in flow.cycleTimeDays.map { (date, $0) } } }
        let lines = report.cycleTime.map { statistics in FlowReport.percentiles.map { ($0, statistics.percentile($0)) } } ?? []
        let top = ReportFormat.roundedUp(max((points.map(\.1).max() ?? 0) * 1.05, lines.last?.1 ?? 0))
        var rows = Array(repeating: Array(repeating: Cell(), count: plotWidth), count: height)
        func row(_ value: Double) -> Int { max(0, min(height - 1, height - 1 - Int((value / top * Double(height)).rounded(.down)))) }
        // The lower percentiles first, so that where two share a row the higher one shows.
        for (percentile, value) in lines {
            let line = row(value)
            for x in 0..<plotWidth { rows[line][x] = Cell(character: "┄", color: ReportFormat.percentileColor(percentile)) }
        }
        let span = max(report.until.timeIntervalSince(report.since), 1)
        for (date, days) in points {
            let x = min(plotWidth - 1, max(0, Int(date.timeIntervalSince(report.since) / span * Double(plotWidth))))
            rows[row(days)][x] = Cell(character: "●", color: "#3498db")
        }
        var legend = [(Cell(character: "●", color: "#3498db"), "a card (days from start to finish)")]
        if !lines.isEmpty {
            legend.append((Cell(character: "┄", color: ReportFormat.percentileColor(85)),
                           lines.map { "\($0.0)% \(ReportFormat.number($0.1))" }.joined(separator: ", ") + " days (percentiles)"))
        }
        return ReportChart(title: "Cycle time of each finished card", rows: rows, top: top, since: report.since, until: report.until, legend: legend)
    }

    /// The cards in progress at the end of each day: the WIP run chart.
    static func workInProgress(_ report: FlowReport, width: Int, height: Int = 8) -> ReportChart {
        let values = report.workInProgressByDay
        let plotWidth = Self.plotWidth(width)
        let top = Double(max(values.max() ?? 0, 1))
        var rows = Array(repeating: Array(repeating: Cell(), count: plotWidth), count: height)
        let eighths: [Character] = [" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
        for x in 0..<plotWidth where !values.isEmpty {
            let value = Double(values[min(values.count - 1, x * values.count / plotWidth)]) / top * Double(height)
            for row in 0..<height {
                let level = value - Double(height - 1 - row)
                guard level > 0 else { continue }
                rows[row][x] = Cell(character: eighths[min(8, max(1, Int((level * 8).rounded())))], color: "#f39c12")
            }
        }
        let columns = report.inProgressColumns.filter { $0 < report.boardColumnCount }.map { report.columns[$0].name }
        return ReportChart(title: "Work in progress (cards in \(columns.joined(separator: ", ")) at the end of each day)", rows: rows, top: top,
                           since: report.since, until: report.until)
    }
}

extension String {
    /// The string without spaces at its end.
    fileprivate func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
