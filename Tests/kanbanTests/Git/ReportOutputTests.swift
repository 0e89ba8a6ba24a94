import Foundation
import Testing

extension GitTests {
    /// What `kanban report` writes where, and what it refuses: a shallow history, `-` as standard output, a file in a
    /// directory that is not there, and messages in the words the person used.
    @Suite struct ReportOutputTests {
        /// A board with one finished card in clone `ana`, pushed, and the remote's path.
        private func finishedCard(_ workspace: GitWorkspace) throws -> (ana: String, remote: String) {
            let (ana, _) = try workspace.makeSharedBoard()
            try ReportCommandTests.kanban(workspace, ["add", "Alpha", "--commit"], in: ana, day: 0)
            try ReportCommandTests.kanban(workspace, ["move", "alpha", "in-progress", "--commit"], in: ana, day: 1)
            try ReportCommandTests.kanban(workspace, ["move", "alpha", "done", "--commit"], in: ana, day: 2)
            try workspace.git(["push", "--quiet"], in: ana)
            return (ana, workspace.root + "/remote.git")
        }

        @Test func aShallowHistoryIsRefusedWithTheCommandThatMendsItOrCountedAndSaidSo() throws {
            try withGitWorkspace { workspace in
                let (_, remote) = try finishedCard(workspace)
                let shallow = workspace.root + "/shallow"
                try workspace.git(["clone", "--quiet", "--depth", "1", "file://" + remote, shallow], in: workspace.root)
                let refused = try workspace.kanban(["report"], in: shallow)
                #expect(refused.status == 1, "\(refused)")
                #expect(refused.stderr.contains("shallow") && refused.stderr.contains("git fetch --unshallow") && refused.stdout.isEmpty, "\(refused)")
                let text = try workspace.kanban(["report", "--allow-shallow"], in: shallow)
                #expect(text.status == 0 && text.stdout.hasPrefix("note: The history is shallow"), "\(text)")
                let json = try workspace.kanban(["report", "--allow-shallow", "--json"], in: shallow)
                #expect(try decodeJSON(JSONValue.self, from: json.stdout)["shallowHistory"] == .bool(true), "\(json)")
                let html = try workspace.kanban(["report", "--allow-shallow", "--html", "-"], in: shallow)
                #expect(html.stdout.contains("<strong>Note:</strong> The history is shallow"), "\(html)")
                let full = try workspace.kanban(["report", "--json"], in: workspace.root + "/ana")
                #expect(try decodeJSON(JSONValue.self, from: full.stdout)["shallowHistory"] == .bool(false))
            }
        }

        @Test func aDashIsStandardOutputNotAFileNamedDash() throws {
            try withGitWorkspace { workspace in
                let (ana, _) = try finishedCard(workspace)
                let svg = try workspace.kanban(["report", "--svg", "-"], in: ana)
                #expect(svg.status == 0 && svg.stdout.hasPrefix("<svg ") && svg.stdout.hasSuffix("</svg>\n"), "\(svg)")
                let html = try workspace.kanban(["report", "--html", "-"], in: ana)
                #expect(html.status == 0 && html.stdout.hasPrefix("<!DOCTYPE html>"), "\(html)")
                #expect(!workspace.exists(ana + "/-"), "a file named '-' was written")
                let both = try workspace.kanban(["report", "--html", "-", "--json"], in: ana)
                #expect(both.status == 64, "\(both)")
            }
        }

        @Test func aFileInAMissingDirectorySaysWhichDirectory() throws {
            try withGitWorkspace { workspace in
                let (ana, _) = try finishedCard(workspace)
                let result = try workspace.kanban(["report", "--svg", "/missing/dir/x.svg"], in: ana)
                #expect(result.status == 1, "\(result)")
                #expect(result.stderr.contains("cannot write '/missing/dir/x.svg': there is no directory '/missing/dir'"), "\(result)")
                #expect(!result.stderr.contains("could not be completed"))
            }
        }

        @Test func oneCardIsOneCardAndADefaultColumnIsNamedAsADefault() throws {
            try withGitWorkspace { workspace in
                let (ana, _) = try finishedCard(workspace)
                let text = try workspace.kanban(["report", "--until", "2026-01-31"], in: ana)
                #expect(text.stdout.contains("1 card, "), "\(text)")
                let wrong = try workspace.kanban(["report", "--done", "todo"], in: ana)
                #expect(wrong.status != 0, "\(wrong)")
                #expect(wrong.stderr.contains("the start column 'in-progress' (the default: the second column; give --start) comes after the done column 'todo'"),
                        "\(wrong)")
            }
        }

        @Test func aLabelsPeriodStartsWithTheBoardsHistory() throws {
            try withGitWorkspace { workspace in
                let (ana, _) = try workspace.makeSharedBoard()
                try ReportCommandTests.kanban(workspace, ["label", "add", "late", "--commit"], in: ana, day: 0)
                try ReportCommandTests.kanban(workspace, ["add", "Early", "--commit"], in: ana, day: 0)
                try ReportCommandTests.kanban(workspace, ["add", "Later", "--label", "late", "--commit"], in: ana, day: 6)
                let all = try ReportCommandTests.report(workspace, in: ana)
                let late = try ReportCommandTests.report(workspace, in: ana, ["--label", "late"])
                #expect(late["since"] == all["since"], "\(String(describing: late["since"])) vs \(String(describing: all["since"]))")
            }
        }

        @Test func throughputBarsStandUnderTheDotsOfTheCardsTheyCount() throws {
            try withGitWorkspace { workspace in
                let (ana, _) = try finishedCard(workspace)
                try ReportCommandTests.kanban(workspace, ["add", "Beta", "--commit"], in: ana, day: 3)
                try ReportCommandTests.kanban(workspace, ["move", "beta", "in-progress", "--commit"], in: ana, day: 4)
                try ReportCommandTests.kanban(workspace, ["move", "beta", "done", "--commit"], in: ana, day: 19)
                let svg = try workspace.kanban(["report", "--svg", "-", "--until", "2026-01-31"], in: ana).stdout
                let bars = svg.matches(of: /<rect x="([\d.]+)" y="[\d.]+" width="([\d.]+)" height="[\d.]+" fill="#2ecc71">/)
                    .compactMap { match in Double(match.output.1).flatMap { x in Double(match.output.2).map { (x, x + $0) } } }
                let dots = svg.matches(of: /<circle cx="([\d.]+)"/).compactMap { Double($0.output.1) }
                #expect(bars.count == 2 && dots.count == 2, "\(bars) \(dots)")
                for dot in dots {
                    #expect(bars.contains { $0.0 - 2 <= dot && dot <= $0.1 + 2 }, "no bar under the dot at \(dot): \(bars)")
                }
            }
        }

        @Test func aPeriodBeforeTheHistoryIsSaidNotDrawnEmpty() throws {
            try withGitWorkspace { workspace in
                let (ana, _) = try finishedCard(workspace)
                let result = try workspace.kanban(["report", "--since", "2020-01-01", "--until", "2020-02-01"], in: ana)
                #expect(result.status != 0 && result.stderr.contains("before the board's history begins on 2026-01-05"), "\(result)")
            }
        }
    }
}
