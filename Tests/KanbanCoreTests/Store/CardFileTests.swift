import Foundation
import Testing
@testable import KanbanCore

/// Card files: their names, and the card fixtures read through a board as `kanban` reads them.
@Suite struct CardFileTests {
    /// Runs `body` on a copy of the SimpleKanban fixture board with the card fixture `name` added as
    /// `cards/todo/<name>`.
    private func withCardFixture<R>(_ name: String, _ body: (TemporaryBoard, BoardStore) throws -> R) throws -> R {
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            try board.write(Fixtures.cardBytes(name), to: "cards/todo/\(name)")
            return try body(board, board.store())
        }
    }

    /// Loads the board with the fixture and returns its card, failing the test when the card did not load.
    private func loadFixture(_ name: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> Card {
        try withCardFixture(name) { _, store in
            let snapshot = try store.load(includeBodies: true)
            return try #require(snapshot.card(atPath: "cards/todo/\(name)"), "\(snapshot.diagnostics)",
                                sourceLocation: sourceLocation)
        }
    }

    private func date(_ text: String) throws -> Date {
        try #require(ISO8601.date(from: text))
    }

    private func scalar(_ value: YAMLValue?) -> YAMLScalar? {
        if case .scalar(let scalar)? = value { return scalar }
        return nil
    }

    static let mustParse = [
        "simplekanban.md", "simplekanban-empty-body.md", "trailing-newline.md", "crlf.md", "bom.md", "bom-crlf.md",
        "quoted-title.md", "single-quoted.md", "hash-title.md", "extra-keys.md", "block-list-labels.md", "nested.md",
        "literal-block.md", "offsets.md", "no-frontmatter.md", "no-frontmatter-no-heading.md", "empty-frontmatter.md",
        "conflict-in-body.md", "yaml11-traps.md", "long-key.md",
    ]

    /// The failing fixtures and where `Tests/Fixtures/cards/README.md` says each fails.
    static let mustFail: [(name: String, line: Int, column: Int)] = [
        ("unclosed.md", 1, 1),
        ("not-utf8.md", 2, 11),
        ("bad-labels.md", 7, 9),
        ("bad-created.md", 5, 10),
        ("tab-indent.md", 9, 1),
        ("conflict-markers.md", 3, 1),
        ("duplicate-key.md", 5, 1),
    ]

    // MARK: File names

    @Test(arguments: ["fix-login.md", "a.md", "2026-01-05-x.md", "Ünïcödé.md", "with space.md"])
    func cardFileNames(name: String) {
        #expect(CardFile.isCardFileName(name))
    }

    @Test(arguments: [".md", "md", "notes.txt", "4913", ".fix-login.md.swp", ".fix-login.md", "fix-login.md~",
                      "#fix-login.md#", ".#fix-login.md", "fix-login.md.orig", "fix-login.MD", "x.md___jb_tmp___.md",
                      "fix-login.md.kanban-tmp", ".fix-login.md.123.0.kanban-tmp"])
    func litterIsNotACard(name: String) {
        #expect(!CardFile.isCardFileName(name))
    }

    @Test func anActiveCardFileKnowsItsSlugAndColumn() {
        let file = CardFile.active(name: "fix-login.md", column: "todo")
        #expect(file.path == "cards/todo/fix-login.md")
        #expect(file.slug == "fix-login")
        #expect(file.directoryColumn == "todo")
        #expect(!file.isArchived)
    }

    @Test(arguments: ["fix-login.md", "a.md", "Ünïcödé.md", "with space.md", "a-rather-long-slug-for-a-card-file.md"])
    func aCardFileMadeFromListedBytesIsTheSameAsFromItsName(name: String) {
        let made = Array(name.utf8).withUnsafeBufferPointer { name in
            Array("cards/todo".utf8).withUnsafeBufferPointer { CardFile.active(name: name, column: "todo", directory: $0) }
        }
        #expect(made == CardFile.active(name: name, column: "todo"))
    }

    @Test func anArchivedCardFileDropsTheDateFromItsSlug() {
        let file = CardFile.archived(name: "2026-03-02-audit-old-blog-posts.md")
        #expect(file.path == "archive/2026-03-02-audit-old-blog-posts.md")
        #expect(file.slug == "audit-old-blog-posts")
        #expect(file.archivedOn == "2026-03-02")
        #expect(file.isArchived)
    }

    @Test(arguments: ["audit.md", "2026-03-02.md", "2026-3-02-audit.md", "20260302-audit.md", "2026-03-02audit.md"])
    func anArchivedFileWithoutADatePrefixKeepsItsWholeName(name: String) {
        let file = CardFile.archived(name: name)
        #expect(file.slug == String(name.dropLast(3)))
        #expect(file.archivedOn == nil)
        #expect(file.isArchived)
    }

    // MARK: Fixtures that must parse

    @Test(arguments: CardFileTests.mustParse)
    func parsesWithoutAnErrorAndWithoutChangingTheFile(name: String) throws {
        try withCardFixture(name) { board, store in
            let before = try board.snapshot()
            let snapshot = try store.load(.all, includeBodies: true)
            #expect(snapshot.card(atPath: "cards/todo/\(name)") != nil, "\(snapshot.diagnostics)")
            #expect(snapshot.diagnostics.isEmpty)
            #expect(try store.check().filter { $0.location.path == "cards/todo/\(name)" && $0.code == .invalidFile }.isEmpty)
            _ = try store.card("cards/todo/\(name)")
            #expect(try board.snapshot() == before)
        }
    }

    @Test(arguments: ["simplekanban.md", "crlf.md", "bom.md", "bom-crlf.md", "trailing-newline.md"])
    func theSimpleKanbanCardReadsTheSameInEveryEncoding(name: String) throws {
        let card = try loadFixture(name)
        #expect(card.title == "Implement user authentication")
        #expect(card.columnField == "in-progress")
        #expect(card.column == "todo", "the directory wins over the column field")
        #expect(card.position == (name == "trailing-newline.md" ? "a0" : "n"))
        #expect(card.created?.timeIntervalSince1970 == 1_767_607_200)
        #expect(card.modified?.timeIntervalSince1970 == 1_767_623_400)
        #expect(card.labels == ["feature", "urgent"])
        #expect(card.fields.isEmpty)
        #expect(card.hasFrontmatter)
        #expect(!card.isArchived)
        #expect(card.body?.contains("Add OAuth2 authentication flow.") == true)
        #expect(card.body?.contains("---") == false)
    }

    @Test func theSimpleKanbanBodyHasNoFinalNewline() throws {
        #expect(try loadFixture("simplekanban.md").body == "## Description\n\nAdd OAuth2 authentication flow.")
    }

    @Test func aBodyWithAFinalNewlineKeepsIt() throws {
        #expect(try loadFixture("trailing-newline.md").body == "## Description\n\nAdd OAuth2 authentication flow.\n")
        #expect(try loadFixture("bom.md").body == "## Description\n\nAdd OAuth2 authentication flow.\n")
    }

    @Test func anEmptyBodyIsEmpty() throws {
        let card = try loadFixture("simplekanban-empty-body.md")
        #expect(card.title == "Call the dentist")
        #expect(card.labels.isEmpty)
        #expect(card.body == "")
    }

    @Test(arguments: [
        ("quoted-title.md", "Fix: login \"quoted\" bug"),
        // SimpleKanban reads single quotes as part of the title, and so does kanban.
        ("single-quoted.md", "'It''s done'"),
        ("hash-title.md", "#42 crash"),
    ])
    func quotedTitles(name: String, title: String) throws {
        #expect(try loadFixture(name).title == title)
    }

    @Test func extraKeysAreKeptAsFieldsInFileOrder() throws {
        let card = try loadFixture("extra-keys.md")
        #expect(card.title == "Quarterly report")
        #expect(card.position == "n")
        let created = try date("2026-03-02T09:00:00Z")
        let modified = try date("2026-03-04T16:20:00Z")
        #expect(card.created == created)
        #expect(card.modified == modified)
        #expect(card.labels == ["docs"])
        #expect(card.fields.map(\.key) == ["assignee", "due", "priority", "estimate"])
        #expect(card.field("assignee")?.string == "ana")
        #expect(card.field("due")?.string == "2026-12-01")
        #expect(card.field("priority")?.string == "2", "the inline comment is not part of the value")
        #expect(card.field("estimate")?.string == "3d")
    }

    @Test func blockListLabels() throws {
        let card = try loadFixture("block-list-labels.md")
        #expect(card.title == "Button misaligned on settings page")
        #expect(card.labels == ["bug", "ui"])
    }

    @Test func nestedMapsAndListsOfMaps() throws {
        let card = try loadFixture("nested.md")
        #expect(card.fields.map(\.key) == ["links", "checklist"])
        let links = try #require(card.field("links"))
        #expect(links["pr"]?.string == "https://github.com/acme/app/pull/87")
        #expect(links["issue"]?.string == "#123")
        let checklist = try #require(card.field("checklist")?.list)
        #expect(checklist.count == 2)
        #expect(checklist.first?["text"]?.string == "Exponential backoff")
        #expect(checklist.first?["done"]?.string == "true")
        #expect(checklist.last?["text"]?.string == "Give up after five tries")
        #expect(checklist.last?["done"]?.string == "false")
        #expect(card.labels == ["feature"])
    }

    @Test func literalAndFoldedBlocks() throws {
        let card = try loadFixture("literal-block.md")
        #expect(card.field("notes")?.string == "First line of the notes.\nSecond line: it has a colon.\nThird line.\n")
        #expect(card.field("summary")?.string == "Move settings from the plist into the database.")
        #expect(scalar(card.field("notes"))?.style == .literal)
        #expect(scalar(card.field("summary"))?.style == .folded)
        #expect(card.body == "See the notes key.\n")
    }

    @Test func offsetsAndFractionalSeconds() throws {
        let card = try loadFixture("offsets.md")
        let created = try #require(card.created)
        let modified = try #require(card.modified)
        #expect(created.timeIntervalSince1970 == 1_767_607_200)
        #expect(abs(modified.timeIntervalSince(created) - 0.25) < 1e-6)
    }

    @Test func aCardWithoutFrontmatterTakesItsTitleFromTheHeading() throws {
        let card = try loadFixture("no-frontmatter.md")
        #expect(card.title == "Buy milk")
        #expect(!card.hasFrontmatter)
        #expect(card.column == "todo")
        #expect(card.columnField == nil)
        #expect(card.position == nil)
        #expect(card.labels.isEmpty)
        #expect(card.created == nil)
        #expect(card.body == "# Buy milk\n\nSome text\n")
    }

    @Test func aCardWithNeitherFrontmatterNorHeadingIsNamedAfterItsFile() throws {
        let card = try loadFixture("no-frontmatter-no-heading.md")
        #expect(card.title == "No frontmatter no heading")
        #expect(!card.hasFrontmatter)
    }

    @Test func emptyFrontmatterFallsBackToTheFileName() throws {
        let card = try loadFixture("empty-frontmatter.md")
        #expect(card.hasFrontmatter)
        #expect(card.title == "Empty frontmatter")
        #expect(card.body == "body\n")
        #expect(card.labels.isEmpty)
    }

    @Test func conflictMarkersInTheBodyStillParse() throws {
        let card = try loadFixture("conflict-in-body.md")
        #expect(card.title == "Upload retries")
        #expect(card.labels == ["feature"])
        #expect(card.body?.contains("<<<<<<< HEAD") == true)
    }

    @Test func yaml11TrapsKeepTheirSourceText() throws {
        let card = try loadFixture("yaml11-traps.md")
        #expect(card.position == "on")
        let expected = [("country", "NO"), ("approved", "yes"), ("archived", "no"), ("reminder", "off"), ("budget", "1e3"),
                        ("budget_text", "1e3"), ("ref", "0123"), ("version", "1.10")]
        #expect(card.fields.map(\.key) == expected.map(\.0))
        for (key, text) in expected {
            #expect(card.field(key)?.string == text, "\(key)")
        }
        #expect(scalar(card.field("archived"))?.style == .doubleQuoted)
        #expect(scalar(card.field("budget_text"))?.style == .doubleQuoted)
        #expect(scalar(card.field("country"))?.style == .plain)
        #expect(scalar(card.field("version"))?.style == .plain)
    }

    @Test func aLongPositionKeyIsAcceptedAndSortsByBytes() throws {
        try withCardFixture("long-key.md") { _, store in
            let snapshot = try store.load()
            let card = try #require(snapshot.card(atPath: "cards/todo/long-key.md"))
            #expect(card.position == "a1zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzV")
            // `a1z…V` < `n`: it comes before the board's own todo cards.
            #expect(snapshot.slugs(inColumn: "todo") == ["long-key", "fix-broken-footer-links", "update-pricing-page",
                                                         "add-newsletter-signup"])
        }
    }

    @Test func aCRLFCardWithoutFrontmatterTakesItsTitleFromTheHeadingLine() throws {
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            try board.write("# Buy milk\r\n\r\nSome text\r\n", to: "cards/todo/buy-milk.md")
            let card = try #require(try board.store().load().card(atPath: "cards/todo/buy-milk.md"))
            #expect(card.title == "Buy milk")
        }
    }

    // MARK: Fixtures that must fail

    @Test(arguments: CardFileTests.mustFail)
    func isReportedAtItsLineAndColumnAndSkipped(name: String, line: Int, column: Int) throws {
        try withCardFixture(name) { board, store in
            let before = try board.snapshot()
            let path = "cards/todo/\(name)"
            let snapshot = try store.load(.all, includeBodies: true)
            #expect(snapshot.card(atPath: path) == nil)
            #expect(snapshot.cards.count == 9, "the other cards of the board still load")
            let reported = snapshot.diagnostics.filter { $0.location.path == path }
            #expect(reported.count == 1)
            let diagnostic = try #require(reported.first)
            #expect(diagnostic.severity == .error)
            #expect(diagnostic.location.line == line, "\(diagnostic)")
            #expect(diagnostic.location.column == column, "\(diagnostic)")
            #expect(diagnostic.description.hasPrefix("\(path):\(line):\(column): error: "))
            #expect(try board.snapshot() == before, "a file that does not parse is never rewritten")
        }
    }

    @Test(arguments: CardFileTests.mustFail.filter { $0.name != "conflict-markers.md" })
    func readingItAsACardThrowsWithItsLocation(name: String, line: Int, column: Int) throws {
        try withCardFixture(name) { _, store in
            let error = expectKanbanError(.invalidCard) { try store.card("cards/todo/\(name)") }
            #expect(error?.location?.path == "cards/todo/\(name)")
            #expect(error?.location?.line == line)
            #expect(error?.location?.column == column)
        }
    }

    @Test func conflictMarkersInTheFrontmatterAreReportedAsAMergeConflict() throws {
        try withCardFixture("conflict-markers.md") { _, store in
            let diagnostic = try #require(try store.load().diagnostics.first)
            #expect(diagnostic.code == .conflictMarkers)
            #expect(diagnostic.message.contains("conflict"))
        }
    }

    @Test func aBadDateNamesTheKey() throws {
        try withCardFixture("bad-created.md") { _, store in
            let diagnostic = try #require(try store.load().diagnostics.first)
            #expect(diagnostic.code == .invalidFile)
            #expect(diagnostic.message.contains("created"))
            #expect(diagnostic.message.contains("yesterday-ish"))
        }
    }

    @Test func aFailingCardCannotBeChangedThroughTheStore() throws {
        try withCardFixture("bad-labels.md") { board, store in
            let before = try board.snapshot()
            expectKanbanError(.invalidCard) { try store.updateCard("cards/todo/bad-labels.md", CardUpdate(title: "New")) }
            expectKanbanError(.invalidCard) { try store.moveCard("cards/todo/bad-labels.md", to: "done") }
            #expect(try board.snapshot() == before)
        }
    }
}
