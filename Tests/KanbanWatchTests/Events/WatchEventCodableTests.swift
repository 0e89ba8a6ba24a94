import Foundation
import KanbanCore
import Testing
@testable import KanbanWatch

@Suite struct WatchEventCodableTests {
    private func roundTrip<T: Codable & Equatable>(_ value: T) throws -> T {
        try JSONDecoder().decode(T.self, from: JSONEncoder().encode(value))
    }

    @Test func eventsAndNoticesSurviveJSON() throws {
        let board = try WatchedBoard()
        let card = try board.store.card("fix-login")
        let event = WatchEvent(.moved, slug: card.slug, title: card.title, column: "doing", from: "todo", to: "doing",
                               path: "cards/doing/fix-login.md", previousPath: card.path, changes: [.title, .labels],
                               card: card, time: Date(timeIntervalSince1970: 1_780_000_000))
        let decoded = try roundTrip(event)
        #expect(decoded == event)
        #expect(decoded.changes.names == ["title", "labels"])
        let notice = WatchNotice(.linkNotFollowed, "column directory is a symbolic link; not followed", path: "cards/x")
        #expect(try roundTrip(notice) == notice)
    }

    @Test func aLiveBoardSurvivesJSON() throws {
        let board = try WatchedBoard()
        let live = LiveBoard(snapshot: try board.store.load())
        #expect(live.cardCount == 4)
        #expect(try roundTrip(live) == live)
        #expect(live.columns.map(\.id) == ["todo", "doing", "done"])
    }
}
