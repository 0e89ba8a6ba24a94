import Foundation
import Testing

/// `kanban delete`.
@Suite struct DeleteCommandTests {
    @Test func deletesACardAndSaysWhat() throws {
        try withTemporaryBoard(.sample) { board throws in
            let before = try board.files()
            let result = try board.run(["delete", "press-kit-and-screenshots"])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout == "deleted press-kit-and-screenshots (cards/todo/press-kit-and-screenshots.md)\n")
            #expect(result.stderr.isEmpty)
            #expect(TemporaryBoard.changes(from: before, to: try board.files()) == ["cards/todo/press-kit-and-screenshots.md"])
            #expect(!board.exists("cards/todo/press-kit-and-screenshots.md"))
        }
    }

    @Test func deletesSeveralCardsAndArchivedOnes() throws {
        try withTemporaryBoard(.sample) { board throws in
            let result = try board.run(["delete", "new-app-icon", "pick-the-launch-date", "cards/review/windows-arm64-installer.md"])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout == """
                deleted new-app-icon (cards/done/new-app-icon.md)
                deleted pick-the-launch-date (archive/2026-10-22-pick-the-launch-date.md)
                deleted windows-arm64-installer (cards/review/windows-arm64-installer.md)

                """)
            #expect(!board.exists("cards/done/new-app-icon.md"))
            #expect(!board.exists("archive/2026-10-22-pick-the-launch-date.md"))
            #expect(!board.exists("cards/review/windows-arm64-installer.md"))
            #expect(try board.listJSON(["--all"]).count == 29 - 3)
        }
    }

    @Test func pathsAreShownRelativeToTheCurrentDirectory() throws {
        try withTemporaryBoard(.sample) { board throws in
            let result = try board.run(["delete", "press-kit-and-screenshots"], in: "cards/todo")
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout == "deleted press-kit-and-screenshots (press-kit-and-screenshots.md)\n")
        }
    }

    @Test func deletesACardThatCannotBeRead() throws {
        try withTemporaryBoard(.fixture("messy")) { board throws in
            let result = try board.run(["delete", "cards/doing/unclosed.md"])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.hasPrefix("deleted "), "\(result)")
            #expect(result.stdout.hasSuffix(" (cards/doing/unclosed.md)\n"), "\(result)")
            #expect(!board.exists("cards/doing/unclosed.md"))
        }
    }

    @Test func quietPrintsNothing() throws {
        try withTemporaryBoard(.sample) { board throws in
            let result = try board.run(["delete", "--quiet", "new-app-icon"])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.isEmpty)
            #expect(!board.exists("cards/done/new-app-icon.md"))
        }
    }

    @Test func anUnknownOrAmbiguousCardDeletesNothing() throws {
        try withTemporaryBoard(.sample) { board throws in
            let before = try board.files()
            let unknown = try board.run(["delete", "no-such-card"])
            #expect(unknown.status == 1, "\(unknown)")
            #expect(unknown.stdout.isEmpty)
            #expect(unknown.stderr == "error: no card on the board or in the archive matches 'no-such-card'\n")

            let ambiguous = try board.run(["delete", "beta"])
            #expect(ambiguous.status == 1, "\(ambiguous)")
            #expect(ambiguous.stderr == "error: 'beta' matches 2 cards\n  It could be: beta-1-release-to-testers, beta-feedback-survey\n")

            let missing = try board.run(["delete"])
            #expect(missing.status == 64, "\(missing)")
            #expect(try board.files() == before)
        }
    }

    @Test func refusesPathsOutsideTheBoard() throws {
        try withTemporaryBoard(.sample) { board throws in
            let outside = board.root + "/outside.md"
            try Data("---\ntitle: Outside\n---\n".utf8).write(to: URL(fileURLWithPath: outside))
            let before = try board.files()
            for reference in [outside, "../outside.md", "cards/../../outside.md"] {
                let result = try board.run(["delete", reference])
                #expect(result.status == 1, "\(reference): \(result)")
                #expect(result.stdout.isEmpty)
                #expect(result.stderr.hasPrefix("error: "), "\(result)")
                #expect(result.stderr.contains("outside the board"), "\(reference): \(result)")
                #expect(FileManager.default.fileExists(atPath: outside), "\(reference) deleted a file outside the board")
            }
            #expect(try board.files() == before)
        }
    }
}
