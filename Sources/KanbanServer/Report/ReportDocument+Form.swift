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

        init(board: Board, start: String?, done: String?, since: String?, until: String?, labels: [String]) {
            self.board = board
            self.start = start
            self.done = done
            self.since = since
            self.until = until
            self.labels = labels
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
            let options = FlowReport.Options(since: sinceDate, until: untilDate, startColumn: start, doneColumn: done, labels: labels)
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
            var text = "<nav><a href=\"/\">← Board</a></nav>\n"
            text += "<form method=\"get\" action=\"/report\">\n"
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
