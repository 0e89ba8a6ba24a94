import Foundation
import KanbanTestSupport
import Testing
@testable import KanbanCore

/// A listing straight from the board's index (``BoardStore/indexedListing(_:columns:labels:board:)``) lists what a
/// load lists, in the same order, and is refused whenever any card would have to be read.
@Suite struct IndexedListingTests {
    private let index = CardIndexTests()

    /// What a listing shows of a card: its directory's column (nil: the archive), slug, title, labels, archive date.
    struct Row: Equatable, CustomStringConvertible {
        var column: String?
        var slug: String
        var title: String
        var labels: [String]
        var archivedOn: String?

        var description: String { "\(column ?? "archive")/\(slug) \(title) \(labels) \(archivedOn ?? "")" }
    }

    func rows(_ listing: IndexedListing) -> [Row] {
        var rows: [Row] = []
        for (number, group) in listing.groups.enumerated() {
            for row in 0..<group.count {
                rows.append(listing.withRow(group: number, row: row) { row in
                    var labels: [String] = []
                    row.forEachLabel { labels.append(String(decoding: $0, as: UTF8.self)) }
                    return Row(column: group.column, slug: String(decoding: row.slug, as: UTF8.self),
                               title: String(decoding: row.title, as: UTF8.self), labels: labels,
                               archivedOn: row.archivedOn.map { String(decoding: $0, as: UTF8.self) })
                })
            }
        }
        return rows
    }

    func rows(_ cards: [Card]) -> [Row] {
        cards.map { Row(column: $0.isArchived ? nil : $0.column, slug: $0.slug, title: $0.title, labels: $0.labels,
                        archivedOn: $0.isArchived ? $0.archivedOn : nil) }
    }

    /// A card file written by hand, as another tool might: `position` as given, maybe shared with another card.
    func handCard(title: String, column: String, position: String, labels: [String]) -> String {
        "---\ntitle: \(title)\ncolumn: \(column)\nposition: \(position)\ncreated: 2026-01-01T09:00:00Z\n"
            + "modified: 2026-01-01T09:00:00Z\nlabels: [\(labels.joined(separator: ", "))]\n---\n\nBody\n"
    }

    /// A board of generated cards: shared titles (slugs with `-2`), random labels and columns, positions two hand
    /// files share, archived cards with and without a date in their file names.
    func makeBoard(_ board: TemporaryBoard, seed: UInt64) throws -> BoardStore {
        let store = try index.store(board)
        var random = SeededGenerator(seed: seed)
        let words = ["Fix", "login", "Ship", "docs", "Émoji", "zebra", "Alpha", "beta"]
        let columns = ["todo", "doing", "done"]
        for _ in 0..<60 {
            let title = (0..<Int.random(in: 1...3, using: &random)).map { _ in words.randomElement(using: &random)! }.joined(separator: " ")
            let labels = ["bug", "ui"].filter { _ in Bool.random(using: &random) }
            try store.createCard(title: title, in: columns.randomElement(using: &random)!, labels: labels)
        }
        let cards = try store.load().cards
        for card in cards.shuffled(using: &random).prefix(12) { _ = try store.archiveCard(card.slug) }
        for card in try store.load().cards.shuffled(using: &random).prefix(10) {
            _ = try store.moveCard(card.slug, to: columns.randomElement(using: &random)!, placement: .top)
        }
        try board.write(handCard(title: "Tie b", column: "doing", position: "m", labels: ["ui"]), to: "cards/doing/tie-b.md")
        try board.write(handCard(title: "Tie a", column: "doing", position: "m", labels: []), to: "cards/doing/tie-a.md")
        try board.write(handCard(title: "Kept by hand", column: "done", position: "n", labels: ["bug"]), to: "archive/kept-by-hand.md")
        return store
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func listsWhatALoadLists(seed: UInt64) throws {
        try withTemporaryBoard(.team) { board in
            let store = try makeBoard(board, seed: seed)
            try index.waitUntilSettled(board)
            try #require(try store.rebuildIndex() != nil)
            let teamBoard = try store.loadBoard()
            for scope in [CardScope.active, .archived, .all] {
                for columns in [nil, ["doing"], ["todo", "done"]] as [Set<String>?] {
                    for labels in [[], ["bug"], ["ui", "bug"]] {
                        let listing = try #require(try store.indexedListing(scope, columns: columns, labels: labels, board: teamBoard),
                                                   "\(scope) \(columns ?? []) \(labels)")
                        let cards = try store.load(scope, columns: columns).cards.filter { card in labels.allSatisfy(card.labels.contains) }
                        #expect(rows(listing) == rows(cards), "\(scope) \(columns ?? []) \(labels)")
                        #expect(listing.count == cards.count)
                        // The cards the JSON is written from, and what `board --json` needs besides.
                        let made = listing.groups.indices.flatMap { group in (0..<listing.groups[group].count).map { listing.card(group: group, row: $0) } }
                        #expect(made == cards, "\(scope) \(columns ?? []) \(labels)")
                        let snapshot = try store.load(scope, columns: columns)
                        #expect(listing.columnIDs == snapshot.columnIDs)
                        for group in listing.groups {
                            #expect(group.unfilteredCount == snapshot.cards.filter { ($0.isArchived ? nil : $0.column) == group.column }.count)
                        }
                    }
                }
            }
        }
    }

    @Test func leavesTheListingToALoadWheneverACardMustBeRead() throws {
        try withTemporaryBoard(.team) { board in
            let store = try makeBoard(board, seed: 7)
            let teamBoard = try store.loadBoard()
            func listing(_ labels: [String] = [], in store: BoardStore? = nil) throws -> IndexedListing? {
                try (store ?? self.index.store(board)).indexedListing(.all, columns: nil, labels: labels, board: teamBoard)
            }
            func settle() throws {
                try index.waitUntilSettled(board)
                try #require(try store.rebuildIndex() != nil)
                try #require(try listing() != nil)
            }
            // Files too new to trust.
            try #require(try store.rebuildIndex() != nil)
            #expect(try listing(in: index.store(board, racyInterval: 1_000_000_000_000)) == nil)
            try settle()
            // No index at all.
            let unindexed = try BoardStore(directory: board.path, clock: { fixedNow }, index: .none)
            #expect(try unindexed.indexedListing(.all, columns: nil, labels: [], board: teamBoard) == nil)
            // A card edited in place, keeping its size and time (its change time still moves).
            let tie = board.path + "/cards/doing/tie-a.md"
            try index.rewriteKeepingSizeAndTime(tie) { $0.replacingOccurrences(of: "Tie a", with: "Tie c") }
            #expect(try listing() == nil)
            try settle()
            #expect(try rows(#require(try listing())).contains { $0.title == "Tie c" })
            // A card added by hand: the directory's listing changed.
            try board.write(handCard(title: "New", column: "todo", position: "a", labels: []), to: "cards/todo/new.md")
            #expect(try listing() == nil)
            try settle()
            // A label board.md does not declare, asked for or carried (its declaration removed since the index was
            // built): the load reports it.
            #expect(try listing(["nowhere"]) == nil)
            let text = TemporaryBoard.teamBoardText
            let withoutUI = text.replacingOccurrences(of: "  - id: ui\n", with: "  - id: ux\n")
            try #require(withoutUI != text)
            try board.write(withoutUI, to: "board.md")
            let changed = try store.loadBoard()
            #expect(try index.store(board).indexedListing(.all, columns: nil, labels: [], board: changed) == nil)
        }
    }
}

extension IndexedListing {
    /// The card of row `row` of group `group` as its entry gives it, to hold beside a load's.
    func card(group: Int, row: Int) -> Card? {
        let group = groups[group]
        let start = group.rows[row].start
        guard let name = group.section.name(at: start) else { return nil }
        let file = group.column.map { CardFile.active(name: name, column: $0) } ?? CardFile.archived(name: name)
        return group.section.card(at: start, file: file)
    }
}
