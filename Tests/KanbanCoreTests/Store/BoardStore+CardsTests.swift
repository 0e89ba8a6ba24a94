import Foundation
import Testing
@testable import KanbanCore

/// Creating, changing, moving, archiving and deleting cards.
@Suite struct BoardStoreCardsTests {
    /// Expects the files that changed since `before` to be exactly the paths `change` reports.
    private func expectChangedPaths(_ board: TemporaryBoard, since before: [String: FileState], are change: BoardChange,
                                    sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let changed = TemporaryBoard.changedPaths(from: before, to: try board.snapshot())
        #expect(changed == Set(change.paths), sourceLocation: sourceLocation)
    }

    /// The 0-based indices of the lines that differ between two versions of a file with the same number of lines.
    private func changedLines(_ before: [UInt8], _ after: [UInt8], sourceLocation: Testing.SourceLocation = #_sourceLocation) -> Set<Int> {
        let old = lines(of: before)
        let new = lines(of: after)
        #expect(old.count == new.count, "\(new)", sourceLocation: sourceLocation)
        return Set(zip(old, new).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset))
    }

    // MARK: Create

    @Test func createWritesSimpleKanbansLayout() throws {
        try withTemporaryBoard(.team) { board in
            let store = try board.store()
            let change = try store.createCard(title: "Fix the login form", in: "doing", labels: ["bug", "ui"])
            let card = try #require(change.card)
            let position = try #require(card.position)
            #expect(!position.isEmpty)
            #expect(card.path == "cards/doing/fix-the-login-form.md")
            #expect(change.writtenPaths == ["cards/doing/fix-the-login-form.md"])
            #expect(change.removedPaths.isEmpty)
            #expect(change.previous == nil)
            #expect(try board.text("cards/doing/fix-the-login-form.md") == """
                ---
                title: Fix the login form
                column: doing
                position: \(position)
                created: \(fixedNowText)
                modified: \(fixedNowText)
                labels: [bug, ui]
                ---

                \(TemporaryBoard.teamTemplate)
                """)
        }
    }

    @Test func theNewCardReadsBackAsReturned() throws {
        try withTemporaryBoard(.team) { board in
            let store = try board.store()
            let change = try store.createCard(title: "Fix the login form", labels: ["ui"])
            let returned = try #require(change.card)
            let loaded = try store.card(returned.slug)
            #expect(loaded.title == "Fix the login form")
            #expect(loaded.column == "todo", "the first column by default")
            #expect(loaded.columnField == "todo")
            #expect(loaded.labels == ["ui"])
            #expect(loaded.created == fixedNow)
            #expect(loaded.modified == fixedNow)
            #expect(loaded.position == returned.position)
            #expect(loaded.body == TemporaryBoard.teamTemplate)
            #expect(returned.body == TemporaryBoard.teamTemplate)
        }
    }

    @Test func aCardWithoutLabelsWritesAnEmptyList() throws {
        try withTemporaryBoard(.team) { board in
            try board.store().createCard(title: "Plain")
            #expect(try lines(of: board.bytes("cards/todo/plain.md"))[6] == "labels: []")
        }
    }

    @Test func repeatedLabelsAreWrittenOnce() throws {
        try withTemporaryBoard(.team) { board in
            let card = try #require(try board.store().createCard(title: "Twice", labels: ["bug", "ui", "bug"]).card)
            #expect(card.labels == ["bug", "ui"])
        }
    }

    @Test func aGivenBodyReplacesTheTemplate() throws {
        try withTemporaryBoard(.team) { board in
            try board.store().createCard(title: "With body", body: "Just this.\n")
            #expect(try board.text("cards/todo/with-body.md").hasSuffix("---\n\nJust this.\n"))
        }
    }

    @Test func aBoardWithoutATemplateHeadingGivesItsWholeBody() throws {
        // FORMAT.md: with no `## Card Template` heading the template is the whole board body, as in SimpleKanban.
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            let store = try board.store()
            try store.createCard(title: "New card")
            let text = try board.text("cards/todo/new-card.md")
            #expect(text.hasSuffix("---\n\n" + (try store.loadBoard().body.trimmingBlankLines())))
        }
    }

    @Test(arguments: [
        ("Deploy: staging", "title: \"Deploy: staging\""),
        ("#42 crash", "title: \"#42 crash\""),
        ("Plain words only", "title: Plain words only"),
    ])
    func titlesAreQuotedOnlyWhenYAMLNeedsIt(title: String, line: String) throws {
        try withTemporaryBoard(.team) { board in
            let card = try #require(try board.store().createCard(title: title).card)
            #expect(try lines(of: board.bytes(card.path))[1] == line)
        }
    }

    @Test(arguments: [
        "Deploy: staging", "#42 crash", "It's done", "\"Quoted\" start", "'Single' start", "- dash start", "[bracket] start",
        "{brace} start", "yes", "no", "null", "~", "true", "123", "1.10", "0123", "2026-01-05", "50% done", "a: b: c",
        "trailing colon:", "key: value # not a comment", "Ünïcödé ✓", "@mention", "`code`", "*bold*", "&anchor", "!tag",
        "| pipe", "> quote", "tab\tinside", "back\\slash", "--- dashes", "...",
    ])
    func everyTitleReadsBackAsWritten(title: String) throws {
        try withTemporaryBoard(.team) { board in
            let store = try board.store()
            let card = try #require(try store.createCard(title: title).card)
            #expect(card.title == title)
            #expect(try store.card(card.path).title == title)
            #expect(try store.load().diagnostics.isEmpty)
        }
    }

    @Test func aTakenSlugGetsANumber() throws {
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            let store = try board.store()
            #expect(try store.createCard(title: "Fix broken footer links!").card?.path == "cards/todo/fix-broken-footer-links-2.md")
            #expect(try store.createCard(title: "Fix broken footer links?").card?.path == "cards/todo/fix-broken-footer-links-3.md")
            #expect(try store.load().cards.filter { $0.slug.hasPrefix("fix-broken-footer-links") }.count == 3)
        }
    }

    @Test func aSlugTakenByAnArchivedCardGetsANumber() throws {
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            let card = try #require(try board.store().createCard(title: "Audit old blog posts", in: "done").card)
            #expect(card.slug == "audit-old-blog-posts-2")
            #expect(card.path == "cards/done/audit-old-blog-posts-2.md")
        }
    }

    @Test func aSlugTakenInAnotherColumnGetsANumber() throws {
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            let card = try #require(try board.store().createCard(title: "New homepage hero", in: "todo").card)
            #expect(card.slug == "new-homepage-hero-2")
        }
    }

    @Test func aSlugTakenInAnotherCaseOrNormalisationGetsANumber() throws {
        // Issue 14 #6: `add-vim-0-G-navigation.md` and `add-vim-0-g-navigation.md` cannot both exist on macOS's disk,
        // even in two columns (a move would bring them together).
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            try board.write("---\ntitle: Add vim 0 G navigation\ncolumn: todo\nposition: n\n---\n", to: "cards/todo/add-vim-0-G-navigation.md")
            try board.write("---\ntitle: Cafe menu\ncolumn: done\nposition: n\n---\n", to: "cards/done/Cafe-Menu.md")
            let store = try board.store()
            #expect(try store.createCard(title: "Add vim 0 G navigation").card?.path == "cards/todo/add-vim-0-g-navigation-2.md")
            let accented = try #require(try store.createCard(title: "Caf\u{E9} menu", in: "done").card)
            #expect(accented.slug == "cafe-menu-2")
        }
    }

    @Test func createRefusesWhatItCannotWrite() throws {
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            let store = try board.store()
            let before = try board.snapshot()
            let column = expectKanbanError(.columnNotFound) { try store.createCard(title: "X", in: "review") }
            #expect(column?.candidates == ["todo", "in-progress", "done"])
            expectKanbanError(.outsideBoard) { try store.createCard(title: "X", in: "../x") }
            let label = expectKanbanError(.labelNotFound) { try store.createCard(title: "X", labels: ["feature", "urgent"]) }
            #expect(label?.message.contains("urgent") == true)
            expectKanbanError(.invalidArgument) { try store.createCard(title: "   ") }
            expectKanbanError(.invalidArgument) { try store.createCard(title: "two\nlines") }
            #expect(try board.snapshot() == before)
        }
    }

    @Test func aTitleIsTrimmed() throws {
        try withTemporaryBoard(.team) { board in
            let card = try #require(try board.store().createCard(title: "  Spaced out \n").card)
            #expect(card.title == "Spaced out")
            #expect(card.slug == "spaced-out")
        }
    }

    @Test func placementPutsNewCardsWhereAsked() throws {
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            let store = try board.store()
            try store.createCard(title: "Bottom card", in: "in-progress")
            try store.createCard(title: "Top card", in: "in-progress", placement: .top)
            try store.createCard(title: "Before hero", in: "in-progress", placement: .before("new-homepage-hero"))
            try store.createCard(title: "After menu", in: "in-progress", placement: .after("mobile-menu-close-on-tap-outside"))
            #expect(try store.load().slugs(inColumn: "in-progress") == [
                "top-card", "mobile-menu-close-on-tap-outside", "after-menu", "before-hero", "new-homepage-hero", "bottom-card",
            ])
            #expect(try store.load().diagnostics.isEmpty)
        }
    }

    @Test func placementBetweenCardsThatShareAPositionStillOrdersCorrectly() throws {
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            let store = try board.store()
            let before = try board.snapshot()
            let change = try store.createCard(title: "Wedge", in: "done", placement: .after("choose-a-font-pairing"))
            #expect(try store.load().slugs(inColumn: "done") == [
                "choose-a-font-pairing", "wedge", "compress-hero-images", "set-up-staging-site",
            ])
            try expectChangedPaths(board, since: before, are: change)
            let second = try store.createCard(title: "Second wedge", in: "done", placement: .before("set-up-staging-site"))
            #expect(try store.load().slugs(inColumn: "done") == [
                "choose-a-font-pairing", "wedge", "compress-hero-images", "second-wedge", "set-up-staging-site",
            ])
            #expect(second.writtenPaths.first == "cards/done/second-wedge.md")
        }
    }

    @Test func placementRelativeToACardInAnotherColumnIsRefused() throws {
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            let store = try board.store()
            let before = try board.snapshot()
            expectKanbanError(.invalidArgument) { try store.createCard(title: "X", in: "todo", placement: .after("new-homepage-hero")) }
            expectKanbanError(.cardNotFound) { try store.createCard(title: "X", in: "todo", placement: .after("no-such-card")) }
            #expect(try board.snapshot() == before)
        }
    }

    @Test func aNewCardGoesAboveCardsWithoutAPosition() throws {
        try withTemporaryBoard(.fixture("messy")) { board in
            let store = try board.store()
            try store.createCard(title: "Fresh", in: "doing")
            #expect(try store.load().slugs(inColumn: "doing") == ["undeclared-label", "fresh", "call-the-plumber"])
        }
    }

    // MARK: Update

    @Test func changingTheTitleRewritesOnlyTheTitleAndModifiedLines() throws {
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            let store = try board.store()
            let path = "cards/todo/update-pricing-page.md"
            let old = try board.bytes(path)
            let before = try board.snapshot()
            let change = try store.updateCard("update-pricing-page", CardUpdate(title: "Update the pricing page"))
            let new = try board.bytes(path)
            #expect(changedLines(old, new) == [1, 5])
            #expect(lines(of: new)[1] == "title: Update the pricing page")
            #expect(lines(of: new)[5] == "modified: \(fixedNowText)")
            #expect(change.card?.title == "Update the pricing page")
            #expect(change.card?.path == path, "the slug is the identity: the file keeps its name")
            #expect(change.previous?.title == "Update pricing page")
            #expect(change.writtenPaths == [path])
            try expectChangedPaths(board, since: before, are: change)
        }
    }

    @Test func addingAndRemovingLabels() throws {
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            let store = try board.store()
            let path = "cards/todo/update-pricing-page.md"
            let old = try board.bytes(path)
            try store.updateCard("update-pricing-page", CardUpdate(addedLabels: ["bug", "feature"]))
            #expect(changedLines(old, try board.bytes(path)) == [5, 6])
            #expect(lines(of: try board.bytes(path))[6] == "labels: [feature, bug]")
            try store.updateCard("update-pricing-page", CardUpdate(removedLabels: ["feature"]))
            #expect(try store.card("update-pricing-page").labels == ["bug"])
            try store.updateCard("update-pricing-page", CardUpdate(labels: []))
            #expect(lines(of: try board.bytes(path))[6] == "labels: []")
            try store.updateCard("update-pricing-page", CardUpdate(labels: ["feature"], addedLabels: ["bug"], removedLabels: ["feature"]))
            #expect(try store.card("update-pricing-page").labels == ["bug"])
        }
    }

    @Test func aLabelThatLooksLikeANumberIsWrittenBareAndTheLineNeverGrows() throws {
        // Issue 20: `["2024"]` is the label `"2024"` to the app and to kanban, and each edit quoted it once more.
        try withTemporaryBoard(.team) { board in
            let store = try board.store()
            try store.addLabel(id: "2024")
            let path = try #require(try store.createCard(title: "Card", labels: ["2024"]).card?.path)
            #expect(try board.text(path).contains("\nlabels: [2024]\n"))
            #expect(try store.load().cards.filter { $0.labels.contains("2024") }.map(\.path) == [path])
            try store.updateCard("card", CardUpdate(addedLabels: ["ui"]))
            let labelled = try board.text(path)
            #expect(labelled.contains("\nlabels: [2024, ui]\n"))
            for _ in 0..<8 {
                try store.updateCard("card", CardUpdate(removedLabels: ["ui"]))
                try store.updateCard("card", CardUpdate(addedLabels: ["ui"]))
            }
            #expect(try board.text(path) == labelled)
            #expect(try store.card("card").labels == ["2024", "ui"])
        }
    }

    @Test func anUndeclaredLabelCanBeRemovedButNotAdded() throws {
        try withTemporaryBoard(.fixture("messy")) { board in
            let store = try board.store()
            let before = try board.snapshot()
            expectKanbanError(.labelNotFound) { try store.updateCard("fix-login", CardUpdate(addedLabels: ["urgent"])) }
            #expect(try board.snapshot() == before)
            try store.updateCard("undeclared-label", CardUpdate(removedLabels: ["urgent"]))
            #expect(try store.card("undeclared-label").labels == ["bug"])
        }
    }

    @Test func replacingTheBodyKeepsTheFrontmatterAndWritesTheBodyAsGiven() throws {
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            let store = try board.store()
            let path = "cards/in-progress/new-homepage-hero.md"
            let old = lines(of: try board.bytes(path))
            let change = try store.updateCard("new-homepage-hero", CardUpdate(body: "Rewritten.\n"))
            let new = lines(of: try board.bytes(path))
            #expect(Array(new.prefix(8)) == Array(old.prefix(5)) + ["modified: \(fixedNowText)"] + Array(old[6..<8]))
            // The body reads back byte for byte, whatever the file ended with before.
            #expect(try board.text(path).hasSuffix("---\n\nRewritten.\n"))
            #expect(try store.card("new-homepage-hero").body == "Rewritten.\n")
            #expect(change.card?.body == "Rewritten.\n")
        }
        try withTemporaryBoard(.fixture("messy")) { board in
            let store = try board.store()
            try store.updateCard("ship-v1", CardUpdate(body: "Shipped."))
            #expect(try board.text("cards/done/ship-v1.md").hasSuffix("---\n\nShipped."))
            #expect(try store.card("ship-v1").body == "Shipped.")
        }
    }

    @Test func settingAndRemovingOtherFields() throws {
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            let store = try board.store()
            try store.updateCard("new-homepage-hero", CardUpdate(fields: [
                YAMLMapEntry(key: "due", value: .string("2026-06-01")),
                YAMLMapEntry(key: "assignees", value: .list([.string("ana"), .string("mei")])),
            ]))
            var card = try store.card("new-homepage-hero")
            #expect(card.field("due")?.string == "2026-06-01")
            #expect(card.field("assignees")?.list?.compactMap(\.string) == ["ana", "mei"])
            #expect(card.title == "New homepage hero")
            #expect(card.labels == ["feature"])
            try store.updateCard("new-homepage-hero", CardUpdate(removedFields: ["due"]))
            card = try store.card("new-homepage-hero")
            #expect(card.field("due") == nil)
            #expect(card.field("assignees") != nil)
            #expect(!(try board.text("cards/in-progress/new-homepage-hero.md").contains("due:")))
        }
    }

    @Test(arguments: ["title", "column", "position", "created", "modified", "labels"])
    func theFormatsOwnKeysCannotBeSetAsFields(key: String) throws {
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            let store = try board.store()
            let before = try board.snapshot()
            expectKanbanError(.invalidArgument) {
                try store.updateCard("new-homepage-hero", CardUpdate(fields: [YAMLMapEntry(key: key, value: .string("x"))]))
            }
            expectKanbanError(.invalidArgument) { try store.updateCard("new-homepage-hero", CardUpdate(removedFields: [key])) }
            #expect(try board.snapshot() == before)
        }
    }

    @Test(arguments: ["bad key", "-dash", "", "colon:", "new\nline", "ü"])
    func aFieldKeyMustBeSimple(key: String) throws {
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            let store = try board.store()
            expectKanbanError(.invalidArgument) {
                try store.updateCard("new-homepage-hero", CardUpdate(fields: [YAMLMapEntry(key: key, value: .string("x"))]))
            }
        }
    }

    @Test(arguments: ["", "  ", "two\nlines"])
    func aTitleMustBeOneNonEmptyLine(title: String) throws {
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            let store = try board.store()
            expectKanbanError(.invalidArgument) { try store.updateCard("new-homepage-hero", CardUpdate(title: title)) }
        }
    }

    @Test func anEmptyUpdateWritesNothing() throws {
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            let before = try board.snapshot()
            let change = try board.store().updateCard("new-homepage-hero", CardUpdate())
            #expect(change.paths.isEmpty)
            #expect(change.card?.title == "New homepage hero")
            #expect(try board.snapshot() == before)
        }
    }

    @Test func anArchivedCardCanBeUpdatedInTheArchive() throws {
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            let store = try board.store()
            expectKanbanError(.cardNotFound) { try store.updateCard("audit-old-blog-posts", CardUpdate(title: "X")) }
            let change = try store.updateCard("audit-old-blog-posts", CardUpdate(title: "Audit the old posts"), in: .archived)
            #expect(change.writtenPaths == ["archive/2026-03-02-audit-old-blog-posts.md"])
            #expect(try store.card("audit-old-blog-posts", in: .archived).title == "Audit the old posts")
        }
    }

    @Test func updatingACardWithoutFrontmatterGivesItTheKeysSimpleKanbanNeeds() throws {
        try withTemporaryBoard(.fixture("messy")) { board in
            let store = try board.store()
            try store.updateCard("call-the-plumber", CardUpdate(addedLabels: ["bug"]))
            let card = try store.card("call-the-plumber")
            #expect(card.hasFrontmatter)
            #expect(card.title == "Call the plumber")
            #expect(card.columnField == "doing")
            #expect(card.labels == ["bug"])
            #expect(card.body == "# Call the plumber\n\nThe kitchen tap drips.\n")
            #expect(try board.text("cards/doing/call-the-plumber.md").hasPrefix("---\ntitle: Call the plumber\ncolumn: doing\n"))
        }
    }

    // MARK: Move

    @Test func movingToAnotherColumnMovesTheFile() throws {
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            let store = try board.store()
            let old = try board.bytes("cards/todo/fix-broken-footer-links.md")
            let before = try board.snapshot()
            let change = try store.moveCard("fix-broken-footer-links", to: "done")
            #expect(!board.exists("cards/todo/fix-broken-footer-links.md"))
            let new = try board.bytes("cards/done/fix-broken-footer-links.md")
            #expect(changedLines(old, new) == [2, 3, 5])
            #expect(lines(of: new)[2] == "column: done")
            #expect(lines(of: new)[5] == "modified: \(fixedNowText)")
            #expect(change.writtenPaths.first == "cards/done/fix-broken-footer-links.md")
            #expect(change.removedPaths == ["cards/todo/fix-broken-footer-links.md"])
            #expect(change.previous?.column == "todo")
            #expect(change.card?.column == "done")
            #expect(change.card?.path == "cards/done/fix-broken-footer-links.md")
            try expectChangedPaths(board, since: before, are: change)
            let snapshot = try store.load()
            #expect(snapshot.slugs(inColumn: "done").last == "fix-broken-footer-links", "a moved card goes to the bottom")
            #expect(snapshot.slugs(inColumn: "todo") == ["update-pricing-page", "add-newsletter-signup"])
            #expect(snapshot.cards.count == 8)
        }
    }

    @Test func movingWithinAColumnBeforeAndAfter() throws {
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            let store = try board.store()
            let before = try board.snapshot()
            let change = try store.moveCard("add-newsletter-signup", placement: .before("fix-broken-footer-links"))
            #expect(change.removedPaths.isEmpty)
            try expectChangedPaths(board, since: before, are: change)
            #expect(try store.load().slugs(inColumn: "todo") == ["add-newsletter-signup", "fix-broken-footer-links", "update-pricing-page"])
            try store.moveCard("add-newsletter-signup", placement: .after("update-pricing-page"))
            #expect(try store.load().slugs(inColumn: "todo") == ["fix-broken-footer-links", "update-pricing-page", "add-newsletter-signup"])
            try store.moveCard("add-newsletter-signup", placement: .top)
            #expect(try store.load().slugs(inColumn: "todo").first == "add-newsletter-signup")
            try store.moveCard("add-newsletter-signup", placement: .bottom)
            #expect(try store.load().slugs(inColumn: "todo").last == "add-newsletter-signup")
        }
    }

    @Test func movingBetweenTwoCardsThatShareAPosition() throws {
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            let store = try board.store()
            let before = try board.snapshot()
            let change = try store.moveCard("add-newsletter-signup", placement: .after("fix-broken-footer-links"))
            #expect(try store.load().slugs(inColumn: "todo") == ["fix-broken-footer-links", "add-newsletter-signup", "update-pricing-page"])
            try expectChangedPaths(board, since: before, are: change)
        }
    }

    @Test func movingIntoAColumnOfSharedPositions() throws {
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            let store = try board.store()
            try store.moveCard("add-newsletter-signup", to: "done")
            #expect(try store.load().slugs(inColumn: "done") == [
                "choose-a-font-pairing", "compress-hero-images", "set-up-staging-site", "add-newsletter-signup",
            ])
            try store.moveCard("new-homepage-hero", to: "done", placement: .before("set-up-staging-site"))
            #expect(try store.load().slugs(inColumn: "done") == [
                "choose-a-font-pairing", "compress-hero-images", "new-homepage-hero", "set-up-staging-site", "add-newsletter-signup",
            ])
            try store.moveCard("mobile-menu-close-on-tap-outside", to: "done", placement: .after("choose-a-font-pairing"))
            #expect(try store.load().slugs(inColumn: "done") == [
                "choose-a-font-pairing", "mobile-menu-close-on-tap-outside", "compress-hero-images", "new-homepage-hero",
                "set-up-staging-site", "add-newsletter-signup",
            ])
            #expect(try store.load().diagnostics.isEmpty)
        }
    }

    @Test func movingBetweenTheMessyBoardsTiedCards() throws {
        try withTemporaryBoard(.fixture("messy")) { board in
            let store = try board.store()
            try store.moveCard("fix-login", to: "done", placement: .after("ship-v1"))
            #expect(try store.load().slugs(inColumn: "done") == ["ship-v1", "fix-login", "write-changelog", "moved-by-hand", "dup"])
        }
    }

    @Test func aPlacementCardNamesTheTargetColumn() throws {
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            let store = try board.store()
            try store.moveCard("fix-broken-footer-links", placement: .after("mobile-menu-close-on-tap-outside"))
            #expect(try store.load().slugs(inColumn: "in-progress") == [
                "mobile-menu-close-on-tap-outside", "fix-broken-footer-links", "new-homepage-hero",
            ])
            #expect(try store.card("fix-broken-footer-links").columnField == "in-progress")
        }
    }

    @Test func movingNextToACardWithoutAPosition() throws {
        try withTemporaryBoard(.fixture("messy")) { board in
            let store = try board.store()
            try store.moveCard("fix-login", to: "doing", placement: .before("call-the-plumber"))
            #expect(try store.load().slugs(inColumn: "doing") == ["undeclared-label", "fix-login", "call-the-plumber"])
            try store.moveCard("ship-v1", to: "doing", placement: .after("call-the-plumber"))
            #expect(try store.load().slugs(inColumn: "doing") == ["undeclared-label", "fix-login", "call-the-plumber", "ship-v1"])
            #expect(try store.card("call-the-plumber").body == "# Call the plumber\n\nThe kitchen tap drips.\n")
        }
    }

    @Test func missingColumnAndArchiveDirectoriesAreMadeWhenNeeded() throws {
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            try FileManager.default.removeItem(atPath: board.absolute("cards/in-progress"))
            try FileManager.default.removeItem(atPath: board.absolute("archive"))
            let store = try board.store()
            try store.createCard(title: "First", in: "in-progress")
            try store.archiveCard("first")
            #expect(board.exists("archive/2026-05-28-first.md"))
            try store.unarchiveCard("first")
            #expect(try store.card("first").path == "cards/in-progress/first.md")
        }
    }

    @Test func aClonedBoardWithoutACardsDirectoryCanTakeCards() throws {
        // git keeps no empty directories: a new board cloned before its first card has only board.md.
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            try FileManager.default.removeItem(atPath: board.absolute("cards"))
            try FileManager.default.removeItem(atPath: board.absolute("archive"))
            let store = try board.store()
            #expect(try store.load(.all).cards.isEmpty)
            #expect(try store.check().isEmpty)
            do {
                try store.createCard(title: "First", in: "in-progress")
                #expect(board.exists("cards/in-progress/first.md"))
            }
            do {
                try store.addColumn(id: "review", name: "Review")
            }
        }
    }

    @Test func movingRelativeToItselfIsRefused() throws {
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            let store = try board.store()
            let before = try board.snapshot()
            expectKanbanError(.invalidArgument) { try store.moveCard("fix-broken-footer-links", placement: .after("fix-broken-footer-links")) }
            expectKanbanError(.invalidArgument) {
                try store.moveCard("fix-broken-footer-links", to: "todo", placement: .before("cards/todo/fix-broken-footer-links.md"))
            }
            #expect(try board.snapshot() == before)
        }
    }

    @Test func movingToAnUnknownColumnIsRefused() throws {
        try withTemporaryBoard(.fixture("messy")) { board in
            let store = try board.store()
            let before = try board.snapshot()
            expectKanbanError(.columnNotFound) { try store.moveCard("fix-login", to: "review") }
            expectKanbanError(.columnNotFound) { try store.moveCard("fix-login", to: "someday") }
            expectKanbanError(.outsideBoard) { try store.moveCard("fix-login", to: "../../elsewhere") }
            expectKanbanError(.invalidArgument) { try store.moveCard("fix-login", to: "done", placement: .before("fix-login")) }
            expectKanbanError(.invalidArgument) { try store.moveCard("fix-login", to: "done", placement: .before("undeclared-label")) }
            #expect(try board.snapshot() == before)
        }
    }

    @Test func movingOntoACardWithTheSameSlugLosesNothing() throws {
        try withTemporaryBoard(.fixture("messy")) { board in
            let store = try board.store()
            let before = try board.snapshot()
            expectKanbanError(.alreadyExists) { try store.moveCard("cards/todo/dup.md", to: "done") }
            #expect(try board.snapshot() == before)
            #expect(try board.paths(containing: ".kanban-tmp").isEmpty)
        }
    }

    @Test func movingToItsOwnColumnWithoutAPlacementChangesNothing() throws {
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            let before = try board.snapshot()
            let change = try board.store().moveCard("fix-broken-footer-links", to: "todo")
            #expect(change.paths.isEmpty)
            #expect(try board.snapshot() == before)
        }
    }

    @Test func movingAStaleCardFixesItsColumnField() throws {
        try withTemporaryBoard(.fixture("messy")) { board in
            let store = try board.store()
            try store.moveCard("moved-by-hand", placement: .top)
            let card = try store.card("moved-by-hand")
            #expect(card.columnField == "done")
            #expect(card.column == "done")
            #expect(try store.load().slugs(inColumn: "done").first == "moved-by-hand")
            #expect(try store.check().filter { $0.code == .staleColumn }.isEmpty)
        }
    }

    @Test func movingACardWithoutFrontmatterKeepsItsBody() throws {
        try withTemporaryBoard(.fixture("messy")) { board in
            let store = try board.store()
            try store.moveCard("call-the-plumber", to: "todo")
            let card = try store.card("call-the-plumber")
            #expect(card.title == "Call the plumber")
            #expect(card.columnField == "todo")
            #expect(card.position != nil)
            #expect(card.body == "# Call the plumber\n\nThe kitchen tap drips.\n")
            #expect(try store.load().slugs(inColumn: "todo") == ["fix-login", "dup", "call-the-plumber"])
        }
    }

    // MARK: Archive

    @Test func archivingMovesTheFileUnderTodaysDateSettingOnlyModified() throws {
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            let store = try board.store()
            let bytes = try board.bytes("cards/in-progress/new-homepage-hero.md")
            let before = try board.snapshot()
            let change = try store.archiveCard("new-homepage-hero")
            #expect(change.writtenPaths == ["archive/2026-05-28-new-homepage-hero.md"])
            #expect(change.removedPaths == ["cards/in-progress/new-homepage-hero.md"])
            let archivedText = String(decoding: try board.bytes("archive/2026-05-28-new-homepage-hero.md"), as: UTF8.self)
            let original = String(decoding: bytes, as: UTF8.self)
            let modified = try #require(original.split(separator: "\n").first { $0.hasPrefix("modified:") })
            #expect(archivedText == original.replacingOccurrences(of: String(modified), with: "modified: \(fixedNowText)"))
            #expect(!board.exists("cards/in-progress/new-homepage-hero.md"))
            try expectChangedPaths(board, since: before, are: change)
            let card = try #require(change.card)
            #expect(card.isArchived)
            #expect(card.archivedOn == "2026-05-28")
            #expect(card.column == "in-progress")
            let archived = try store.load(.archived).cards.map(\.slug)
            #expect(archived == ["audit-old-blog-posts", "new-homepage-hero"])
            #expect(try store.load().cards.count == 7)
        }
    }

    @Test func archivingTwoCardsWithOneSlugOnOneDayKeepsBoth() throws {
        try withTemporaryBoard(.fixture("messy")) { board in
            let store = try board.store()
            try store.archiveCard("cards/todo/dup.md")
            try store.archiveCard("cards/done/dup.md")
            #expect(board.exists("archive/2026-05-28-dup.md"))
            #expect(board.exists("archive/2026-05-28-dup-2.md"))
            #expect(!board.exists("cards/todo/dup.md"))
            #expect(!board.exists("cards/done/dup.md"))
        }
    }

    @Test func anArchivedCardIsNoLongerFoundAmongActiveCards() throws {
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            let store = try board.store()
            try store.archiveCard("new-homepage-hero")
            expectKanbanError(.cardNotFound) { try store.card("new-homepage-hero") }
            expectKanbanError(.cardNotFound) { try store.archiveCard("new-homepage-hero") }
            #expect(try store.card("new-homepage-hero", in: .archived).isArchived)
        }
    }

    // MARK: Unarchive

    @Test func unarchivingReturnsACardToItsColumn() throws {
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            let store = try board.store()
            let before = try board.snapshot()
            let change = try store.unarchiveCard("audit-old-blog-posts")
            #expect(change.card?.path == "cards/done/audit-old-blog-posts.md")
            #expect(change.removedPaths == ["archive/2026-03-02-audit-old-blog-posts.md"])
            #expect(!board.exists("archive/2026-03-02-audit-old-blog-posts.md"))
            try expectChangedPaths(board, since: before, are: change)
            let snapshot = try store.load(.all)
            #expect(snapshot.slugs(inColumn: "done").last == "audit-old-blog-posts")
            #expect(!snapshot.cards.contains { $0.isArchived })
            let card = try store.card("audit-old-blog-posts")
            #expect(card.title == "Audit old blog posts")
            #expect(card.modified == fixedNow)
            #expect(card.body?.hasSuffix("- [x] Decisions in the sheet") == true)
        }
    }

    @Test func unarchivingToAGivenColumn() throws {
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            let store = try board.store()
            try store.unarchiveCard("audit", to: "todo")
            let card = try store.card("audit-old-blog-posts")
            #expect(card.path == "cards/todo/audit-old-blog-posts.md")
            #expect(card.columnField == "todo")
            #expect(try store.load().slugs(inColumn: "todo").last == "audit-old-blog-posts")
            expectKanbanError(.cardNotFound) { try store.unarchiveCard("audit") }
        }
    }

    @Test func unarchivingToAColumnThatIsGoneUsesTheFirstColumn() throws {
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            try board.write("---\ntitle: Old\ncolumn: review\nposition: n\n---\n", to: "archive/2026-01-01-old.md")
            let store = try board.store()
            #expect(try store.unarchiveCard("old").card?.path == "cards/todo/old.md")
            expectKanbanError(.columnNotFound) { try store.unarchiveCard("audit-old-blog-posts", to: "review") }
        }
    }

    @Test func unarchivingNextToACardWithTheSameSlugRenamesIt() throws {
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            let store = try board.store()
            try store.createCard(title: "Audit old blog posts", in: "done")  // becomes audit-old-blog-posts-2
            try board.write("---\ntitle: Dup\ncolumn: done\nposition: z\n---\n", to: "cards/done/audit-old-blog-posts.md")
            let card = try #require(try store.unarchiveCard("audit-old-blog-posts").card)
            #expect(card.slug == "audit-old-blog-posts-3")
            #expect(board.exists("cards/done/audit-old-blog-posts.md"))
            #expect(board.exists("cards/done/audit-old-blog-posts-2.md"))
        }
    }

    @Test func archiveThenUnarchiveRestoresTheCard() throws {
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            let store = try board.store()
            let old = try board.bytes("cards/todo/add-newsletter-signup.md")
            try store.archiveCard("add-newsletter-signup")
            try store.unarchiveCard("add-newsletter-signup")
            let new = try board.bytes("cards/todo/add-newsletter-signup.md")
            #expect(changedLines(old, new).isSubset(of: [3, 5]), "only position and modified may change")
            #expect(lines(of: new)[5] == "modified: \(fixedNowText)")
        }
    }

    // MARK: Delete

    @Test func deletingRemovesTheFile() throws {
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            let store = try board.store()
            let before = try board.snapshot()
            let change = try store.deleteCard("set-up")
            #expect(change.removedPaths == ["cards/done/set-up-staging-site.md"])
            #expect(change.previous?.title == "Set up staging site")
            #expect(change.card == nil)
            try expectChangedPaths(board, since: before, are: change)
            #expect(try store.load().cards.count == 7)
            expectKanbanError(.cardNotFound) { try store.deleteCard("set-up-staging-site") }
        }
    }

    @Test func deletingAnArchivedCard() throws {
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            let store = try board.store()
            expectKanbanError(.cardNotFound) { try store.deleteCard("audit-old-blog-posts") }
            try store.deleteCard("audit-old-blog-posts", in: .archived)
            #expect(try store.load(.archived).cards.isEmpty)
        }
    }

    @Test func aCardThatDoesNotParseCanStillBeDeleted() throws {
        try withTemporaryBoard(.fixture("messy")) { board in
            let change = try board.store().deleteCard("cards/doing/unclosed.md")
            #expect(change.previous == nil)
            #expect(!board.exists("cards/doing/unclosed.md"))
        }
    }

    @Test func aDeletedCardIsRestoredByteForByte() throws {
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            let store = try board.store()
            let bytes = try board.bytes("cards/done/set-up-staging-site.md")
            try store.deleteCard("set-up")
            let change = try store.restoreCard(bytes, slug: "set-up-staging-site", in: "done")
            #expect(change.writtenPaths == ["cards/done/set-up-staging-site.md"])
            #expect(change.card?.title == "Set up staging site")
            #expect(try board.bytes("cards/done/set-up-staging-site.md") == bytes)
            #expect(try store.load().cards.count == 8)
        }
    }

    @Test func aRestoreRefusesATakenSlugOrAMissingColumn() throws {
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            let store = try board.store()
            let bytes = try board.bytes("cards/done/set-up-staging-site.md")
            try store.deleteCard("set-up")
            try store.createCard(title: "Set up staging site", in: "todo")
            expectKanbanError(.alreadyExists) { try store.restoreCard(bytes, slug: "set-up-staging-site", in: "done") }
            expectKanbanError(.columnNotFound) { try store.restoreCard(bytes, slug: "other", in: "nowhere") }
            #expect(!board.exists("cards/done/set-up-staging-site.md"))
        }
    }

    // MARK: Atomic writes

    @Test func noTemporaryFilesAreLeftBehind() throws {
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            let store = try board.store()
            for index in 0..<10 {
                let card = try #require(try store.createCard(title: "Card \(index)", in: "todo", labels: ["bug"]).card)
                try store.updateCard(card.slug, CardUpdate(title: "Card \(index) renamed", addedLabels: ["feature"], body: "Body \(index)"))
                try store.moveCard(card.slug, to: index.isMultiple(of: 2) ? "done" : "in-progress", placement: .top)
                if index.isMultiple(of: 3) { try store.archiveCard(card.slug) }
                if index == 0 || index == 6 { try store.unarchiveCard(card.slug) }
            }
            try store.moveCard("fix-broken-footer-links", to: "done", placement: .after("choose-a-font-pairing"))
            try store.deleteCard("card-1")
            #expect(try board.paths(containing: ".kanban-tmp").isEmpty)
            #expect(try board.paths(containing: "/.").isEmpty, "no hidden files of any kind")
            let snapshot = try store.load(.all)
            #expect(snapshot.diagnostics.isEmpty)
            #expect(snapshot.cards.count == 8 + 1 + 10 - 1)
        }
    }
}
