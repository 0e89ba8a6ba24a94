import Foundation
import Testing

extension GitTests {
    /// `kanban report DIR...`: one report a board, each from its own history.
    @Suite struct ReportBoardsTests {
        /// A repository holding two boards, `alpha` (a card finished) and `beta` (a card started), with dated commits.
        static func makeBoards(_ workspace: GitWorkspace) throws -> String {
            let repository = workspace.root + "/repo"
            try FileManager.default.createDirectory(atPath: repository, withIntermediateDirectories: true)
            _ = try workspace.git(["init", "--quiet", "-b", "main"], in: repository)
            for name in ["alpha", "beta"] {
                try ReportCommandTests.kanban(workspace, ["init", name, "--title", name.capitalized, "--columns", "todo:To Do,doing:Doing,done:Done"],
                                              in: repository, day: 0)
                try ReportCommandTests.commitAll(workspace, in: repository, day: 0, message: "The \(name) board")
                try ReportCommandTests.kanban(workspace, ["add", "\(name) card", "--commit"], in: repository + "/" + name, day: 0)
                try ReportCommandTests.kanban(workspace, ["move", "\(name)-card", "doing", "--commit"], in: repository + "/" + name, day: 1)
            }
            try ReportCommandTests.kanban(workspace, ["move", "alpha-card", "done", "--commit"], in: repository + "/alpha", day: 3)
            return repository
        }

        @Test func jsonIsOneReportABoardFromItsOwnHistory() throws {
            try withGitWorkspace { workspace in
                let repository = try Self.makeBoards(workspace)
                let result = try workspace.kanban(["report", repository, "--json", "--until", "2026-01-31"], in: repository)
                #expect(result.status == 0, "\(result)")
                let reports = try decodeJSON([JSONValue].self, from: result.stdout)
                #expect(reports.map { $0["board"]?.stringValue } == ["alpha", "beta"])
                #expect(reports[0]["directory"]?.stringValue?.hasSuffix("/repo/alpha") == true)
                let alpha = try #require(reports[0]["report"])
                let beta = try #require(reports[1]["report"])
                #expect(alpha["cards"]?.arrayValue?.map { $0["slug"]?.stringValue } == ["alpha-card"])
                #expect(beta["cards"]?.arrayValue?.map { $0["slug"]?.stringValue } == ["beta-card"])
                #expect(alpha["board"]?.stringValue == "Alpha" && beta["board"]?.stringValue == "Beta")
            }
        }

        @Test func textHeadsEachBoardsReportAndFilesTakeOneBoard() throws {
            try withGitWorkspace { workspace in
                let repository = try Self.makeBoards(workspace)
                let result = try workspace.kanban(["report", "alpha", "beta", "--until", "2026-01-31"], in: repository)
                #expect(result.status == 0, "\(result)")
                let alpha = try #require(result.stdout.range(of: "board alpha (\(repository)/alpha)"))
                let beta = try #require(result.stdout.range(of: "board beta (\(repository)/beta)"))
                #expect(alpha.lowerBound < beta.lowerBound)
                let svg = try workspace.kanban(["report", "alpha", "beta", "--svg", "x.svg"], in: repository)
                #expect(svg.status == 64 && svg.stderr.contains("one board"), "\(svg)")
                let one = try workspace.kanban(["report", "alpha", "--json", "--until", "2026-01-31"], in: repository)
                #expect(one.status == 0, "\(one)")
                #expect(try decodeJSON(JSONValue.self, from: one.stdout)["board"]?.stringValue == "Alpha")
            }
        }
    }
}
