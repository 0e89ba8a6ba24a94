#if os(Linux)
import Glibc
import Foundation
import Testing
@testable import KanbanCore
@testable import KanbanWatch

/// The board monitor (`kanban watch`'s answer to "what changed since T") and the loads that trust it: a file it
/// does not name is taken from the index without its stat data being looked at, so it must name every change.
@Suite struct IndexMonitorTests {
    func ask(_ store: BoardStore, since token: String?) throws -> IndexMonitorAnswer {
        let place = try #require(store.indexMonitorPlace)
        return try #require(IndexMonitorClient.ask(place.socket, since: token))
    }

    /// The board's cards as a store with no index reads them: the truth the monitored loads must equal.
    func truth(_ board: WatchedBoard) throws -> [String] {
        try describe(BoardStore(directory: board.root, index: .none).load(.all))
    }

    func describe(_ snapshot: BoardSnapshot) -> [String] {
        snapshot.cards.map { "\($0.path) \($0.title) \($0.column) \($0.position ?? "-") \($0.labels) \($0.fields.count)" }.sorted()
            + snapshot.diagnostics.map { "! \($0)" }.sorted()
    }

    @Test func itAnswersWithThePathsChangedSinceAToken() throws {
        let board = try WatchedBoard()
        let store = try board.indexedStore()
        let monitor = try #require(try IndexMonitor.start(for: store))
        defer { monitor.stop() }

        let first = try ask(store, since: nil)
        #expect(first.changed == nil, "no token: everything may have changed")
        #expect(try ask(store, since: first.token).changed == [])
        #expect(try ask(store, since: "another-monitor:0").changed == nil)

        try board.write(WatchedBoard.cardText(title: "Edited", column: "todo"), to: "cards/todo/fix-login.md")
        try board.rename("cards/doing/ship-it.md", "cards/done/ship-it.md")
        let second = try ask(store, since: first.token)
        #expect(second.changed?.isSuperset(of: ["cards/todo/fix-login.md", "cards/doing/ship-it.md", "cards/done/ship-it.md"]) == true)
        #expect(second.changed?.contains("cards/todo/write-docs.md") == false)
        #expect(try ask(store, since: second.token).changed == [])
        // The older token still gets its changes.
        #expect(try ask(store, since: first.token).changed?.contains("cards/todo/fix-login.md") == true)

        // A column directory that comes (or goes) may hold anything: everything, for every earlier token.
        try FileSystemTestSupport.makeDirectory(board.path("cards/later"))
        let third = try ask(store, since: second.token)
        #expect(third.changed == nil)
        try board.write(WatchedBoard.cardText(title: "Later", column: "later"), to: "cards/later/new.md")
        #expect(try ask(store, since: third.token).changed == ["cards/later/new.md"])
    }

    @Test func aChangeMadeJustBeforeTheQuestionIsInTheAnswer() throws {
        let board = try WatchedBoard()
        let store = try board.indexedStore()
        let monitor = try #require(try IndexMonitor.start(for: store))
        defer { monitor.stop() }
        var token = try ask(store, since: nil).token
        for round in 0..<200 {
            let path = "cards/\(["todo", "doing", "done"][round % 3])/card-\(round % 7).md"
            try board.write(WatchedBoard.cardText(title: "Round \(round)", column: "todo"), to: path)
            let answer = try ask(store, since: token)
            try #require(answer.changed?.contains(path) == true, "round \(round): \(path) is not in \(String(describing: answer.changed))")
            token = answer.token
        }
    }

    @Test func oneMonitorABoardAndItsSocketGoesWithIt() throws {
        let board = try WatchedBoard()
        let store = try board.indexedStore()
        let place = try #require(store.indexMonitorPlace)
        let monitor = try #require(try IndexMonitor.start(for: store))
        #expect(try IndexMonitor.start(for: store) == nil, "a second monitor of the same board")
        monitor.stop()
        #expect(access(place.socket, F_OK) != 0)
        #expect(IndexMonitorClient.ask(place.socket, since: nil) == nil)

        // A socket left by a monitor that was killed is taken over.
        let stale = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = try #require(IndexMonitorClient.socketAddress(place.socket))
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(stale, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        try #require(bound == 0)
        close(stale)
        let again = try #require(try IndexMonitor.start(for: store))
        defer { again.stop() }
        #expect(try ask(store, since: nil).changed == nil)
        // A board with no index has no monitor.
        #expect(try IndexMonitor.start(for: BoardStore(directory: board.root, index: .none)) == nil)
    }

    @Test func anIndexPathTooLongForASocketPutsTheSocketInTheUsersOwnDirectory() throws {
        let board = try WatchedBoard()
        var placement = IndexPlacement.automatic(cacheDirectory: board.parent + "/" + String(repeating: "long-cache-directory-", count: 6))
        placement.racyInterval = 30_000_000
        let store = try BoardStore(directory: board.root, index: placement)
        let place = try #require(store.indexMonitorPlace)
        #expect(place.socket.hasPrefix("/tmp/kanban-\(getuid())/"))
        let monitor = try #require(try IndexMonitor.start(for: store))
        defer { monitor.stop() }
        var info = stat()
        #expect(lstat("/tmp/kanban-\(getuid())", &info) == 0 && info.st_mode & 0o077 == 0, "only the user may enter it")
        let first = try ask(store, since: nil)
        try board.write(WatchedBoard.cardText(title: "Edited", column: "todo"), to: "cards/todo/fix-login.md")
        #expect(try ask(store, since: first.token).changed == ["cards/todo/fix-login.md"])
    }

    /// Shows that a load trusts the monitor (and the limit of doing so): a card file changed through a hard link
    /// from outside the board is a change inotify does not report, so the monitored load keeps the index's card.
    @Test func aFileTheMonitorDoesNotNameIsTakenFromTheIndexUnlooked() throws {
        let board = try WatchedBoard()
        let store = try board.indexedStore()
        let monitor = try #require(try IndexMonitor.start(for: store))
        defer { monitor.stop() }
        let outside = board.parent + "/outside-link.md"
        try FileSystemTestSupport.check(link(board.path("cards/todo/fix-login.md"), outside), "link")
        usleep(60_000)
        _ = try store.load(.all)  // the first token, and every entry
        usleep(60_000)
        _ = try store.load(.all)
        try FileSystemTestSupport.write(WatchedBoard.cardText(title: "Changed outside", column: "todo"), to: outside)
        let monitored = try store.load(.all).cards.first { $0.slug == "fix-login" }
        #expect(monitored?.title == "fix-login")
        try board.write(WatchedBoard.cardText(title: "Changed inside", column: "todo"), to: "cards/todo/fix-login.md")
        #expect(try store.load(.all).cards.first { $0.slug == "fix-login" }?.title == "Changed inside")
    }

    /// Random changes of every kind a person, an editor or git makes, each followed by a load that trusts the
    /// monitor: every load must equal a load with no index at all. `KANBAN_MONITOR_ROUNDS` sets the number of
    /// rounds (the closing note's big run uses thousands).
    @Test func loadsTrustingTheMonitorSeeEveryChange() throws {
        let rounds = ProcessInfo.processInfo.environment["KANBAN_MONITOR_ROUNDS"].flatMap(Int.init) ?? 60
        let seed = ProcessInfo.processInfo.environment["KANBAN_MONITOR_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 1...1_000_000)
        var random = SplitMix(seed: seed)
        let board = try WatchedBoard()
        let store = try board.indexedStore()
        let monitor = try #require(try IndexMonitor.start(for: store))
        defer { monitor.stop() }
        var columns = ["todo", "doing", "done"]
        func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }
        func existing() -> [String] {
            columns.flatMap { column in
                ((try? FileManager.default.contentsOfDirectory(atPath: board.path("cards/" + column))) ?? [])
                    .filter { $0.hasSuffix(".md") }.map { "cards/\(column)/\($0)" }
            }
        }
        for round in 0..<rounds {
            for _ in 0..<(1 + Int(random.next() % 4)) {
                let files = existing()
                let title = "T\(random.next() % 90 + 10)"  // same length each time: same-size edits
                switch random.next() % 20 {
                case 0, 1, 2, 3, 4, 5, 6, 7:
                    // In place, same size, often in the same second as the last write.
                    if let file = files.isEmpty ? nil : pick(files) {
                        try board.write(WatchedBoard.cardText(title: title, column: "todo"), to: file)
                    }
                case 8, 9:
                    // An editor's save: a new file renamed over the old.
                    if let file = files.isEmpty ? nil : pick(files) {
                        try FileSystemTestSupport.write(WatchedBoard.cardText(title: title, column: "todo"), to: board.path(file + ".tmp~"))
                        try board.rename(file + ".tmp~", file)
                    }
                case 10, 11:
                    try board.write(WatchedBoard.cardText(title: title, column: "todo"),
                                    to: "cards/\(pick(columns))/card-\(random.next() % 20).md")
                case 12:
                    if let file = files.isEmpty ? nil : pick(files) { try board.remove(file) }
                case 13, 14:
                    // A card moved to another column by hand, or `git mv`.
                    if let file = files.isEmpty ? nil : pick(files) {
                        try board.rename(file, "cards/\(pick(columns))/\((file as NSString).lastPathComponent)")
                    }
                case 15:
                    // `touch` with an old time.
                    if let file = files.isEmpty ? nil : pick(files) {
                        try FileSystemTestSupport.setTimes(board.path(file), seconds: 1_700_000_000)
                    }
                case 16:
                    // A column directory comes, or one goes with its cards, or is renamed.
                    switch random.next() % 3 {
                    case 0:
                        let column = "extra\(random.next() % 3)"
                        if !columns.contains(column) {
                            try FileSystemTestSupport.makeDirectory(board.path("cards/" + column))
                            try board.write(WatchedBoard.cardText(title: title, column: column), to: "cards/\(column)/first.md")
                            columns.append(column)
                        }
                    case 1:
                        if let column = columns.first(where: { $0.hasPrefix("extra") }) {
                            try board.shell("rm -rf 'cards/\(column)'")
                            columns.removeAll { $0 == column }
                        }
                    default:
                        if let column = columns.first(where: { $0.hasPrefix("extra") }) {
                            let renamed = column == "extra9" ? "extra8" : "extra9"
                            if !columns.contains(renamed) {
                                try board.rename("cards/" + column, "cards/" + renamed)
                                columns = columns.map { $0 == column ? renamed : $0 }
                            }
                        }
                    }
                default:
                    // Archived by hand.
                    if let file = files.isEmpty ? nil : pick(files) {
                        try board.rename(file, "archive/2026-01-0\(random.next() % 9 + 1)-\((file as NSString).lastPathComponent)")
                    }
                }
            }
            // Often the files settle long enough for the index to trust them, so that the next changes are made
            // to files whose entries a load would take unlooked-at.
            if random.next() % 2 == 0 { usleep(40_000) }
            let monitored = try describe(store.load(.all))
            let expected = try truth(board)
            try #require(monitored == expected, "seed \(seed), round \(round): a load trusting the monitor differs from the files")
        }
    }
}

/// A small seeded generator, so a failing run can be replayed with `KANBAN_MONITOR_SEED`.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
#endif
