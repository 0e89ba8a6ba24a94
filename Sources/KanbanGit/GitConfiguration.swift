import KanbanCore
import KanbanSubprocess

/// How to run git: the program, the environment it gets, and how long each call may take.
///
/// KanbanCore never reads the process environment: the caller passes it in (the CLI passes its own), and
/// ``locate(in:)`` finds git from it.
public struct GitConfiguration: Sendable, Hashable {
    /// The git program, an absolute path; nil when git is not installed.
    public var executable: String?
    /// The environment git runs with, before the variables every call sets (see ``GitSyncProvider``).
    public var environment: [String: String]
    /// How long a local git call (a commit with its hooks, a rebase) may take before its process group is killed.
    public var timeout: Duration
    /// How long a call that talks to a remote (fetch, push) may take.
    public var networkTimeout: Duration
    /// How many times to try again while another process holds `index.lock`.
    public var lockRetries: Int
    /// How long to wait between those tries.
    public var lockRetryDelay: Duration
    /// How many times a push rejected because the upstream moved on is tried (each after a pull).
    public var pushAttempts: Int
    /// Whether ``GitSyncProvider/cardHistories()`` keeps what it read of the history in the history cache and reads
    /// only the commits made since (true by default; the CLI turns it off for `KANBAN_HISTORY_CACHE=off`).
    public var usesHistoryCache = true

    /// Creates a configuration.
    /// - Parameters:
    ///   - executable: The git program; see ``locate(in:)``.
    ///   - environment: The environment for git, usually the process's own.
    public init(executable: String?, environment: [String: String], timeout: Duration = .seconds(120),
                networkTimeout: Duration = .seconds(60), lockRetries: Int = 15,
                lockRetryDelay: Duration = .milliseconds(200), pushAttempts: Int = 10) {
        self.executable = executable
        self.environment = environment
        self.timeout = timeout
        self.networkTimeout = networkTimeout
        self.lockRetries = lockRetries
        self.lockRetryDelay = lockRetryDelay
        self.pushAttempts = pushAttempts
    }

    /// The git program named by `KANBAN_GIT` (a path, or a name looked up on `PATH`), else `git` on `PATH`.
    /// - Parameter environment: The variables to look in, usually the process's own.
    /// - Returns: An absolute path to an executable file, or nil when there is none.
    public static func locate(in environment: [String: String]) -> String? {
        let name = environment["KANBAN_GIT"].flatMap { $0.isEmpty ? nil : $0 } ?? "git"
        if name.contains("/") {
            guard let resolved = FileSystem.realPath(name), Subprocess.isExecutable(resolved) else { return nil }
            return resolved
        }
        let path = environment["PATH"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":", omittingEmptySubsequences: true) where directory.hasPrefix("/") {
            let candidate = directory + "/" + name
            if Subprocess.isExecutable(candidate) { return candidate }
        }
        return nil
    }
}
