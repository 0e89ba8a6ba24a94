import Foundation
import Testing

/// `kanban archive` and `kanban unarchive`.
@Suite struct ArchiveCommandTests {
    /// The archive entries a command added, by comparing listings before and after.
    private func newArchiveEntries(_ board: TemporaryBoard, since before: [String]) throws -> [String] {
        try board.entries("archive").filter { !before.contains($0) }
    }

    @Test func archivesACardKeepingItsBytesButModified() throws {
        try withTemporaryBoard(.sample) { board throws in
            let original = "cards/todo/press-kit-and-screenshots.md"
            let bytes = try board.bytes(original)
            let archiveBefore = try board.entries("archive")
            let dayBefore = utcDay()
            let result = try board.run(["archive", "press-kit-and-screenshots"])
            let dayAfter = utcDay()
            #expect(result.status == 0, "\(result)")
            #expect(result.stderr.isEmpty)

            let added = try newArchiveEntries(board, since: archiveBefore)
            #expect(added.count == 1)
            let name = try #require(added.first)
            #expect([dayBefore, dayAfter].contains { name == "\($0)-press-kit-and-screenshots.md" }, "\(name)")
            #expect(result.stdout == "archived press-kit-and-screenshots → archive/\(name)\n")
            let archived = String(decoding: try board.bytes("archive/" + name), as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            #expect(archived.count == lines.count)
            for (new, old) in zip(archived, lines) where new != old {
                #expect(new.hasPrefix("modified: ") && old.hasPrefix("modified: "), "the archived file keeps every line but 'modified'")
            }
            #expect(!board.exists(original))

            #expect(try board.listJSON(["--archived"]).contains { $0.slug == "press-kit-and-screenshots" && $0.column == "todo" })
            #expect(!(try board.slugs(inColumn: "todo")).contains("press-kit-and-screenshots"))
        }
    }

    @Test func archivesSeveralCards() throws {
        try withTemporaryBoard(.sample) { board throws in
            let before = try board.entries("archive")
            let result = try board.run(["archive", "new-app-icon", "beta-feedback-survey"])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.lines.count == 2)
            #expect(result.stdout.lines.first?.hasPrefix("archived new-app-icon → archive/") == true, "\(result)")
            #expect(result.stdout.lines.last?.hasPrefix("archived beta-feedback-survey → archive/") == true, "\(result)")
            #expect(try newArchiveEntries(board, since: before).count == 2)
            #expect(!board.exists("cards/done/new-app-icon.md"))
            #expect(!board.exists("cards/done/beta-feedback-survey.md"))
        }
    }

    @Test func aTakenArchiveNameGetsANumber() throws {
        try withTemporaryBoard(.simple) { board throws in
            #expect(try board.run(["add", "Twice"]).status == 0)
            #expect(try board.run(["archive", "twice"]).status == 0)
            // A card with the same slug, put back by hand, archived the same day.
            try board.write("---\ntitle: Twice\ncolumn: todo\nposition: a0\n---\n\nAgain.", to: "cards/todo/twice.md")
            let result = try board.run(["archive", "cards/todo/twice.md"])
            #expect(result.status == 0, "\(result)")
            let entries = try board.entries("archive")
            #expect(entries.count == 2)
            #expect(entries.contains { $0.hasSuffix("-twice.md") })
            #expect(entries.contains { $0.hasSuffix("-twice-2.md") }, "\(entries)")
            #expect(result.stdout.hasSuffix("-twice-2.md\n"), "\(result)")
        }
    }

    /// add, show and delete print paths relative to the current directory, as git does; archive should too.
    @Test func showsTheArchivePathRelativeToTheCurrentDirectory() throws {
        try withTemporaryBoard(.sample) { board throws in
            let result = try board.run(["archive", "new-app-icon"], in: "cards")
            #expect(result.status == 0, "\(result)")
            let name = try #require(try board.entries("archive").first { $0.hasSuffix("-new-app-icon.md") })
            #expect(result.stdout == "archived new-app-icon → ../archive/\(name)\n" || result.stdout == "archived new-app-icon → \(board.absolute("archive/" + name))\n",
                    "\(result)")
        }
    }

    @Test func quietPrintsNothing() throws {
        try withTemporaryBoard(.sample) { board throws in
            let result = try board.run(["archive", "-q", "new-app-icon"])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.isEmpty)
            #expect(!board.exists("cards/done/new-app-icon.md"))
        }
    }

    @Test func anUnknownOrArchivedCardCannotBeArchived() throws {
        try withTemporaryBoard(.sample) { board throws in
            let before = try board.files()
            let unknown = try board.run(["archive", "no-such-card"])
            #expect(unknown.status == 1, "\(unknown)")
            #expect(unknown.stdout.isEmpty)
            #expect(unknown.stderr == "error: no card on the board matches 'no-such-card'\n")

            let archived = try board.run(["archive", "pick-the-launch-date"])
            #expect(archived.status == 1, "\(archived)")
            #expect(archived.stdout.isEmpty)

            let missing = try board.run(["archive"])
            #expect(missing.status == 64, "\(missing)")
            #expect(try board.files() == before)
        }
    }

    @Test func unarchivesToTheColumnItCameFrom() throws {
        try withTemporaryBoard(.sample) { board throws in
            let archived = "archive/2026-10-22-pick-the-launch-date.md"
            let before = try board.text(archived)
            let result = try board.run(["unarchive", "pick-the-launch-date"])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout == "unarchived pick-the-launch-date → Done\n")
            #expect(result.stderr.isEmpty)
            #expect(!board.exists(archived))

            let restored = "cards/done/pick-the-launch-date.md"
            let after = try board.text(restored)
            let changes = lineChanges(from: before, to: after)
            #expect(Set(changes.removed) == ["position: n", "modified: 2026-10-20T10:00:00Z"], "\(changes)")
            #expect(changes.added.count == 2, "\(changes)")
            #expect(CardText(after).body == CardText(before).body)
            #expect(CardText(after).value("column") == "done")
            #expect(try board.slugs(inColumn: "done").last == "pick-the-launch-date", "at the bottom")
        }
    }

    @Test func unarchivesToAnotherColumn() throws {
        try withTemporaryBoard(.sample) { board throws in
            let result = try board.run(["unarchive", "tooltip-flicker-on-hover", "--column", "review"])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout == "unarchived tooltip-flicker-on-hover → Review\n")
            #expect(CardText(try board.text("cards/review/tooltip-flicker-on-hover.md")).value("column") == "review")
            #expect(try board.slugs(inColumn: "review").last == "tooltip-flicker-on-hover")

            let unknown = try board.run(["unarchive", "pick-the-launch-date", "--column", "doing"])
            #expect(unknown.status == 1, "\(unknown)")
            #expect(unknown.stderr.hasPrefix("error: no column 'doing' on this board"), "\(unknown)")
            #expect(board.exists("archive/2026-10-22-pick-the-launch-date.md"))
        }
    }

    @Test func unarchivesSeveralCards() throws {
        try withTemporaryBoard(.sample) { board throws in
            let result = try board.run(["unarchive", "pick-the-launch-date", "internal-alpha-for-dogfooding", "-c", "todo"])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout == "unarchived pick-the-launch-date → To Do\nunarchived internal-alpha-for-dogfooding → To Do\n")
            #expect(Array(try board.slugs(inColumn: "todo").suffix(2)) == ["pick-the-launch-date", "internal-alpha-for-dogfooding"])
        }
    }

    @Test func archiveThenUnarchiveRoundTrips() throws {
        try withTemporaryBoard(.sample) { board throws in
            let path = "cards/review/windows-arm64-installer.md"
            let before = try board.text(path)
            #expect(try board.run(["archive", "windows-arm64-installer"]).status == 0)
            let result = try board.run(["unarchive", "windows-arm64-installer"])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout == "unarchived windows-arm64-installer → Review\n")
            let changes = lineChanges(from: before, to: try board.text(path))
            #expect(changes.removed.allSatisfy { $0.hasPrefix("position: ") || $0.hasPrefix("modified: ") }, "\(changes)")
            #expect(try board.slugs(inColumn: "review").last == "windows-arm64-installer")
        }
    }

    @Test func anActiveCardCannotBeUnarchived() throws {
        try withTemporaryBoard(.sample) { board throws in
            let before = try board.files()
            let result = try board.run(["unarchive", "new-app-icon"])
            #expect(result.status == 1, "\(result)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr == "error: no card in the archive matches 'new-app-icon'\n")
            #expect(try board.files() == before)
        }
    }

    @Test func unarchivingToATakenSlugGetsANumber() throws {
        try withTemporaryBoard(.sample) { board throws in
            #expect(try board.run(["add", "Pick the launch date", "--column", "done"]).stdout == "cards/done/pick-the-launch-date-2.md\n")
            try FileManager.default.moveItem(atPath: board.absolute("cards/done/pick-the-launch-date-2.md"),
                                             toPath: board.absolute("cards/done/pick-the-launch-date.md"))
            let result = try board.run(["unarchive", "archive/2026-10-22-pick-the-launch-date.md"])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout == "unarchived pick-the-launch-date-2 → Done\n")
            #expect(board.exists("cards/done/pick-the-launch-date-2.md"))
            #expect(try board.showJSON("cards/done/pick-the-launch-date-2.md").title == "Pick the launch date")
        }
    }
}
