import Foundation
import KanbanCore

/// How `kanban report` writes its figures, in the terminal and in the HTML document alike: numbers, days, the
/// columns' colours and the order of the bands.
package enum ReportFormat {
    /// A chart axis's number: whole from 10 up, else with one decimal.
    package static func axisNumber(_ value: Double) -> String {
        value >= 10 || value == value.rounded() ? String(Int(value.rounded())) : String(format: "%.1f", value)
    }

    /// The colour of each column's band: the first column grey, the done column green, the rest from a palette.
    package static func colors(_ report: FlowReport) -> [String] {
        let palette = ["#3498db", "#f39c12", "#9b59b6", "#1abc9c", "#e91e63", "#e67e22", "#34495e"]
        return report.columns.enumerated().map { offset, column in
            if column.id == report.doneColumn { return "#2ecc71" }
            if offset == 0 { return "#95a5a6" }
            return palette[(offset - 1) % palette.count]
        }
    }

    /// The colour of a percentile's line: green at 50 %, through yellow and orange, to red at 95 %.
    package static func percentileColor(_ percentile: Int) -> String {
        switch percentile {
        case ..<60: "#27ae60"
        case ..<80: "#d4ac0d"
        case ..<90: "#e67e22"
        default: "#e74c3c"
        }
    }

    /// The band order from the bottom: the done column first, then the columns before it from the last to the first,
    /// then the others.
    package static func bandOrder(_ report: FlowReport) -> [Int] {
        let done = report.columns.firstIndex { $0.id == report.doneColumn } ?? report.columns.count - 1
        return [done] + (0..<done).reversed() + ((done + 1)..<report.columns.count)
    }

    /// A round value at or above `value` for the top of an axis: a whole number up to 10, then a multiple of 5.
    package static func roundedUp(_ value: Double) -> Double {
        value <= 10 ? max(1, value.rounded(.up)) : (value / 5).rounded(.up) * 5
    }

    /// Lead or cycle time statistics in words: `median 2.0 days, 85th percentile 4.5, mean 2.6`.
    package static func describe(_ statistics: FlowReport.Statistics?) -> String {
        guard let statistics else { return "no card finished" }
        return "median \(number(statistics.median)) days, 85th percentile \(number(statistics.percentile85)), mean \(number(statistics.mean))"
    }

    /// `85th`, `1st`, `92nd`, `23rd`.
    package static func ordinal(_ value: Int) -> String {
        let suffix: String
        switch (value % 10, value % 100) {
        case (_, 11...13): suffix = "th"
        case (1, _): suffix = "st"
        case (2, _): suffix = "nd"
        case (3, _): suffix = "rd"
        default: suffix = "th"
        }
        return "\(value)\(suffix)"
    }

    /// A forecast in two lines: the answer at each confidence, then what it stands on.
    package static func describe(_ forecast: FlowForecast) -> [String] {
        let answers: String
        switch forecast.question {
        case .when(let cards):
            let dates = forecast.results.map { result in
                "\(result.percentile)% \(result.date.map(day) ?? "after \(FlowForecast.horizonDays / 365) years")"
            }
            answers = "\(cards) more card\(cards == 1 ? "" : "s") done by:  " + dates.joined(separator: " · ")
        case .howMany(let date):
            let counts = forecast.results.map { "\($0.percentile)% \($0.cards ?? 0)" }
            answers = "cards done by \(day(date)), at least:  " + counts.joined(separator: " · ")
        }
        let days = forecast.samples.count
        let basis = "from \(forecast.finishedInWindow) cards finished in the \(days) days \(day(forecast.windowStart)) to \(day(forecast.start)); "
            + "\(grouped(forecast.trials)) trials, seed \(forecast.seed)"
        return [answers, basis]
    }

    /// `10,000`: a whole number with its thousands apart, the same in every locale.
    package static func grouped(_ value: Int) -> String {
        var digits = String(value.magnitude)
        var index = digits.endIndex
        while digits.distance(from: digits.startIndex, to: index) > 3 {
            index = digits.index(index, offsetBy: -3)
            digits.insert(",", at: index)
        }
        return (value < 0 ? "-" : "") + digits
    }

    /// A figure with one decimal.
    package static func number(_ value: Double) -> String {
        String(format: "%.1f", value)
    }

    /// `2026-11-22`.
    package static func day(_ date: Date) -> String {
        String(JSON.timestamp(date).prefix(10))
    }
}
