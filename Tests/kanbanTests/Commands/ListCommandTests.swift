import Foundation
import Testing

/// `kanban list`, run as a person runs it.
@Suite struct ListCommandTests {
    /// The sample board's active cards, column by column, in board order (position byte order, ties by slug).
    static let sampleOrder: [(column: String, name: String, slugs: [String])] = [
        ("backlog", "Backlog", [
            "keyboard-shortcut-cheat-sheet", "dark-mode-for-the-print-dialog", "investigate-gpu-accelerated-thumbnail-decoding",
            "plugin-api-for-custom-export-targets", "face-grouping-in-people-view",
        ]),
        ("todo", "To Do", [
            "notarize-and-sign-the-macos-build", "localise-for-francais-and-espanol", "write-release-notes-for-2-0",
            "update-website-download-page", "press-kit-and-screenshots",
        ]),
        ("in-progress", "In Progress", [
            "crash-on-launch-corrupted-thumbnail-cache", "migrate-sync-to-the-new-storage-api",
            "raw-import-for-fujifilm-and-sony-files", "smart-albums-rule-editor", "set-up-crash-reporting-for-beta-builds",
        ]),
        ("review", "Review", [
            "onboarding-flow-redesign", "export-presets-for-social-media-sizes", "windows-arm64-installer",
            "memory-leak-when-scrolling-large-libraries",
        ]),
        ("done", "Done", [
            "accessibility-audit-of-the-main-window", "beta-1-release-to-testers", "fix-exif-orientation-for-rotated-iphone-photos",
            "new-app-icon", "beta-feedback-survey", "library-database-migration-to-schema-v8",
        ]),
    ]

    static let archivedSlugs = [
        "internal-alpha-for-dogfooding", "pick-the-launch-date", "remove-legacy-flickr-uploader", "tooltip-flicker-on-hover",
    ]

    @Test func groupsCardsByColumnInBoardOrder() throws {
        try withTemporaryBoard(.sample) { board throws in
            let result = try board.run(["list"])
            #expect(result.status == 0, "\(result)")
            #expect(result.stderr.isEmpty)
            #expect(!containsEscape(result.stdout), "no colour when piped")

            // Headings with counts, a blank line between groups, then one indented line per card.
            var expected: [(text: String, isCard: Bool)] = []
            for (index, group) in Self.sampleOrder.enumerated() {
                if index > 0 { expected.append(("", false)) }
                expected.append(("\(group.name) (\(group.slugs.count))", false))
                expected += group.slugs.map { ("  " + $0 + " ", true) }
            }
            let lines = result.stdout.lines
            #expect(lines.count == expected.count, "\(result.stdout)")
            for (line, expectation) in zip(lines, expected) {
                #expect(expectation.isCard ? line.hasPrefix(expectation.text) : line == expectation.text,
                        "expected '\(expectation.text)', got '\(line)'")
            }
        }
    }

    @Test func aCardLineHasSlugTitleAndLabels() throws {
        try withTemporaryBoard(.sample) { board throws in
            let result = try board.run(["list", "--column", "todo"])
            #expect(result.status == 0, "\(result)")
            let width = "notarize-and-sign-the-macos-build".count
            let line = "  " + "localise-for-francais-and-espanol".padding(toLength: width, withPad: " ", startingAt: 0)
                + "  Localise for Français & Español [docs] [feature]"
            #expect(result.stdout.lines.contains(line), "\(result.stdout)")
            #expect(result.stdout.lines.first == "To Do (5)")
        }
    }

    @Test func filtersByColumn() throws {
        try withTemporaryBoard(.sample) { board throws in
            let one = try board.run(["list", "--column", "review"])
            #expect(one.status == 0, "\(one)")
            #expect(one.stdout.lines.first == "Review (4)")
            #expect(one.stdout.lines.count == 5)

            let two = try board.listJSON(["-c", "done", "--column", "todo"])
            // Board order, not the order given.
            #expect(two.map(\.slug) == Self.sampleOrder[1].slugs + Self.sampleOrder[4].slugs)
        }
    }

    @Test func anUnknownColumnIsNamedWithTheBoardsColumns() throws {
        try withTemporaryBoard(.sample) { board throws in
            let result = try board.run(["list", "--column", "doing"])
            #expect(result.status == 1, "\(result)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr == "error: no column 'doing' on this board\n  The board has: backlog, todo, in-progress, review, done\n")
        }
    }

    @Test func filtersByLabels() throws {
        try withTemporaryBoard(.sample) { board throws in
            let bugs = try board.listJSON(["--label", "bug"])
            #expect(bugs.map(\.slug) == [
                "crash-on-launch-corrupted-thumbnail-cache", "memory-leak-when-scrolling-large-libraries",
                "accessibility-audit-of-the-main-window", "fix-exif-orientation-for-rotated-iphone-photos",
            ])
            #expect(bugs.allSatisfy { $0.labels.contains("bug") })

            // Several labels must all be there.
            let both = try board.listJSON(["-l", "design", "--label", "feature"])
            #expect(both.map(\.slug) == ["smart-albums-rule-editor", "onboarding-flow-redesign"])

            let text = try board.run(["list", "--label", "marketing", "--column", "todo"])
            #expect(text.status == 0, "\(text)")
            #expect(text.stdout.lines.first == "To Do (3)", "\(text.stdout)")
        }
    }

    @Test func anUnknownLabelIsNamedWithTheBoardsLabels() throws {
        // Issue 20: it printed "no cards" and exited 0, while an unknown column is an error.
        try withTemporaryBoard(.sample) { board throws in
            for arguments in [["list", "--label", "nosuch"], ["list", "--label", "bug", "-l", "nosuch", "--json"], ["list", "--archived", "--label", "nosuch"]] {
                let result = try board.run(arguments)
                #expect(result.status == 1, "\(result)")
                #expect(result.stdout.isEmpty, "\(result)")
                #expect(result.stderr.lines == [
                    "error: no label 'nosuch' on this board",
                    "  The board has: feature, bug, design, docs, infra, marketing",
                ], "\(result)")
            }
        }
    }

    @Test func aLabelOnlyACardCarriesCanBeAskedFor() throws {
        try withTemporaryBoard(.fixture("messy")) { board throws in
            let result = try board.run(["list", "--label", "urgent"])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.contains("undeclared-label"), "\(result)")
        }
    }

    @Test func nothingMatchingSaysSoOnStandardError() throws {
        try withTemporaryBoard(.sample) { board throws in
            let result = try board.run(["list", "--label", "bug", "--column", "todo"])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr == "no cards\n")

            let quiet = try board.run(["list", "--label", "bug", "--column", "todo", "--quiet"])
            #expect(quiet.stdout.isEmpty)
            #expect(quiet.stderr.isEmpty)

            let json = try board.run(["list", "--label", "bug", "--column", "todo", "--json"])
            #expect(json.status == 0, "\(json)")
            #expect(json.stdout == "[]\n")
        }
    }

    @Test func listsArchivedCards() throws {
        try withTemporaryBoard(.sample) { board throws in
            let result = try board.run(["list", "--archived"])
            #expect(result.status == 0, "\(result)")
            #expect(result.stderr.isEmpty)
            let lines = result.stdout.lines
            #expect(lines.first == "Archive (4)")
            #expect(Array(lines.dropFirst()).map { $0.split(separator: " ").first.map(String.init) ?? "" } == Self.archivedSlugs)
            #expect(lines.contains { $0.hasPrefix("  pick-the-launch-date") && $0.hasSuffix("archived 2026-10-22") }, "\(result.stdout)")

            let json = try board.listJSON(["--archived"])
            #expect(json.map(\.slug) == Self.archivedSlugs)
            #expect(json.allSatisfy { $0.archived && $0.path.hasPrefix("archive/") })
            #expect(json.first { $0.slug == "pick-the-launch-date" }?.column == "done")
        }
    }

    @Test func listsEverythingWithAll() throws {
        try withTemporaryBoard(.sample) { board throws in
            let json = try board.listJSON(["--all"])
            #expect(json.map(\.slug) == Self.sampleOrder.flatMap(\.slugs) + Self.archivedSlugs)
            #expect(json.filter(\.archived).count == 4)

            let text = try board.run(["list", "--all"])
            #expect(text.status == 0, "\(text)")
            #expect(text.stdout.lines.filter { !$0.hasPrefix(" ") && !$0.isEmpty } == [
                "Backlog (5)", "To Do (5)", "In Progress (5)", "Review (4)", "Done (6)", "Archive (4)",
            ])

            let both = try board.run(["list", "--all", "--archived"])
            #expect(both.status == 64, "\(both)")
            #expect(both.stdout.isEmpty)
            #expect(both.stderr.hasPrefix("Error: "), "\(both)")
        }
    }

    @Test func printsJSONWithTheDocumentedKeys() throws {
        try withTemporaryBoard(.sample) { board throws in
            let result = try board.run(["list", "--json"])
            #expect(result.status == 0, "\(result)")
            #expect(result.stderr.isEmpty)
            let array = try #require(try decodeJSON(JSONValue.self, from: result.stdout).arrayValue)
            #expect(array.count == 25)
            for card in array {
                #expect(card.keys == ["archived", "column", "created", "fields", "labels", "modified", "path", "position", "slug", "title"],
                        "\(card)")
            }

            let cards = try decodeJSON([CardJSON].self, from: result.stdout)
            #expect(cards.map(\.slug) == Self.sampleOrder.flatMap(\.slugs))
            let raw = try #require(cards.first { $0.slug == "raw-import-for-fujifilm-and-sony-files" })
            #expect(raw.title == "RAW import for Fujifilm and Sony files")
            #expect(raw.column == "in-progress")
            #expect(raw.position == "n")
            #expect(raw.labels == ["feature"])
            #expect(raw.created == "2026-10-08T09:20:00Z")
            #expect(raw.modified == "2026-11-17T16:45:00Z")
            #expect(raw.path == "cards/in-progress/raw-import-for-fujifilm-and-sony-files.md")
            #expect(raw.archived == false)
            #expect(raw.fields == ["due": .string("2026-11-20"), "assignee": .string("raj"), "priority": .number(1), "estimate": .string("5d")])
            #expect(raw.body == nil, "list --json has no body")
        }
    }

    @Test func listsTheGoodCardsOfAMessyBoardAndWarnsAboutTheRest() throws {
        try withTemporaryBoard(.fixture("messy")) { board throws in
            let before = try board.files()
            let result = try board.run(["list"])
            #expect(result.status == 0, "\(result)")

            // Every readable card, in board order; editor litter is not a card.
            let json = try board.listJSON()
            #expect(json.map(\.path) == [
                "cards/todo/fix-login.md", "cards/todo/dup.md",
                "cards/doing/undeclared-label.md", "cards/doing/call-the-plumber.md",
                "cards/done/ship-v1.md", "cards/done/write-changelog.md", "cards/done/moved-by-hand.md", "cards/done/dup.md",
                "cards/someday/learn-rust.md",
            ])
            #expect(json.first { $0.slug == "moved-by-hand" }?.column == "done", "the directory is the truth")
            #expect(json.first { $0.slug == "call-the-plumber" }?.title == "Call the plumber")
            #expect(json.first { $0.slug == "undeclared-label" }?.labels == ["bug", "urgent"])

            let headings = result.stdout.lines.filter { !$0.hasPrefix(" ") && !$0.isEmpty }
            #expect(headings == ["To Do (2)", "Doing (2)", "Done (4)", "someday (1)"], "\(result.stdout)")
            #expect(!result.stdout.contains("unclosed"))

            // The unreadable card, once, as `path:line:column: error: message` relative to the board.
            let errors = result.stderr.lines
            #expect(errors.count == 1, "\(result.stderr)")
            let line = try #require(errors.first)
            #expect(line.hasPrefix("cards/doing/unclosed.md:1:1: error: "), "\(line)")
            #expect(isDiagnosticLine(line), "\(line)")
            #expect(line.lowercased().contains("clos"), "the message says the frontmatter is not closed: \(line)")

            // Listing changes nothing.
            #expect(try board.files() == before)
        }
    }

    @Test func warningsKeepBoardRelativePathsFromASubdirectory() throws {
        try withTemporaryBoard(.fixture("messy")) { board throws in
            let result = try board.run(["list"], in: "cards/todo")
            #expect(result.status == 0, "\(result)")
            #expect(result.stderr.lines.first?.hasPrefix("cards/doing/unclosed.md:1:1: error: ") == true, "\(result.stderr)")
        }
    }

    @Test func anEmptyBoardSaysNoCards() throws {
        try withTemporaryBoard(.initialized([])) { board throws in
            let result = try board.run(["list"])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr == "no cards\n")
            let archived = try board.run(["list", "--archived"])
            #expect(archived.stderr == "no archived cards\n")
        }
    }
}
