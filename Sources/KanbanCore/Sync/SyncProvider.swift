import Foundation

/// A way to share a board between people and machines: record local changes, bring in others' and merge them,
/// send out one's own.
///
/// A provider owns the transport (git, a shared folder, a cloud store) and whatever history it keeps; the merging is
/// the same for all: two sides that both changed the board are reconciled card by card by ``BoardMerge`` (and card
/// bodies line by line by ``LineMerge``), so every provider converges the same way. `KanbanGit`'s `GitSyncProvider`
/// drives the `git` command; an app that syncs another way writes a provider and reuses the rules. Every operation
/// either does what it says or throws a ``SyncError`` having lost nothing.
public protocol SyncProvider: Sendable {
    /// Where the board stands: the changes not recorded yet, the changes waiting to go out or come in, and what
    /// stands in the way of syncing. A board that cannot sync is a state, not an error.
    func state() throws(SyncError) -> SyncState

    /// Records exactly `paths` (relative to the board) as one change, never anything else.
    /// - Returns: The change recorded, or nil when the paths hold no change (no empty changes are made).
    func commit(paths: [String], message: CommitMessage) throws(SyncError) -> CommitResult?

    /// Records every change of the board not recorded yet as one change, never files outside the board.
    /// - Parameter message: The message; when nil, one listing the card changes.
    /// - Returns: The change recorded, or nil when nothing changed.
    func commitPendingChanges(message: CommitMessage?) throws(SyncError) -> CommitResult?

    /// Brings in the other side's changes, merging the board card by card by rules that need no person
    /// (``BoardMerge``). Work it cannot merge is left as it was and reported with ``SyncError/Code/conflict``.
    func pull() throws(SyncError) -> PullResult

    /// Sends the recorded local changes out, never overwriting others' work; when the other side moved on, pulls and
    /// tries again.
    func push() throws(SyncError) -> PushResult

    /// Runs `body` as the only sync of the board's repository (git: of every worktree of it) at a time: a claim being
    /// shared pulls, looks and pushes with no other sync pushing in between. Reentrant; the default holds nothing.
    func exclusiveSync<T>(_ body: () throws -> T) rethrows -> T

    /// Sends the recorded changes out as ``push()`` does; when `retrying` is false, only once: an upstream that moved
    /// on is ``SyncError/Code/pushRejected`` at once, with nothing pulled. The default pushes as ``push()`` does.
    func push(retrying: Bool) throws(SyncError) -> PushResult

    /// The recorded changes that touched a card, newest first, across columns and the archive; empty for a provider
    /// that keeps no history (the default).
    func history(ofCard slug: String) throws(SyncError) -> [HistoryEntry]

    /// Throws what would stop ``commit(paths:message:)`` now (git: no repository, a git operation under way, a
    /// detached HEAD), so that a change that could not be recorded is refused before it is made. The default
    /// throws nothing.
    func requireCommitPossible() throws(SyncError)

    /// Notes that the cards `slugs` were deleted at `date`, for the commit that records the deletion (now or at the
    /// next sync): a merge keeps a card someone changed after its delete. The default notes nothing.
    func recordDeletions(of slugs: [String], at date: Date)

    /// Runs `body`, one change of the board and its commit, letting the provider keep what it learns (git: the
    /// repository, whether HEAD is on a branch) for that long instead of asking again at each step. The default
    /// keeps nothing.
    func duringChange<T>(_ body: () throws -> T) throws -> T

    /// Records the board's pending changes, brings in the other side's, and (when `pushing`) sends the recorded ones
    /// out, calling `onStep` as each step is done. The default does ``commitPendingChanges(message:)``, ``pull()``
    /// and ``push()``; `GitSyncProvider` also finishes a stopped `git merge` first and says what stands in the way.
    /// - Throws: ``SyncError``, having lost nothing; when the board's changes were recorded before the failure, the
    ///   error says so (``SyncError/afterCommitting(_:)``).
    func sync(pushing: Bool, onStep: (SyncStep) -> Void) throws(SyncError) -> SyncReport

    /// The versions of the card `slug` that the other side's changes brought in since the change `since` (git: the
    /// card as the incoming parent of each merge after that commit had it), oldest first: how a claim still being
    /// shared learns that the other side shared one first. The default knows none.
    func incomingVersions(ofCard slug: String, since: String) -> [[UInt8]]
}

extension SyncProvider {
    /// No history: what a provider that keeps none returns.
    public func history(ofCard slug: String) throws(SyncError) -> [HistoryEntry] { [] }

    /// Nothing stands in the way: what a provider that can always record returns.
    public func requireCommitPossible() throws(SyncError) {}

    /// Nothing noted.
    public func recordDeletions(of slugs: [String], at date: Date) {}

    /// `body`, with nothing kept.
    public func duringChange<T>(_ body: () throws -> T) throws -> T { try body() }

    /// None known.
    public func incomingVersions(ofCard slug: String, since: String) -> [[UInt8]] { [] }

    /// As ``push()``.
    public func push(retrying: Bool) throws(SyncError) -> PushResult { try push() }

    /// `body`, holding nothing.
    public func exclusiveSync<T>(_ body: () throws -> T) rethrows -> T { try body() }

    /// Commit, pull, push.
    public func sync(pushing: Bool, onStep: (SyncStep) -> Void) throws(SyncError) -> SyncReport {
        var report = SyncReport()
        func record(_ step: SyncStep) {
            report.steps.append(step)
            onStep(step)
        }
        let committed = try commitPendingChanges(message: nil)
        if let committed { record(.committed(committed)) }
        do throws(SyncError) {
            record(.pulled(try pull(), from: "the other side"))
            if pushing { record(.pushed(try push())) }
        } catch {
            throw error.afterCommitting(committed)
        }
        return report
    }

    /// Records the files a store operation wrote and removed as one change.
    /// - Returns: The commit, or nil when the change touched nothing.
    @discardableResult
    public func commit(_ change: BoardChange, message: CommitMessage) throws(SyncError) -> CommitResult? {
        try commit(paths: change.paths, message: message)
    }

    /// Records the files several store operations (one action) wrote and removed as one change.
    @discardableResult
    public func commit(_ changes: [BoardChange], message: CommitMessage) throws(SyncError) -> CommitResult? {
        var seen: Set<String> = []
        return try commit(paths: changes.flatMap(\.paths).filter { seen.insert($0).inserted }, message: message)
    }

    /// Records every uncommitted change of the board as one commit whose message lists the card changes.
    @discardableResult
    public func commitPendingChanges() throws(SyncError) -> CommitResult? {
        try commitPendingChanges(message: nil)
    }
}

/// A change a provider recorded (for git, a commit).
public struct CommitResult: Sendable, Hashable {
    /// The change's identifier, unique to the provider: for git, the commit's full hash.
    public var commit: String
    /// The message it was made with.
    public var message: CommitMessage
    /// The board files it recorded, relative to the board.
    public var paths: [String]

    /// The identifier's first 7 characters (for git, the abbreviated hash `git log --oneline` shows).
    public var shortCommit: String { String(commit.prefix(7)) }

    /// Creates a result.
    public init(commit: String, message: CommitMessage, paths: [String]) {
        self.commit = commit
        self.message = message
        self.paths = paths
    }
}

/// What a pull did.
public struct PullResult: Sendable, Hashable {
    /// How the local board was brought up to date.
    public enum Kind: String, Sendable, Hashable {
        /// Nothing new on the other side.
        case upToDate = "up-to-date"
        /// Only the other side had changes: the local board now is the other side's (git: the branch points at the
        /// upstream).
        case fastForward = "fast-forward"
        /// Both had changes: the board was merged card by card (git: in a merge commit).
        case merged
        /// The other side holds no board yet (a first push makes it; git: no upstream branch).
        case noUpstreamBranch = "no-upstream-branch"
    }

    /// How the local board was brought up to date.
    public var kind: Kind
    /// Changes brought in from the other side (git: commits).
    public var incoming: Int
    /// Local changes the other side did not have.
    public var replayed: Int
    /// The cards a rule decided about, in slug order.
    public var resolutions: [CardResolution]
    /// The change that recorded tidying after the pull (cards kept once, cards split out), when one was needed.
    public var resolutionCommit: CommitResult?
    /// Whether unrecorded work put aside for the pull could not be put back cleanly (git: it is kept in
    /// `git stash list`).
    public var isStashKept = false

    /// Creates a result.
    public init(kind: Kind, incoming: Int = 0, replayed: Int = 0, resolutions: [CardResolution] = [],
                resolutionCommit: CommitResult? = nil) {
        self.kind = kind
        self.incoming = incoming
        self.replayed = replayed
        self.resolutions = resolutions
        self.resolutionCommit = resolutionCommit
    }
}

/// A card a pull decided about by a rule, because both sides changed it: what was decided, and where it is.
public struct CardResolution: Sendable, Hashable, Codable {
    /// Which rule decided.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// Moved to two places: kept once, where the later version put it.
        case placed
        /// Both sides changed the same lines of the body: the later version's lines are in place, the other side's
        /// kept in a marked section at the end of the body, for a person to tidy.
        case keptText = "kept-text"
        /// Deleted on one side and changed on the other after the delete: kept.
        case keptAfterDelete = "kept-after-delete"
        /// Deleted on one side; the other side's change was older than the delete and is dropped with the card.
        case deleted
        /// Another card with the same slug was added on the other side: this one (not pushed before) has a new slug.
        case renamed
        /// The card was in several places after an earlier `git merge`: kept once.
        case keptOnce = "kept-once"
        /// Another card was kept inside this one by git's merge driver: it is a card of its own again.
        case split
        /// Both sides held the card under different claims: the card keeps one (see ``CardMerge``), and
        /// ``otherClaim`` is the one it dropped.
        case claimContested = "claim-contested"
    }

    /// The card's slug (before any renaming).
    public var slug: String
    /// Where it is kept, relative to the board (where it was, for a deleted card).
    public var keptPath: String
    /// The copies that were removed.
    public var removedPaths: [String]
    /// Which rule decided.
    public var kind: Kind
    /// The new slug of a renamed or split card.
    public var newSlug: String?
    /// For a contested claim, the claim the card no longer holds.
    public var otherClaim: CardClaim?

    /// Creates a resolution.
    public init(slug: String, keptPath: String, removedPaths: [String], kind: Kind = .placed, newSlug: String? = nil,
                otherClaim: CardClaim? = nil) {
        self.slug = slug
        self.keptPath = keptPath
        self.removedPaths = removedPaths
        self.kind = kind
        self.newSlug = newSlug
        self.otherClaim = otherClaim
    }
}

/// What a push did.
public struct PushResult: Sendable, Hashable {
    /// Changes sent (git: commits).
    public var pushed: Int
    /// Where they went (git: the upstream, such as `origin/main`).
    public var upstream: String
    /// The pulls made because the other side had moved on, in order.
    public var pulls: [PullResult]

    /// Creates a result.
    public init(pushed: Int, upstream: String, pulls: [PullResult] = []) {
        self.pushed = pushed
        self.upstream = upstream
        self.pulls = pulls
    }
}

/// One recorded change in a card's history (git: a commit).
public struct HistoryEntry: Sendable, Hashable, Codable {
    /// The change's identifier (git: the full hash).
    public var commit: String
    /// When it was authored.
    public var date: Date
    /// Who authored it.
    public var author: String
    /// The subject line.
    public var subject: String
    /// What the commit did to this card: the subject, or for a commit of several cards, the body's line about this
    /// one (`Move "Fix login bug" from To Do to Done`).
    public var cardSummary: String
    /// Its trailers (`Card`, `From`, `To`, ...), in order.
    public var trailers: [CommitTrailer]
    /// The card's file after the commit, relative to the board (nil when the commit removed it).
    public var path: String?

    /// The abbreviated hash.
    public var shortCommit: String { String(commit.prefix(7)) }

    /// Creates an entry.
    public init(commit: String, date: Date, author: String, subject: String, cardSummary: String? = nil,
                trailers: [CommitTrailer] = [], path: String? = nil) {
        self.commit = commit
        self.date = date
        self.author = author
        self.subject = subject
        self.cardSummary = cardSummary ?? subject
        self.trailers = trailers
        self.path = path
    }
}
