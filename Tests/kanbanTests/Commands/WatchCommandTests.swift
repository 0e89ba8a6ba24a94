#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Foundation
import KanbanCore
import Synchronization
import Testing

/// `kanban watch`, run as a daemon: started, fed changes, stopped with a signal.
@Suite(.serialized) struct WatchCommandTests {
    @Test func printsOneJSONObjectPerEventAndExitsZeroOnSIGTERM() throws {
        try withTemporaryBoard(.sample) { board throws in
            let watch = try WatchProcess(["watch", "--json"], board: board)
            try watch.waitUntilReady()
            let moved = try board.run(["move", "press-kit-and-screenshots", "done"])
            #expect(moved.status == 0, "\(moved)")
            let line = try #require(watch.waitForLine { $0.contains("\"moved\"") }, "no moved event: \(watch)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(object["event"] as? String == "moved")
            #expect(object["slug"] as? String == "press-kit-and-screenshots")
            #expect(object["from"] as? String == "todo")
            #expect(object["to"] as? String == "done")
            #expect(object["column"] as? String == "done")
            #expect(object["path"] as? String == "cards/done/press-kit-and-screenshots.md")
            #expect(object["title"] as? String != nil)
            #expect((object["time"] as? String)?.hasSuffix("Z") == true)
            #expect(object["message"] == nil, "fields that do not apply are left out")
            #expect(!line.contains("\n") && !line.contains("  "), "one compact line: \(line)")

            let status = try watch.stop(SIGTERM)
            #expect(status == 0, "\(watch)")
            #expect(watch.stdoutLines.count == 1, "one event, nothing else on stdout: \(watch)")
            #expect(!watch.stderr.contains("error"), "\(watch)")
        }
    }

    /// The board monitor `kanban watch` runs: the commands run meanwhile read the board as without it (a hand edit
    /// of the same size in the same second included), and its socket goes when it stops.
    @Test func answersTheOtherCommandsWhatChangedAndRemovesItsSocketOnExit() throws {
        #if os(Linux)
        try withTemporaryBoard(.sample) { board throws in
            let indexes = board.root + "/.cache/kanban"
            // The index trusts a file's entry once the file is older than its window: 100 ms here, not two seconds.
            let racy = ["KANBAN_TEST_RACY_MILLISECONDS": "100"]
            _ = try board.run(["list"], environment: racy)
            let watch = try WatchProcess(["watch"], directory: board.path,
                                         environment: KanbanProcess.baseEnvironment(home: board.root).merging(racy) { $1 })
            try watch.waitUntilReady()
            let sockets = { ((try? FileManager.default.contentsOfDirectory(atPath: indexes)) ?? []).filter { $0.hasSuffix(".monitor") } }
            #expect(sockets().count == 1, "\(watch)")
            // Past the index's window, so that the next list trusts the card files' entries and writes the monitor's
            // first token: from then on only the monitor's answer tells that a card changed.
            usleep(150_000)
            func same(_ arguments: [String]) throws {
                let monitored = try board.run(arguments, environment: racy)
                let unindexed = try board.run(arguments, environment: ["KANBAN_INDEX": "off"])
                #expect(monitored.status == 0 && monitored.stdout == unindexed.stdout, "\(arguments): \(monitored) vs \(unindexed)")
            }
            try same(["list"])
            let card = "cards/todo/press-kit-and-screenshots.md"
            let text = try board.text(card)
            for round in 0..<5 {
                // The title changed by hand, the file's size kept: only the monitor's answer says it changed.
                try board.write(text.replacingOccurrences(of: "title: ", with: "title: \(round)"), to: card)
                try same(["list"])
                try same(["search", "title:\(round)Press"])
                try board.write(text.replacingOccurrences(of: "title: ", with: "title: \(round + 5)"), to: card)
                try same(["board", "--json"])
            }
            // A watcher suspended (Ctrl-Z) cannot answer: the commands go on without it, reading right.
            watch.send(SIGSTOP)
            try board.write(text, to: card)
            try same(["list"])
            watch.send(SIGCONT)
            try same(["list"])
            #expect(try watch.stop(SIGTERM) == 0, "\(watch)")
            #expect(sockets().isEmpty, "the socket is removed on exit")
            try same(["list"])
        }
        #endif
    }

    /// The monitor vouches for the index only once its first answer is written there, which a `list` of the active
    /// cards cannot do (it leaves the archive unchecked): `kanban watch` takes that answer itself when it starts.
    @Test func writesItsMonitorsFirstAnswerIntoTheIndexOnStart() throws {
        #if os(Linux)
        try withTemporaryBoard(.sample) { board throws in
            let indexes = board.root + "/.cache/kanban"
            _ = try board.run(["list", "--all"])
            let watch = try WatchProcess(["watch"], board: board)
            try watch.waitUntilReady()
            let names = try FileManager.default.contentsOfDirectory(atPath: indexes)
            let socket = try #require(names.first { $0.hasSuffix(".monitor") }, "\(names)")
            let index = indexes + "/" + socket.dropLast(".monitor".count)
            // A token is the monitor's name, a colon and a count: the name is what an index it vouches for holds.
            let token = try #require(IndexMonitorClient.ask(indexes + "/" + socket, since: nil)?.token, "no answer: \(watch)")
            let name = Data(try #require(token.split(separator: ":").first).utf8)
            let deadline = Date().addingTimeInterval(30)
            while (try? Data(contentsOf: URL(fileURLWithPath: index)))?.range(of: name) == nil && Date() < deadline { usleep(20_000) }
            #expect((try? Data(contentsOf: URL(fileURLWithPath: index)))?.range(of: name) != nil, "the index never held \(token)")
            try board.write(try board.text("cards/todo/press-kit-and-screenshots.md").replacingOccurrences(of: "title: ", with: "title: New "),
                            to: "cards/todo/press-kit-and-screenshots.md")
            #expect(try board.run(["list"]).stdout == board.run(["list"], environment: ["KANBAN_INDEX": "off"]).stdout)
            #expect(try watch.stop(SIGTERM) == 0, "\(watch)")
        }
        #endif
    }

    @Test func aRenamedArchiveFileGivesSlugsAndBothPaths() throws {
        try withTemporaryBoard(.sample) { board throws in
            let watch = try WatchProcess(["watch", "--json"], board: board)
            try watch.waitUntilReady()
            let old = board.path + "/archive/2026-10-22-pick-the-launch-date.md"
            #expect(rename(old, board.path + "/archive/2026-11-01-pick-the-launch-date.md") == 0)
            let line = try #require(watch.waitForLine { $0.contains("\"renamed\"") }, "no renamed event: \(watch)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(object["from"] as? String == "pick-the-launch-date")
            #expect(object["to"] as? String == "pick-the-launch-date")
            #expect(object["previousPath"] as? String == "archive/2026-10-22-pick-the-launch-date.md")
            #expect(object["path"] as? String == "archive/2026-11-01-pick-the-launch-date.md")
            #expect(try watch.stop(SIGTERM) == 0, "\(watch)")
        }
    }

    @Test func printsTextLinesAndExitsZeroOnSIGINT() throws {
        try withTemporaryBoard(.sample) { board throws in
            let watch = try WatchProcess(["watch"], board: board)
            try watch.waitUntilReady()
            #expect(try board.run(["move", "press-kit-and-screenshots", "done"]).status == 0)
            let line = try #require(watch.waitForLine { $0.contains(" moved ") }, "\(watch)")
            let pattern = /^\d\d:\d\d:\d\d moved  press-kit-and-screenshots  To Do → Done$/
            #expect(line.wholeMatch(of: pattern) != nil, "\(line.debugDescription)")
            #expect(!line.contains("\u{1B}"), "no colour when piped")

            try board.write(try board.text("cards/todo/update-website-download-page.md").replacingOccurrences(of: "title: ", with: "title: New "),
                            to: "cards/todo/update-website-download-page.md")
            let modified = try #require(watch.waitForLine { $0.contains(" modified ") }, "\(watch)")
            #expect(modified.hasSuffix("modified  update-website-download-page  title"), "\(modified)")

            // Moved by hand and retitled in the same breath: one event, saying so.
            let text = try board.text("cards/todo/write-release-notes-for-2-0.md")
            try board.write(text.replacingOccurrences(of: "title: ", with: "title: Final "), to: "cards/done/write-release-notes-for-2-0.md")
            try FileManager.default.removeItem(atPath: board.path + "/cards/todo/write-release-notes-for-2-0.md")
            let both = try #require(watch.waitForLine { $0.contains("write-release-notes") }, "\(watch)")
            #expect(both.hasSuffix("moved  write-release-notes-for-2-0  To Do → Done  also title"), "\(both)")
            #expect(try watch.stop(SIGINT) == 0, "\(watch)")
        }
    }

    @Test func initialReportsEveryCardFirst() throws {
        try withTemporaryBoard(.sample) { board throws in
            let expected = try board.listJSON(["--all"]).count
            let watch = try WatchProcess(["watch", "--json", "--initial"], board: board)
            try watch.waitUntilReady()
            #expect(watch.waitForLines { $0.count >= expected } != nil, "\(watch)")
            #expect(watch.stdoutLines.allSatisfy { $0.contains("\"event\":\"created\"") })
            #expect(try watch.stop(SIGTERM) == 0)
            #expect(watch.stdoutLines.count == expected)
        }
    }

    @Test func pollingSeesChangesToo() throws {
        try withTemporaryBoard(.sample) { board throws in
            let watch = try WatchProcess(["watch", "--json", "--poll", "0.2"], board: board)
            try watch.waitUntilReady()
            #expect(watch.stderr.contains("by polling every 0.2 s"), "\(watch)")
            #expect(try board.run(["add", "Polled card"]).status == 0)
            #expect(watch.waitForLine { $0.contains("\"created\"") && $0.contains("polled-card") } != nil, "\(watch)")
            #expect(try watch.stop(SIGTERM) == 0)
        }
    }

    @Test func execRunsTheCommandWithTheEventOnStandardInput() throws {
        try withTemporaryBoard(.sample) { board throws in
            let log = board.root + "/hook.log"
            let command = "cat >> '\(log)'; echo \"$KANBAN_EVENT|$KANBAN_SLUG|$KANBAN_PATH|$KANBAN_BOARD\" >> '\(log)'"
            let watch = try WatchProcess(["watch", "--exec", command], board: board)
            try watch.waitUntilReady()
            #expect(try board.run(["move", "press-kit-and-screenshots", "done"]).status == 0)
            let seen = waitFor { ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").contains("|") }
            #expect(seen, "\(watch)")
            let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map(String.init)
            #expect(lines.count == 2, "\(lines)")
            #expect(lines.first?.hasPrefix("{") == true && lines.first?.contains("\"event\":\"moved\"") == true, "\(lines)")
            #expect(lines.last == "moved|press-kit-and-screenshots|\(board.path)/cards/done/press-kit-and-screenshots.md|\(board.path)")
            #expect(try watch.stop(SIGTERM) == 0)
        }
    }

    @Test func aFailingOrSlowExecIsReportedAndWatchingGoesOn() throws {
        try withTemporaryBoard(.sample) { board throws in
            let command = "if [ \"$KANBAN_SLUG\" = slow-card ]; then sleep 30; else exit 3; fi"
            let watch = try WatchProcess(["watch", "--json", "--exec", command, "--exec-timeout", "1"], board: board)
            try watch.waitUntilReady()
            #expect(try board.run(["add", "Failing card"]).status == 0)
            #expect(waitFor { watch.stderr.contains("exited with status 3 for 'created failing-card'") }, "\(watch)")
            #expect(try board.run(["add", "Slow card"]).status == 0)
            #expect(try board.run(["add", "After the slow one"]).status == 0)
            // The watcher does not wait for the slow command: the next event is printed at once.
            #expect(watch.waitForLine { $0.contains("after-the-slow-one") } != nil, "\(watch)")
            #expect(waitFor { watch.stderr.contains("took longer than 1 s for 'created slow-card' and was stopped") }, "\(watch)")
            #expect(try watch.stop(SIGTERM) == 0, "\(watch)")
        }
    }

    @Test func losingTheBoardDirectoryExitsOne() throws {
        try withTemporaryBoard(.sample) { board throws in
            let watch = try WatchProcess(["watch", "--json"], board: board)
            try watch.waitUntilReady()
            try FileManager.default.moveItem(atPath: board.path, toPath: board.root + "/moved-away")
            let status = try watch.waitForExit()
            #expect(status == 1, "\(watch)")
            #expect(watch.stdoutLines.last?.contains("\"root-lost\"") == true, "\(watch)")
            #expect(watch.stderr.contains("error: the board directory"), "\(watch)")
        }
    }

    @Test(arguments: [
        (["watch", "5"], "an interval is given after --poll"),
        (["watch", "--poll", "0"], "invalid value '0' for '--poll <seconds>'"),
        (["watch", "--settle", "soon"], "invalid value 'soon' for option '--settle'"),
        (["watch", "--exec", " "], "'--exec' needs a command"),
    ])
    func usageErrorsExit64(_ arguments: [String], _ message: String) throws {
        try withTemporaryBoard(.sample) { board throws in
            let result = try board.run(arguments)
            #expect(result.status == 64, "\(result)")
            #expect(result.stderr.contains(message), "\(result)")
            #expect(result.stdout.isEmpty)
        }
    }

    @Test func helpShowsTheUsage() throws {
        try withTemporaryBoard(.sample) { board throws in
            let result = try board.run(["watch", "--help"])
            #expect(result.status == 0)
            #expect(result.stdout.contains("USAGE: kanban watch [--json] [--poll [<seconds>]] [--settle <ms>] [--exec <command>] [--initial]"), "\(result.stdout)")
            #expect(!result.stdout.contains("exec-timeout"), "the test-only option stays hidden")
        }
    }
}

/// Waits until `condition` holds or 20 s pass; returns as soon as it holds.
private func waitFor(_ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(20)
    while Date() < deadline {
        if condition() { return true }
        usleep(10_000)
    }
    return condition()
}

/// Output collected from a child's pipes while it runs.
final class CollectedOutput: Sendable {
    private let state = Mutex<(stdout: [UInt8], stderr: [UInt8])>(([], []))
    let readers = DispatchGroup()

    func append(_ data: Data, isError: Bool) {
        state.withLock { if isError { $0.stderr += data } else { $0.stdout += data } }
    }

    var stdout: String { state.withLock { String(decoding: $0.stdout, as: UTF8.self) } }
    var stderr: String { state.withLock { String(decoding: $0.stderr, as: UTF8.self) } }
}

/// A running `kanban watch`: its output collected line by line as it comes.
/// A running `kanban watch`, its output collected as it comes; the git tests use it too.
final class WatchProcess: CustomStringConvertible {
    private let process: Process
    private let output = CollectedOutput()
    private let finished = DispatchSemaphore(value: 0)

    convenience init(_ arguments: [String], board: TemporaryBoard) throws {
        try self.init(arguments, directory: board.path, environment: KanbanProcess.baseEnvironment(home: board.root))
    }

    /// - Parameter descriptorLimit: When given, the child runs under `ulimit -n` of it (a desktop's 1024, say).
    init(_ arguments: [String], directory: String, environment: [String: String], descriptorLimit: Int? = nil) throws {
        let process = Process()
        if let descriptorLimit {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "ulimit -n \(descriptorLimit) && exec \"$0\" \"$@\"", try KanbanProcess.binaryPath()] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: try KanbanProcess.binaryPath())
            process.arguments = arguments
        }
        process.environment = environment
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        let stdout = Pipe(), stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        self.process = process
        let finished = self.finished
        process.terminationHandler = { _ in finished.signal() }
        try process.run()
        let output = self.output
        for (handle, isError) in [(stdout.fileHandleForReading, false), (stderr.fileHandleForReading, true)] {
            output.readers.enter()
            Thread {
                while true {
                    let data = handle.availableData
                    if data.isEmpty { break }
                    output.append(data, isError: isError)
                }
                output.readers.leave()
            }.start()
        }
    }

    var stdout: String { output.stdout }
    var stderr: String { output.stderr }
    /// Complete lines of standard output so far.
    var stdoutLines: [String] {
        var lines = stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines.removeLast()  // what follows the last newline is not a complete line yet
        return lines
    }

    var description: String { "--- stdout ---\n\(stdout)\n--- stderr ---\n\(stderr)" }

    /// Waits for the line on standard error that says every change from now on is reported.
    func waitUntilReady() throws {
        let ready = waitFor { self.stderr.contains("watching ") || !self.process.isRunning }
        try #require(ready && process.isRunning, "kanban watch did not start: \(self)")
    }

    func waitForLine(_ matches: (String) -> Bool) -> String? {
        var found: String?
        _ = waitFor {
            found = stdoutLines.first(where: matches)
            return found != nil
        }
        return found
    }

    func waitForLines(_ condition: ([String]) -> Bool) -> [String]? {
        var lines: [String] = []
        let seen = waitFor {
            lines = stdoutLines
            return condition(lines)
        }
        return seen ? lines : nil
    }

    /// The child's process id (the server's, also when it was started through `sh`, which `exec`s it).
    var processIdentifier: Int32 { process.processIdentifier }

    /// Sends `signal` (SIGSTOP, SIGCONT) and returns at once.
    func send(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// Sends `signal` and waits for the exit status.
    func stop(_ signal: Int32) throws -> Int32 {
        kill(process.processIdentifier, signal)
        return try waitForExit()
    }

    /// Waits (20 s at most) for the process to exit and for the last of its output.
    func waitForExit() throws -> Int32 {
        if finished.wait(timeout: .now() + 20) == .timedOut {
            process.terminate()
            Issue.record("kanban watch did not exit within 20 s: \(self)")
            _ = finished.wait(timeout: .now() + 5)
        }
        finished.signal()
        _ = output.readers.wait(timeout: .now() + 20)
        return process.terminationStatus
    }

    deinit {
        if process.isRunning { process.terminate() }
    }
}
