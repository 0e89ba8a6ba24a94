import Foundation
import Testing
@testable import KanbanCore

/// Opening, creating and loading boards.
@Suite struct BoardStoreTests {
    // MARK: Opening

    @Test func aDirectoryThatDoesNotExistIsNotABoard() throws {
        try withTemporaryDirectory { directory in
            expectKanbanError(.boardNotFound) { try BoardStore(directory: directory + "/missing") }
        }
    }

    @Test func aDirectoryWithoutBoardMDIsNotABoard() throws {
        try withTemporaryDirectory { directory in
            try FileSystem.makeDirectory(directory + "/cards")
            expectKanbanError(.boardNotFound) { try BoardStore(directory: directory) }
        }
    }

    @Test func theDirectoryIsReportedWithLinksResolved() throws {
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            try FileManager.default.createSymbolicLink(atPath: board.root + "/alias", withDestinationPath: board.path)
            #expect(try BoardStore(directory: board.root + "/alias").directory == board.path)
            #expect(try BoardStore(directory: board.path + "/cards/..").directory == board.path)
        }
    }

    @Test func findLooksUpThroughTheParents() throws {
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            let found = try BoardStore.find(from: board.path + "/cards/todo")
            #expect(found.directory == board.path)
            #expect(try BoardStore.find(from: board.path).directory == board.path)
            expectKanbanError(.boardNotFound) { try BoardStore.find(from: board.path + "/no/such/place") }
        }
    }

    // MARK: Creating

    @Test func createMakesBoardMDAndADirectoryForEachColumn() throws {
        try withTemporaryDirectory { directory in
            let board = Board(title: "New Board", columns: [Column(id: "todo", name: "To Do"), Column(id: "done", name: "Done")],
                              labels: [Label(id: "bug", name: "Bug", color: "#e74c3c")])
            let store = try BoardStore.create(at: directory + "/new", board: board)
            #expect(store.directory == directory + "/new")
            #expect(FileSystem.isDirectory(directory + "/new/cards/todo"))
            #expect(FileSystem.isDirectory(directory + "/new/cards/done"))
            #expect(FileSystem.isDirectory(directory + "/new/archive"))
            let loaded = try store.loadBoard()
            #expect(loaded.title == board.title)
            #expect(loaded.columns == board.columns)
            #expect(loaded.labels == board.labels)
            #expect(try store.load().cards.isEmpty)
        }
    }

    @Test func createWritesBoardMDInSimpleKanbansLayout() throws {
        try withTemporaryDirectory { directory in
            let board = Board(title: "New Board", columns: [Column(id: "todo", name: "To Do"), Column(id: "done", name: "Done")],
                              labels: [Label(id: "bug", name: "Bug", color: "#e74c3c")], body: "# New Board\n")
            try BoardStore.create(at: directory, board: board)
            let text = String(decoding: try FileSystem.readFile(directory + "/board.md"), as: UTF8.self)
            #expect(text.hasPrefix("""
                ---
                title: New Board
                columns:
                  - id: todo
                    name: To Do
                  - id: done
                    name: Done
                labels:
                  - id: bug
                    name: Bug
                    color: "#e74c3c"
                ---

                """))
            #expect(text.contains("# New Board"))
        }
    }

    @Test func createRefusesToOverwriteABoard() throws {
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            let before = try board.snapshot()
            expectKanbanError(.alreadyExists) {
                try BoardStore.create(at: board.path, board: Board(title: "Other", columns: [Column(id: "a", name: "A")]))
            }
            #expect(try board.snapshot() == before)
        }
    }

    @Test(arguments: [
        Board(title: " ", columns: [Column(id: "todo", name: "To Do")]),
        Board(title: "B", columns: []),
        Board(title: "B", columns: [Column(id: "../x", name: "Escape")]),
        Board(title: "B", columns: [Column(id: "todo", name: "A"), Column(id: "todo", name: "B")]),
    ])
    func createRefusesABoardItCannotWrite(board: Board) throws {
        try withTemporaryDirectory { directory in
            expectKanbanError(.invalidArgument) { try BoardStore.create(at: directory + "/new", board: board) }
            #expect(!FileSystem.exists(directory + "/new"))
            #expect(!FileSystem.exists(directory + "/x"))
        }
    }

    // MARK: Loading the SimpleKanban board

    @Test func loadsTheSimpleKanbanBoardWithoutProblems() throws {
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            let snapshot = try board.store().load()
            #expect(snapshot.diagnostics.isEmpty)
            #expect(snapshot.columnIDs == ["todo", "in-progress", "done"])
            #expect(snapshot.cards.count == 8)
            #expect(snapshot.cards.allSatisfy { !$0.isArchived })
            #expect(snapshot.slugs(inColumn: "todo") == ["fix-broken-footer-links", "update-pricing-page", "add-newsletter-signup"])
            #expect(snapshot.slugs(inColumn: "in-progress") == ["mobile-menu-close-on-tap-outside", "new-homepage-hero"])
            #expect(snapshot.slugs(inColumn: "done") == ["choose-a-font-pairing", "compress-hero-images", "set-up-staging-site"])
            #expect(snapshot.cards.map(\.column) == ["todo", "todo", "todo", "in-progress", "in-progress", "done", "done", "done"])
        }
    }

    @Test func readsEveryFieldOfASimpleKanbanCard() throws {
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            let snapshot = try board.store().load()
            let card = try #require(snapshot.card(atPath: "cards/in-progress/mobile-menu-close-on-tap-outside.md"))
            #expect(card.slug == "mobile-menu-close-on-tap-outside")
            #expect(card.title == "Mobile menu: close on tap outside")
            #expect(card.column == "in-progress")
            #expect(card.columnField == "in-progress")
            #expect(card.position == "g")
            #expect(card.created == ISO8601.date(from: "2026-02-19T09:45:00Z"))
            #expect(card.modified == ISO8601.date(from: "2026-02-21T13:15:00Z"))
            #expect(card.labels == ["bug"])
            #expect(card.fields.isEmpty)
            #expect(card.hasFrontmatter)
            #expect(card.body == nil, "bodies are read only when asked for")
            let both = try #require(snapshot.card(atPath: "cards/done/compress-hero-images.md"))
            #expect(both.labels == ["bug", "feature"])
        }
    }

    @Test func bodiesAreReadWhenAskedFor() throws {
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            let store = try board.store()
            let withBodies = try store.load(includeBodies: true)
            #expect(withBodies.card(atPath: "cards/todo/fix-broken-footer-links.md")?.body
                == "The Careers and Press links in the footer return 404.")
            #expect(withBodies.card(atPath: "cards/done/choose-a-font-pairing.md")?.body == "")
            let card = try #require(try store.load().card(atPath: "cards/todo/fix-broken-footer-links.md"))
            #expect(try store.body(of: card) == "The Careers and Press links in the footer return 404.")
            #expect(try store.contents(of: card) == board.bytes("cards/todo/fix-broken-footer-links.md"))
        }
    }

    @Test func archivedCardsComeLastAndKnowTheirDateAndColumn() throws {
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            let store = try board.store()
            let all = try store.load(.all)
            #expect(all.cards.count == 9)
            let archived = try #require(all.cards.last)
            #expect(archived.isArchived)
            #expect(archived.slug == "audit-old-blog-posts")
            #expect(archived.archivedOn == "2026-03-02")
            #expect(archived.column == "done")
            #expect(archived.path == "archive/2026-03-02-audit-old-blog-posts.md")
            #expect(all.cards(inColumn: "done").count == 3, "archived cards are not in their column")
            let only = try store.load(.archived)
            #expect(only.cards.map(\.slug) == ["audit-old-blog-posts"])
        }
    }

    @Test func loadCanBeLimitedToColumns() throws {
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            let store = try board.store()
            let todo = try store.load(columns: ["todo"])
            #expect(todo.cards.map(\.slug) == ["fix-broken-footer-links", "update-pricing-page", "add-newsletter-signup"])
            #expect(try store.load(.all, columns: ["todo"]).cards.count == 3, "the archived card came from done")
            #expect(try store.load(.all, columns: ["done"]).cards.count == 4)
        }
    }

    // MARK: Loading the sample board

    @Test func loadsTheSampleBoardWithoutErrors() throws {
        try withTemporaryBoard(.sample) { board in
            let store = try board.store()
            let snapshot = try store.load(.all)
            #expect(snapshot.diagnostics.isEmpty)
            #expect(snapshot.cards.filter { !$0.isArchived }.count == 25)
            #expect(snapshot.cards.filter(\.isArchived).map(\.slug) == [
                "internal-alpha-for-dogfooding", "pick-the-launch-date", "remove-legacy-flickr-uploader", "tooltip-flicker-on-hover",
            ])
            #expect(try store.check().filter { $0.severity == .error }.isEmpty)
        }
    }

    @Test func orderWithinAColumnIsPositionBytesThenSlug() throws {
        try withTemporaryBoard(.sample) { board in
            let snapshot = try board.store().load()
            #expect(snapshot.slugs(inColumn: "backlog") == [
                "keyboard-shortcut-cheat-sheet",  // g
                "dark-mode-for-the-print-dialog",  // n
                "investigate-gpu-accelerated-thumbnail-decoding",  // n
                "plugin-api-for-custom-export-targets",  // n
                "face-grouping-in-people-view",  // t
            ])
            #expect(snapshot.slugs(inColumn: "todo") == [
                "notarize-and-sign-the-macos-build",  // Zz: uppercase sorts first
                "localise-for-francais-and-espanol",  // n
                "write-release-notes-for-2-0",  // n
                "update-website-download-page",  // t
                "press-kit-and-screenshots",  // w
            ])
            #expect(snapshot.slugs(inColumn: "in-progress") == [
                "crash-on-launch-corrupted-thumbnail-cache", "migrate-sync-to-the-new-storage-api",
                "raw-import-for-fujifilm-and-sony-files", "smart-albums-rule-editor", "set-up-crash-reporting-for-beta-builds",
            ])
            #expect(snapshot.slugs(inColumn: "review") == [
                "onboarding-flow-redesign", "export-presets-for-social-media-sizes", "windows-arm64-installer",
                "memory-leak-when-scrolling-large-libraries",
            ])
            #expect(snapshot.slugs(inColumn: "done") == [
                "accessibility-audit-of-the-main-window", "beta-1-release-to-testers",
                "fix-exif-orientation-for-rotated-iphone-photos", "new-app-icon", "beta-feedback-survey",
                "library-database-migration-to-schema-v8",
            ])
        }
    }

    @Test func theOrderIsTheSameOnEveryLoad() throws {
        try withTemporaryBoard(.sample) { board in
            let store = try board.store()
            let first = try store.load(.all).cards.map(\.path)
            for _ in 0..<3 {
                #expect(try store.load(.all).cards.map(\.path) == first)
            }
        }
    }

    @Test func theSampleCardsAreNamedByTheSlugRule() throws {
        try withTemporaryBoard(.sample) { board in
            for card in try board.store().load(.all).cards {
                #expect(Slug.make(from: card.title) == card.slug, "\(card.path)")
            }
        }
    }

    @Test func sampleCardsKeepTheirExtraKeys() throws {
        try withTemporaryBoard(.sample) { board in
            let snapshot = try board.store().load()
            let smart = try #require(snapshot.card(atPath: "cards/in-progress/smart-albums-rule-editor.md"))
            #expect(smart.fields.map(\.key) == ["assignees", "due"])
            #expect(smart.field("assignees")?.list?.compactMap(\.string) == ["ana", "mei"])
            #expect(smart.field("due")?.string == "2026-11-19")
            let leak = try #require(snapshot.card(atPath: "cards/review/memory-leak-when-scrolling-large-libraries.md"))
            #expect(leak.field("assignee")?.string == "tomas")
            let migration = try #require(snapshot.card(atPath: "cards/done/library-database-migration-to-schema-v8.md"))
            #expect(migration.field("notes")?.string?.hasPrefix("Ran against the 40k-photo test library") == true)
            #expect(migration.field("notes")?.string?.split(separator: "\n").count == 3)
            let title = try #require(snapshot.card(atPath: "cards/todo/localise-for-francais-and-espanol.md")).title
            #expect(title == "Localise for Français & Español")
        }
    }

    // MARK: The messy board

    @Test func theMessyBoardLoadsEveryValidCardAndReportsTheUnclosedOne() throws {
        try withTemporaryBoard(.fixture("messy")) { board in
            let snapshot = try board.store().load()
            #expect(snapshot.columnIDs == ["todo", "doing", "done", "someday"])
            #expect(snapshot.cards.count == 9)
            #expect(snapshot.slugs(inColumn: "todo") == ["fix-login", "dup"])
            // A card without frontmatter has no position, so it comes after the positioned cards.
            #expect(snapshot.slugs(inColumn: "doing") == ["undeclared-label", "call-the-plumber"])
            #expect(snapshot.slugs(inColumn: "done") == ["ship-v1", "write-changelog", "moved-by-hand", "dup"])
            #expect(snapshot.slugs(inColumn: "someday") == ["learn-rust"])
            #expect(snapshot.diagnostics.count == 1)
            let unclosed = try #require(snapshot.diagnostics.first)
            #expect(unclosed.severity == .error)
            #expect(unclosed.code == .invalidFile)
            #expect("\(unclosed.location)" == "cards/doing/unclosed.md:1:1")
            #expect(unclosed.message.contains("not closed"))
        }
    }

    @Test func editorLitterIsIgnoredSilently() throws {
        try withTemporaryBoard(.fixture("messy")) { board in
            let snapshot = try board.store().load(.all)
            let paths = snapshot.cards.map(\.path) + snapshot.diagnostics.map(\.location.path)
            for litter in [".fix-login.md.swp", "fix-login.md~", "#fix-login.md#", "4913", "notes.txt"] {
                #expect(!paths.contains("cards/todo/\(litter)"))
            }
            #expect(snapshot.cards.filter { $0.title == "Fix login" }.count == 1)
        }
    }

    @Test func theDirectoryWinsOverAStaleColumnField() throws {
        try withTemporaryBoard(.fixture("messy")) { board in
            let card = try #require(try board.store().load().card(atPath: "cards/done/moved-by-hand.md"))
            #expect(card.column == "done")
            #expect(card.columnField == "todo")
            #expect(card.labels == ["ui"])
        }
    }

    @Test func aCardWithoutFrontmatterIsTitledByItsHeading() throws {
        try withTemporaryBoard(.fixture("messy")) { board in
            let card = try #require(try board.store().load(includeBodies: true).card(atPath: "cards/doing/call-the-plumber.md"))
            #expect(card.title == "Call the plumber")
            #expect(!card.hasFrontmatter)
            #expect(card.position == nil)
            #expect(card.column == "doing")
            #expect(card.body == "# Call the plumber\n\nThe kitchen tap drips.\n")
        }
    }

    @Test func anUndeclaredLabelIsKeptOnTheCard() throws {
        try withTemporaryBoard(.fixture("messy")) { board in
            let card = try #require(try board.store().load().card(atPath: "cards/doing/undeclared-label.md"))
            #expect(card.labels == ["bug", "urgent"])
        }
    }

    // MARK: Reading never writes

    @Test(arguments: [TemporaryBoard.Source.fixture("simplekanban"), .fixture("messy"), .sample])
    func readingNeverChangesAFile(source: TemporaryBoard.Source) throws {
        try withTemporaryBoard(source) { board in
            let store = try board.store()
            let before = try board.snapshot()
            _ = try store.loadBoard()
            let snapshot = try store.load(.all, includeBodies: true)
            _ = try store.check()
            for card in snapshot.cards {
                _ = try store.card(card.path, in: .all)
                _ = try store.body(of: card)
                _ = try store.contents(of: card)
            }
            _ = try BoardStore.find(from: board.path + "/cards")
            #expect(try board.snapshot() == before)
        }
    }

    // MARK: Links

    @Test func aLinkedCardOutsideTheBoardIsReportedNotFollowed() throws {
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            try board.write("---\ntitle: Secret\nposition: a\n---\n", to: "../outside.md")
            try FileManager.default.createSymbolicLink(atPath: board.absolute("cards/todo/secret.md"),
                                                       withDestinationPath: board.root + "/outside.md")
            let store = try board.store()
            let snapshot = try store.load()
            #expect(!snapshot.cards.contains { $0.slug == "secret" || $0.title == "Secret" })
            let reported = snapshot.diagnostics.filter { $0.location.path == "cards/todo/secret.md" }
            #expect(reported.map(\.code) == [.outsideBoard])
            #expect(reported.first?.severity == .error)
            expectKanbanError(.outsideBoard) { try store.card("cards/todo/secret.md") }
            let bySlug = #expect(throws: KanbanError.self) { try store.card("secret") }
            do {
                #expect(bySlug?.code == .outsideBoard)
            }
        }
    }

    @Test func aLinkedColumnDirectoryOutsideTheBoardIsReportedNotFollowed() throws {
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            try board.write("---\ntitle: Elsewhere\nposition: a\n---\n", to: "../elsewhere/card.md")
            try FileManager.default.createSymbolicLink(atPath: board.absolute("cards/elsewhere"),
                                                       withDestinationPath: board.root + "/elsewhere")
            let snapshot = try board.store().load()
            #expect(snapshot.cards.count == 8)
            #expect(snapshot.diagnostics.map(\.code) == [.outsideBoard])
            #expect(snapshot.diagnostics.first?.location.path == "cards/elsewhere")
        }
    }

    @Test func aDanglingLinkIsIgnored() throws {
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            // Emacs leaves `.#name.md` links as locks; a dangling `name.md` link is litter too.
            try FileManager.default.createSymbolicLink(atPath: board.absolute("cards/todo/gone.md"),
                                                       withDestinationPath: board.root + "/nothing-here.md")
            let snapshot = try board.store().load()
            #expect(snapshot.cards.count == 8)
            #expect(snapshot.diagnostics.isEmpty)
        }
    }
}

extension TemporaryBoard.Source: CustomTestStringConvertible {
    var testDescription: String {
        switch self {
        case .fixture(let name): "fixture \(name)"
        case .sample: "sample board"
        case .boardFile: "board.md text"
        }
    }
}
