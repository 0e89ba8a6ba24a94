import Foundation
import KanbanCore
import KanbanSubprocess

/// `kanban sync` run as a child of this process, for the surfaces that offer a sync (the page's Sync button, the MCP
/// `sync` tool): exactly what the command does, with its messages; standard input from `/dev/null`, no colour.
enum SyncChild {
    /// How the child ended.
    struct Outcome {
        var succeeded: Bool
        var timedOut: Bool
        /// Everything it printed (standard output, then standard error).
        var text: String
        var lines: [String] { text.split(separator: "\n").map(String.init) }
    }

    /// Runs `kanban --board board sync [--no-push]` with `environment` and waits at most `timeout`.
    /// - Throws: ``SubprocessStartError`` when the child cannot be started.
    static func run(board: String, environment: [String: String], noPush: Bool = false, timeout: Duration) throws(SubprocessStartError) -> Outcome {
        var environment = environment
        environment["NO_COLOR"] = "1"
        let result = try Subprocess.run(executablePath(), ["--board", board, "sync"] + (noPush ? ["--no-push"] : []),
                                        environment: environment, timeout: timeout)
        return Outcome(succeeded: result.status == 0 && !result.timedOut, timedOut: result.timedOut,
                       text: String(decoding: result.output + result.errorOutput, as: UTF8.self))
    }

    /// This executable's absolute path (a desktop app does not see a shell's PATH), else `kanban`.
    static func executablePath() -> String {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return path }
        let first = CommandLine.arguments.first ?? "kanban"
        guard first.contains("/") else { return "kanban" }
        return first.hasPrefix("/") ? first : FileManager.default.currentDirectoryPath + "/" + first
    }
}
