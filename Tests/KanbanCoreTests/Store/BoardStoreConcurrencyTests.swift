import Dispatch
import Foundation
import Synchronization
import Testing
@testable import KanbanCore

/// The board lock: separate stores on one directory, on separate threads, as separate `kanban` processes would be.
@Suite struct BoardStoreConcurrencyTests {
    /// Runs `work(0)`, `work(1)`, ... each on a thread of its own, all at once, and waits for them to finish
    /// (failing the test after a generous upper bound). Returns the errors they threw.
    private func runOnThreads(_ count: Int, _ work: @escaping @Sendable (Int) throws -> Void) -> [String] {
        let errors = ErrorLog()
        let group = DispatchGroup()
        let start = DispatchSemaphore(value: 0)
        for index in 0..<count {
            group.enter()
            let thread = Thread {
                start.wait()
                do {
                    try work(index)
                } catch {
                    errors.record("thread \(index): \(error)")
                }
                group.leave()
            }
            thread.start()
        }
        for _ in 0..<count { start.signal() }
        if group.wait(timeout: .now() + 300) == .timedOut {
            Issue.record("threads did not finish within 300 s: a lock is probably never released")
        }
        return errors.all
    }

    @Test func concurrentMovesLoseNoCard() throws {
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            let columns = ["todo", "in-progress", "done"]
            let initial = try board.store().load()
            let cards = initial.cards.map { (slug: $0.slug, column: columns.firstIndex(of: $0.column) ?? 0) }
            #expect(cards.count == 8)
            let path = board.path
            let moves = 20
            let errors = runOnThreads(cards.count) { index in
                let store = try BoardStore(directory: path, clock: { fixedNow })
                let card = cards[index]
                for move in 1...moves {
                    try store.moveCard(card.slug, to: columns[(card.column + move) % columns.count])
                }
            }
            #expect(errors.isEmpty, "\(errors)")

            let snapshot = try board.store().load(.all)
            #expect(snapshot.diagnostics.isEmpty, "every file still parses")
            #expect(snapshot.cards.filter { !$0.isArchived }.count == cards.count, "no card lost or duplicated")
            #expect(Set(snapshot.cards.map(\.slug)).count == snapshot.cards.count)
            for card in cards {
                let expected = columns[(card.column + moves) % columns.count]
                #expect(snapshot.cards.first { $0.slug == card.slug }?.column == expected, "\(card.slug)")
                #expect(snapshot.cards.first { $0.slug == card.slug }?.columnField == expected, "\(card.slug)")
            }
            #expect(try board.paths(containing: ".kanban-tmp").isEmpty)
            for column in columns {
                let positions = snapshot.cards(inColumn: column).compactMap(\.position)
                #expect(positions.count == snapshot.cards(inColumn: column).count, "every moved card has a position")
                // Each card arrived at the bottom while the cards still there were present, so no two share a key.
                #expect(Set(positions).count == positions.count, "\(column): \(positions)")
            }
        }
    }

    @Test func concurrentCreatesGiveEveryCardItsOwnFile() throws {
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            let path = board.path
            let errors = runOnThreads(8) { thread in
                let store = try BoardStore(directory: path, clock: { fixedNow })
                for _ in 0..<5 {
                    // Every thread uses the same title, so each create must see the slugs the others took.
                    try store.createCard(title: "Same title", in: "todo", placement: thread.isMultiple(of: 2) ? .top : .bottom)
                }
            }
            #expect(errors.isEmpty, "\(errors)")
            let snapshot = try board.store().load()
            let created = snapshot.cards.filter { $0.slug.hasPrefix("same-title") }
            #expect(created.count == 40)
            #expect(Set(created.map(\.slug)).count == 40)
            #expect(snapshot.diagnostics.isEmpty)
            #expect(try board.paths(containing: ".kanban-tmp").isEmpty)
        }
    }

    @Test func concurrentMixedOperationsKeepTheBoardConsistent() throws {
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            let path = board.path
            let errors = runOnThreads(6) { thread in
                let store = try BoardStore(directory: path, clock: { fixedNow })
                for step in 0..<8 {
                    let title = "Thread \(thread) step \(step)"
                    let card = try store.createCard(title: title, in: "todo", labels: ["bug"]).card
                    let slug = card?.slug ?? ""
                    try store.updateCard(slug, CardUpdate(addedLabels: ["feature"]))
                    try store.moveCard(slug, to: "done", placement: .top)
                    if step.isMultiple(of: 2) { try store.archiveCard(slug) }
                    if thread == 0 && step == 4 { try store.addLabel(id: "docs") }
                }
            }
            #expect(errors.isEmpty, "\(errors)")
            let snapshot = try board.store().load(.all)
            #expect(snapshot.diagnostics.isEmpty)
            let created = snapshot.cards.filter { $0.title.hasPrefix("Thread ") }
            #expect(created.count == 48)
            #expect(created.filter(\.isArchived).count == 24)
            #expect(created.allSatisfy { $0.labels == ["bug", "feature"] })
            #expect(try board.store().loadBoard().label(withID: "docs") != nil)
            #expect(try board.paths(containing: ".kanban-tmp").isEmpty)
        }
    }
}

/// Errors collected from several threads.
private final class ErrorLog: Sendable {
    private let errors = Mutex<[String]>([])

    func record(_ error: String) {
        errors.withLock { $0.append(error) }
    }

    var all: [String] {
        errors.withLock { $0 }
    }
}
