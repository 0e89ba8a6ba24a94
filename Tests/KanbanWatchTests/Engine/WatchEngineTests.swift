#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
@testable import KanbanWatch

/// The engine without threads: rounds driven by hand, so the rules for pairing and holding are checked
/// deterministically.
@Suite struct WatchEngineTests {
    func makeEngine(_ board: WatchedBoard) -> WatchEngine {
        var engine = WatchEngine(root: board.root, options: WatchOptions(settle: .milliseconds(50), maximumDelay: .seconds(1)))
        _ = engine.indexBoard(reportingState: false, prepareColumn: { _ in })
        return engine
    }

    func run(_ engine: inout WatchEngine, _ paths: [String], quiet: Bool, at now: ContinuousClock.Instant = .now) -> WatchEngine.Round {
        var work = PendingWork()
        work.paths = Set(paths)
        return engine.run(work, isQuiet: quiet, now: now, isBeingWritten: { _ in false }, prepareColumn: { _ in })
    }

    @Test func indexesTheBoard() throws {
        let board = try WatchedBoard()
        let engine = makeEngine(board)
        #expect(engine.index.count == 4)
        #expect(engine.index.columns == ["todo", "doing", "done"])
        #expect(engine.index.boardFile.board?.title == "Watched")
    }

    /// Issue 14 #8: on a file system whose timestamps tick once a second, a change within the second of the last
    /// look can leave a file's size and times as they were. A polling pass then reads again every file whose stamp
    /// is too recent to trust (git's "racily clean" rule), so such a change is still reported.
    @Test func aChangeThatKeepsTheStampIsFoundWhileTheStampIsTooRecentToTrust() throws {
        let board = try WatchedBoard()
        var engine = makeEngine(board)
        let path = "cards/todo/fix-login.md"
        let before = try #require(engine.index.entry(at: path))
        try board.write(WatchedBoard.cardText(title: "fix-lOgin", column: "todo"), to: path)
        let stamp = try #require(SystemCalls.linkStamp(board.root + "/" + path))
        #expect(stamp.size == before.stamp.size)
        // The index as a coarse clock leaves it: the stamp it holds is the file's stamp now, read before the change.
        var index = engine.index
        var coarse = before
        coarse.stamp = stamp
        let scanner = PollingScanner(root: board.root)
        for (readAfterChange, expected) in [(Int64(500_000_000), true), (1_900_000_000, true), (2_000_000_000, false), (60_000_000_000, false)] {
            coarse.readAt = stamp.changed + readAfterChange
            index.insert(coarse)
            let pass = scanner.pass(index, now: coarse.readAt + 1_000_000_000)
            #expect(pass.paths.contains(path) == expected, "read \(readAfterChange) ns after the change: \(pass.paths)")
        }
        // What the pass hands on is reported as the change it is.
        #expect(run(&engine, [path], quiet: true).events.summaries == ["modified fix-login"])
    }

    /// Waits until the file system's clock has moved past the status-change time of `path` (relative to the board),
    /// so that the next change gets a later one (ctime ticks coarsely on some kernels).
    func waitForTheClock(after path: String, in board: WatchedBoard) throws {
        let last = try #require(SystemCalls.linkStamp(board.path(path))).changed
        let probe = board.parent + "/clock-probe"
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            try FileSystemTestSupport.write("tick", to: probe)
            if let stamp = SystemCalls.linkStamp(probe), stamp.changed > last { return }
        }
        Issue.record("the file system's clock did not move past \(path)'s ctime")
    }

    /// Issue 20 #9: the events of one round come in the order the changes happened, not sorted by path.
    @Test func theEventsOfARoundAreInTheOrderTheChangesHappened() throws {
        let board = try WatchedBoard()
        var engine = makeEngine(board)
        try board.write(WatchedBoard.cardText(title: "Write the docs", column: "todo"), to: "cards/todo/write-docs.md")
        try waitForTheClock(after: "cards/todo/write-docs.md", in: board)
        try board.write(WatchedBoard.cardText(title: "added", column: "doing"), to: "cards/doing/added.md")
        try waitForTheClock(after: "cards/doing/added.md", in: board)
        try board.remove("cards/doing/ship-it.md")
        try waitForTheClock(after: "cards/doing", in: board)
        try board.rename("cards/todo/fix-login.md", "cards/done/fix-login.md")
        let paths = ["cards/todo/write-docs.md", "cards/doing/added.md", "cards/doing/ship-it.md", "cards/todo/fix-login.md",
                     "cards/done/fix-login.md"]
        #expect(run(&engine, paths, quiet: true).events.summaries == [
            "modified write-docs", "created added", "deleted ship-it", "moved fix-login",
        ])
    }

    @Test func aDeletionInARoundThatIsNotQuietIsHeldUntilQuiet() throws {
        let board = try WatchedBoard()
        var engine = makeEngine(board)
        try board.remove("cards/todo/fix-login.md")
        let start = ContinuousClock.now
        let busy = run(&engine, ["cards/todo/fix-login.md"], quiet: false, at: start)
        #expect(busy.events.isEmpty)
        #expect(busy.leftover.paths == ["cards/todo/fix-login.md"])
        let quiet = run(&engine, [], quiet: true, at: start + .milliseconds(60))
        #expect(quiet.events.summaries == ["deleted fix-login"])
        #expect(quiet.leftover.isEmpty)
    }

    @Test func aHeldDeletionIsReportedAfterTheMaximumDelayEvenWithoutQuiet() throws {
        let board = try WatchedBoard()
        var engine = makeEngine(board)
        try board.remove("cards/todo/fix-login.md")
        let start = ContinuousClock.now
        #expect(run(&engine, ["cards/todo/fix-login.md"], quiet: false, at: start).events.isEmpty)
        #expect(run(&engine, [], quiet: false, at: start + .seconds(2)).events.summaries == ["deleted fix-login"])
    }

    @Test func theNewHalfOfAMoveWaitsForTheOldHalf() throws {
        let board = try WatchedBoard()
        var engine = makeEngine(board)
        // The new file first, while the old one is still there (git can do it in this order).
        try board.write(WatchedBoard.cardText(title: "fix-login", column: "done"), to: "cards/done/fix-login.md")
        let first = run(&engine, ["cards/done/fix-login.md"], quiet: false)
        #expect(first.events.isEmpty, "not a creation yet: \(first.events)")
        try board.remove("cards/todo/fix-login.md")
        let second = run(&engine, ["cards/todo/fix-login.md"] + Array(first.leftover.paths), quiet: true)
        #expect(second.events.summaries == ["moved fix-login"])
    }

    @Test func aDuplicateSlugIsCreatedOnceQuiet() throws {
        let board = try WatchedBoard()
        var engine = makeEngine(board)
        try board.write(WatchedBoard.cardText(title: "Copy", column: "done"), to: "cards/done/fix-login.md")
        #expect(run(&engine, ["cards/done/fix-login.md"], quiet: false).events.isEmpty)
        #expect(run(&engine, ["cards/done/fix-login.md"], quiet: true).events.summaries == ["created fix-login"])
    }

    @Test func anInodeReusedByANewFileIsNotAMove() throws {
        let board = try WatchedBoard()
        var engine = makeEngine(board)
        // Same round: one card deleted, another created (which may get the freed inode) with other content.
        try board.remove("cards/todo/fix-login.md")
        try board.write(WatchedBoard.cardText(title: "Different", column: "todo", body: "Other."), to: "cards/todo/different.md")
        let round = run(&engine, ["cards/todo/fix-login.md", "cards/todo/different.md"], quiet: true)
        #expect(round.events.summaries == ["created different", "deleted fix-login"])
    }

    @Test func aFileThatIsEmptyRightAfterAWriteIsNotBelievedYet() throws {
        let board = try WatchedBoard()
        var engine = makeEngine(board)
        try board.write("", to: "cards/todo/fix-login.md")
        let round = run(&engine, ["cards/todo/fix-login.md"], quiet: true)
        #expect(round.events.isEmpty)
        #expect(round.leftover.paths == ["cards/todo/fix-login.md"])
    }

    @Test func gitsIndexLockKeepsARoundFromBeingQuiet() throws {
        let board = try WatchedBoard()
        try FileSystemTestSupport.makeDirectory(board.path(".git"))
        var engine = makeEngine(board)
        #expect(engine.git.directory == board.path(".git"))
        try board.write("", to: ".git/index.lock")
        try board.remove("cards/todo/fix-login.md")
        let locked = run(&engine, ["cards/todo/fix-login.md"], quiet: true)
        #expect(locked.events.isEmpty, "git is still working: \(locked.events)")
        try board.remove(".git/index.lock")
        #expect(run(&engine, Array(locked.leftover.paths), quiet: true).events.summaries == ["deleted fix-login"])
    }

    @Test func gitBusyWhenTheHintsWereTakenCountsEvenIfItHasFinishedSince() throws {
        let board = try WatchedBoard()
        var engine = makeEngine(board)
        try board.remove("cards/todo/fix-login.md")
        var work = PendingWork()
        work.paths = ["cards/todo/fix-login.md"]
        let round = engine.run(work, isQuiet: true, gitWasBusy: true, now: .now, isBeingWritten: { _ in false }, prepareColumn: { _ in })
        #expect(round.events.isEmpty, "git may have written the other half after the hints were taken: \(round.events)")
        #expect(run(&engine, Array(round.leftover.paths), quiet: true).events.summaries == ["deleted fix-login"])
    }

    @Test func aGitFileNamingTheGitDirectoryIsFollowed() throws {
        let board = try WatchedBoard()
        try FileSystemTestSupport.makeDirectory(board.parent + "/real-git-dir")
        try board.write("gitdir: ../real-git-dir\n", to: ".git")
        #expect(GitActivity(root: board.root).directory == board.parent + "/real-git-dir")
    }

    @Test func changesAreNamedInOrder() {
        let changes: WatchEvent.Changes = [.body, .title, .columnField]
        #expect(changes.names == ["title", "body", "column"])
        #expect(WatchEvent.Changes().names.isEmpty)
    }
}
