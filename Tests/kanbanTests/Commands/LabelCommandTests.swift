import Foundation
import Testing

/// `kanban label list|add|rename|remove`, run as the built binary on temporary boards.
@Suite struct LabelCommandTests {
    static let sampleLabels = ["feature", "bug", "design", "docs", "infra", "marketing"]

    // MARK: list

    @Test func listsLabelsWithColoursAndCardCounts() throws {
        try withTemporaryBoard(.sample) { board throws in
            let result = try board.run(["label", "list"])
            #expect(result.status == 0, "\(result)")
            #expect(result.stderr.isEmpty)
            #expect(result.stdout == """
                feature    Feature    #3498db  9 cards
                bug        Bug        #e74c3c  4 cards
                design     Design     #9b59b6  7 cards
                docs       Docs       #27ae60  3 cards
                infra      Infra      #f39c12  7 cards
                marketing  Marketing  #e91e63  3 cards

                """)
            #expect(!containsEscape(result.stdout))
            let bare = try board.run(["label"])
            #expect(bare.stdout == result.stdout)
        }
    }

    @Test func showsASwatchWhenColourIsOn() throws {
        try withTemporaryBoard(.sample) { board throws in
            let result = try board.run(["label", "list", "--color", "always"])
            #expect(result.status == 0, "\(result)")
            #expect(containsEscape(result.stdout))
            #expect(result.stdout.lines.count == 6)
            #expect(result.stdout.contains("#3498db"))
        }
    }

    @Test func listsLabelsAsJSON() throws {
        try withTemporaryBoard(.sample) { board throws in
            _ = try board.run(["label", "add", "plain"])
            let result = try board.run(["label", "list", "--json"])
            #expect(result.status == 0, "\(result)")
            let labels = try decodeJSON([JSONValue].self, from: result.stdout)
            #expect(labels.map { $0["id"]?.stringValue ?? "" } == Self.sampleLabels + ["plain"])
            #expect(labels[1] == .object(["id": .string("bug"), "name": .string("Bug"), "color": .string("#e74c3c"), "cards": .number(4)]))
            // A label needs a colour for SimpleKanban to keep it: the first of the palette the board does not use yet.
            #expect(labels[6] == .object(["id": .string("plain"), "name": .string("plain"), "color": .string("#2ecc71"), "cards": .number(0)]))
        }
    }

    @Test func saysSoWhenTheBoardHasNoLabels() throws {
        try withTemporaryBoard(.initialized([])) { board throws in
            let result = try board.run(["label", "list"])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.hasPrefix("no labels"))
            let add = try board.run(["label", "add", "bug", "Bug: \"real\" #1", "--colour", "#f00"])
            #expect(add.status == 0, "\(add)")
            let labels = try decodeJSON([JSONValue].self, from: try board.run(["label", "list", "--json"]).stdout)
            #expect(labels == [.object(["id": .string("bug"), "name": .string("Bug: \"real\" #1"), "color": .string("#f00"), "cards": .number(0)])])
        }
    }

    // MARK: add

    @Test func addsALabelWithNameAndColour() throws {
        try withTemporaryBoard(.sample) { board throws in
            let before = try board.files()
            let result = try board.run(["label", "add", "urgent", "Urgent", "--colour", "#ff0000"])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout == "added label urgent \"Urgent\" #ff0000\n")
            #expect(result.stderr.isEmpty)
            #expect(TemporaryBoard.changes(from: before, to: try board.files()) == ["board.md"])
            let (old, new) = try boardBlocks(before: before, board: board, key: "labels")
            #expect(new.hasPrefix(old + "\n"))
            let added = lineChanges(from: old, to: new).added
            #expect(added.count == 3)
            #expect(added.first == "  - id: urgent")
            #expect(added.contains("    name: Urgent"))
            #expect(added.contains { $0.hasPrefix("    color: ") && $0.contains("#ff0000") })
        }
    }

    @Test func addsALabelNamedByItsID() throws {
        try withTemporaryBoard(.simple) { board throws in
            let before = try board.files()
            let result = try board.run(["label", "add", "wontfix"])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout == "added label wontfix \"wontfix\" #2ecc71\n")
            let (old, new) = try boardBlocks(before: before, board: board, key: "labels")
            #expect(new == old + "\n  - id: wontfix\n    name: wontfix\n    color: \"#2ecc71\"")
        }
    }

    // MARK: rename

    @Test(arguments: [
        (["Defect"], "renamed label bug: Bug → Defect", ["    name: Bug"], ["    name: Defect"]),
        (["--colour", "#c0392b"], "recoloured label bug: #e74c3c → #c0392b", ["    color: \"#e74c3c\""], ["    color: \"#c0392b\""]),
        (["Defect", "--colour", "#c0392b"], "renamed label bug: Bug → Defect, #e74c3c → #c0392b",
         ["    name: Bug", "    color: \"#e74c3c\""], ["    name: Defect", "    color: \"#c0392b\""]),
    ])
    func renamesOrRecoloursALabel(options: [String], message: String, removed: [String], added: [String]) throws {
        try withTemporaryBoard(.sample) { board throws in
            let before = try board.files()
            let result = try board.run(["label", "rename", "bug"] + options)
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout == message + "\n")
            #expect(TemporaryBoard.changes(from: before, to: try board.files()) == ["board.md"])
            let (old, new) = try boardBlocks(before: before, board: board, key: "labels")
            let changes = lineChanges(from: old, to: new)
            #expect(changes.removed == removed)
            #expect(changes.added == added)
        }
    }

    // MARK: remove

    @Test func removesALabelAndWarnsAboutTheCardsThatKeepIt() throws {
        try withTemporaryBoard(.sample) { board throws in
            let before = try board.files()
            let result = try board.run(["label", "remove", "marketing"])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout == "removed label marketing\n")
            // Three active cards and one archived card carry it.
            #expect(result.stderr == "warning: 4 cards still carry 'marketing'; 'kanban label remove marketing --strip' removes it from them\n")
            #expect(TemporaryBoard.changes(from: before, to: try board.files()) == ["board.md"])
            let (old, new) = try boardBlocks(before: before, board: board, key: "labels")
            let changes = lineChanges(from: old, to: new)
            #expect(changes.removed == ["  - id: marketing", "    name: Marketing", "    color: \"#e91e63\""])
            #expect(changes.added.isEmpty)

            // What the warning suggests works although board.md no longer declares the label.
            let strip = try board.run(["label", "remove", "marketing", "--strip"])
            #expect(strip.status == 0, "\(strip)")
            #expect(strip.stdout == "stripped undeclared label marketing from 4 cards\n")
            let changed = TemporaryBoard.changes(from: before, to: try board.files())
            #expect(changed == [
                "archive/2026-10-22-pick-the-launch-date.md", "board.md", "cards/todo/press-kit-and-screenshots.md",
                "cards/todo/update-website-download-page.md", "cards/todo/write-release-notes-for-2-0.md",
            ])
            for card in try board.listJSON(["--all"]) {
                #expect(!card.labels.contains("marketing"))
            }
        }
    }

    @Test func stripsALabelFromTheCards() throws {
        try withTemporaryBoard(.sample) { board throws in
            let before = try board.files()
            let result = try board.run(["label", "remove", "bug", "--strip"])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout == "removed label bug (stripped it from 5 cards)\n")
            #expect(result.stderr.isEmpty)
            let after = try board.files()
            let changed = TemporaryBoard.changes(from: before, to: after)
            #expect(changed.count == 6)
            #expect(changed.contains("board.md"))
            #expect(changed.contains("cards/done/accessibility-audit-of-the-main-window.md"))
            #expect(changed.contains("archive/2026-10-30-tooltip-flicker-on-hover.md"))
            let path = "cards/done/accessibility-audit-of-the-main-window.md"
            let cardChanges = lineChanges(
                from: String(decoding: try #require(before[path]), as: UTF8.self), to: try board.text(path))
            #expect(cardChanges.removed.contains("labels: [design, bug]"))
            #expect(cardChanges.added.contains("labels: [design]"))
            #expect(cardChanges.added.count == 2)  // labels and modified
            for card in try board.listJSON(["--all"]) {
                #expect(!card.labels.contains("bug"))
            }
            let (old, new) = try boardBlocks(before: before, board: board, key: "labels")
            #expect(lineChanges(from: old, to: new).removed == ["  - id: bug", "    name: Bug", "    color: \"#e74c3c\""])
        }
    }

    @Test func removesAnUnusedLabelQuietly() throws {
        try withTemporaryBoard(.sample) { board throws in
            _ = try board.run(["label", "add", "unused"])
            let result = try board.run(["label", "remove", "unused"])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout == "removed label unused\n")
            #expect(result.stderr.isEmpty)
            let labels = try decodeJSON([JSONValue].self, from: try board.run(["label", "list", "--json"]).stdout)
            #expect(labels.map { $0["id"]?.stringValue ?? "" } == Self.sampleLabels)
        }
    }

    // MARK: Errors and --quiet

    @Test(arguments: [
        ["label", "rename", "nope", "Name"],
        ["label", "rename", "nope", "--colour", "#fff"],
        ["label", "remove", "nope"],
        ["label", "remove", "nope", "--strip"],
    ])
    func failsOnAnUnknownLabel(arguments: [String]) throws {
        try withTemporaryBoard(.sample) { board throws in
            let before = try board.files()
            let result = try board.run(arguments)
            #expect(result.status == 1, "\(result)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.contains("'nope'"), "\(result)")
            #expect(result.stderr.contains("feature"), "the board's labels are listed: \(result)")
            #expect(try board.files() == before)
        }
    }

    @Test(arguments: [
        (["label", "add", "bug"], "already exists"),
        (["label", "add", "a b"], "'a b'"),
        (["label", "add", "a:b"], "'a:b'"),
        (["label", "add", "x", "--colour", "red"], "'red'"),
        (["label", "add", "x", "--colour", "#12345"], "'#12345'"),
        (["label", "add", "x", " "], "name"),
        (["label", "rename", "bug", "--colour", "#ggg"], "'#ggg'"),
        (["label", "rename", "bug", "two\nlines"], "name"),
    ])
    func failsOnABadRequest(arguments: [String], message: String) throws {
        try withTemporaryBoard(.sample) { board throws in
            let before = try board.files()
            let result = try board.run(arguments)
            #expect(result.status == 1, "\(result)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.hasPrefix("error: "), "\(result)")
            #expect(result.stderr.contains(message), "\(result)")
            #expect(try board.files() == before)
        }
    }

    @Test(arguments: [
        ["label", "add"],
        ["label", "rename", "bug"],
        ["label", "rename"],
        ["label", "remove"],
        ["label", "remove", "bug", "extra"],
        ["label", "frobnicate"],
        ["label", "add", "x", "--colour"],
    ])
    func rejectsAMalformedCommandLine(arguments: [String]) throws {
        try withTemporaryBoard(.sample) { board throws in
            let before = try board.files()
            let result = try board.run(arguments)
            #expect(result.status == 64, "\(result)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.hasPrefix("error: "), "\(result)")
            #expect(try board.files() == before)
        }
    }

    @Test func quietSilencesTheLineButNotTheChange() throws {
        try withTemporaryBoard(.sample) { board throws in
            for arguments in [
                ["label", "add", "urgent", "-q"], ["label", "rename", "urgent", "Urgent", "--quiet"],
                ["-q", "label", "remove", "urgent"], ["label", "remove", "docs", "--strip", "-q"],
            ] {
                let result = try board.run(arguments)
                #expect(result.status == 0, "\(result)")
                #expect(result.stdout.isEmpty, "\(arguments): \(result)")
                #expect(result.stderr.isEmpty, "\(arguments): \(result)")
            }
            let labels = try decodeJSON([JSONValue].self, from: try board.run(["label", "list", "--json"]).stdout)
            #expect(labels.map { $0["id"]?.stringValue ?? "" } == ["feature", "bug", "design", "infra", "marketing"])
        }
    }
}
