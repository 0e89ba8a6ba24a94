import Foundation
import KanbanCore

extension ReportDocument {
    /// The options of the page's Report view, as the address gave them, checked as `kanban report` checks its own,
    /// and the form that changes them.
    package struct Form {
        var board: Board
        var start: String?
        var done: String?
        var since: String?
        var until: String?
        var labels: [String]
        /// The forecast's question: `forecast` (cards) or `forecast-by` (a day); `window` and `seed` with either.
        var forecast: String?
        var forecastBy: String?
        var window: String?
        var seed: String?
        /// The SLE's percentile.
        var sle: String?

        init(board: Board, start: String?, done: String?, since: String?, until: String?, labels: [String],
             forecast: String? = nil, forecastBy: String? = nil, window: String? = nil, seed: String? = nil, sle: String? = nil) {
            self.board = board
            self.start = start
            self.done = done
            self.since = since
            self.until = until
            self.labels = labels
            self.forecast = forecast
            self.forecastBy = forecastBy
            self.window = window
            self.seed = seed
            self.sle = sle
        }

        /// The seed of a page's forecast when the address gives none: the same page shows the same answer.
        static let defaultSeed: UInt64 = 1

        /// A whole number from the address, checked against `range` before it is used.
        private func number(_ text: String?, _ name: String, in range: ClosedRange<Int>) throws(KanbanError) -> Int? {
            guard let text else { return nil }
            guard text.count <= 12, let value = Int(text), range.contains(value) else {
                throw KanbanError(.invalidArgument, "\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound)")
            }
            return value
        }

        /// The forecast the address asks for, if any (10,000 trials; the seed the address gives, else ``defaultSeed``).
        func forecastOptions() throws(KanbanError) -> FlowForecast.Options? {
            let question: FlowForecast.Question
            if let cards = try number(forecast, "forecast", in: FlowForecast.cardRange) {
                guard forecastBy == nil else { throw KanbanError(.invalidArgument, "give forecast or forecast-by, not both") }
                question = .when(cards: cards)
            } else if let forecastBy {
                guard let date = ISO8601.date(from: forecastBy) else {
                    throw KanbanError(.invalidArgument, "'\(forecastBy)' is not a date for forecast-by; give YYYY-MM-DD")
                }
                question = .howMany(by: forecastBy.count == 10 ? date.addingTimeInterval(FlowReport.day - 1) : date)
            } else {
                return nil
            }
            var seedValue = Self.defaultSeed
            if let seed {
                guard let value = UInt64(seed), value <= UInt64(Int64.max) else {
                    throw KanbanError(.invalidArgument, "seed must be a whole number from 0 to \(Int64.max)")
                }
                seedValue = value
            }
            return FlowForecast.Options(question: question,
                                        windowDays: try number(window, "window", in: FlowForecast.windowRange) ?? FlowForecast.defaultWindowDays,
                                        seed: seedValue)
        }

        /// The longest period a request may ask for, in days (twenty years).
        static let longestPeriod: Double = 7_305

        /// The report's options; throws what is wrong, in the words of `kanban report`.
        func options(now: Date) throws(KanbanError) -> FlowReport.Options {
            func date(_ text: String?, _ name: String, endOfDay: Bool) throws(KanbanError) -> Date? {
                guard let text else { return nil }
                guard let date = ISO8601.date(from: text) else {
                    throw KanbanError(.invalidArgument, "'\(text)' is not a date for \(name); give YYYY-MM-DD")
                }
                return endOfDay && text.count == 10 ? date.addingTimeInterval(FlowReport.day - 1) : date
            }
            let sinceDate = try date(since, "since", endOfDay: false)
            // A request may not make the server draw a day for every day of ten thousand years.
            let untilDate = min(try date(until, "until", endOfDay: true) ?? now, now.addingTimeInterval(FlowReport.day))
            if let sinceDate, sinceDate > untilDate { throw KanbanError(.invalidArgument, "since comes after until") }
            if let sinceDate, untilDate.timeIntervalSince(sinceDate) > Self.longestPeriod * FlowReport.day {
                throw KanbanError(.invalidArgument, "the period is longer than \(Int(Self.longestPeriod)) days; give a later since")
            }
            let options = FlowReport.Options(since: sinceDate, until: untilDate, startColumn: start, doneColumn: done, labels: labels,
                                             serviceLevelPercentile: try number(sle, "sle", in: 1...100) ?? 85)
            try options.check(against: board)
            return options
        }

        /// The form, as HTML: a GET to `/report` with the options filled in, and the way back to the board.
        var html: String {
            func select(_ name: String, _ label: String, _ chosen: String?, _ options: [(String, String)], none: String) -> String {
                var text = "<label>\(label) <select name=\"\(name)\"><option value=\"\">\(escaped(none))</option>"
                for (value, shown) in options {
                    text += "<option value=\"\(escaped(value))\"\(value == chosen ? " selected" : "")>\(escaped(shown))</option>"
                }
                return text + "</select></label>\n"
            }
            let columns = board.columns.map { ($0.id, $0.name) }
            var text = "<nav><a href=\"./\">← Board</a></nav>\n"
            text += "<form method=\"get\" action=\"report\">\n"
            text += select("start", "Start", start, columns, none: "default (second column)")
            text += select("done", "Done", done, columns, none: "default (last column)")
            text += "<label>Since <input type=\"date\" name=\"since\" value=\"\(escaped(since ?? ""))\"></label>\n"
            text += "<label>Until <input type=\"date\" name=\"until\" value=\"\(escaped(until ?? ""))\"></label>\n"
            if labels.count > 1 {
                // Several labels (from the address): kept as they were given, so that Show keeps them.
                text += "<label>Labels <input name=\"label\" value=\"\(escaped(labels.joined(separator: ",")))\"></label>\n"
            } else {
                text += select("label", "Label", labels.first, board.labels.map { ($0.id, $0.name) }, none: "any")
            }
            text += "<label>SLE % <input type=\"number\" name=\"sle\" min=\"1\" max=\"100\" placeholder=\"85\" value=\"\(escaped(sle ?? ""))\"></label>\n"
            text += "<label>Forecast: when are N more cards done <input type=\"number\" name=\"forecast\" min=\"1\" max=\"100000\" "
                + "value=\"\(escaped(forecast ?? ""))\"></label>\n"
            text += "<label>or how many by <input type=\"date\" name=\"forecast-by\" value=\"\(escaped(forecastBy ?? ""))\"></label>\n"
            if let window { text += "<input type=\"hidden\" name=\"window\" value=\"\(escaped(window))\">\n" }
            if let seed { text += "<input type=\"hidden\" name=\"seed\" value=\"\(escaped(seed))\">\n" }
            text += "<button type=\"submit\">Show</button>\n</form>\n"
            return text
        }
    }

    /// The page's style: light and dark, as wide as the window allows, the summary wrapped rather than cut.
    static let style = """
        :root { color-scheme: light dark; --text: #222; --bg: #fff; --muted: #666; --code: #f6f8fa; --border: #d0d7de; }
        @media (prefers-color-scheme: dark) { :root { --text: #e6e6e6; --bg: #16181c; --muted: #9aa0a6; --code: #22262c; --border: #3a3f47; } }
        body { font-family: system-ui, sans-serif; margin: 1.5em auto; padding: 0 1em; max-width: min(1100px, 100%); color: var(--text); background: var(--bg); }
        pre { font-size: 13px; background: var(--code); padding: 1em; white-space: pre-wrap; overflow-wrap: anywhere; }
        svg { max-width: 100%; height: auto; border-radius: 6px; }
        nav a { color: inherit; }
        form { display: flex; flex-wrap: wrap; gap: 8px 14px; align-items: end; margin: 1em 0; font-size: 13px; }
        form label { display: flex; flex-direction: column; gap: 2px; color: var(--muted); }
        form select, form input, form button { font: inherit; color: var(--text); background: var(--bg); border: 1px solid var(--border); border-radius: 4px; padding: 3px 6px; }
        .problem { color: #c9372c; }
        """

    /// A page that says `message` (with the form, to change what was asked).
    static func message(_ message: String, form: Form? = nil) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head><meta charset="utf-8"><title>flow report</title><style>\(style)</style></head>
        <body>
        \(form.map { $0.html } ?? "<nav><a href=\"/\">← Board</a></nav>")
        <p class="problem">\(escaped(message))</p>
        </body>
        </html>

        """
    }
}
