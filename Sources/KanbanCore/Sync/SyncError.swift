/// A sync operation that could not be done, with what to do about it. Nothing is lost when one is thrown: the
/// working tree is as it was (or as the last step that succeeded left it, which the message says).
///
/// `description` is the one line a person sees; ``hint`` says how to fix it, ``output`` carries git's (or a hook's)
/// own words, and ``conflicts`` the cards a pull could not merge.
public struct SyncError: Error, Sendable, Hashable {
    /// What went wrong, so that callers can tell cases apart.
    public enum Code: String, Sendable, Hashable {
        /// No git program was found (`$KANBAN_GIT`, or `git` on `PATH`).
        case gitNotInstalled = "git-not-installed"
        /// The board is not inside a git working tree.
        case notARepository = "not-a-repository"
        /// The repository has no remote to pull from or push to.
        case noRemote = "no-remote"
        /// The current branch has no upstream branch.
        case noUpstream = "no-upstream"
        /// `HEAD` is not on a branch.
        case detachedHead = "detached-head"
        /// A rebase, merge, cherry-pick or revert is in progress; finish or abort it first.
        case operationInProgress = "operation-in-progress"
        /// `user.name` or `user.email` is not set.
        case missingIdentity = "missing-identity"
        /// Another process holds the repository's `index.lock`.
        case indexLocked = "index-locked"
        /// A commit hook refused the commit.
        case hookFailed = "hook-failed"
        /// A git call ran out of time and was stopped.
        case timedOut = "timed-out"
        /// The remote could not be reached or refused access.
        case remoteFailed = "remote-failed"
        /// The remote refused the push (a hook or a protected branch), or it kept moving while retrying.
        case pushRejected = "push-rejected"
        /// A pull met changes it cannot merge; ``SyncError/conflicts`` lists them.
        case conflict = "conflict"
        /// Uncommitted changes would be overwritten by a pull.
        case localChanges = "local-changes"
        /// Any other failure of git; ``SyncError/output`` has its words.
        case gitFailed = "git-failed"
        /// Another process held the board's lock for longer than the store waits.
        case locked = "locked"
    }

    /// What went wrong.
    public var code: Code
    /// One lowercase sentence without a final period.
    public var message: String
    /// How to fix it: one or more lines, such as the commands to run.
    public var hint: String?
    /// What git or a hook wrote, trimmed; shown indented below the message.
    public var output: String?
    /// For ``Code/conflict``: the files (and cards) that could not be merged.
    public var conflicts: [SyncConflict]

    /// Creates an error.
    public init(_ code: Code, _ message: String, hint: String? = nil, output: String? = nil, conflicts: [SyncConflict] = []) {
        self.code = code
        self.message = message
        self.hint = hint
        self.output = output
        self.conflicts = conflicts
    }
}

/// A file a pull could not merge.
public struct SyncConflict: Sendable, Hashable {
    /// The path relative to the board directory (relative to the repository when it is outside the board).
    public var path: String
    /// The card's slug, when the file is a card.
    public var slug: String?
    /// The card's title, when it could be read.
    public var title: String?
    /// Whether the file belongs to the board (`board.md`, a card); other files are the rest of the repository.
    public var isBoardFile: Bool

    /// Creates a conflict.
    public init(path: String, slug: String? = nil, title: String? = nil, isBoardFile: Bool) {
        self.path = path
        self.slug = slug
        self.title = title
        self.isBoardFile = isBoardFile
    }
}

extension SyncError: CustomStringConvertible, CustomDebugStringConvertible {
    /// `error: message`.
    public var description: String { "error: \(message)" }

    /// The description with the code, the hint and git's output, for logs and bug reports.
    public var debugDescription: String {
        var text = "SyncError(\(code.rawValue)): \(message)"
        if let hint { text += "\nhint: \(hint)" }
        if let output { text += "\noutput: \(output)" }
        for conflict in conflicts { text += "\nconflict: \(conflict.path)" }
        return text
    }
}
