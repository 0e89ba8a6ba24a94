import Foundation
import Synchronization

/// One person's clone of the shared board: its own directory, HOME and git identity.
struct ConvergeClone: Sendable {
    /// 0-based; the creator of the board is not one of the clones.
    var index: Int
    /// The working tree, which is also the board directory.
    var directory: String
    /// HOME, the git identity and nothing else of the person running the harness.
    var environment: [String: String]

    /// `c3`: how the output and the log name the clone.
    var name: String { "c\(index)" }

    init(index: Int, directory: String, home: String, identity: String) {
        self.index = index
        self.directory = directory
        let email = identity.lowercased().replacingOccurrences(of: " ", with: ".") + "@example.com"
        environment = harnessEnvironment(home: home, extra: [
            "GIT_AUTHOR_NAME": identity, "GIT_AUTHOR_EMAIL": email,
            "GIT_COMMITTER_NAME": identity, "GIT_COMMITTER_EMAIL": email,
            "NO_COLOR": "1",
        ])
    }
}

/// Runs `kanban` and `git` in clones, writing every command and how it ended to the run's log. Threads may share
/// one (the agents adversary runs its agents at once): children start under ``BoardProcesses``' lock, and each log
/// entry is written whole.
final class ConvergeRunner: Sendable {
    /// The programs a step runs.
    enum Tool {
        case kanban
        case git
    }

    let kanbanPath: String
    let gitPath: String
    /// A command that takes longer is killed and counts as failed.
    let timeout: Double
    /// Commands run so far.
    var commandCount: Int { started.withLock { $0 } }
    private let started = Mutex(0)
    private let log: Mutex<FileHandle?>

    init(kanban: String, git: String, logPath: String, timeout: Double = 60) {
        kanbanPath = kanban
        gitPath = git
        self.timeout = timeout
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        log = Mutex(FileHandle(forWritingAtPath: logPath))
    }

    /// Runs `tool` with `arguments` in `directory` with `environment`; `label` says in the log why.
    func run(_ tool: Tool, _ arguments: [String], in directory: String, environment: [String: String],
             label: String) throws -> ChildProcess.Outcome {
        var environment = environment
        if tool == .git {
            // Only the harness's own git commands get these: kanban must cope without them.
            environment["GIT_EDITOR"] = "true"
            environment["GIT_MERGE_AUTOEDIT"] = "no"
            environment["GIT_TERMINAL_PROMPT"] = "0"
        }
        let executable = tool == .kanban ? kanbanPath : gitPath
        started.withLock { $0 += 1 }
        let start = Date()
        let outcome = try BoardProcesses.run(executable, arguments, in: directory, environment: environment, timeout: timeout)
        let milliseconds = Int(Date().timeIntervalSince(start) * 1_000)
        let shown = ([tool == .kanban ? "kanban" : "git"] + arguments).map(Self.quotedForLog).joined(separator: " ")
        var entry = "\(label)$ \(shown) -> \(outcome.timedOut ? "timed out" : "\(outcome.status)") (\(milliseconds) ms)\n"
        if !outcome.succeeded {
            for line in (outcome.output + outcome.errorOutput).split(separator: "\n").prefix(20) { entry += "    | \(line)\n" }
        }
        write(entry)
        return outcome
    }

    /// Runs a command in a clone.
    func run(_ tool: Tool, _ arguments: [String], in clone: ConvergeClone, label: String) throws -> ChildProcess.Outcome {
        try run(tool, arguments, in: clone.directory, environment: clone.environment, label: "\(label) \(clone.name)")
    }

    /// Adds a line to the log.
    func note(_ text: String) {
        write(text + "\n")
    }

    func close() {
        log.withLock { try? $0?.close() }
    }

    private func write(_ text: String) {
        log.withLock { $0?.write(Data(text.utf8)) }
    }

    private static func quotedForLog(_ word: String) -> String {
        let plain = !word.isEmpty && word.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || "/._-+=:@%".unicodeScalars.contains($0) }
        return plain ? word : "'" + word.replacingOccurrences(of: "\n", with: "\\n").replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

extension ChildProcess.Outcome {
    /// The first `count` non-empty lines of standard error (standard output when that is empty), trimmed.
    func firstLines(_ count: Int) -> [String] {
        let source = errorOutput.contains(where: { !$0.isWhitespace }) ? errorOutput : output
        return source.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.prefix(count).map { $0 }
    }

    /// Both outputs together, to look for git's words in.
    var allOutput: String { output + "\n" + errorOutput }
}
