import Foundation
import KanbanCore
import KanbanWatch
import Testing

@testable import KanbanServer
@testable import kanban

@Suite struct TUIStateTests {
    static let notarize = "cards/todo/notarize-and-sign-the-macos-build.md"
    static let localise = "cards/todo/localise-for-francais-and-espanol.md"

    private func withState(_ body: (BoardStore, inout TUIState) throws -> Void) throws {
        try withTemporaryBoard(.sample) { board in
            let (store, live) = try liveBoard(of: board)
            var state = TUIState(board: live)
            try body(store, &state)
        }
    }

    private func keys(_ text: String, _ state: inout TUIState) -> [TUIRequest] {
        var decoder = KeyDecoder()
        return (decoder.keys(from: Array(text.utf8)) + decoder.flush()).compactMap { state.handle($0) }
    }

    // MARK: Selection

    @Test func startsOnTheFirstCardOfTheFirstExpandedColumn() throws {
        try withState { _, state in
            #expect(state.selection.columnID == "todo")
            #expect(state.selectedCard?.path == Self.notarize)
        }
    }

    @Test func movesTheSelectionWithVimKeysAndArrows() throws {
        try withState { _, state in
            _ = keys("j", &state)
            #expect(state.selectedCard?.path == Self.localise)
            _ = keys("G", &state)
            #expect(state.selectedCard?.slug == "press-kit-and-screenshots")
            _ = keys("\u{1B}[A", &state)
            #expect(state.selectedCard?.slug == "update-website-download-page")
            _ = keys("g", &state)
            #expect(state.selectedCard?.path == Self.notarize)
            _ = keys("k", &state)
            #expect(state.selectedCard?.path == Self.notarize, "stays at the top")
            _ = keys("l", &state)
            #expect(state.selection.columnID == "in-progress")
            _ = keys("\u{1B}[C\u{1B}[C\u{1B}[C", &state)
            #expect(state.selection.columnID == "done", "stops at the last column")
            _ = keys("hhhhh", &state)
            #expect(state.selection.columnID == "todo", "the collapsed Backlog is skipped")
        }
    }

    @Test func theSelectionFollowsItsCardWhenAnotherProcessMovesIt() throws {
        try withState { store, state in
            _ = keys("j", &state)
            let moved = try store.moveCard("localise", to: "review", placement: .top)
            state.updateBoard { _ = $0.apply(WatchEvent(.moved, path: moved.card?.path, previousPath: moved.previous?.path, card: moved.card)) }
            #expect(state.selection.columnID == "review")
            #expect(state.selectedCard?.slug == "localise-for-francais-and-espanol")
        }
    }

    @Test func aDeletedSelectionGoesToTheNextCardOrTheOneAboveAtTheEnd() throws {
        try withState { store, state in
            _ = keys("j", &state)
            try store.deleteCard("localise")
            state.updateBoard { _ = $0.apply(WatchEvent(.deleted, path: Self.localise)) }
            #expect(state.selectedCard?.slug == "write-release-notes-for-2-0", "the card that took its place")
            _ = keys("G", &state)
            let last = try #require(state.selectedCard)
            try store.deleteCard(last.path)
            state.updateBoard { _ = $0.apply(WatchEvent(.deleted, path: last.path)) }
            #expect(state.selectedCard?.slug == "update-website-download-page", "the card above the last one")
        }
    }

    @Test func aCardRenamedByHandIsFoundBySlugElsewhereOnlyWhenItsPathIsGone() throws {
        try withState { store, state in
            let snapshot = LiveBoard(snapshot: try store.load())
            state.replaceBoard(snapshot)
            #expect(state.selectedCard?.path == Self.notarize, "a new snapshot keeps the selection")
        }
    }

    // MARK: Requests

    @Test func changesAreAskedForWithTheSelectedCard() throws {
        try withState { _, state in
            let card = try #require(state.selectedCard)
            #expect(keys("L", &state) == [.change(.move(card, column: "in-progress", placement: nil))])
            #expect(keys("\u{1B}[1;2D", &state) == [.change(.move(card, column: "backlog", placement: nil))])
            #expect(keys("J", &state) == [.change(.move(card, column: nil, placement: .after(Self.localise)))])
            #expect(keys("K", &state).isEmpty, "nothing above the first card")
            #expect(keys("a", &state) == [.change(.archive(card))])
            #expect(keys("e", &state) == [.edit(card)])
            #expect(keys("\r", &state) == [.edit(card)])
            #expect(keys("q", &state) == [.quit])
            #expect(keys("\u{3}", &state) == [.quit])
            #expect(keys("\u{1A}", &state) == [.suspend])
        }
    }

    @Test func aNewCardIsTypedInThePromptAndGoesBelowTheSelection() throws {
        try withState { _, state in
            #expect(keys("nShip itt\u{7F}", &state).isEmpty)
            guard case .prompt(let prompt) = state.mode else {
                Issue.record("no prompt: \(state.mode)")
                return
            }
            #expect(prompt.text == "Ship it")
            #expect(keys("\r", &state) == [.change(.create(title: "Ship it", column: "todo", placement: .after(Self.notarize)))])
            #expect(state.mode == .normal)
            #expect(keys("n  \r", &state).isEmpty, "no card without a title")
            #expect(keys("nNope\u{1B}", &state).isEmpty)
            #expect(state.mode == .normal)
        }
    }

    @Test func retitleStartsFromTheTitle() throws {
        try withState { _, state in
            let card = try #require(state.selectedCard)
            _ = keys("t", &state)
            #expect(state.mode == .prompt(TUIState.Prompt(purpose: .retitle(card), text: card.title)))
            #expect(keys("\u{15}Sign it\r", &state) == [.change(.retitle(card, title: "Sign it"))])
        }
    }

    @Test func deleteAsksFirst() throws {
        try withState { _, state in
            let card = try #require(state.selectedCard)
            #expect(keys("dn", &state).isEmpty)
            #expect(state.message?.text.hasPrefix("kept") == true)
            #expect(keys("dy", &state) == [.change(.delete(card))])
        }
    }

    @Test func theLabelMenuTogglesByNumberOrByHighlight() throws {
        try withState { _, state in
            let card = try #require(state.selectedCard)
            #expect(card.labels == ["infra"])
            // Labels in board order: feature, bug, design, docs, infra, marketing.
            #expect(keys("#2", &state) == [.change(.setLabel(card, label: "bug", isOn: true))])
            #expect(keys("#jjjj\r", &state) == [.change(.setLabel(card, label: "infra", isOn: false))])
            #expect(keys("#\u{1B}", &state).isEmpty)
            #expect(state.mode == .normal)
        }
    }

    @Test func theFilterAsksForASearchPerKeyAndTakesOnlyTheNewestAnswer() throws {
        try withState { _, state in
            #expect(keys("/cr", &state) == [.search("c", generation: 1), .search("cr", generation: 2)])
            state.applySearch(generation: 1, matches: [], problem: nil)
            #expect(state.filteredCards == nil, "an older answer is dropped")
            let crash = "cards/in-progress/crash-on-launch-corrupted-thumbnail-cache.md"
            state.applySearch(generation: 2, matches: [crash], problem: nil)
            #expect(state.shownCards(inColumn: 1).isEmpty)
            #expect(state.shownCards(inColumn: 2).map(\.path) == [crash])
            #expect(state.selectedCard == nil, "To Do shows nothing now")
            let frame = state.frame(size: ScreenSize(columns: 100, rows: 30), stylist: .plain)
            #expect(frame.rows.last?.contains("1 of 25 cards matches") == true, "\(frame.rows.last ?? "")")
            #expect(keys("\r", &state).isEmpty, "Enter keeps the filter")
            #expect(state.filter?.text == "cr")
            #expect(keys("\u{1B}", &state) == [.clearSearch])
            #expect(state.filter == nil)
            #expect(state.shownCards(inColumn: 1).count == 5)
        }
    }

    @Test func theHelpIsShownUntilAKeyIsPressed() throws {
        try withState { _, state in
            #expect(keys("?", &state).isEmpty)
            #expect(state.mode == .help)
            let frame = state.frame(size: ScreenSize(columns: 100, rows: 30), stylist: .plain)
            #expect(frame.rows.contains { $0.contains("undo the last change made here") })
            #expect(keys("L", &state).isEmpty, "the key closes the help and does nothing else")
            #expect(state.mode == .normal)
        }
    }

    // MARK: Frames

    @Test func aFrameFillsTheScreenAndNoRowIsWiderThanIt() throws {
        try withState { _, state in
            for (columns, rows) in [(100, 30), (60, 20), (30, 10), (200, 60), (12, 4)] {
                let frame = state.frame(size: ScreenSize(columns: columns, rows: rows), stylist: Stylist(isEnabled: true))
                #expect(frame.rows.count == rows)
                for row in frame.rows { #expect(row.terminalWidth <= columns, "\(columns)×\(rows): \(row)") }
                #expect(frame.rows.last?.contains("Lumen") == true)
            }
        }
    }

    @Test func aColumnShowsItsCountAgainstItsWIPLimitInRedWhenOver() throws {
        try withTemporaryBoard(.sample) { board in
            try board.write(try board.text("board.md").replacingOccurrences(of: "    name: Review\n", with: "    name: Review\n    wip-limit: 3\n")
                .replacingOccurrences(of: "    name: In Progress\n", with: "    name: In Progress\n    wip-limit: 9\n"), to: "board.md")
            let (_, live) = try liveBoard(of: board)
            var state = TUIState(board: live)
            let frame = state.frame(size: ScreenSize(columns: 160, rows: 30), stylist: Stylist(isEnabled: true))
            let header = try #require(frame.rows.first { $0.contains("Review") })
            #expect(header.contains("\u{1B}[1;31m(4/3)") || header.contains("\u{1B}[31;1m(4/3)") || header.contains("31m(4/3)"), "\(header.debugDescription)")
            #expect(header.contains("(5/9)"))
            #expect(!header.contains("31m(5/9)"))
        }
    }

    @Test func theSelectedCardIsInReverseVideoAndTheOthersAreNot() throws {
        try withState { _, state in
            let frame = state.frame(size: ScreenSize(columns: 100, rows: 30), stylist: .plain)
            let highlighted = frame.rows.filter { $0.contains("\u{1B}[7m") }
            #expect(highlighted.count == 5, "the header and the card's four lines: \(highlighted)")
            #expect(highlighted.contains { $0.contains("\u{1B}[7mNotarize and sign") })
            #expect(!frame.rows.contains { $0.contains("\u{1B}[7mLocalise") })
        }
    }

    @Test func aLongColumnScrollsToKeepTheSelectionInView() throws {
        try withTemporaryBoard(.sample) { board in
            let store = try BoardStore(directory: board.path)
            for number in 1...60 { try store.createCard(title: "Card \(number)", in: "review") }
            var state = TUIState(board: LiveBoard(snapshot: try store.load()))
            _ = keys("llG", &state)
            #expect(state.selection.columnID == "review")
            var frame = state.frame(size: ScreenSize(columns: 100, rows: 30), stylist: .plain)
            #expect(frame.rows.contains { $0.contains("\u{1B}[7mCard 60") })
            #expect(frame.rows[1].contains("↑"), "the rule says cards are above")
            _ = keys("g", &state)
            frame = state.frame(size: ScreenSize(columns: 100, rows: 30), stylist: .plain)
            #expect(frame.rows.contains { $0.contains("\u{1B}[7mOnboarding flow") })
            #expect(frame.rows[28].contains("↓ "), "the last row says cards are below: \(frame.rows[28])")
        }
    }

    @Test(arguments: [(0, 5, 0), (0, 6, 1), (3, 10, 5), (4, 2, 2), (0, 9_999, 9_993)])
    func scrollingMovesAsLittleAsNeeded(top: Int, selected: Int, expected: Int) {
        // Cards of 3 lines, a blank line between: 6 whole cards in the 26 rows left above `↓ N more`, 7 at the end.
        #expect(TUIState.scrollTop(top, showing: selected, count: 10_000, height: { _ in 3 }, rows: 27) == expected)
    }

    @Test func scrollingMeasuresOnlyTheCardsThatCouldBeOnTheScreen() {
        var measured = 0
        _ = TUIState.scrollTop(0, showing: 9_999, count: 10_000, height: { _ in measured += 1; return 3 }, rows: 27)
        #expect(measured < 20)
    }

    @Test func bAndBAskForAnotherBoardOnlyWhenThereAreSeveral() throws {
        try withState { _, state in
            #expect(keys("b", &state).isEmpty)
            #expect(state.message?.text.contains("one board shown") == true)
            state.boardNames = ["a", "b", "c"]
            #expect(keys("b", &state) == [.switchBoard(by: 1)])
            #expect(keys("B", &state) == [.switchBoard(by: -1)])
        }
    }
}
