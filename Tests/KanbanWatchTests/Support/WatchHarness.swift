#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
@testable import KanbanCore
import Synchronization
import Testing
@testable import KanbanWatch

/// Which watcher a test runs against; most tests run against both.
enum Mechanism: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case inotify
    case polling

    var testDescription: String { rawValue }
}

/// The upper bound for waiting on a condition. Generous: the machine may be loaded by other builds, and a
/// wait returns as soon as its condition holds.
let generousTimeout: Duration = .seconds(20)

/// Everything a watcher reported, in order, safe to read from the test while the watcher adds to it.
final class EventRecorder: Sendable {
    private let state = Mutex<(events: [WatchEvent], notices: [WatchNotice])>(([], []))

    var events: [WatchEvent] { state.withLock { $0.events } }
    var notices: [WatchNotice] { state.withLock { $0.notices } }

    func record(_ event: WatchEvent) { state.withLock { $0.events.append(event) } }
    func record(_ notice: WatchNotice) { state.withLock { $0.notices.append(notice) } }

    /// Events other than barriers.
    var cardEvents: [WatchEvent] { events.filter { !($0.slug ?? "").hasPrefix("barrier-") } }

    /// Waits until `condition` holds for the events so far, or the timeout passes; returns whether it held.
    @discardableResult
    func wait(timeout: Duration = generousTimeout, until condition: ([WatchEvent]) -> Bool) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while true {
            if condition(events) { return true }
            if ContinuousClock.now >= deadline { return false }
            usleep(5_000)
        }
    }

    @discardableResult
    func waitForNotice(timeout: Duration = generousTimeout, until condition: ([WatchNotice]) -> Bool) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while true {
            if condition(notices) { return true }
            if ContinuousClock.now >= deadline { return false }
            usleep(5_000)
        }
    }
}

/// A board in a temporary directory of its own (`<temp>/board`, so tests can put files beside it), with a
/// watcher on it. Removed when the test ends.
final class WatchedBoard {
    let parent: String
    let root: String
    let store: BoardStore
    let recorder = EventRecorder()
    private(set) var watcher: (any BoardWatcher)?
    private var barrierCount = 0

    /// `board.md` with columns todo, doing, done and labels bug, feature; and `cards` as given
    /// (`"todo/fix-login"` → a card with that title in that column).
    init(cards: [String] = ["todo/fix-login", "todo/write-docs", "doing/ship-it", "done/old-news"]) throws {
        var template = Array("\(NSTemporaryDirectory())/kanban-watch-test.XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer -> Bool in
            guard let base = buffer.baseAddress else { return false }
            return mkdtemp(base) != nil
        }
        guard made else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        parent = FileSystemTestSupport.resolved(temporary)
        root = parent + "/board"
        for directory in ["", "/cards", "/cards/todo", "/cards/doing", "/cards/done", "/archive"] {
            try FileSystemTestSupport.makeDirectory(root + directory)
        }
        try FileSystemTestSupport.write(Self.boardText, to: root + "/board.md")
        for card in cards {
            let parts = card.split(separator: "/")
            try FileSystemTestSupport.write(Self.cardText(title: String(parts[1]), column: String(parts[0])),
                                            to: root + "/cards/\(parts[0])/\(parts[1]).md")
        }
        store = try BoardStore(directory: root)
    }

    static let boardText = """
        ---
        title: Watched
        columns:
          - id: todo
            name: To Do
          - id: doing
            name: Doing
          - id: done
            name: Done
        labels:
          - id: bug
            name: Bug
          - id: feature
            name: Feature
        ---

        Notes.

        """

    static func cardText(title: String, column: String, position: String = "n", labels: String = "[]", body: String = "Body.") -> String {
        """
        ---
        title: \(title)
        column: \(column)
        position: \(position)
        created: 2026-01-05T10:00:00Z
        modified: 2026-01-05T10:00:00Z
        labels: \(labels)
        ---

        \(body)
        """
    }

    /// Starts a watcher of the given kind on the board.
    func start(_ mechanism: Mechanism, initial: Bool = false, faults: InotifyFaults = InotifyFaults(),
               settle: Duration = .milliseconds(50), pollInterval: Duration = .milliseconds(100),
               onEvent: (@Sendable (WatchEvent) -> Void)? = nil) throws {
        let options = WatchOptions(settle: settle, pollInterval: pollInterval, reportsInitialState: initial)
        let recorder = self.recorder
        let handler: @Sendable (WatchEvent) -> Void = { event in
            recorder.record(event)
            onEvent?(event)
        }
        let noticeHandler: @Sendable (WatchNotice) -> Void = { recorder.record($0) }
        let watcher: any BoardWatcher
        switch mechanism {
        case .inotify:
            watcher = InotifyWatcher(store: store, options: options, faults: faults, onNotice: noticeHandler, onEvent: handler)
        case .polling:
            watcher = PollingWatcher(store: store, options: options, onNotice: noticeHandler, onEvent: handler)
        }
        try watcher.start()
        self.watcher = watcher
    }

    /// Creates a barrier card and waits for its `created` event: every event caused by what was done before
    /// has then been delivered, without sleeping for a fixed time.
    func barrier(in column: String = "todo", sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        barrierCount += 1
        let slug = "barrier-\(barrierCount)"
        try write(Self.cardText(title: slug, column: column), to: "cards/\(column)/\(slug).md")
        let seen = recorder.wait { events in events.contains { $0.kind == .created && $0.slug == slug } }
        #expect(seen, "the barrier card was never reported", sourceLocation: sourceLocation)
    }

    func path(_ relative: String) -> String { root + "/" + relative }

    func write(_ text: String, to relative: String) throws {
        try FileSystemTestSupport.write(text, to: path(relative))
    }

    func text(_ relative: String) throws -> String {
        try String(contentsOfFile: path(relative), encoding: .utf8)
    }

    func rename(_ from: String, _ to: String) throws {
        try FileSystemTestSupport.check(Glibc.rename(from.hasPrefix("/") ? from : path(from), to.hasPrefix("/") ? to : path(to)), "rename")
    }

    func remove(_ relative: String) throws {
        try FileSystemTestSupport.check(unlink(path(relative)), "unlink")
    }

    /// Runs a shell command in the board directory and requires it to succeed.
    func shell(_ command: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let result = try FileSystemTestSupport.run("/bin/sh", ["-c", command], in: root)
        #expect(result.status == 0, "\(command): \(result.output)", sourceLocation: sourceLocation)
    }

    deinit {
        watcher?.stop()
        try? FileManager.default.removeItem(atPath: parent)
    }
}

/// Small file-system helpers for the tests, each failing loudly.
enum FileSystemTestSupport {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static func check(_ result: Int32, _ call: String) throws {
        if result != 0 { throw Failure(description: "\(call): \(String(cString: strerror(errno)))") }
    }

    static func makeDirectory(_ path: String) throws {
        if mkdir(path, 0o755) != 0 && errno != EEXIST { throw Failure(description: "mkdir \(path): \(String(cString: strerror(errno)))") }
    }

    /// Creates or truncates the file and writes the text: open, one write, close.
    static func write(_ text: String, to path: String) throws {
        try write(Array(text.utf8), to: path)
    }

    static func write(_ bytes: [UInt8], to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw Failure(description: "open \(path): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { throw Failure(description: "write \(path): \(String(cString: strerror(errno)))") }
            written += count
        }
    }

    /// Sets a file's access and modification times (seconds since 1970, with nanoseconds).
    static func setTimes(_ path: String, seconds: Int, nanoseconds: Int = 0) throws {
        var times = [timespec(tv_sec: seconds, tv_nsec: nanoseconds), timespec(tv_sec: seconds, tv_nsec: nanoseconds)]
        try check(utimensat(AT_FDCWD, path, &times, 0), "utimensat")
    }

    static func resolved(_ path: String) -> String {
        guard let real = realpath(path, nil) else { return path }
        defer { free(real) }
        return String(cString: real)
    }

    /// Runs a program to completion with a controlled environment (no user configuration for git).
    static func run(_ executable: String, _ arguments: [String], in directory: String,
                    environment extra: [String: String] = [:]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        var environment = [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "HOME": directory, "LANG": "C", "GIT_CONFIG_NOSYSTEM": "1", "GIT_AUTHOR_NAME": "Test",
            "GIT_AUTHOR_EMAIL": "test@example.com", "GIT_COMMITTER_NAME": "Test", "GIT_COMMITTER_EMAIL": "test@example.com",
        ]
        for (key, value) in extra { environment[key] = value }
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// Whether a program is on PATH.
    static func hasProgram(_ name: String) -> Bool {
        (try? run("/bin/sh", ["-c", "command -v \(name)"], in: "/").status == 0) ?? false
    }
}

extension Array where Element == WatchEvent {
    /// `["modified fix-login", ...]`: short descriptions to compare in expectations.
    var summaries: [String] {
        map { event in
            var text = event.kind.rawValue
            if let slug = event.slug { text += " " + slug } else if let column = event.column { text += " " + column }
            return text
        }
    }

    func count(of kind: WatchEvent.Kind) -> Int { filter { $0.kind == kind }.count }
}

extension WatchedBoard {
    /// A store of this board with its index in `<parent>/cache`, trusting files older than 30 ms.
    func indexedStore() throws -> BoardStore {
        var placement = IndexPlacement.automatic(cacheDirectory: parent + "/cache")
        placement.racyInterval = 30_000_000
        return try BoardStore(directory: root, index: placement)
    }
}
