#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import KanbanTestSupport
import Testing
@testable import KanbanCore
@testable import KanbanGit

/// The tests of `Sources/KanbanGit`, grouped so that `--filter Sync` runs them with the merge rules' tests.
@Suite struct SyncTests {}

/// A temporary directory in which git runs cut off from the user's own setup: its own `HOME`, a global
/// configuration file of its own (an identity, `main` as the default branch), no system configuration, no
/// inherited `GIT_*` variables. Repositories, remotes and boards for one test live in it; it is removed afterwards.
///
/// ```swift
/// try withGitSandbox { sandbox in
///     let remote = try sandbox.makeRemote()
///     let clone = try sandbox.makeClone(of: remote, named: "ana")
///     let store = try sandbox.makeBoard(in: clone)
/// }
/// ```
final class GitSandbox: @unchecked Sendable {
    /// The temporary directory, absolute, links resolved.
    let root: String
    /// The environment git runs with.
    private(set) var environment: [String: String]
    /// The git program.
    let gitPath: String

    /// The instant clocks start from: 2026-05-28T20:26:40Z.
    static let start = Date(timeIntervalSince1970: 1_780_000_000)

    init(identity: Bool = true) throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("kanban-git-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        root = try #require(FileSystem.realPath(base.path))
        gitPath = try #require(GitConfiguration.locate(in: ProcessInfo.processInfo.environment), "git must be installed for these tests")
        environment = try GitHome.environment(root: root, path: ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
                                              identity: identity)
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: root)
    }

    /// Adds or replaces a variable of git's environment.
    func set(_ name: String, _ value: String?) {
        environment[name] = value
    }

    /// How the provider runs git here; short time limits so that failing cases fail fast.
    func configuration(networkTimeout: Duration = .seconds(20)) -> GitConfiguration {
        GitConfiguration(executable: gitPath, environment: environment, timeout: .seconds(60), networkTimeout: networkTimeout,
                         lockRetries: 3, lockRetryDelay: .milliseconds(50), pushAttempts: 3)
    }

    // MARK: Running git

    struct Run {
        var status: Int32
        var output: String
        var errorOutput: String
    }

    /// Runs git in `directory` and returns what happened, whatever the exit status.
    @discardableResult
    func run(_ arguments: [String], in directory: String) throws -> Run {
        let run = try ProgramRun.run(gitPath, ["-C", directory] + arguments, environment: environment)
        return Run(status: run.status, output: run.output, errorOutput: run.errorOutput)
    }

    /// Runs git in `directory`, failing the test when it fails; returns its output, trimmed.
    @discardableResult
    func git(_ arguments: [String], in directory: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> String {
        let result = try run(arguments, in: directory)
        try #require(result.status == 0, "git \(arguments.joined(separator: " ")) failed: \(result.errorOutput)\(result.output)",
                     sourceLocation: sourceLocation)
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    // MARK: Repositories and boards

    /// A new bare repository to act as the remote.
    func makeRemote(named name: String = "remote.git") throws -> String {
        let path = root + "/" + name
        try git(["init", "--quiet", "--bare", path], in: root)
        return path
    }

    /// A clone of `remote` called `name`.
    func makeClone(of remote: String, named name: String) throws -> String {
        let path = root + "/" + name
        try git(["clone", "--quiet", remote, path], in: root)
        return path
    }

    /// A new repository called `name`, without remote.
    func makeRepository(named name: String) throws -> String {
        let path = root + "/" + name
        try git(["init", "--quiet", path], in: root)
        return path
    }

    /// A board with columns todo, doing and done in `directory` (made when missing), whose clock starts at
    /// ``start`` plus `offset` seconds and advances a second per reading.
    func makeBoard(in directory: String, clockOffset offset: TimeInterval = 0) throws -> BoardStore {
        let board = Board(title: "Team", columns: [Column(id: "todo", name: "To Do"), Column(id: "doing", name: "Doing"),
                                                     Column(id: "done", name: "Done")],
                          labels: [Label(id: "bug", name: "Bug"), Label(id: "ui", name: "UI"), Label(id: "urgent", name: "Urgent")])
        try BoardStore.create(at: directory, board: board)
        return try store(in: directory, clockOffset: offset)
    }

    /// A store on the board in `directory` with a clock of its own (see ``makeBoard(in:clockOffset:)``).
    func store(in directory: String, clockOffset offset: TimeInterval = 0) throws -> BoardStore {
        let ticks = Locked<TimeInterval>(0)
        return try BoardStore(directory: directory, clock: {
            ticks.update { $0 += 1 }
            return GitSandbox.start.addingTimeInterval(offset + ticks.get())
        })
    }

    /// Commits everything in `directory` and pushes it to a new upstream branch `main`.
    func commitAndPublish(_ directory: String, message: String = "Start") throws {
        try git(["add", "--all"], in: directory)
        try git(["commit", "--quiet", "-m", message], in: directory)
        try git(["push", "--quiet", "-u", "origin", "main"], in: directory)
    }

    /// A shared board: a remote, clone `ana` with the board committed and pushed, and clone `ben` of it.
    /// Ana's clock runs behind Ben's by `clockGap` seconds.
    func makeSharedBoard(clockGap: TimeInterval = 600) throws -> (ana: BoardStore, ben: BoardStore) {
        let remote = try makeRemote()
        let ana = try makeClone(of: remote, named: "ana")
        let anaStore = try makeBoard(in: ana)
        try commitAndPublish(ana)
        let ben = try makeClone(of: remote, named: "ben")
        return (anaStore, try store(in: ben, clockOffset: clockGap))
    }

    /// The provider for `store`.
    func provider(_ store: BoardStore, networkTimeout: Duration = .seconds(20)) -> GitSyncProvider {
        GitSyncProvider(store: store, configuration: configuration(networkTimeout: networkTimeout))
    }

    // MARK: Files

    func write(_ text: String, to path: String) throws {
        let url = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    func read(_ path: String) throws -> String {
        String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
    }

    /// Writes an executable `sh` script.
    func script(_ path: String, _ body: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try writeExecutableScript(path, body)
    }

    /// Waits up to five seconds for process `pid` to end; true when it did (a zombie waiting to be reaped counts as
    /// ended).
    func waitUntilGone(_ pid: pid_t) -> Bool {
        for _ in 0..<200 {
            if kill(pid, 0) != 0 { return true }
            if let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")"),
               stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("Z") {
                return true
            }
            usleep(25_000)
        }
        return false
    }

    func exists(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: path)
    }
}

/// Runs `body` with a fresh sandbox, removed afterwards whatever happens.
func withGitSandbox<R>(identity: Bool = true, _ body: (GitSandbox) throws -> R) throws -> R {
    let sandbox = try GitSandbox(identity: identity)
    defer { sandbox.remove() }
    return try body(sandbox)
}

/// A value shared between threads.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func get() -> Value {
        lock.lock()
        defer { lock.unlock() }
        return value
    }

    func set(_ newValue: Value) {
        lock.lock()
        defer { lock.unlock() }
        value = newValue
    }

    func update(_ change: (inout Value) -> Void) {
        lock.lock()
        defer { lock.unlock() }
        change(&value)
    }
}
