import Foundation
import Testing

extension GitTests {
    /// `kanban report --forecast`, `--forecast-by`, `--sle` and `--check` on a history of one card finished a day.
    @Suite struct ReportForecastCommandTests {
        /// A shared board where one card is finished on each of days 0 to 19 (made straight in Done, one commit a
        /// day), `old` started on day 0 and `young` on day 15, both still in progress.
        private func oneCardADay(_ workspace: GitWorkspace) throws -> String {
            let (ana, _) = try workspace.makeSharedBoard()
            for day in 0..<20 {
                if day == 0 { try ReportCommandTests.kanban(workspace, ["add", "Old", "--column", "in-progress"], in: ana, day: 0) }
                if day == 15 { try ReportCommandTests.kanban(workspace, ["add", "Young", "--column", "in-progress"], in: ana, day: 15) }
                try ReportCommandTests.kanban(workspace, ["add", "Card \(day)", "--column", "done"], in: ana, day: day)
                try ReportCommandTests.commitAll(workspace, in: ana, day: day, message: "day \(day)")
            }
            return ana
        }

        @Test func oneCardADayForecastsTenCardsInTenDaysInEveryOutput() throws {
            try withGitWorkspace { workspace in
                let ana = try oneCardADay(workspace)
                let until = ["--until", "2026-01-24"]
                let text = try workspace.kanban(["report", "--forecast", "10", "--seed", "5"] + until, in: ana)
                #expect(text.status == 0, "\(text)")
                #expect(text.stdout.contains("Forecast     10 more cards done by:  50% 2026-02-03 · 70% 2026-02-03 · 85% 2026-02-03 · 95% 2026-02-03"),
                        "\(text.stdout)")
                #expect(text.stdout.contains("from 20 cards finished in the 20 days 2026-01-05 to 2026-01-24; 10,000 trials, seed 5"), "\(text.stdout)")
                let json = try decodeJSON(JSONValue.self, from: try workspace.kanban(["report", "--json", "--forecast", "10", "--seed", "5"] + until, in: ana).stdout)
                let forecast = try #require(json["forecast"])
                #expect(forecast["results"]?.arrayValue?.map { $0["days"] } == Array(repeating: .number(10), count: 4))
                #expect(forecast["seed"] == .number(5) && forecast["trials"] == .number(10_000))
                #expect(forecast["window"]?["days"] == .number(20) && forecast["window"]?["finished"] == .number(20))
                let byDate = try decodeJSON(JSONValue.self, from: try workspace.kanban(["report", "--json", "--forecast-by", "2026-01-29"] + until, in: ana).stdout)
                #expect(byDate["forecast"]?["results"]?.arrayValue?.map { $0["cards"] } == Array(repeating: .number(5), count: 4))
                let svg = try workspace.kanban(["report", "--svg", "-", "--forecast", "10"] + until, in: ana)
                #expect(svg.stdout.contains("Forecast: days until 10 more cards are done (10,000 trials)"))
                for chart in ["Work in progress", "Aging work in progress", "Throughput histogram", "Cycle-time histogram"] {
                    #expect(svg.stdout.contains(chart), "\(chart)")
                }
                let html = try workspace.kanban(["report", "--html", "-", "--forecast", "10"] + until, in: ana)
                #expect(html.stdout.contains("10 more cards done by:  50% 2026-02-03"))
                // No forecast asked: none given.
                #expect(try ReportCommandTests.report(workspace, in: ana)["forecast"] == .null)
            }
        }

        @Test(arguments: [
            (["--forecast", "0"], "--forecast takes a whole number from 1 to 100000"),
            (["--forecast", "ten"], "--forecast takes a whole number"),
            (["--forecast", "5", "--forecast-by", "2026-02-01"], "--forecast"),
            (["--forecast", "5", "--trials", "99"], "--trials takes a whole number from 100 to 1000000"),
            (["--forecast", "5", "--forecast-window", "0"], "--forecast-window takes"),
            (["--forecast", "5", "--seed", "-1"], "--seed takes a whole number"),
            (["--seed", "3"], "--seed goes with --forecast or --forecast-by"),
            (["--forecast-by", "someday"], "invalid date 'someday'"),
            (["--sle", "101"], "--sle takes a whole number from 1 to 100"),
            (["--max-age", "5"], "--max-age goes with --check"),
            (["--check", "--max-age", "-1"], "--max-age takes a number of days"),
        ]) func badNumbersAreUsageErrors(arguments: [String], message: String) throws {
            try withGitWorkspace { workspace in
                let (ana, _) = try workspace.makeSharedBoard()
                let result = try workspace.kanban(["report"] + arguments, in: ana)
                #expect(result.status == 64, "\(result)")
                #expect(result.stderr.contains(message), "\(result.stderr)")
            }
        }

        @Test func tooLittleHistoryIsRefusedAndSaysWhy() throws {
            try withGitWorkspace { workspace in
                let ana = try oneCardADay(workspace)
                let result = try workspace.kanban(["report", "--forecast", "3", "--until", "2026-01-10"], in: ana)
                #expect(result.status == 1, "\(result)")
                #expect(result.stderr.contains("too little history to forecast from: 6 days (2026-01-05 to 2026-01-10)"), "\(result.stderr)")
                #expect(result.stdout.isEmpty)
            }
        }

        @Test func checkNamesOldCardsAndFullColumnsAndFailsForCI() throws {
            try withGitWorkspace { workspace in
                let ana = try oneCardADay(workspace)
                let until = ["--until", "2026-01-24"]
                let fine = try workspace.kanban(["report", "--check", "--max-age", "30"] + until, in: ana)
                #expect(fine.status == 0, "\(fine)")
                #expect(fine.stdout == "2 cards in progress, none longer than 30.0 days; no column over its WIP limit\n")
                let old = try workspace.kanban(["report", "--check", "--max-age", "10"] + until, in: ana)
                #expect(old.status == 3, "\(old)")
                #expect(old.stdout.hasPrefix("aging: old has been in progress 19."), "\(old.stdout)")
                #expect(old.stdout.split(separator: "\n").count == 1)
                try ReportCommandTests.kanban(workspace, ["column", "limit", "in-progress", "1"], in: ana, day: 19)
                let full = try workspace.kanban(["report", "--check", "--max-age", "30"] + until, in: ana)
                #expect(full.status == 3, "\(full)")
                #expect(full.stdout == "over-limit: column 'in-progress' holds 2 cards, over its WIP limit of 1\n")
                let json = try decodeJSON(JSONValue.self, from: try workspace.kanban(["report", "--check", "--json", "--max-age", "10"] + until, in: ana).stdout)
                #expect(json["alerts"]?.arrayValue?.map { $0["kind"] } == [.string("aging"), .string("over-limit")])
                #expect(json["thresholdDays"] == .number(10))
                // The SLE of cards made in Done is 0 days: every card in progress is past it.
                let sle = try workspace.kanban(["report", "--check"] + until, in: ana)
                #expect(sle.status == 3 && sle.stdout.contains("longer than the SLE of 0.0 days"), "\(sle)")
            }
        }

        @Test func cycleTimeByWhoStartedTheCardKeepsAgentsApart() throws {
            try withGitWorkspace { workspace in
                let (ana, _) = try workspace.makeSharedBoard()
                func run(_ arguments: [String], day: Int, as environment: [String: String]) throws {
                    let result = try workspace.kanban(arguments + ["--commit"], in: ana, environment: ReportCommandTests.dated(day).merging(environment) { $1 })
                    try #require(result.status == 0, "\(arguments): \(result)")
                }
                let person = ["GIT_AUTHOR_NAME": "Ana Lima"]
                let agent = ["KANBAN_AGENT": "bot-1"]
                for title in ["A", "B", "C"] { try run(["add", title], day: 0, as: person) }
                try run(["move", "a", "in-progress"], day: 1, as: person)
                try run(["move", "b", "in-progress"], day: 2, as: agent)
                try run(["move", "c", "in-progress"], day: 1, as: agent)
                try run(["move", "a", "done"], day: 3, as: person)
                try run(["move", "b", "done"], day: 3, as: person)
                try run(["move", "c", "done"], day: 5, as: agent)
                let json = try ReportCommandTests.report(workspace, in: ana)
                let workers = try #require(json["workers"]?.arrayValue)
                #expect(workers.map { $0["name"] } == [.string("bot-1"), .string("Ana Lima")])
                #expect(workers.map { $0["agent"] } == [.bool(true), .bool(false)])
                #expect(workers[0]["cycleTime"]?["count"] == .number(2) && workers[0]["cycleTime"]?["median"] == .number(2.5))
                #expect(workers[1]["cycleTime"]?["median"] == .number(2))
                let b = try ReportCommandTests.card(json, "b")
                let start = try #require(b["changes"]?.arrayValue?.first { $0["to"] == .string("in-progress") })
                #expect(start["agent"] == .string("bot-1"))
                let text = try workspace.kanban(["report", "--until", "2026-01-31"], in: ana)
                #expect(text.stdout.contains("Cycle time by who started the card"), "\(text.stdout)")
                #expect(text.stdout.contains("  bot-1 (agent)  2.5 d, 4.0 d; 2"), "\(text.stdout)")
            }
        }
    }
}
