import Foundation
import Testing

@testable import KanbanCore

/// Dependencies, the ready queue, claims and the work flow's columns, in the store (one process; the races between
/// processes are in `ClaimRaceTests`, across clones in `ClaimSyncTests`).
@Suite struct WorkQueueTests {
    /// A board with columns backlog, todo, doing, review, done.
    private func withBoard(_ extra: String = "", _ body: (TemporaryBoard, BoardStore) throws -> Void) throws {
        let text = """
            ---
            title: Agents
            \(extra)columns:
              - id: backlog
                name: Backlog
              - id: todo
                name: To Do
              - id: doing
                name: Doing
              - id: review
                name: Review
              - id: done
                name: Done
            ---

            """
        let board = try TemporaryBoard.make(.boardFile(text, columns: ["backlog", "todo", "doing", "review", "done"]))
        defer { board.remove() }
        try body(board, try board.store())
    }

    @discardableResult
    private func add(_ store: BoardStore, _ title: String, in column: String = "todo") throws -> String {
        try #require(try store.createCard(title: title, in: column).card).slug
    }

    // MARK: The flow's columns

    @Test func theStartColumnIsTheOneCalledDoingUnlessBoardMdSaysSo() throws {
        try withBoard { _, store in
            let flow = try WorkFlow(board: try store.loadBoard())
            #expect(flow.startColumn == "doing")
            #expect(flow.doneColumn == "done")
            #expect(flow.isWaitingColumn("backlog") && flow.isWaitingColumn("todo") && !flow.isWaitingColumn("doing"))
            #expect(flow.lastWaitingColumn == "todo")
        }
        try withBoard("start-column: review\ndone-column: review\n") { _, store in
            expectKanbanError(.invalidArgument) { try WorkFlow(board: try store.loadBoard()) }
        }
        try withBoard("start-column: todo\n") { _, store in
            let flow = try WorkFlow(board: try store.loadBoard())
            #expect(flow.startColumn == "todo")
            expectKanbanError(.columnNotFound) { try WorkFlow(board: try store.loadBoard(), start: "nowhere") }
            expectKanbanError(.invalidArgument) { try WorkFlow(board: try store.loadBoard(), start: "backlog") }
        }
    }

    // MARK: Dependencies and readiness

    @Test func aCardIsReadyOnceEveryDependencyIsDoneOrArchived() throws {
        try withBoard { _, store in
            let docs = try add(store, "Write docs")
            let review = try add(store, "Review docs")
            let deploy = try add(store, "Deploy docs")
            try store.setDependencies(of: deploy, adding: [docs, review])
            #expect(try store.card(deploy).dependencies == [docs, review])
            #expect(try store.workQueue().ready.map(\.slug) == [docs, review])
            let queue = try store.workQueue()
            #expect(queue.readiness(of: try store.card(deploy)) == .waiting(on: [docs, review]))
            #expect(queue.dependents(of: docs) == [deploy])

            try store.moveCard(docs, to: "done")
            try store.archiveCard(review)
            #expect(try store.workQueue().ready.map(\.slug) == [deploy])
            // Review is not done: a card in review waits too.
            try store.unarchiveCard(review, to: "review")
            #expect(try store.workQueue().readiness(of: try store.card(deploy)) == .waiting(on: [review]))
        }
    }

    @Test func theDependencyListIsAFlowListSimpleKanbanSkipsAndAnEmptiedListStays() throws {
        try withBoard { board, store in
            let a = try add(store, "A")
            let b = try add(store, "B")
            let before = try board.text("cards/todo/b.md")
            try store.setDependencies(of: b, adding: [a])
            let after = try board.text("cards/todo/b.md")
            #expect(after.contains("\ndepends-on: [a]\n"))
            #expect(after.replacingOccurrences(of: "depends-on: [a]\n", with: "") == before)
            try store.setDependencies(of: b, adding: [], removing: [a])
            #expect(try board.text("cards/todo/b.md") == before.replacingOccurrences(of: "labels: []\n", with: "labels: []\ndepends-on: []\n"))
        }
    }

    @Test func dependenciesRefuseUnknownCardsTheCardItselfAndCycles() throws {
        try withBoard { _, store in
            let a = try add(store, "A")
            let b = try add(store, "B")
            let c = try add(store, "C")
            expectKanbanError(.cardNotFound) { try store.setDependencies(of: a, adding: ["nothing-like-it"]) }
            expectKanbanError(.invalidArgument) { try store.setDependencies(of: a, adding: [a]) }
            try store.setDependencies(of: b, adding: [a])
            try store.setDependencies(of: c, adding: [b])
            #expect(throws: KanbanError.self) { try store.setDependencies(of: a, adding: [c]) }
            do {
                try store.setDependencies(of: a, adding: [c])
            } catch let error as KanbanError {
                #expect(error.message == "that would make a cycle: a → c → b → a")
            }
            #expect(try store.card(a).dependencies.isEmpty)
        }
    }

    @Test func cyclesWrittenByHandAreFoundOnceEach() throws {
        try withBoard { board, store in
            for (name, deps) in [("a", "[b]"), ("b", "[c]"), ("c", "[a]"), ("d", "[d]"), ("e", "[a, gone]")] {
                try board.write("---\ntitle: \(name)\ncolumn: todo\nposition: \(name)\ndepends-on: \(deps)\n---\n", to: "cards/todo/\(name).md")
            }
            let queue = try store.workQueue()
            #expect(queue.cycles() == [["a", "b", "c"], ["d"]])
            #expect(queue.readiness(of: try store.card("e")) == .waiting(on: ["a", "gone"]))
            #expect(!queue.exists("gone"))
        }
    }

    @Test func aLongChainOfDependenciesDoesNotExhaustTheStack() {
        let flow = WorkFlow.testFlow
        let cards = (0..<50_000).map { index in
            Card.make(slug: "c\(index)", column: "todo", dependencies: index == 0 ? ["c49999"] : ["c\(index - 1)"])
        }
        let queue = WorkQueue(flow: flow, cards: cards, archivedSlugs: [])
        #expect(queue.cycles().first?.count == 50_000)
    }

    // MARK: Claims

    @Test func claimNextTakesTheFirstReadyCardRecordsWhoAndMovesItToTheStart() throws {
        try withBoard { board, store in
            let first = try add(store, "First", in: "backlog")
            let second = try add(store, "Second")
            try store.setDependencies(of: first, adding: [second])
            let claim = try store.claimCard(nil, as: "agent-1")
            #expect(claim.card.slug == second)
            #expect(claim.card.column == "doing")
            #expect(claim.card.claim == CardClaim(holder: "agent-1", date: fixedNow))
            let text = try board.text("cards/doing/\(second).md")
            #expect(text.contains("claimed-by: agent-1\nclaimed-at: \(fixedNowText)\n"))
            #expect(!board.exists("cards/todo/\(second).md"))
            // Held by the same name: nothing changes. By another: refused, naming the holder.
            #expect(try store.claimCard(second, as: "agent-1").wasHeld)
            do {
                try store.claimCard(second, as: "agent-2")
                Issue.record("a card someone holds was claimed")
            } catch let error as KanbanError {
                #expect(error.code == .claimed)
                #expect(error.message.contains("held by agent-1"))
            }
            // The first card waits for the second, which is not done: nothing is ready.
            expectKanbanError(.notReady) { try store.claimCard(nil, as: "agent-2") }
            expectKanbanError(.notReady) { try store.claimCard(first, as: "agent-2") }
        }
    }

    @Test func releaseRemovesTheClaimAndPutsTheCardFirstInTheQueue() throws {
        try withBoard { board, store in
            let a = try add(store, "A")
            _ = try add(store, "B")
            let before = try board.text("cards/todo/a.md")
            try store.claimCard(a, as: "agent-1")
            expectKanbanError(.claimed) { try store.releaseCard(a, by: "agent-2") }
            let released = try store.releaseCard(a, by: "agent-1")
            #expect(released.card.column == "todo")
            #expect(released.card.claim == nil)
            #expect(try store.workQueue().ready.first?.slug == a)
            let text = try board.text("cards/todo/a.md")
            #expect(!text.contains("claimed"))
            #expect(text.count == before.count)
            expectKanbanError(.notReady) { try store.releaseCard(a) }
        }
    }

    @Test func aClaimAndItsMoveAreOneWrite() throws {
        try withBoard { board, store in
            let a = try add(store, "A")
            let change = try store.claimCard(a, as: "agent-1").change
            #expect(Set(change.writtenPaths) == ["cards/doing/a.md"])
            #expect(change.removedPaths == ["cards/todo/a.md"])
            #expect(try board.paths(containing: "kanban-tmp").isEmpty)
        }
    }

    @Test func claimNamesAreOneLine() throws {
        try withBoard { _, store in
            let a = try add(store, "A")
            expectKanbanError(.invalidArgument) { try store.claimCard(a, as: "  ") }
            expectKanbanError(.invalidArgument) { try store.claimCard(a, as: "two\nlines") }
        }
    }

    // MARK: The winning claim

    @Test func theEarlierClaimWinsAndTiesGoToTheNameThatSortsFirst() {
        let early = CardClaim(holder: "zed", date: Date(timeIntervalSince1970: 100))
        let late = CardClaim(holder: "amy", date: Date(timeIntervalSince1970: 200))
        #expect(early.wins(over: late) && !late.wins(over: early))
        let tieA = CardClaim(holder: "amy", date: Date(timeIntervalSince1970: 100))
        #expect(tieA.wins(over: early) && !early.wins(over: tieA))
        let undated = CardClaim(holder: "aaa", date: nil)
        #expect(late.wins(over: undated) && !undated.wins(over: late))
    }

    @Test func theSearchLanguageAsksWhoHoldsACardAndWhetherItIsReady() throws {
        try withBoard { _, store in
            let a = try add(store, "Alpha")
            let b = try add(store, "Beta")
            _ = try add(store, "Gamma")
            try store.setDependencies(of: b, adding: [a])
            try store.claimCard(a, as: "Agent Één")
            func slugs(_ query: String) throws -> [String] {
                try store.search(try CardQuery(parsing: query)).hits.map(\.card.slug).sorted()
            }
            #expect(try slugs("ready:") == ["gamma"])
            #expect(try slugs("-ready:") == ["alpha", "beta"])
            #expect(try slugs("ready:no beta") == ["beta"])
            #expect(try slugs("claimed:\"agent een\"") == ["alpha"])
            #expect(try slugs("claimed:*") == ["alpha"])
            #expect(try slugs("-claimed:* -ready:") == ["beta"])
            expectKanbanError(.invalidArgument) { try CardQuery(parsing: "claimed:") }
            expectKanbanError(.invalidArgument) { try CardQuery(parsing: "ready:maybe") }
        }
    }
}

extension WorkFlow {
    /// todo → doing → done.
    static var testFlow: WorkFlow {
        // The board's columns are all this needs.
        try! WorkFlow(board: Board(title: "T", columns: [Column(id: "todo", name: "To Do"), Column(id: "doing", name: "Doing"), Column(id: "done", name: "Done")]))
    }
}

extension Card {
    static func make(slug: String, column: String, dependencies: [String]) -> Card {
        Card(slug: slug, title: slug, column: column, columnField: column, position: nil, created: nil, modified: nil, labels: [],
             fields: [YAMLMapEntry(key: Card.dependenciesKey, value: .list(dependencies.map { .string($0) }))], path: "cards/\(column)/\(slug).md",
             isArchived: false, archivedOn: nil, hasFrontmatter: true, body: nil)
    }
}

extension WorkQueueTests {
    @Test func theReportStartsCardsWhereBoardMdSaysWorkStarts() throws {
        let board = Board(title: "T", columns: [Column(id: "backlog", name: "Backlog"), Column(id: "todo", name: "To Do"),
                                                Column(id: "doing", name: "Doing"), Column(id: "done", name: "Done")],
                          fields: [YAMLMapEntry(key: WorkFlow.startKey, value: .string("doing"))])
        let report = try FlowReport(board: board, cards: [], options: FlowReport.Options(until: fixedNow))
        #expect(report.startColumn == "doing")
        #expect(report.doneColumn == "done")
        let named = try FlowReport(board: board, cards: [], options: FlowReport.Options(until: fixedNow, startColumn: "todo"))
        #expect(named.startColumn == "todo")
    }
}
