import Foundation
import Testing

/// `kanban move`, with the order checked through `list --json`.
@Suite struct MoveCommandTests {
    static let todo = [
        "notarize-and-sign-the-macos-build", "localise-for-francais-and-espanol", "write-release-notes-for-2-0",
        "update-website-download-page", "press-kit-and-screenshots",
    ]
    static let done = [
        "accessibility-audit-of-the-main-window", "beta-1-release-to-testers", "fix-exif-orientation-for-rotated-iphone-photos",
        "new-app-icon", "beta-feedback-survey", "library-database-migration-to-schema-v8",
    ]

    @Test func movesACardToAnotherColumn() throws {
        try withTemporaryBoard(.sample) { board throws in
            let old = "cards/todo/press-kit-and-screenshots.md"
            let new = "cards/done/press-kit-and-screenshots.md"
            let before = try board.text(old)
            let result = try board.run(["move", "press-kit-and-screenshots", "done"])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout == "moved press-kit-and-screenshots: To Do → Done\n")
            #expect(result.stderr.isEmpty)

            #expect(!board.exists(old))
            #expect(board.exists(new))
            let after = try board.text(new)
            let changes = lineChanges(from: before, to: after)
            #expect(Set(changes.removed) == ["column: todo", "position: w", "modified: 2026-11-12T17:25:00Z"], "\(changes)")
            #expect(changes.added.contains("column: done"), "\(changes)")
            #expect(changes.added.count == 3)
            #expect(CardText(after).body == CardText(before).body)

            // At the bottom of Done.
            #expect(try board.slugs(inColumn: "done") == Self.done + ["press-kit-and-screenshots"])
            #expect(try board.slugs(inColumn: "todo") == Array(Self.todo.dropLast()))
        }
    }

    @Test func movesToAPlaceInAnotherColumn() throws {
        try withTemporaryBoard(.sample) { board throws in
            let top = try board.run(["move", "press-kit", "done", "--top"])
            #expect(top.status == 0, "\(top)")
            #expect(top.stdout == "moved press-kit-and-screenshots: To Do → Done\n")
            #expect(try board.slugs(inColumn: "done") == ["press-kit-and-screenshots"] + Self.done)

            let after = try board.run(["move", "notarize-and-sign-the-macos-build", "--to", "done", "--after", "new-app-icon"])
            #expect(after.status == 0, "\(after)")
            var expected = ["press-kit-and-screenshots"] + Self.done
            expected.insert("notarize-and-sign-the-macos-build", at: try #require(expected.firstIndex(of: "new-app-icon")) + 1)
            #expect(try board.slugs(inColumn: "done") == expected)
        }
    }

    @Test func reordersWithinAColumn() throws {
        try withTemporaryBoard(.sample) { board throws in
            let others = try board.files().filter { $0.key != "cards/todo/press-kit-and-screenshots.md" }
            let top = try board.run(["move", "press-kit-and-screenshots", "--top"])
            #expect(top.status == 0, "\(top)")
            #expect(top.stdout == "moved press-kit-and-screenshots within To Do\n")
            #expect(top.stderr.isEmpty)
            #expect(try board.slugs(inColumn: "todo") == ["press-kit-and-screenshots"] + Self.todo.dropLast())
            // Only the moved card's file changed.
            #expect(try board.files().filter { $0.key != "cards/todo/press-kit-and-screenshots.md" } == others)

            #expect(try board.run(["move", "press-kit-and-screenshots", "--bottom"]).status == 0)
            #expect(try board.slugs(inColumn: "todo") == Self.todo)

            let before = try board.run(["move", "notarize-and-sign-the-macos-build", "--before", "press-kit-and-screenshots"])
            #expect(before.status == 0, "\(before)")
            #expect(try board.slugs(inColumn: "todo") == [
                "localise-for-francais-and-espanol", "write-release-notes-for-2-0", "update-website-download-page",
                "notarize-and-sign-the-macos-build", "press-kit-and-screenshots",
            ])

            let after = try board.run(["move", "press-kit-and-screenshots", "--after", "localise"])
            #expect(after.status == 0, "\(after)")
            #expect(try board.slugs(inColumn: "todo") == [
                "localise-for-francais-and-espanol", "press-kit-and-screenshots", "write-release-notes-for-2-0",
                "update-website-download-page", "notarize-and-sign-the-macos-build",
            ])
        }
    }

    @Test func placesBetweenCardsThatShareAPosition() throws {
        // localise and write-release-notes both have position `n`: there is no key between them, so some are re-keyed.
        try withTemporaryBoard(.sample) { board throws in
            let result = try board.run(["move", "press-kit-and-screenshots", "--after", "localise-for-francais-and-espanol"])
            #expect(result.status == 0, "\(result)")
            #expect(try board.slugs(inColumn: "todo") == [
                "notarize-and-sign-the-macos-build", "localise-for-francais-and-espanol", "press-kit-and-screenshots",
                "write-release-notes-for-2-0", "update-website-download-page",
            ])
            if result.stderr.isEmpty == false {
                #expect(result.stderr.hasPrefix("  re-keyed "), "\(result)")
            }
        }
    }

    @Test func beforeOrAfterACardInAnotherColumnMovesThere() throws {
        try withTemporaryBoard(.sample) { board throws in
            let result = try board.run(["move", "press-kit-and-screenshots", "--before", "new-app-icon"])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout == "moved press-kit-and-screenshots: To Do → Done\n")
            var expected = Self.done
            expected.insert("press-kit-and-screenshots", at: try #require(expected.firstIndex(of: "new-app-icon")))
            #expect(try board.slugs(inColumn: "done") == expected)
        }
    }

    @Test func movesSeveralCardsKeepingTheirOrder() throws {
        try withTemporaryBoard(.sample) { board throws in
            let result = try board.run([
                "move", "update-website-download-page", "notarize-and-sign-the-macos-build", "press-kit-and-screenshots", "--to", "done",
            ])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout == """
                moved update-website-download-page: To Do → Done
                moved notarize-and-sign-the-macos-build: To Do → Done
                moved press-kit-and-screenshots: To Do → Done

                """)
            #expect(try board.slugs(inColumn: "done")
                == Self.done + ["update-website-download-page", "notarize-and-sign-the-macos-build", "press-kit-and-screenshots"])
            #expect(try board.slugs(inColumn: "todo") == ["localise-for-francais-and-espanol", "write-release-notes-for-2-0"])

            let top = try board.run(["move", "new-app-icon", "beta-feedback-survey", "--to", "todo", "--top"])
            #expect(top.status == 0, "\(top)")
            #expect(try board.slugs(inColumn: "todo")
                == ["new-app-icon", "beta-feedback-survey", "localise-for-francais-and-espanol", "write-release-notes-for-2-0"])
        }
    }

    @Test func severalCardsNeedTo() throws {
        try withTemporaryBoard(.sample) { board throws in
            let before = try board.files()
            let result = try board.run(["move", "press-kit-and-screenshots", "new-app-icon", "done"])
            #expect(result.status == 64, "\(result)")
            #expect(result.stderr.hasPrefix("error: to move several cards, name the column with --to"), "\(result)")
            #expect(try board.files() == before)
        }
    }

    @Test func anUnknownColumnIsRefused() throws {
        try withTemporaryBoard(.sample) { board throws in
            let before = try board.files()
            let result = try board.run(["move", "press-kit-and-screenshots", "doing"])
            #expect(result.status == 1, "\(result)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr == "error: no column 'doing' on this board\n  The board has: backlog, todo, in-progress, review, done\n")
            #expect(try board.files() == before)

            let escape = try board.run(["move", "press-kit-and-screenshots", "../../outside"])
            #expect(escape.status == 1, "\(escape)")
            #expect(try board.files() == before)
            #expect(!FileManager.default.fileExists(atPath: board.root + "/outside"))
        }
    }

    @Test func aCardCannotBePlacedRelativeToItself() throws {
        try withTemporaryBoard(.sample) { board throws in
            let before = try board.files()
            let result = try board.run(["move", "press-kit-and-screenshots", "--after", "press-kit-and-screenshots"])
            #expect(result.status == 1, "\(result)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr == "error: a card cannot be placed relative to itself\n")
            #expect(try board.files() == before)
        }
    }

    @Test func topAndBottomTogetherIsAUsageError() throws {
        try withTemporaryBoard(.sample) { board throws in
            let before = try board.files()
            let result = try board.run(["move", "press-kit-and-screenshots", "--top", "--bottom"])
            #expect(result.status == 64, "\(result)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.hasPrefix("error: "), "\(result)")
            #expect(result.stderr.contains("--top"), "\(result)")
            #expect(result.stderr.contains("--bottom"), "\(result)")
            #expect(try board.files() == before)
        }
    }

    @Test func nothingToDoIsAUsageError() throws {
        try withTemporaryBoard(.sample) { board throws in
            let before = try board.files()
            let result = try board.run(["move", "press-kit-and-screenshots"])
            #expect(result.status == 64, "\(result)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.hasPrefix("error: say where to: a column, --to, --top, --bottom, --before or --after"), "\(result)")
            #expect(result.stderr.contains("Usage: kanban move <card> [<column>]"), "\(result)")

            let nothing = try board.run(["move"])
            #expect(nothing.status == 64, "\(nothing)")
            #expect(try board.files() == before)
        }
    }

    @Test func movingToItsOwnColumnChangesNothing() throws {
        try withTemporaryBoard(.sample) { board throws in
            let before = try board.files()
            let result = try board.run(["move", "press-kit-and-screenshots", "todo"])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout == "press-kit-and-screenshots is already in To Do\n")
            #expect(try board.files() == before)
        }
    }

    @Test func quietPrintsNothing() throws {
        try withTemporaryBoard(.sample) { board throws in
            let result = try board.run(["--quiet", "move", "press-kit-and-screenshots", "done"])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.isEmpty)
            #expect(board.exists("cards/done/press-kit-and-screenshots.md"))
        }
    }

    @Test func aCardMovedByHandIsMovedFromWhereItIs() throws {
        try withTemporaryBoard(.fixture("messy")) { board throws in
            // moved-by-hand.md sits in done/ but says `column: todo`.
            let result = try board.run(["move", "moved-by-hand", "todo"])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout == "moved moved-by-hand: Done → To Do\n")
            #expect(!board.exists("cards/done/moved-by-hand.md"))
            #expect(CardText(try board.text("cards/todo/moved-by-hand.md")).value("column") == "todo")
            #expect(try board.slugs(inColumn: "todo").last == "moved-by-hand")
        }
    }
}
