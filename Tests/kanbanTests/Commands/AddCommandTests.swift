import Foundation
import Testing

@testable import KanbanServer

/// `kanban add`, run as a person runs it.
@Suite struct AddCommandTests {
    @Test func addsToTheBottomOfTheFirstColumnAndPrintsThePath() throws {
        try withTemporaryBoard(.sample) { board throws in
            let before = try board.slugs(inColumn: "backlog")
            let result = try board.run(["add", "Ship it"])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout == "cards/backlog/ship-it.md\n")
            #expect(result.stderr.isEmpty)
            #expect(try board.slugs(inColumn: "backlog") == before + ["ship-it"])

            // SimpleKanban's layout: the six keys in order, a blank line, the body, no final newline.
            let text = try board.text("cards/backlog/ship-it.md")
            let card = CardText(text)
            #expect(card.keys == ["title", "column", "position", "created", "modified", "labels"], "\(text)")
            #expect(card.value("title") == "Ship it")
            #expect(card.value("column") == "backlog")
            #expect(card.value("labels") == "[]")
            #expect(card.value("created").map(isTimestamp) == true, "\(text)")
            #expect(card.value("created") == card.value("modified"))
        }
    }

    @Test func aTitleInAnotherScriptGetsATransliteratedSlug() throws {
        // Issue 20: these were all `untitled`, `untitled-2`, ...; SimpleKanban transliterates to Latin.
        try withTemporaryBoard(.simple) { board throws in
            for (title, slug) in [("Привет мир", "privet-mir"), ("中文标题", "zhong-wen-biao-ti"), ("Ελληνικά", "ellenika"), ("🚀🎉", "untitled")] {
                let result = try board.run(["add", title])
                #expect(result.status == 0, "\(result)")
                #expect(result.stdout == "cards/todo/\(slug).md\n", "\(title)")
                #expect(try board.showJSON(slug).title == title)
            }
        }
    }

    @Test func theBodyDefaultsToTheCardTemplate() throws {
        try withTemporaryBoard(.simple) { board throws in
            let result = try board.run(["add", "Fix the tap"])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout == "cards/todo/fix-the-tap.md\n")
            let text = try board.text("cards/todo/fix-the-tap.md")
            #expect(CardText(text).body == TemporaryBoard.simpleTemplate, "\(text)")
            #expect(!text.hasSuffix("\n"), "new cards end without a newline, as SimpleKanban writes them")
            #expect(try board.showJSON("fix-the-tap").body == TemporaryBoard.simpleTemplate)
        }
    }

    /// The sample board (like FORMAT.md's example and the board `kanban init` writes) puts the template's own
    /// `## Description` / `## Acceptance criteria` headings right under `## Card Template`: they are the template.
    @Test func theSampleBoardsTemplateKeepsItsSections() throws {
        try withTemporaryBoard(.sample) { board throws in
            let result = try board.run(["add", "Templated"])
            #expect(result.status == 0, "\(result)")
            let body = try board.showJSON("templated").body ?? ""
            #expect(body == "## Description\n\n## Acceptance criteria\n\n## Links", "body was \(body.debugDescription)")
        }
    }

    @Test func takesAColumn() throws {
        try withTemporaryBoard(.sample) { board throws in
            let result = try board.run(["add", "Check the installer", "--column", "review"])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout == "cards/review/check-the-installer.md\n")
            #expect(CardText(try board.text("cards/review/check-the-installer.md")).value("column") == "review")
            #expect(try board.slugs(inColumn: "review").last == "check-the-installer")

            let short = try board.run(["add", "Short option", "-c", "done"])
            #expect(short.status == 0, "\(short)")
            #expect(board.exists("cards/done/short-option.md"))
        }
    }

    @Test func anUnknownColumnIsNamedWithTheBoardsColumns() throws {
        try withTemporaryBoard(.sample) { board throws in
            let before = try board.files()
            let result = try board.run(["add", "Lost", "--column", "doing"])
            #expect(result.status == 1, "\(result)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr == "error: no column 'doing' on this board\n  The board has: backlog, todo, in-progress, review, done\n")
            #expect(try board.files() == before)
        }
    }

    @Test func takesRepeatedLabels() throws {
        try withTemporaryBoard(.sample) { board throws in
            let result = try board.run(["add", "Broken toolbar", "--label", "bug", "-l", "design", "--label", "bug"])
            #expect(result.status == 0, "\(result)")
            let card = CardText(try board.text("cards/backlog/broken-toolbar.md"))
            #expect(card.value("labels") == "[bug, design]")
            #expect(try board.showJSON("broken-toolbar").labels == ["bug", "design"])
        }
    }

    @Test func anUnknownLabelIsNamedWithTheBoardsLabels() throws {
        try withTemporaryBoard(.sample) { board throws in
            let before = try board.files()
            let result = try board.run(["add", "Lost", "--label", "bug", "--label", "urgent"])
            #expect(result.status == 1, "\(result)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr == "error: no label 'urgent' on this board\n  The board has: feature, bug, design, docs, infra, marketing\n")
            #expect(try board.files() == before)
        }
    }

    @Test func placesAtTheTopBottomBeforeAndAfter() throws {
        try withTemporaryBoard(.simple) { board throws in
            for title in ["A", "B", "C"] {
                let result = try board.run(["add", title])
                #expect(result.status == 0, "\(result)")
            }
            #expect(try board.slugs(inColumn: "todo") == ["a", "b", "c"])

            #expect(try board.run(["add", "Top", "--top"]).status == 0)
            #expect(try board.slugs(inColumn: "todo") == ["top", "a", "b", "c"])

            #expect(try board.run(["add", "Before B", "--before", "b"]).status == 0)
            #expect(try board.slugs(inColumn: "todo") == ["top", "a", "before-b", "b", "c"])

            #expect(try board.run(["add", "After B", "--after", "b"]).status == 0)
            #expect(try board.slugs(inColumn: "todo") == ["top", "a", "before-b", "b", "after-b", "c"])

            #expect(try board.run(["add", "Bottom", "--bottom"]).status == 0)
            #expect(try board.slugs(inColumn: "todo") == ["top", "a", "before-b", "b", "after-b", "c", "bottom"])

            // Placement in another column.
            #expect(try board.run(["add", "D1", "--column", "done"]).status == 0)
            #expect(try board.run(["add", "D0", "--column", "done", "--before", "d1"]).status == 0)
            #expect(try board.slugs(inColumn: "done") == ["d0", "d1"])
        }
    }

    @Test func placesAmongCardsThatShareAPosition() throws {
        // In the sample board `localise-...` and `write-release-notes-...` both have position `n`.
        try withTemporaryBoard(.sample) { board throws in
            let result = try board.run(["add", "Between", "--column", "todo", "--after", "localise-for-francais-and-espanol"])
            #expect(result.status == 0, "\(result)")
            #expect(try board.slugs(inColumn: "todo") == [
                "notarize-and-sign-the-macos-build", "localise-for-francais-and-espanol", "between",
                "write-release-notes-for-2-0", "update-website-download-page", "press-kit-and-screenshots",
            ])
        }
    }

    @Test func placementOptionsExcludeEachOther() throws {
        try withTemporaryBoard(.simple) { board throws in
            let result = try board.run(["add", "X", "--top", "--bottom"])
            #expect(result.status == 64, "\(result)")
            #expect(result.stderr.hasPrefix("error: "), "\(result)")
            #expect(try board.entries("cards/todo").isEmpty)
        }
    }

    /// Like `move --after X`, `add --after X` (without --column) puts the card in X's column.
    @Test func placesNextToACardInAnotherColumn() throws {
        try withTemporaryBoard(.sample) { board throws in
            let result = try board.run(["add", "Next to it", "--after", "localise-for-francais-and-espanol"])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout == "cards/todo/next-to-it.md\n")
            #expect(Array(try board.slugs(inColumn: "todo").prefix(3))
                == ["notarize-and-sign-the-macos-build", "localise-for-francais-and-espanol", "next-to-it"])

            // With a --column that the other card is not in, it is an error and nothing is written.
            let before = try board.files()
            let mismatch = try board.run(["add", "Nowhere", "--column", "done", "--before", "press-kit-and-screenshots"])
            #expect(mismatch.status == 1, "\(mismatch)")
            #expect(mismatch.stdout.isEmpty)
            #expect(mismatch.stderr.hasPrefix("error: "), "\(mismatch)")
            #expect(try board.files() == before, "a failed add leaves no file behind")
        }
    }

    @Test func takesTheBodyFromTextAFileOrStandardInput() throws {
        try withTemporaryBoard(.simple) { board throws in
            let text = try board.run(["add", "With text", "--body", "Line one\n\nLine **two**"])
            #expect(text.status == 0, "\(text)")
            #expect(CardText(try board.text("cards/todo/with-text.md")).body == "Line one\n\nLine **two**")
            #expect(try board.showJSON("with-text").body == "Line one\n\nLine **two**")

            try Data("From a file\n- [ ] step\n".utf8).write(to: URL(fileURLWithPath: board.root + "/body.md"))
            // --body-file is relative to the current directory.
            let file = try KanbanProcess.run(["add", "With file", "--body-file", "body.md", "--board", "board"], in: board.root)
            #expect(file.status == 0, "\(file)")
            #expect(try board.showJSON("with-file").body == "From a file\n- [ ] step\n")

            let dash = try board.run(["add", "With stdin", "-"], stdin: "Piped in\nsecond line")
            #expect(dash.status == 0, "\(dash)")
            #expect(try board.showJSON("with-stdin").body == "Piped in\nsecond line")

            let bodyFileDash = try board.run(["add", "With body-file dash", "--body-file", "-"], stdin: "Also piped")
            #expect(bodyFileDash.status == 0, "\(bodyFileDash)")
            #expect(try board.showJSON("with-body-file-dash").body == "Also piped")

            let empty = try board.run(["add", "Empty body", "--body", ""])
            #expect(empty.status == 0, "\(empty)")
            #expect(try board.showJSON("empty-body").body == "")
        }
    }

    @Test func theBodyIsGivenOnce() throws {
        try withTemporaryBoard(.simple) { board throws in
            let both = try board.run(["add", "X", "--body", "a", "--body-file", "b"])
            #expect(both.status == 64, "\(both)")
            let dashAndBody = try board.run(["add", "X", "-", "--body", "a"], stdin: "b")
            #expect(dashAndBody.status == 64, "\(dashAndBody)")
            #expect(dashAndBody.stderr.contains("give the body once"), "\(dashAndBody)")
            let stray = try board.run(["add", "Fix", "login"])
            #expect(stray.status == 64, "\(stray)")
            #expect(stray.stderr.contains("unexpected argument 'login'"), "\(stray)")
            #expect(try board.entries("cards/todo").isEmpty)
        }
    }

    @Test func aMissingBodyFileIsAnError() throws {
        try withTemporaryBoard(.simple) { board throws in
            let result = try board.run(["add", "X", "--body-file", "no-such-file.md"])
            #expect(result.status == 1, "\(result)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr == "error: cannot read body file 'no-such-file.md': No such file or directory\n")
            #expect(try board.entries("cards/todo").isEmpty)
        }
    }

    @Test func quietPrintsNothing() throws {
        try withTemporaryBoard(.simple) { board throws in
            let result = try board.run(["add", "Silent", "--quiet"])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.isEmpty)
            #expect(board.exists("cards/todo/silent.md"))

            let short = try board.run(["-q", "add", "Also silent"])
            #expect(short.status == 0, "\(short)")
            #expect(short.stdout.isEmpty)
            #expect(board.exists("cards/todo/also-silent.md"))
        }
    }

    @Test func printsTheNewCardAsJSON() throws {
        try withTemporaryBoard(.simple) { board throws in
            let result = try board.run(["add", "As JSON", "--label", "ui", "--json"])
            #expect(result.status == 0, "\(result)")
            #expect(result.stderr.isEmpty)
            let object = try decodeJSON(JSONValue.self, from: result.stdout)
            #expect(object.keys == ["archived", "body", "column", "created", "fields", "labels", "modified", "path", "position", "slug", "title"])
            let card = try decodeJSON(CardJSON.self, from: result.stdout)
            #expect(card.slug == "as-json")
            #expect(card.title == "As JSON")
            #expect(card.column == "todo")
            #expect(card.path == "cards/todo/as-json.md")
            #expect(card.labels == ["ui"])
            #expect(card.archived == false)
            #expect(card.fields.isEmpty)
            #expect(card.body == TemporaryBoard.simpleTemplate)
            #expect(card.position == CardText(try board.text("cards/todo/as-json.md")).value("position"))
        }
    }

    @Test(arguments: [
        #"Fix "login": it's broken"#,
        "Title: with a colon",
        "# not a comment",
        "yes",
        "12",
        "[bracketed] and {braced}",
        #"back\slash and 'single' quotes"#,
        "Émojis & Ünïcödé ✨",
    ])
    func aTitleRoundTripsExactly(title: String) throws {
        try withTemporaryBoard(.simple) { board throws in
            let result = try board.run(["add", title, "--json"])
            #expect(result.status == 0, "\(result)")
            let added = try decodeJSON(CardJSON.self, from: result.stdout)
            #expect(added.title == title)
            #expect(try board.showJSON(added.slug).title == title)
            #expect(try board.listJSON().map(\.title) == [title])
            // The file stays readable: nothing on stderr from a listing.
            let list = try board.run(["list"])
            #expect(list.stderr.isEmpty, "\(list)")
        }
    }

    /// The parser's own rule (CommandDispatcher's documentation) is that an option is `--x` or `-` and a letter;
    /// `- looks like a list` is neither, so it is the title.
    @Test func aTitleStartingWithADashAndASpaceIsATitle() throws {
        try withTemporaryBoard(.simple) { board throws in
            let terminated = try board.run(["add", "--", "- looks like a list"])
            #expect(terminated.status == 0, "\(terminated)")
            #expect(try board.showJSON("looks-like-a-list").title == "- looks like a list")

            let plain = try board.run(["add", "- second item"])
            #expect(plain.status == 0, "\(plain)")
            #expect(plain.stdout == "cards/todo/second-item.md\n")
        }
    }

    @Test func makesSlugsFromTitles() throws {
        try withTemporaryBoard(.simple) { board throws in
            let result = try board.run(["add", "Émojis & Ünïcödé"])
            #expect(result.stdout == "cards/todo/emojis-and-unicode.md\n", "\(result)")
            let oauth = try board.run(["add", "Add OAuth 2.0 Support"])
            #expect(oauth.stdout == "cards/todo/add-oauth-2-0-support.md\n", "\(oauth)")
        }
    }

    @Test func aTakenSlugGetsANumber() throws {
        try withTemporaryBoard(.sample) { board throws in
            let first = try board.run(["add", "Write release notes for 2.0"])
            #expect(first.status == 0, "\(first)")
            #expect(first.stdout == "cards/backlog/write-release-notes-for-2-0-2.md\n")
            let second = try board.run(["add", "Write release notes for 2.0", "--column", "todo"])
            #expect(second.stdout == "cards/todo/write-release-notes-for-2-0-3.md\n", "\(second)")
            // A slug used in the archive is taken too.
            let archived = try board.run(["add", "Pick the launch date"])
            #expect(archived.stdout == "cards/backlog/pick-the-launch-date-2.md\n", "\(archived)")
            // The original is untouched.
            let original = try board.showJSON("write-release-notes-for-2-0")
            #expect(original.path == "cards/todo/write-release-notes-for-2-0.md")
        }
    }

    @Test func anEmptyTitleIsRefused() throws {
        try withTemporaryBoard(.simple) { board throws in
            let missing = try board.run(["add"])
            #expect(missing.status == 64, "\(missing)")
            #expect(missing.stderr.contains("missing argument '<title>'"), "\(missing)")
            let blank = try board.run(["add", "   "])
            #expect(blank.status != 0, "\(blank)")
            #expect(blank.stdout.isEmpty)
            #expect(blank.stderr.contains("title"), "\(blank)")
            #expect(try board.entries("cards/todo").isEmpty)
        }
    }

    @Test func editOpensTheNewCardInTheEditor() throws {
        try withTemporaryBoard(.simple) { board throws in
            let editor = try board.script(named: "append.sh", #"printf '\nAdded by the editor.' >> "$1""#)
            let result = try board.run(["add", "Edit me", "--edit"], environment: ["EDITOR": editor])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout == "cards/todo/edit-me.md\n")
            #expect(result.stderr.isEmpty)
            let text = try board.text("cards/todo/edit-me.md")
            #expect(text.hasSuffix(TemporaryBoard.simpleTemplate + "\nAdded by the editor."), "\(text)")
            #expect(try board.showJSON("edit-me").body == TemporaryBoard.simpleTemplate + "\nAdded by the editor.")
        }
    }

    @Test func editSaysWhenTheEditorDeletedTheNewCard() throws {
        try withTemporaryBoard(.simple) { board throws in
            let editor = try board.script(named: "remove.sh", #"rm "$1""#)
            let result = try board.run(["add", "Edit me", "--edit"], environment: ["EDITOR": editor])
            #expect(result.status == 1, "\(result)")
            #expect(result.stderr == "error: the editor deleted 'cards/todo/edit-me.md'; the card is gone\n", "\(result)")
            #expect(try board.entries("cards/todo").isEmpty)
        }
    }
}
