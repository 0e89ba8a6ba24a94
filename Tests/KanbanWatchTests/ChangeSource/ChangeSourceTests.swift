import Foundation
import KanbanCore
import Synchronization
import Testing
@testable import KanbanWatch

/// A source that reports only what the test tells it to, as an app's FSEvents or `NSFilePresenter` source would.
final class HandSource: ChangeSource {
    private let state = Mutex<(reporter: ChangeReporter?, starts: Int, stops: Int)>((nil, 0, 0))

    var starts: Int { state.withLock { $0.starts } }
    var stops: Int { state.withLock { $0.stops } }

    func start(watching directory: String, reportingTo reporter: ChangeReporter) throws(KanbanError) {
        state.withLock {
            $0.reporter = reporter
            $0.starts += 1
        }
    }

    func stop() {
        state.withLock {
            $0.reporter = nil
            $0.stops += 1
        }
    }

    func report(_ paths: [String]) {
        let reporter = state.withLock { $0.reporter }
        reporter?.pathsMayHaveChanged(paths)
    }

    func reportEverything() {
        let reporter = state.withLock { $0.reporter }
        reporter?.everythingMayHaveChanged()
    }
}

/// A source that cannot start.
final class BrokenSource: ChangeSource {
    func start(watching directory: String, reportingTo reporter: ChangeReporter) throws(KanbanError) {
        throw KanbanError(.fileSystem, "the presenter is not available")
    }

    func stop() {}
}

@Suite struct ChangeSourceTests {
    private func start(_ board: WatchedBoard, source: some ChangeSource) throws -> any BoardWatcher {
        let recorder = board.recorder
        let watcher = BoardWatchers.make(for: board.store, source: source, options: WatchOptions(settle: .milliseconds(50)),
                                         onNotice: { recorder.record($0) }, onEvent: { recorder.record($0) })
        try watcher.start()
        return watcher
    }

    @Test func theEngineLooksWhereTheSourceSaysAndNowhereElse() throws {
        let board = try WatchedBoard()
        let source = HandSource()
        let watcher = try start(board, source: source)
        defer { watcher.stop() }

        // Two edits; the source tells of one only.
        try board.write(WatchedBoard.cardText(title: "Fix login now", column: "todo"), to: "cards/todo/fix-login.md")
        try board.write(WatchedBoard.cardText(title: "Write better docs", column: "todo"), to: "cards/todo/write-docs.md")
        source.report(["cards/todo/fix-login.md"])
        let modified = board.recorder.wait { events in events.contains { $0.kind == .modified && $0.slug == "fix-login" } }
        #expect(modified)
        let fixLogin = board.recorder.events.first { $0.slug == "fix-login" }
        #expect(fixLogin?.changes == .title)
        #expect(fixLogin?.card?.title == "Fix login now")
        #expect(!board.recorder.events.contains { $0.slug == "write-docs" })

        // A rescan finds the other.
        source.reportEverything()
        #expect(board.recorder.wait { events in events.contains { $0.kind == .modified && $0.slug == "write-docs" } })
    }

    @Test func absolutePathsAndDirectoriesAreHintsToo() throws {
        let board = try WatchedBoard()
        let source = HandSource()
        let watcher = try start(board, source: source)
        defer { watcher.stop() }

        // A move reported as the two directories, as FSEvents reports directory by directory.
        try board.rename("cards/todo/fix-login.md", "cards/doing/fix-login.md")
        source.report([board.path("cards/todo"), board.path("cards/doing"), "/elsewhere/cards/todo/x.md", ".git/index"])
        #expect(board.recorder.wait { events in events.contains { $0.kind == .moved && $0.slug == "fix-login" } })
        let moved = try #require(board.recorder.events.first { $0.kind == .moved })
        #expect(moved.from == "todo")
        #expect(moved.to == "doing")
        #expect(moved.path == "cards/doing/fix-login.md")
        #expect(board.recorder.events.filter { $0.slug == "fix-login" }.count == 1)

        // A new column, reported as the board directory itself.
        try FileSystemTestSupport.makeDirectory(board.path("cards/review"))
        try board.write(WatchedBoard.cardText(title: "check-it", column: "review"), to: "cards/review/check-it.md")
        source.report([board.root])
        #expect(board.recorder.wait { events in events.contains { $0.kind == .created && $0.slug == "check-it" } })
        #expect(board.recorder.events.contains { $0.kind == .columnAdded && $0.column == "review" })
    }

    @Test func theSourceStartsAndStopsWithTheWatcher() throws {
        let board = try WatchedBoard()
        let source = HandSource()
        let watcher = ChangeSourceWatcher(store: board.store, source: source, onEvent: { _ in })
        try watcher.start()
        #expect(source.starts == 1)
        #expect(source.stops == 0)
        #expect(!watcher.openDescriptors.isEmpty)
        watcher.stop()
        #expect(source.stops == 1)
        #expect(watcher.openDescriptors.isEmpty)
        source.report(["cards/todo/fix-login.md"])  // after stopping: ignored, and nothing crashes
    }

    @Test func aSourceThatCannotStartFailsTheWatcher() throws {
        let board = try WatchedBoard()
        let watcher = BoardWatchers.make(for: board.store, source: BrokenSource(), onEvent: { _ in })
        #expect {
            try watcher.start()
        } throws: { error in
            (error as? KanbanError)?.message == "the presenter is not available"
        }
    }

    @Test(arguments: [
        ("cards/todo/a.md", ["cards/todo/a.md"], [String](), false),
        ("archive/2026-01-05-a.md", ["archive/2026-01-05-a.md"], [], false),
        ("board.md", ["board.md"], [], false),
        ("cards/todo", [], ["cards/todo"], true),
        ("cards", [], [], true),
        ("cards/todo/.a.md.swp", [], [], false),
        ("cards/../board.md", [], [], false),
        (".git/index", [], [], false),
    ])
    func pathsBecomeHints(path: String, paths: [String], directories: [String], listsColumns: Bool) {
        var work = PendingWork()
        work.insertHint(forPath: path)
        #expect(work.paths == Set(paths))
        #expect(work.directories == Set(directories))
        #expect(work.listsColumns == listsColumns)
        #expect(!work.everything)
    }
}
