import Foundation
import Testing
@testable import KanbanCore

/// How ``BoardStore/card(_:in:)`` and every operation find the card a person means.
@Suite struct BoardStoreResolveTests {
    @Test(arguments: [
        "new-homepage-hero",
        "new-home",
        "n",
        "cards/in-progress/new-homepage-hero.md",
        "./cards/in-progress/new-homepage-hero.md",
        "cards//in-progress/./new-homepage-hero.md",
        " new-homepage-hero ",
    ])
    func findsACardBySlugPrefixOrPath(reference: String) throws {
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            let card = try board.store().card(reference)
            #expect(card.path == "cards/in-progress/new-homepage-hero.md")
            #expect(card.body?.hasPrefix("## Description") == true, "a card found by reference is read with its body")
        }
    }

    @Test func findsACardByAbsolutePath() throws {
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            let store = try board.store()
            #expect(try store.card(board.absolute("cards/in-progress/new-homepage-hero.md")).slug == "new-homepage-hero")
            try FileManager.default.createSymbolicLink(atPath: board.root + "/alias", withDestinationPath: board.path)
            #expect(try store.card(board.root + "/alias/cards/todo/add-newsletter-signup.md").slug == "add-newsletter-signup")
        }
    }

    @Test func anExactSlugWinsOverLongerSlugsItIsAPrefixOf() throws {
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            let store = try board.store()
            try store.createCard(title: "Fix")
            #expect(try store.card("fix").path == "cards/todo/fix.md")
            #expect(try store.card("fix-").path == "cards/todo/fix-broken-footer-links.md")
        }
    }

    @Test func anAmbiguousPrefixListsTheCandidates() throws {
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            let error = expectKanbanError(.ambiguousCard) { try board.store().card("c") }
            #expect(error?.candidates == ["choose-a-font-pairing", "compress-hero-images"])
        }
    }

    @Test func aSlugInTwoColumnsIsAmbiguousButItsPathsAreNot() throws {
        try withTemporaryBoard(.fixture("messy")) { board in
            let store = try board.store()
            let error = expectKanbanError(.ambiguousCard) { try store.card("dup") }
            #expect(error?.candidates == ["cards/done/dup.md", "cards/todo/dup.md"])
            #expect(try store.card("cards/todo/dup.md").body?.contains("the original") == true)
            #expect(try store.card("cards/done/dup.md").body?.contains("the copy") == true)
            expectKanbanError(.ambiguousCard) { try store.moveCard("dup", to: "doing") }
            expectKanbanError(.ambiguousCard) { try store.deleteCard("dup") }
        }
    }

    @Test func columnAndSlugNameACard() throws {
        // Tests/Fixtures/README.md: "referring to `dup` alone is ambiguous and must be refused, `todo/dup` and
        // `done/dup` work".
        try withTemporaryBoard(.fixture("messy")) { board in
            let store = try board.store()
            do {
                #expect(try store.card("todo/dup").path == "cards/todo/dup.md")
                #expect(try store.card("done/dup").path == "cards/done/dup.md")
            }
        }
    }

    @Test func anUnknownReferenceSuggestsCloseMatches() throws {
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            let store = try board.store()
            let none = expectKanbanError(.cardNotFound) { try store.card("no-such-card") }
            #expect(none?.candidates.isEmpty == true)
            let near = expectKanbanError(.cardNotFound) { try store.card("hero") }
            #expect(near?.candidates == ["compress-hero-images", "new-homepage-hero"])
            expectKanbanError(.cardNotFound) { try store.card("cards/todo/no-such-card.md") }
            expectKanbanError(.cardNotFound) { try store.card("cards/todo") }
            expectKanbanError(.cardNotFound) { try store.card("board.md") }
        }
    }

    @Test(arguments: ["", "   "])
    func anEmptyReferenceIsRefused(reference: String) throws {
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            expectKanbanError(.invalidArgument) { try board.store().card(reference) }
        }
    }

    @Test(arguments: [
        "../etc/passwd",
        "../board/cards/todo/add-newsletter-signup.md",
        "cards/../../outside.md",
        "cards/todo/../../../outside.md",
        "/etc/passwd",
        "/etc/hosts.md",
    ])
    func aPathOutsideTheBoardIsRefused(reference: String) throws {
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            try board.write("---\ntitle: Outside\n---\n", to: "../outside.md")
            let store = try board.store()
            expectKanbanError(.outsideBoard) { try store.card(reference) }
            expectKanbanError(.outsideBoard) { try store.deleteCard(reference) }
            #expect(board.exists("../outside.md"))
        }
    }

    @Test func anAbsolutePathInASiblingDirectoryWithTheSamePrefixIsOutside() throws {
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            try board.write("---\ntitle: Sibling\n---\n", to: "../board-other/cards/todo/sibling.md")
            let store = try board.store()
            expectKanbanError(.outsideBoard) { try store.card(board.path + "-other/cards/todo/sibling.md") }
            expectKanbanError(.outsideBoard) { try store.card(board.path + "/../board-other/cards/todo/sibling.md") }
        }
    }

    @Test func aLinkedCardPointingOutsideIsNotOpenedOrChanged() throws {
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            try board.write("---\ntitle: Outside\ncolumn: todo\nposition: a\n---\n", to: "../outside.md")
            try FileManager.default.createSymbolicLink(atPath: board.absolute("cards/todo/outside.md"),
                                                       withDestinationPath: "../../../outside.md")
            let store = try board.store()
            let outside = try board.bytes("../outside.md")
            expectKanbanError(.outsideBoard) { try store.card("cards/todo/outside.md") }
            expectKanbanError(.outsideBoard) { try store.updateCard("cards/todo/outside.md", CardUpdate(title: "Mine now")) }
            expectKanbanError(.outsideBoard) { try store.moveCard("cards/todo/outside.md", to: "done") }
            let bySlug = #expect(throws: KanbanError.self) { try store.card("outside") }
            do {
                #expect(bySlug?.code == .outsideBoard)
            }
            #expect(throws: KanbanError.self) { try store.updateCard("outside", CardUpdate(title: "Mine now")) }
            #expect(try board.bytes("../outside.md") == outside)
        }
    }

    @Test func archivedCardsAreFoundOnlyWhenAskedFor() throws {
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            let store = try board.store()
            expectKanbanError(.cardNotFound) { try store.card("audit-old-blog-posts") }
            #expect(try store.card("audit-old-blog-posts", in: .archived).isArchived)
            #expect(try store.card("audit", in: .all).path == "archive/2026-03-02-audit-old-blog-posts.md")
            #expect(try store.card("archive/2026-03-02-audit-old-blog-posts.md").archivedOn == "2026-03-02")
            expectKanbanError(.cardNotFound) { try store.card("new-homepage-hero", in: .archived) }
        }
    }

    @Test func aCardThatDoesNotParseIsReportedWithItsLocation() throws {
        try withTemporaryBoard(.fixture("messy")) { board in
            let error = expectKanbanError(.invalidCard) { try board.store().card("unclosed") }
            #expect(error?.location?.path == "cards/doing/unclosed.md")
            #expect(error?.location?.line == 1)
        }
    }

    @Test func litterIsNeverACandidate() throws {
        try withTemporaryBoard(.fixture("messy")) { board in
            let store = try board.store()
            #expect(try store.card("fix").path == "cards/todo/fix-login.md")
            expectKanbanError(.cardNotFound) { try store.card("cards/todo/fix-login.md~") }
            expectKanbanError(.cardNotFound) { try store.card("notes") }
        }
    }
}
