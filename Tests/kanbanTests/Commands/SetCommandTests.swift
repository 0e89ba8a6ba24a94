import Foundation
import Testing

/// `kanban set`, checking that only the lines of the changed fields (and `modified`) change on disk.
@Suite struct SetCommandTests {
    static let raw = "cards/in-progress/raw-import-for-fujifilm-and-sony-files.md"
    static let rawSlug = "raw-import-for-fujifilm-and-sony-files"
    static let rawModified = "modified: 2026-11-17T16:45:00Z"

    /// Runs `set` on the RAW import card and returns the lines removed and added on disk.
    private func set(_ arguments: [String], on board: TemporaryBoard, sourceLocation: SourceLocation = #_sourceLocation)
        throws -> (output: KanbanProcess.Output, removed: [String], added: [String])
    {
        let before = try board.text(Self.raw)
        let others = try board.files().filter { $0.key != Self.raw }
        let output = try board.run(["set", Self.rawSlug] + arguments)
        let after = try board.text(Self.raw)
        #expect(try board.files().filter { $0.key != Self.raw } == others, "no other file changes", sourceLocation: sourceLocation)
        let changes = lineChanges(from: before, to: after)
        return (output, changes.removed, changes.added)
    }

    /// The `modified:` line that replaced the file's old one, checked to be a fresh timestamp.
    private func expectNewModified(_ added: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        let line = added.first { $0.hasPrefix("modified: ") }
        #expect(line.map { isTimestamp(String($0.dropFirst("modified: ".count))) } == true, "\(added)", sourceLocation: sourceLocation)
        #expect(line != Self.rawModified, sourceLocation: sourceLocation)
    }

    @Test func changesTheTitleButNotTheFileName() throws {
        try withTemporaryBoard(.sample) { board throws in
            let (output, removed, added) = try set(["--title", "RAW import: Fuji & Sony"], on: board)
            #expect(output.status == 0, "\(output)")
            #expect(output.stdout == "updated \(Self.rawSlug): title\n")
            #expect(output.stderr.isEmpty)
            #expect(Set(removed) == ["title: RAW import for Fujifilm and Sony files", Self.rawModified])
            #expect(added.count == 2)
            #expect(added.contains("title: \"RAW import: Fuji & Sony\""), "\(added)")
            expectNewModified(added)
            #expect(board.exists(Self.raw), "the file keeps its name")
            #expect(try board.showJSON(Self.rawSlug).title == "RAW import: Fuji & Sony")
        }
    }

    @Test func addsAndRemovesLabels() throws {
        try withTemporaryBoard(.sample) { board throws in
            let add = try set(["--add-label", "bug", "--add-label", "feature", "--add-label", "infra"], on: board)
            #expect(add.output.status == 0, "\(add.output)")
            #expect(add.output.stdout == "updated \(Self.rawSlug): labels\n")
            #expect(Set(add.removed) == ["labels: [feature]", Self.rawModified])
            #expect(add.added.contains("labels: [feature, bug, infra]"), "\(add.added)")

            let remove = try set(["--remove-label", "feature", "--remove-label", "docs"], on: board)
            #expect(remove.output.status == 0, "\(remove.output)")
            #expect(remove.removed.contains("labels: [feature, bug, infra]"))
            #expect(remove.added.contains("labels: [bug, infra]"), "\(remove.added)")
            #expect(try board.showJSON(Self.rawSlug).labels == ["bug", "infra"])
        }
    }

    @Test func anUnknownLabelIsRefused() throws {
        try withTemporaryBoard(.sample) { board throws in
            let before = try board.files()
            let result = try board.run(["set", Self.rawSlug, "--add-label", "urgent"])
            #expect(result.status == 1, "\(result)")
            #expect(result.stderr == "error: no label 'urgent' on this board\n  The board has: feature, bug, design, docs, infra, marketing\n")
            #expect(try board.files() == before)
        }
    }

    @Test func replacesTheBody() throws {
        try withTemporaryBoard(.sample) { board throws in
            let before = CardText(try board.text(Self.raw))
            let result = try board.run(["set", Self.rawSlug, "--body", "Just this.\n"])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout == "updated \(Self.rawSlug): body\n")
            let after = CardText(try board.text(Self.raw))
            #expect(after.body == "Just this.\n")
            let frontmatter = lineChanges(from: before.frontmatter.joined(separator: "\n"), to: after.frontmatter.joined(separator: "\n"))
            #expect(frontmatter.removed == [Self.rawModified])
            #expect(frontmatter.added.count == 1)

            try Data("From a file".utf8).write(to: URL(fileURLWithPath: board.root + "/new-body.md"))
            let file = try KanbanProcess.run(["-C", "board", "set", Self.rawSlug, "--body-file", "new-body.md"], in: board.root)
            #expect(file.status == 0, "\(file)")
            // The body is what the file holds, byte for byte.
            #expect(CardText(try board.text(Self.raw)).body == "From a file")

            let stdin = try board.run(["set", Self.rawSlug, "--body-file", "-"], stdin: "From standard input\n")
            #expect(stdin.status == 0, "\(stdin)")
            #expect(try board.showJSON(Self.rawSlug).body == "From standard input\n")
        }
    }

    @Test func setsAddsAndUnsetsOtherFields() throws {
        try withTemporaryBoard(.sample) { board throws in
            let change = try set(["--field", "assignee=ana"], on: board)
            #expect(change.output.status == 0, "\(change.output)")
            #expect(change.output.stdout == "updated \(Self.rawSlug): assignee\n")
            #expect(Set(change.removed) == ["assignee: raj", Self.rawModified])
            #expect(change.added.contains("assignee: ana"))

            let new = try set(["--field", "reviewer=mei", "--field", "due=2026-12-01"], on: board)
            #expect(new.output.status == 0, "\(new.output)")
            #expect(new.output.stdout == "updated \(Self.rawSlug): due, reviewer\n")
            // `modified` may keep its value when both runs fall in the same second.
            #expect(new.removed.filter { !$0.hasPrefix("modified: ") } == ["due: 2026-11-20"])
            #expect(Set(new.added.filter { !$0.hasPrefix("modified: ") }) == ["due: 2026-12-01", "reviewer: mei"])
            let json = try board.showJSON(Self.rawSlug)
            #expect(json.fields["reviewer"] == .string("mei"))
            #expect(json.fields["due"] == .string("2026-12-01"))

            let unset = try set(["--unset", "estimate"], on: board)
            #expect(unset.output.status == 0, "\(unset.output)")
            #expect(unset.output.stdout == "updated \(Self.rawSlug): estimate\n")
            #expect(unset.removed.filter { !$0.hasPrefix("modified: ") } == ["estimate: 5d"], "\(unset.removed)")
            #expect(unset.added.allSatisfy { $0.hasPrefix("modified: ") }, "only modified: \(unset.added)")
            #expect(try board.showJSON(Self.rawSlug).fields["estimate"] == nil)
        }
    }

    @Test func aValueThatLooksLikeYAMLIsQuotedAndRoundTrips() throws {
        try withTemporaryBoard(.sample) { board throws in
            let result = try board.run(["set", Self.rawSlug, "--field", "note=yes: really # not a comment"])
            #expect(result.status == 0, "\(result)")
            #expect(try board.showJSON(Self.rawSlug).fields["note"] == .string("yes: really # not a comment"))
            let list = try board.run(["list"])
            #expect(list.stderr.isEmpty, "\(list)")
        }
    }

    @Test func combinesChangesAndTouchesOnlyTheirLines() throws {
        try withTemporaryBoard(.sample) { board throws in
            let before = CardText(try board.text(Self.raw))
            let (output, removed, added) = try set([
                "--title", "RAW import", "--add-label", "bug", "--field", "priority=2", "--unset", "assignee",
            ], on: board)
            #expect(output.status == 0, "\(output)")
            #expect(output.stdout == "updated \(Self.rawSlug): title, labels, assignee, priority\n")
            #expect(Set(removed) == [
                "title: RAW import for Fujifilm and Sony files", "labels: [feature]", "assignee: raj", "priority: 1", Self.rawModified,
            ])
            #expect(Set(added.filter { !$0.hasPrefix("modified: ") }) == ["title: RAW import", "labels: [feature, bug]", "priority: 2"])
            expectNewModified(added)
            let after = CardText(try board.text(Self.raw))
            #expect(after.body == before.body)
            #expect(after.keys == before.keys.filter { $0 != "assignee" }, "key order is kept")
        }
    }

    @Test func printsTheCardAsJSON() throws {
        try withTemporaryBoard(.sample) { board throws in
            let result = try board.run(["set", Self.rawSlug, "--title", "Renamed", "--json"])
            #expect(result.status == 0, "\(result)")
            let card = try decodeJSON(CardJSON.self, from: result.stdout)
            #expect(card.title == "Renamed")
            #expect(card.slug == Self.rawSlug)
            #expect(card.body != nil)
        }
    }

    @Test func quietPrintsNothing() throws {
        try withTemporaryBoard(.sample) { board throws in
            let result = try board.run(["set", Self.rawSlug, "--title", "Quietly", "-q"])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.isEmpty)
            #expect(CardText(try board.text(Self.raw)).value("title") == "Quietly")
        }
    }

    @Test(arguments: ["title", "column", "position", "created", "modified", "labels"])
    func refusesTheFormatsOwnKeysAsFields(key: String) throws {
        try withTemporaryBoard(.sample) { board throws in
            let before = try board.files()
            let result = try board.run(["set", Self.rawSlug, "--field", "\(key)=x"])
            #expect(result.status == 1, "\(result)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr == "error: '\(key)' is set by its own option, not as a field\n")
            let unset = try board.run(["set", Self.rawSlug, "--unset", key])
            #expect(unset.status == 1, "\(unset)")
            #expect(unset.stderr == "error: '\(key)' cannot be removed\n")
            #expect(try board.files() == before)
        }
    }

    @Test func refusesAKeyThatIsNotAKey() throws {
        try withTemporaryBoard(.sample) { board throws in
            let before = try board.files()
            let result = try board.run(["set", Self.rawSlug, "--field", "two words=x"])
            #expect(result.status == 1, "\(result)")
            #expect(result.stderr.contains("cannot be a frontmatter key"), "\(result)")
            #expect(try board.files() == before)
        }
    }

    @Test func nothingToChangeIsAUsageError() throws {
        try withTemporaryBoard(.sample) { board throws in
            let before = try board.files()
            let none = try board.run(["set", Self.rawSlug])
            #expect(none.status == 64, "\(none)")
            #expect(none.stdout.isEmpty)
            #expect(none.stderr.hasPrefix("error: nothing to change"), "\(none)")
            #expect(none.stderr.contains("Usage: kanban set"), "\(none)")

            let malformed = try board.run(["set", Self.rawSlug, "--field", "due"])
            #expect(malformed.status == 64, "\(malformed)")
            #expect(malformed.stderr.contains("--field takes KEY=VALUE"), "\(malformed)")

            let noKey = try board.run(["set", Self.rawSlug, "--field", "=x"])
            #expect(noKey.status == 64, "\(noKey)")

            let noCard = try board.run(["set", "--title", "x"])
            #expect(noCard.status == 64, "\(noCard)")
            #expect(try board.files() == before)
        }
    }

    @Test func anUnknownCardFails() throws {
        try withTemporaryBoard(.sample) { board throws in
            let result = try board.run(["set", "no-such-card", "--title", "x"])
            #expect(result.status == 1, "\(result)")
            #expect(result.stderr.hasPrefix("error: no card"), "\(result)")
        }
    }

    @Test func setsAnArchivedCard() throws {
        try withTemporaryBoard(.sample) { board throws in
            let path = "archive/2026-10-22-pick-the-launch-date.md"
            let before = try board.text(path)
            let result = try board.run(["set", "pick-the-launch-date", "--add-label", "docs"])
            #expect(result.status == 0, "\(result)")
            let changes = lineChanges(from: before, to: try board.text(path))
            #expect(changes.removed == ["modified: 2026-10-20T10:00:00Z", "labels: [marketing]"])
            #expect(changes.added.last == "labels: [marketing, docs]", "\(changes.added)")
        }
    }
}
