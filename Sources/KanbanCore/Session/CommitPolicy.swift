/// Whether a board's changes are recorded by its ``SyncProvider`` (git: committed) as they are made.
///
/// Every surface asks the same way: the command line's `--commit`, else `KANBAN_COMMIT` in the environment, else
/// `autocommit:` in `board.md` (``init(commitFlag:environment:)``).
public enum CommitPolicy: Sendable, Hashable {
    /// Every change is committed; a change that cannot be committed is refused before it is made.
    case always
    /// No change is committed.
    case never
    /// A change is committed when `board.md` says `autocommit: true`; on a board outside a repository the change
    /// stands, uncommitted, with a warning.
    case boardSetting

    /// The policy of a command line and environment: `commitFlag` (`--commit`) asks always; else `KANBAN_COMMIT`
    /// (`1`/`true`/`yes`/`on` always, `0`/`false`/`no`/`off` never); else the board's setting.
    public init(commitFlag: Bool, environment: [String: String]) {
        if commitFlag {
            self = .always
            return
        }
        switch environment["KANBAN_COMMIT"]?.lowercased() {
        case "1", "true", "yes", "on": self = .always
        case "0", "false", "no", "off": self = .never
        default: self = .boardSetting
        }
    }

    /// Why a change to `board` is to be committed, or nil when it is not.
    public func request(for board: Board?) -> CommitRequest? {
        switch self {
        case .always: return .asked
        case .never: return nil
        case .boardSetting:
            let setting = board?.fields.first { $0.key == "autocommit" }?.value.string?.lowercased()
            return ["true", "yes", "on"].contains(setting ?? "") ? .boardSetting : nil
        }
    }
}

/// Why a change is committed.
public enum CommitRequest: Sendable, Hashable {
    /// Asked for (`--commit`, `KANBAN_COMMIT=1`, ``CommitPolicy/always``): not being able to commit is an error.
    case asked
    /// `autocommit: true` in `board.md`: a board outside a repository is just not committed, with a warning.
    case boardSetting
}

/// What became of a change's commit.
public enum CommitOutcome: Sendable, Hashable {
    /// Committing was not asked for, or there was nothing to commit.
    case notCommitted
    /// The change was committed.
    case committed(CommitResult)
    /// `autocommit: true` on a board outside a repository: the change stands, uncommitted, with this warning.
    case notInRepository(String)

    /// The commit, when one was made.
    public var commit: CommitResult? {
        if case .committed(let result) = self { return result }
        return nil
    }
}
