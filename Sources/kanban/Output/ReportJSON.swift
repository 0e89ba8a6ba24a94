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
