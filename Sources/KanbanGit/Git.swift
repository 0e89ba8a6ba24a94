#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import KanbanCore
import KanbanSubprocess

/// Calls of the `git` program for one directory, each with the same safe setup.
///
/// Every call gets standard input from `/dev/null`, `GIT_TERMINAL_PROMPT=0` (no password prompts), ssh in batch mode
/// (`GIT_SSH_COMMAND="ssh -oBatchMode=yes"` unless the environment sets `GIT_SSH_COMMAND` or `GIT_SSH`), `LC_ALL=C`
/// (messages in English, which errors are recognised by), no editor, `-c core.quotepath=off` (paths as they are),
/// and a time limit after which its whole process group is killed.
struct Git: Sendable {
    /// What one call gave.
    struct Output: Sendable {
        var status: Int32
        var output: [UInt8]
        var errorOutput: [UInt8]

        var succeeded: Bool { status == 0 }
        /// Standard output, decoded.
        var text: String { String(decoding: output, as: UTF8.self) }
        /// Standard error then standard output, trimmed: what git said, for messages.
        var said: String {
            let error = String(decoding: errorOutput, as: UTF8.self).trimmingBlankLines()
            let out = text.trimmingBlankLines()
            return [error, out].filter { !$0.isEmpty }.joined(separator: "\n")
        }
        /// Standard output split at NUL bytes (for `-z` output), without the empty piece after the last NUL.
        var records: [String] {
            var pieces = output.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
            if pieces.last == "" { pieces.removeLast() }
            return pieces
        }
        /// Standard output's lines, without the empty piece after the last line break.
        var lines: [String] {
            var pieces = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if pieces.last == "" { pieces.removeLast() }
            return pieces
        }
    }

    var configuration: GitConfiguration
    /// The directory git runs in (`git -C`).
    var directory: String

    /// The environment every call gets.
    var environment: [String: String] {
        var environment = configuration.environment
        environment["GIT_TERMINAL_PROMPT"] = "0"
        if environment["GIT_SSH_COMMAND"] == nil && environment["GIT_SSH"] == nil {
            environment["GIT_SSH_COMMAND"] = "ssh -oBatchMode=yes"
        }
        environment["LC_ALL"] = "C"
        environment["LANGUAGE"] = nil
        // Nothing may wait for a person: no editor for rebase or merge messages, no pager.
        environment["GIT_EDITOR"] = "true"
        environment["GIT_SEQUENCE_EDITOR"] = "true"
        environment["GIT_MERGE_AUTOEDIT"] = "no"
        environment["GIT_PAGER"] = "cat"
        environment["GCM_INTERACTIVE"] = "never"
        return environment
    }

    /// Runs `git -C <directory> -c core.quotepath=off <arguments>`.
    /// - Parameters:
    ///   - network: Whether the call talks to a remote, which gives it the network time limit.
    ///   - literalPaths: Whether paths after `--` are taken literally (no `*` or `?` patterns).
    ///   - readOnly: Whether git may skip optional index updates (so that a status never waits on `index.lock`).
    ///   - input: What git reads on standard input; nothing when nil.
    ///   - extra: Variables to set for this call (`GIT_INDEX_FILE`, say).
    /// - Throws: ``SyncError/Code/gitNotInstalled`` when git cannot be started, ``SyncError/Code/timedOut`` when
    ///   the time limit ran out (the call's process group is killed).
    func run(_ arguments: [String], network: Bool = false, literalPaths: Bool = false, readOnly: Bool = false,
             input: [UInt8]? = nil, environment extra: [String: String] = [:]) throws(SyncError) -> Output {
        guard let executable = configuration.executable else {
            throw SyncError(.gitNotInstalled, "git is not installed", hint: Self.installHint)
        }
        var environment = environment
        if readOnly { environment["GIT_OPTIONAL_LOCKS"] = "0" }
        environment.merge(extra) { $1 }
        var options = ["-C", directory, "-c", "core.quotepath=off", "-c", "color.ui=false"]
        if literalPaths { options.append("--literal-pathspecs") }
        let limit = network ? configuration.networkTimeout : configuration.timeout
        let result: SubprocessResult
        do {
            result = try Subprocess.run(executable, options + arguments, environment: environment, timeout: limit, input: input)
        } catch {
            throw SyncError(.gitNotInstalled, "cannot run git at '\(executable)': \(error.reason)", hint: Self.installHint)
        }
        if result.timedOut {
            throw SyncError(.timedOut, "'\(Self.command(arguments))' did not finish within \(Self.describe(limit)) and was stopped",
                            output: Output(status: result.status, output: result.output, errorOutput: result.errorOutput).said.nonEmpty)
        }
        return Output(status: result.status, output: result.output, errorOutput: result.errorOutput)
    }

    /// Runs git and throws ``SyncError/Code/gitFailed`` with its words when it fails.
    @discardableResult
    func check(_ arguments: [String], network: Bool = false, literalPaths: Bool = false, readOnly: Bool = false,
               input: [UInt8]? = nil, environment extra: [String: String] = [:]) throws(SyncError) -> Output {
        let output = try run(arguments, network: network, literalPaths: literalPaths, readOnly: readOnly, input: input, environment: extra)
        guard output.succeeded else { throw failure(arguments, output) }
        return output
    }

    /// Runs a command that writes the index, trying again while another process holds one of git's lock files
    /// (`index.lock`, a branch's `.lock`). A lock a live process holds is never removed: it may be a person's git in
    /// the middle of something. A lock no process has open and that has not changed for two seconds was left by a
    /// git that was killed, and is removed (see ``isStale(_:)``), so that nobody has to clean it by hand.
    /// - Throws: ``SyncError/Code/indexLocked`` when the lock stays held through every retry.
    func runTakingIndexLock(_ arguments: [String], literalPaths: Bool = false) throws(SyncError) -> Output {
        var attempt = 0
        var removedStale: Set<String> = []
        while true {
            let output = try run(arguments, literalPaths: literalPaths)
            guard !output.succeeded, let lock = Self.lockedIndex(in: output) else { return output }
            attempt += 1
            if !removedStale.contains(lock), Self.isStale(lock) {
                // A git that was killed left its lock (a killed commit leaves the index's and the branch's): no
                // process has it open, and it has not changed for a while.
                if unlink(lock) == 0 || errno == ENOENT {
                    removedStale.insert(lock)
                    continue
                }
            }
            if attempt > configuration.lockRetries {
                throw SyncError(.indexLocked, "another git process holds '\(lock)'",
                                hint: "Wait for it to finish and try again. If no git process is running, a crashed one left the lock behind: remove '\(lock)' yourself.",
                                output: output.said.nonEmpty)
            }
            Subprocess.pause(configuration.lockRetryDelay)
        }
    }

    /// Whether git's lock file `path` was left by a git process that is gone: it is older than a few seconds and no
    /// process has it open (Linux: from `/proc/*/fd`). Where that cannot be told, it is not stale.
    static func isStale(_ path: String) -> Bool {
        guard let modified = Platform.modificationSeconds(ofFileAt: path), time(nil) - modified >= 2 else { return false }
        return Platform.isOpenByAnyProcess(path) == false
    }

    /// A ``SyncError/Code/gitFailed`` error for a failed call.
    func failure(_ arguments: [String], _ output: Output) -> SyncError {
        return SyncError(.gitFailed, "'\(Self.command(arguments))' failed with exit status \(output.status)", output: output.said.nonEmpty)
    }

    /// `git commit` for `["-c", "user.useConfigOnly=true", "commit", ...]`: the subcommand, for messages.
    static func command(_ arguments: [String]) -> String {
        var index = 0
        while index < arguments.count, arguments[index].hasPrefix("-") {
            index += arguments[index] == "-c" ? 2 : 1
        }
        return index < arguments.count ? "git " + arguments[index] : "git"
    }

    /// The lock file git could not create, when that is why a call failed.
    static func lockedIndex(in output: Output) -> String? {
        let text = String(decoding: output.errorOutput, as: UTF8.self)
        guard let range = text.range(of: "Unable to create '"), text.contains(".lock': File exists") else { return nil }
        let rest = text[range.upperBound...]
        guard let end = rest.range(of: "': File exists") else { return nil }
        return String(rest[..<end.lowerBound])
    }

    /// `2 s`, `500 ms`.
    static func describe(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        if seconds == 0 { return "\(attoseconds / 1_000_000_000_000_000) ms" }
        let tenths = attoseconds / 100_000_000_000_000_000
        return tenths == 0 ? "\(seconds) s" : "\(seconds).\(tenths) s"
    }

    static let installHint = "Install git, or point KANBAN_GIT at the git program."
}

extension String {
    /// The string, or nil when it is empty.
    var nonEmpty: String? { isEmpty ? nil : self }
}
