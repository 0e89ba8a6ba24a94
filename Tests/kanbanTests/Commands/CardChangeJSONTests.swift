import Foundation
import Testing

/// The `--json` of the commands that change cards (an agent's most used ones: `move` and `archive`), the app's bulk
/// move rule, and the app's local archive date.
@Suite struct CardChangeJSONTests {
    @Test func moveArchiveUnarchiveAndDeletePrintTheCardsTheyChanged() throws {
        try withTemporaryBoard(.sample) { board in
            let move = try board.run(["move", "press-kit-and-screenshots", "done", "--json"])
            #expect(move.status == 0 && move.stderr.isEmpty, "\(move)")
            let moved = try decodeJSON([CardJSON].self, from: move.stdout)
            #expect(moved.map(\.slug) == ["press-kit-and-screenshots"] && moved.first?.column == "done" && moved.first?.body != nil, "\(move)")
            #expect(moved.first == (try board.showJSON("press-kit-and-screenshots")))

            let archive = try board.run(["archive", "press-kit-and-screenshots", "--json"])
            let archived = try decodeJSON([CardJSON].self, from: archive.stdout)
            #expect(archived.first?.archived == true && archived.first?.path.hasPrefix("archive/") == true, "\(archive)")

            let unarchive = try board.run(["unarchive", "press-kit-and-screenshots", "--json"])
            #expect(try decodeJSON([CardJSON].self, from: unarchive.stdout).first?.column == "done", "\(unarchive)")

            let delete = try board.run(["delete", "press-kit-and-screenshots", "--json"])
            let deleted = try decodeJSON([CardJSON].self, from: delete.stdout)
            #expect(deleted.first?.slug == "press-kit-and-screenshots" && !board.exists(deleted.first?.path ?? "?"), "\(delete)")
        }
    }

    @Test func aBulkMoveLeavesACardAlreadyInTheTargetColumnAlone() throws {
        try withTemporaryBoard(.sample) { board in
            let already = "cards/done/new-app-icon.md"
            let before = try board.bytes(already)
            let result = try board.run(["move", "press-kit-and-screenshots", "new-app-icon", "update-website-download-page", "--to", "done"])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.contains("new-app-icon is already in Done"), "\(result)")
            #expect(try board.bytes(already) == before, "the card already in done was rewritten")
            let done = try board.slugs(inColumn: "done")
            let first = try #require(done.firstIndex(of: "press-kit-and-screenshots"))
            #expect(done.dropFirst(first + 1).first == "update-website-download-page", "the moved cards lost their order: \(done)")
        }
    }

    @Test func anArchivedFileIsNamedByTheLocalDay() throws {
        try withTemporaryBoard(.sample) { board in
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = try #require(TimeZone(identifier: "Pacific/Kiritimati"))
            func localDay() -> String {
                let parts = calendar.dateComponents([.year, .month, .day], from: Date())
                return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
            }
            // Kiritimati is UTC+14: from 10:00 UTC on, its day is the next one (the UTC day would be wrong).
            let before = localDay()
            let result = try board.run(["archive", "press-kit-and-screenshots", "--json"], environment: ["TZ": "Pacific/Kiritimati"])
            let after = localDay()
            let card = try #require(try decodeJSON([CardJSON].self, from: result.stdout).first, "\(result)")
            #expect([before, after].map { "archive/\($0)-press-kit-and-screenshots.md" }.contains(card.path), "\(card.path)")
        }
    }
}

extension CardChangeJSONTests {
    /// `kanban agents` promises JSON from every command it names: each of them takes `--json`.
    @Test func everyCommandTheAgentsGuideNamesTakesJSON() throws {
        try withTemporaryBoard(.sample) { board in
            let guide = try board.run(["agents"]).stdout
            // `sync` is named only as a command not to run unless asked.
            let named = Set(guide.matches(of: /`kanban ([a-z-]+)/).map { String($0.output.1) }).subtracting(["help", "sync"])
            #expect(named.isSuperset(of: ["move", "archive", "add", "set", "show"]), "\(named.sorted())")
            for command in named.sorted() {
                let help = try board.run([command, "--help"])
                #expect(help.stdout.contains("--json"), "kanban \(command) has no --json, though 'kanban agents' names it")
            }
        }
    }
}
