import Foundation
import KanbanCore
import KanbanServer

/// The `--json` of `kanban report`'s forecast and `--check` (docs/report.md).
enum ReportJSON {
    static func days(_ value: Double) -> JSON { ReportCommand.days(value) }

    static func number(_ value: Int) -> JSON { .number(String(value)) }

    /// `{"question", "cards" | "date", "window": {...}, "trials", "seed", "results": [...], "histogram": [...]}`.
    static func forecast(_ forecast: FlowForecast) -> JSON {
        var members: [String: JSON] = [:]
        switch forecast.question {
        case .when(let cards):
            members["question"] = .string("when")
            members["cards"] = number(cards)
        case .howMany(let date):
            members["question"] = .string("how-many")
            members["date"] = .string(ReportFormat.day(date))
        }
        members["window"] = .object([
            "since": .string(ReportFormat.day(forecast.windowStart)),
            "until": .string(ReportFormat.day(forecast.start)),
            "days": number(forecast.samples.count),
            "finished": number(forecast.finishedInWindow),
        ])
        members["trials"] = number(forecast.trials)
        members["seed"] = .number(String(forecast.seed))
        members["results"] = .array(forecast.results.map { result in
            var fields: [String: JSON] = ["percentile": number(result.percentile)]
            switch forecast.question {
            case .when:
                fields["days"] = result.days.map(number) ?? .null
                fields["date"] = result.date.map { .string(ReportFormat.day($0)) } ?? .null
            case .howMany:
                fields["cards"] = result.cards.map(number) ?? .null
            }
            return .object(fields)
        })
        members["histogram"] = .array(forecast.histogram.sorted { $0.key < $1.key }.map { value, trials in
            .object(["value": number(value), "trials": number(trials)])
        })
        return .object(members)
    }

    /// `{"alerts": [...], "threshold", "inProgress", "slePercentile"}`.
    static func check(_ check: FlowCheck) -> JSON {
        let alerts: [JSON] = check.alerts.map { alert in
            switch alert {
            case .aging(let card, let threshold, _):
                .object(["kind": .string("aging"), "slug": .string(card.flow.history.slug), "column": .string(card.column),
                         "ageDays": days(card.ageDays), "thresholdDays": days(threshold), "message": .string(alert.message)])
            case .overLimit(let excess):
                .object(["kind": .string("over-limit"), "column": .string(excess.column), "cards": number(excess.count),
                         "limit": number(excess.limit), "message": .string(alert.message)])
            }
        }
        return .object([
            "alerts": .array(alerts),
            "thresholdDays": check.threshold.map(days) ?? .null,
            "inProgress": number(check.inProgressCount),
            "slePercentile": number(check.serviceLevelPercentile),
        ])
    }
}

extension ReportJSON {
    /// `cards` of `kanban report --json`, written straight to text as ``JSON/write(to:pretty:indent:)`` writes the
    /// member of a top-level object (keys sorted, two spaces a level): a report of 5,000 cards and 20,000 changes
    /// makes no tree of dictionaries to sort.
    static func cards(_ report: FlowReport) -> JSON {
        guard !report.cards.isEmpty else { return .array([]) }
        var text = "["
        text.reserveCapacity(report.cards.count * 1_500)
        func line(_ level: Int) {
            text += "\n"
            for _ in 0..<level { text += "  " }
        }
        func member(_ key: String, _ level: Int, first: Bool = false) {
            if !first { text += "," }
            line(level)
            text += "\"" + key + "\": "
        }
        func string(_ value: String?) {
            if let value { JSON.quote(value, into: &text) } else { text += "null" }
        }
        func strings(_ values: [String], _ level: Int) {
            guard !values.isEmpty else { return text += "[]" }
            text += "["
            for (index, value) in values.enumerated() {
                if index > 0 { text += "," }
                line(level + 1)
                JSON.quote(value, into: &text)
            }
            line(level)
            text += "]"
        }
        func days(_ value: Double?) {
            guard let value else { return text += "null" }
            ReportCommand.days(value).write(to: &text, pretty: true, indent: 0)
        }
        func place(_ value: CardPlace?) {
            ReportCommand.place(value).write(to: &text, pretty: true, indent: 0)
        }
        for (index, flow) in report.cards.enumerated() {
            if index > 0 { text += "," }
            line(2)
            text += "{"
            // Keys in the order the tree writer sorts them.
            member("changes", 3, first: true)
            let changes = flow.history.changes(through: report.until)
            if changes.isEmpty {
                text += "[]"
            } else {
                text += "["
                for (number, change) in changes.enumerated() {
                    if number > 0 { text += "," }
                    line(4)
                    text += "{"
                    member("agent", 5, first: true)
                    string(change.author?.agent)
                    member("author", 5)
                    string(change.author?.name)
                    member("commit", 5)
                    string(change.commit)
                    member("from", 5)
                    place(change.from)
                    member("kind", 5)
                    string(change.kind)
                    member("time", 5)
                    string(JSON.timestamp(change.time))
                    member("to", 5)
                    place(change.to)
                    line(4)
                    text += "}"
                }
                line(3)
                text += "]"
            }
            member("column", 3)
            string(flow.place.column ?? flow.archivedFrom)
            member("created", 3)
            string(JSON.timestamp(flow.created))
            member("cycleTimeDays", 3)
            days(flow.cycleTimeDays)
            member("finished", 3)
            string(flow.finished.map(JSON.timestamp))
            member("labels", 3)
            strings(flow.history.labels, 3)
            member("leadTimeDays", 3)
            days(flow.leadTimeDays)
            member("previousSlugs", 3)
            strings(flow.history.previousSlugs, 3)
            member("slug", 3)
            string(flow.history.slug)
            member("started", 3)
            string(flow.started.map(JSON.timestamp))
            member("state", 3)
            let state: String
            switch flow.place {
            case .column: state = flow.finished != nil ? "finished" : flow.started != nil ? "started" : "waiting"
            case .archived: state = "archived"
            case .deleted: state = "deleted"
            }
            string(state)
            member("timeInColumn", 3)
            JSON.object(flow.timeInColumn.mapValues(ReportCommand.days)).write(to: &text, pretty: true, indent: 3)
            member("title", 3)
            string(flow.history.title)
            line(2)
            text += "}"
        }
        line(1)
        text += "]"
        return .rendered(text)
    }
}
