import Foundation
import Testing

/// `kanban show`, run as a person runs it.
@Suite struct ShowCommandTests {
    static let localise = "cards/todo/localise-for-francais-and-espanol.md"

    @Test func showsTitleFieldsLabelsAndBody() throws {
        try withTemporaryBoard(.sample) { board throws in
            let result = try board.run(["show", "localise-for-francais-and-espanol"])
            #expect(result.status == 0, "\(result)")
            #expect(result.stderr.isEmpty)
            #expect(!containsEscape(result.stdout))
            let lines = result.stdout.lines
            #expect(Array(lines.prefix(9)) == [
                "Localise for Français & Español",
                "slug:     localise-for-francais-and-espanol",
                "column:   To Do (todo)",
                "position: n",
                "labels:   Docs, Feature",
                "created:  2026-10-16T08:45:00Z",
                "modified: 2026-11-18T10:05:00Z",
                "path:     cards/todo/localise-for-francais-and-espanol.md",
                "",
            ], "\(result.stdout)")
            let body = CardText(try board.text(Self.localise)).body.trimmingCharacters(in: .newlines)
            #expect(lines.dropFirst(9).joined(separator: "\n") == body)
        }
    }

    @Test func showsOtherFields() throws {
        try withTemporaryBoard(.sample) { board throws in
            let raw = try board.run(["show", "raw-import-for-fujifilm-and-sony-files"])
            #expect(raw.status == 0, "\(raw)")
            for line in ["due:      2026-11-20", "assignee: raj", "priority: 1", "estimate: 5d"] {
                #expect(raw.stdout.lines.contains(line), "missing '\(line)' in\n\(raw.stdout)")
            }

            let list = try board.run(["show", "smart-albums-rule-editor"])
            #expect(list.stdout.lines.contains("assignees: ana, mei"), "\(list.stdout)")

            // A multi-line value continues under the first line.
            let notes = try board.run(["show", "library-database-migration-to-schema-v8"])
            let lines = notes.stdout.lines
            let index = try #require(lines.firstIndex { $0.hasPrefix("notes:") }, "\(notes.stdout)")
            #expect(lines[index] == "notes:    Ran against the 40k-photo test library: 3m12s on the M1 mini, 7m40s on the old i5 laptop.")
            #expect(lines[index + 1] == "          A backup is written to Library.lumen/backup-v7 before anything is touched.")
        }
    }

    @Test func printsJSONWithTheBody() throws {
        try withTemporaryBoard(.sample) { board throws in
            let result = try board.run(["show", "--json", "raw-import-for-fujifilm-and-sony-files"])
            #expect(result.status == 0, "\(result)")
            #expect(result.stderr.isEmpty)
            let object = try decodeJSON(JSONValue.self, from: result.stdout)
            #expect(object.keys == ["archived", "body", "column", "created", "fields", "labels", "modified", "path", "position", "slug", "title", "work"])
            #expect(object["work"]?["state"] == .string("claimed") || object["work"]?["state"] == .string("started"))
            let card = try decodeJSON(CardJSON.self, from: result.stdout)
            #expect(card.slug == "raw-import-for-fujifilm-and-sony-files")
            #expect(card.title == "RAW import for Fujifilm and Sony files")
            #expect(card.column == "in-progress")
            #expect(card.fields["priority"] == .number(1))
            #expect(card.fields["due"] == .string("2026-11-20"))
            let file = try board.text("cards/in-progress/raw-import-for-fujifilm-and-sony-files.md")
            #expect(card.body == CardText(file).body)

            let nested = try board.showJSON("smart-albums-rule-editor")
            #expect(nested.fields["assignees"] == .array([.string("ana"), .string("mei")]))
        }
    }

    @Test func rawPrintsTheFileByteForByte() throws {
        try withTemporaryBoard(.sample) { board throws in
            for path in [Self.localise, "cards/done/library-database-migration-to-schema-v8.md", "archive/2026-10-22-pick-the-launch-date.md"] {
                let slug = String((path as NSString).lastPathComponent.dropLast(3))
                let reference = path.hasPrefix("archive/") ? "pick-the-launch-date" : slug
                let result = try board.run(["show", "--raw", reference])
                #expect(result.status == 0, "\(result)")
                #expect(result.stdoutBytes == (try board.bytes(path)), "\(path)")
                #expect(result.stderr.isEmpty)
            }
        }
    }

    @Test func rawKeepsCRLFAndAByteOrderMark() throws {
        try withTemporaryBoard(.simple) { board throws in
            let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("---\r\ntitle: Windows card\r\nposition: a0\r\n---\r\n\r\nBody\r\n".utf8)
            try board.write(bytes, to: "cards/todo/windows-card.md")
            let result = try board.run(["show", "--raw", "windows-card"])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdoutBytes == bytes)
            #expect(try board.showJSON("windows-card").title == "Windows card")
        }
    }

    /// `--raw` is how a person looks at a file `kanban` cannot read; it should not need to parse it first.
    @Test func rawPrintsAFileThatCannotBeParsed() throws {
        try withTemporaryBoard(.fixture("messy")) { board throws in
            let bytes = try board.bytes("cards/doing/unclosed.md")
            let result = try board.run(["show", "--raw", "cards/doing/unclosed.md"])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdoutBytes == bytes)
            #expect(try board.run(["show", "--raw", "unclosed"]).stdoutBytes == bytes, "by slug too")
            // Without --raw the card is still reported with its place.
            let parsed = try board.run(["show", "unclosed"])
            #expect(parsed.status == 1, "\(parsed)")
            #expect(parsed.stderr.hasPrefix("cards/doing/unclosed.md:1:1: error: "), "\(parsed)")
        }
    }

    @Test func jsonAndRawExcludeEachOther() throws {
        try withTemporaryBoard(.sample) { board throws in
            let result = try board.run(["show", "--json", "--raw", "new-app-icon"])
            #expect(result.status == 64, "\(result)")
            #expect(result.stdout.isEmpty)
        }
    }

    @Test func showsAnArchivedCardBySlug() throws {
        try withTemporaryBoard(.sample) { board throws in
            let result = try board.run(["show", "pick-the-launch-date"])
            #expect(result.status == 0, "\(result)")
            let lines = result.stdout.lines
            #expect(lines.first == "Pick the launch date")
            #expect(lines.contains("column:   archived 2026-10-22 from Done"), "\(result.stdout)")
            #expect(lines.contains("path:     archive/2026-10-22-pick-the-launch-date.md"), "\(result.stdout)")

            let json = try board.showJSON("pick-the-launch-date")
            #expect(json.archived)
            #expect(json.column == "done")
            #expect(json.path == "archive/2026-10-22-pick-the-launch-date.md")
        }
    }

    @Test func showsACardByPrefixAndByPath() throws {
        try withTemporaryBoard(.sample) { board throws in
            let prefix = try board.run(["show", "--json", "notar"])
            #expect(prefix.status == 0, "\(prefix)")
            #expect(try decodeJSON(CardJSON.self, from: prefix.stdout).slug == "notarize-and-sign-the-macos-build")

            let path = try board.run(["show", "--json", "cards/todo/notarize-and-sign-the-macos-build.md"])
            #expect(path.status == 0, "\(path)")
            #expect(try decodeJSON(CardJSON.self, from: path.stdout).slug == "notarize-and-sign-the-macos-build")

            let absolute = try board.run(["show", "--json", board.absolute("archive/2026-10-22-pick-the-launch-date.md")])
            #expect(absolute.status == 0, "\(absolute)")
            #expect(try decodeJSON(CardJSON.self, from: absolute.stdout).slug == "pick-the-launch-date")
        }
    }

    @Test func anUnknownCardFailsWithSuggestions() throws {
        try withTemporaryBoard(.sample) { board throws in
            let result = try board.run(["show", "release"])
            #expect(result.status == 1, "\(result)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr == """
                error: no card on the board or in the archive matches 'release'
                  Did you mean: beta-1-release-to-testers, write-release-notes-for-2-0?

                """)

            let nothing = try board.run(["show", "zzz"])
            #expect(nothing.status == 1, "\(nothing)")
            #expect(nothing.stderr == "error: no card on the board or in the archive matches 'zzz'\n")

            let path = try board.run(["show", "cards/todo/nope.md"])
            #expect(path.status == 1, "\(path)")
            #expect(path.stderr == "error: no card at 'cards/todo/nope.md'\n")
        }
    }

    @Test func aMistypedSlugGetsASuggestion() throws {
        try withTemporaryBoard(.sample) { board throws in
            let result = try board.run(["show", "notarise-and-sign-the-macos-build"])
            #expect(result.status == 1, "\(result)")
            do {
                #expect(result.stderr.contains("Did you mean: notarize-and-sign-the-macos-build"), "\(result)")
            }
        }
    }

    @Test func anAmbiguousPrefixListsTheCandidates() throws {
        try withTemporaryBoard(.sample) { board throws in
            // `p` matches two active cards and an archived one.
            let result = try board.run(["show", "p"])
            #expect(result.status == 1, "\(result)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr == """
                error: 'p' matches 3 cards
                  It could be: pick-the-launch-date, plugin-api-for-custom-export-targets, press-kit-and-screenshots

                """)
        }
    }

    @Test func aSlugUsedTwiceAsksForAPath() throws {
        try withTemporaryBoard(.fixture("messy")) { board throws in
            let result = try board.run(["show", "dup"])
            #expect(result.status == 1, "\(result)")
            #expect(result.stderr == "error: 'dup' names 2 cards; give a path\n  It could be: cards/done/dup.md, cards/todo/dup.md\n")

            let path = try board.run(["show", "--json", "cards/done/dup.md"])
            #expect(path.status == 0, "\(path)")
            #expect(try decodeJSON(CardJSON.self, from: path.stdout).column == "done")
        }
    }
}
