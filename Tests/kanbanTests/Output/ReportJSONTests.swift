import Foundation
import KanbanCore
import Testing

@testable import KanbanServer
@testable import kanban

/// `report --json`'s cards, written straight to text, are the text the JSON tree writer makes of them.
@Suite struct ReportJSONTests {
    static let board = Board(title: "T", columns: [Column(id: "todo", name: "To Do"), Column(id: "doing", name: "Doing"), Column(id: "done", name: "Done")])

    /// The cards as a tree, as `report --json` made them before it wrote them straight.
    static func tree(_ report: FlowReport) -> JSON {
        .array(report.cards.map { flow in
            let state: String
            switch flow.place {
            case .column: state = flow.finished != nil ? "finished" : flow.started != nil ? "started" : "waiting"
            case .archived: state = "archived"
            case .deleted: state = "deleted"
            }
            let changes: [JSON] = flow.history.changes(through: report.until).map { change in
                .object(["time": .string(JSON.timestamp(change.time)), "commit": .string(change.commit), "kind": .string(change.kind),
                         "from": ReportCommand.place(change.from), "to": ReportCommand.place(change.to),
                         "author": change.author.map { .string($0.name) } ?? .null, "agent": change.author?.agent.map(JSON.string) ?? .null])
            }
            return .object([
                "slug": .string(flow.history.slug), "previousSlugs": .array(flow.history.previousSlugs.map(JSON.string)),
                "title": .string(flow.history.title), "labels": .array(flow.history.labels.map(JSON.string)),
                "column": flow.place.column.map(JSON.string) ?? flow.archivedFrom.map(JSON.string) ?? .null, "state": .string(state),
                "created": .string(JSON.timestamp(flow.created)), "started": flow.started.map { .string(JSON.timestamp($0)) } ?? .null,
                "finished": flow.finished.map { .string(JSON.timestamp($0)) } ?? .null,
                "leadTimeDays": flow.leadTimeDays.map(ReportCommand.days) ?? .null, "cycleTimeDays": flow.cycleTimeDays.map(ReportCommand.days) ?? .null,
                "timeInColumn": .object(flow.timeInColumn.mapValues(ReportCommand.days)), "changes": .array(changes),
            ])
        })
    }

    @Test func theCardsWrittenStraightAreTheTreesText() throws {
        let start = Date(timeIntervalSince1970: 1_767_571_200)
        func change(_ day: Double, _ from: CardPlace?, _ to: CardPlace, agent: String? = nil) -> CardPlaceChange {
            CardPlaceChange(time: start.addingTimeInterval(day * FlowReport.day), commit: "c\(day)", from: from, to: to,
                            author: day == 0 ? nil : CommitAuthor(name: "Ana \"A\" Lee", email: "a@e", agent: agent))
        }
        let histories = [
            CardHistory(slug: "done", previousSlugs: ["old-name", "older"], title: "Fix \"quotes\" and \\ backslash\ttab", labels: ["bug", "ui"],
                        changes: [change(0, nil, .column("todo")), change(1, .column("todo"), .column("doing"), agent: "bot-1"),
                                  change(2, .column("doing"), .column("done"))]),
            CardHistory(slug: "gone", title: "Café ☕", changes: [change(0, nil, .column("todo")), change(3, .column("todo"), .deleted)]),
            CardHistory(slug: "kept", title: "", changes: [change(0.5, nil, .column("done")), change(2, .column("done"), .archived)]),
            CardHistory(slug: "waiting", title: "Waits", changes: [change(1, nil, .column("todo"))]),
        ]
        let report = try FlowReport(board: Self.board, cards: histories, options: FlowReport.Options(until: start.addingTimeInterval(5 * FlowReport.day)))
        let straight = JSON.object(["cards": ReportJSON.cards(report)]).rendered(pretty: true)
        let tree = JSON.object(["cards": Self.tree(report)]).rendered(pretty: true)
        #expect(straight == tree)
        let empty = try FlowReport(board: Self.board, cards: [], options: FlowReport.Options(since: start, until: start.addingTimeInterval(FlowReport.day)))
        #expect(JSON.object(["cards": ReportJSON.cards(empty)]).rendered(pretty: true) == JSON.object(["cards": .array([])]).rendered(pretty: true))
    }
}
