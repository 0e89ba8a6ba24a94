#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import KanbanTestSupport
import Testing

/// The tests of git sync from the command line (`status`, `sync`, `log`, `git-setup`, `merge-driver`, `--commit`),
/// grouped so that `--filter Git` runs them all.
@Suite struct GitTests {}

/// A temporary directory in which `kanban` and git run cut off from the user's own setup: `HOME` is the directory,
/// git's global configuration is a file in it (`main` as the default branch, an identity unless told otherwise), no
/// system configuration; the built `kanban` is first on `PATH`, so git finds it as the merge driver.
///
/// ```swift
/// try withGitWorkspace { workspace in
///     let (ana, ben) = try workspace.makeSharedBoard()
///     let result = try workspace.kanban(["add", "Fix login bug", "--commit"], in: ana)
/// }
/// ```
final class GitWorkspace: @unchecked Sendable {
    /// The temporary directory (absolute, links resolved).
    let root: String
    /// The git program.
    let gitPath: String
    /// The environment of every `kanban` and git run.
    private(set) var environment: [String: String]

    init(identity: Bool = true) throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("kanban-git-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        root = try #require(base.path.withCString { pointer -> String? in
            guard let resolved = realpath(pointer, nil) else { return nil }
            defer { free(resolved) }
            return String(cString: resolved)
        })
        let inherited = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let binary = (try KanbanProcess.binaryPath() as NSString).deletingLastPathComponent
        let path = binary + ":" + inherited
        gitPath = try #require(path.split(separator: ":").map { $0 + "/git" }.first { FileManager.default.isExecutableFile(atPath: $0) },
                               "git must be installed for these tests")
        environment = try GitHome.environment(root: root, path: path, identity: identity)
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: root)
    }

    /// Adds, replaces or (with nil) removes a variable of the environment.
    func set(_ name: String, _ value: String?) {
        environment[name] = value
    }

    // MARK: Running

    /// Runs `kanban` in `directory`.
    func kanban(_ arguments: [String], in directory: String, environment extra: [String: String] = [:]) throws -> KanbanProcess.Output {
        var variables = environment
        variables.merge(extra) { _, new in new }
        for name in ["NO_COLOR", "KANBAN_BOARD", "KANBAN_COMMIT", "KANBAN_GIT", "KANBAN_GIT_TIMEOUT", "KANBAN_AGENT"] where variables[name] == nil {
            variables[name] = KanbanProcess.unsetVariable
        }
        return try KanbanProcess.run(arguments, in: directory, environment: variables)
    }

    struct GitRun: CustomStringConvertible {
        var status: Int32
        var output: String
        var errorOutput: String
        var description: String { "exit status \(status)\n\(output)\(errorOutput)" }
    }

    /// Runs git in `directory`, whatever its exit status.
    @discardableResult
    func run(_ arguments: [String], in directory: String, environment extra: [String: String] = [:]) throws -> GitRun {
        let run = try ProgramRun.run(gitPath, ["-C", directory] + arguments, environment: environment.merging(extra) { $1 })
        return GitRun(status: run.status, output: run.output, errorOutput: run.errorOutput)
    }

    /// Runs git in `directory`, failing the test when it fails; returns its output without the final line break.
    @discardableResult
    func git(_ arguments: [String], in directory: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> String {
        let result = try run(arguments, in: directory)
        try #require(result.status == 0, "git \(arguments.joined(separator: " ")): \(result)", sourceLocation: sourceLocation)
        var text = result.output
        if text.hasSuffix("\n") { text.removeLast() }
        return text
    }

    // MARK: Repositories

    /// A bare repository acting as the remote.
    func makeRemote(named name: String = "remote.git") throws -> String {
        try git(["init", "--quiet", "--bare", root + "/" + name], in: root)
        return root + "/" + name
    }

    /// A clone of `remote` called `name`, committing as `author`.
    func makeClone(of remote: String, named name: String, author: String) throws -> String {
        let path = root + "/" + name
        try git(["clone", "--quiet", remote, path], in: root)
        try git(["config", "user.name", author], in: path)
        try git(["config", "user.email", author.lowercased().replacingOccurrences(of: " ", with: ".") + "@example.com"], in: path)
        return path
    }

    /// A remote with a board made by `kanban init` (columns To Do, In Progress, Done), committed and pushed from
    /// clone `ana` (Ana Lee), and a second clone `ben` (Ben Ode).
    func makeSharedBoard(setUpMergeDriver: Bool = false) throws -> (ana: String, ben: String) {
        let remote = try makeRemote()
        let ana = try makeClone(of: remote, named: "ana", author: "Ana Lee")
        let made = try kanban(["init", ".", "--title", "Team"], in: ana)
        try #require(made.status == 0, "\(made)")
        if setUpMergeDriver {
            let setup = try kanban(["git-setup"], in: ana)
            try #require(setup.status == 0, "\(setup)")
        }
        try git(["add", "--all"], in: ana)
        try git(["commit", "--quiet", "-m", "Start the board"], in: ana)
        try git(["push", "--quiet", "-u", "origin", "main"], in: ana)
        let ben = try makeClone(of: remote, named: "ben", author: "Ben Ode")
        if setUpMergeDriver {
            let setup = try kanban(["git-setup"], in: ben)
            try #require(setup.status == 0, "\(setup)")
        }
        return (ana, ben)
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

    func exists(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: path)
    }

    /// Writes an executable `sh` script.
    func script(_ path: String, _ body: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try writeExecutableScript(path, body)
    }

    /// The subjects of the last `count` commits, newest first.
    func subjects(in directory: String, count: Int = 20) throws -> [String] {
        try git(["log", "-\(count)", "--format=%s"], in: directory).split(separator: "\n").map(String.init)
    }
}

/// Runs `body` with a fresh workspace, removed afterwards whatever happens.
func withGitWorkspace<R>(identity: Bool = true, _ body: (GitWorkspace) throws -> R) throws -> R {
    let workspace = try GitWorkspace(identity: identity)
    defer { workspace.remove() }
    return try body(workspace)
}
