import Foundation

/// A board as every surface changes it: the store, the ``SyncProvider`` that records changes (if any), and the
/// ``CommitPolicy`` that says when.
///
/// The command line, the full-screen board, the watcher, the servers and an app all change the board through a
/// session, so one rule holds everywhere: a change to be committed holds the board's lock from the change to its
/// commit (so that changes made at the same moment are committed one after the other, each exactly what it wrote),
/// and a change that could not be committed (a detached HEAD, a rebase under way) is refused before it is made.
/// During a change `board.md` is read once and the provider keeps what it learnt about the repository.
///
/// ```swift
/// let store = try BoardStore(directory: "/path/to/board")
/// let session = BoardSession(store: store, sync: GitSyncProvider(store: store, configuration: git), commitPolicy: .always)
/// let (card, outcome) = try session.change { store in
///     let change = try store.moveCard("fix-login", to: "done")
///     return (change.card, [change])
/// }
/// let report = try session.sync()
/// ```
public final class BoardSession: Sendable {
    /// The board.
    public let store: BoardStore
    /// How changes are recorded and shared; nil for a board that is not.
    public let sync: (any SyncProvider)?
    /// When changes are recorded.
    public let commitPolicy: CommitPolicy
    /// One change of this process at a time (another process waits on the board's lock).
    private let changes = NSRecursiveLock()

    /// Creates a session.
    public init(store: BoardStore, sync: (any SyncProvider)? = nil, commitPolicy: CommitPolicy = .boardSetting) {
        self.store = store
        self.sync = sync
        self.commitPolicy = commitPolicy
    }

    /// The change the current thread or task is making, by board directory.
    private final class ChangeScope: Sendable {
        @TaskLocal static var current: [String: ChangeScope] = [:]

        let request: CommitRequest?

        init(request: CommitRequest?) {
            self.request = request
        }
    }

    // MARK: Changing

    /// Runs `body` as one change of the board: when it is to be committed, with the board's lock held throughout,
    /// after checking that the commit can be made. Call ``commit(_:message:)`` inside for what `body` changed. A
    /// change inside another (of the same board) is part of it.
    /// - Throws: What `body` throws; a ``SyncError`` saying why a change to be committed cannot be, with nothing
    ///   changed.
    public func withChange<T>(_ body: () throws -> T) throws -> T {
        if ChangeScope.current[store.directory] != nil { return try body() }
        changes.lock()
        defer { changes.unlock() }
        return try store.withBoardFileCached {
            try duringChange {
                let request = commitPolicy.request(for: try? store.loadBoard())
                var scopes = ChangeScope.current
                scopes[store.directory] = ChangeScope(request: request)
                guard let request else { return try ChangeScope.$current.withValue(scopes) { try body() } }
                try requireCommitPossible(request)
                return try store.withExclusiveAccess { try ChangeScope.$current.withValue(scopes) { try body() } }
            }
        }
    }

    /// Makes the change `body` returns (a value and the store's changes) and commits it as one commit when the
    /// policy says so (see ``withChange(_:)``).
    /// - Parameter message: The commit message; when nil, one describing the card changes (`Move "X" from To Do to Done`).
    public func change<T>(message: CommitMessage? = nil, _ body: (BoardStore) throws -> (T, [BoardChange])) throws -> (T, CommitOutcome) {
        try withChange {
            let (value, changes) = try body(store)
            return (value, try commit(changes, message: message))
        }
    }

    /// Commits what `changes` wrote and removed as one commit, when the policy says so.
    /// - Parameter message: The message; when nil, one describing the card changes.
    /// - Throws: A ``SyncError`` saying the change was made but not committed, when committing was asked for and failed.
    public func commit(_ changes: [BoardChange], message: CommitMessage? = nil) throws(SyncError) -> CommitOutcome {
        // A delete's time is noted for the commit that records it, now or at the next sync.
        let deleted = changes.compactMap { $0.card == nil ? $0.previous?.slug : nil }
        if !deleted.isEmpty { sync?.recordDeletions(of: deleted, at: Date()) }
        var seen: Set<String> = []
        let paths = changes.flatMap(\.paths).filter { seen.insert($0).inserted }
        guard !paths.isEmpty, let request = commitRequest() else { return .notCommitted }
        guard let message = message ?? CommitMessage(describing: changes, board: try? store.loadBoard()) else { return .notCommitted }
        return try commit(paths: paths, message: message, request: request)
    }

    /// Commits `paths` (relative to the board) with `message`, when the policy says so.
    public func commit(paths: [String], message: CommitMessage?) throws(SyncError) -> CommitOutcome {
        guard !paths.isEmpty, let message, let request = commitRequest() else { return .notCommitted }
        return try commit(paths: paths, message: message, request: request)
    }

    /// Why a change now is to be committed: the change's own decision inside ``withChange(_:)``, else the policy's.
    public func commitRequest() -> CommitRequest? {
        if let scope = ChangeScope.current[store.directory] { return scope.request }
        return commitPolicy.request(for: try? store.loadBoard())
    }

    // MARK: Syncing

    /// Records the board's pending changes, brings in the other side's and sends the recorded ones out (see
    /// ``SyncProvider/sync(pushing:onStep:)``), calling `onStep` as each step is done. No change of this process
    /// runs meanwhile.
    /// - Throws: ``SyncError``, having lost nothing; ``SyncError/Code/notARepository`` when the board has no provider.
    public func sync(pushing: Bool = true, onStep: (SyncStep) -> Void = { _ in }) throws(SyncError) -> SyncReport {
        guard let sync else { throw Self.noProvider }
        changes.lock()
        defer { changes.unlock() }
        let held = heldClaims()
        var report = try sync.sync(pushing: pushing, onStep: onStep)
        // A slug two clones gave a new card, one of which the merge renamed: cards waiting for it are pointed out.
        let renamed = report.steps.flatMap(\.resolutions).filter { $0.kind == .renamed }
        if !renamed.isEmpty, let cards = try? store.load().cards {
            var found: [RenamedDependency] = []
            for resolution in renamed {
                guard let newSlug = resolution.newSlug else { continue }
                for card in cards where card.dependencies.contains(resolution.slug) {
                    found.append(RenamedDependency(card: card.slug, slug: resolution.slug, renamedTo: newSlug))
                }
            }
            if !found.isEmpty {
                onStep(.dependenciesToCheck(found))
                report.steps.append(.dependenciesToCheck(found))
            }
        }
        // A claim held here that the merge gave to someone who claimed first elsewhere: its holder must be told.
        if !held.isEmpty {
            let now = heldClaims()
            let lost = held.compactMap { slug, claim -> LostClaim? in
                guard let winner = now[slug], winner.holder != claim.holder else { return nil }
                return LostClaim(slug: slug, holder: claim.holder, winner: winner)
            }.sorted { $0.slug.utf8Precedes($1.slug) }
            if !lost.isEmpty {
                onStep(.claimsLost(lost))
                report.steps.append(.claimsLost(lost))
            }
        }
        return report
    }

    /// Sends the recorded changes out once, without pulling first (``SyncProvider/push(retrying:)``): for a claim being
    /// shared, which looks at what came in before it pushes again.
    func pushOnce() throws(SyncError) -> SyncReport {
        guard let sync else { throw Self.noProvider }
        changes.lock()
        defer { changes.unlock() }
        return SyncReport(steps: [.pushed(try sync.push(retrying: false))])
    }

    /// The claims on the board's active cards, by slug.
    private func heldClaims() -> [String: CardClaim] {
        guard let cards = try? store.load().cards else { return [:] }
        var claims: [String: CardClaim] = [:]
        for card in cards { if let claim = card.claim { claims[card.slug] = claim } }
        return claims
    }

    // MARK: Steps

    private static let noProvider = SyncError(.notARepository, "the board is not in a git repository",
                                              hint: "The board works without git. To share it, run 'git init' in the board's directory (or a parent), then 'git remote add origin URL'.")

    private func duringChange<T>(_ body: () throws -> T) throws -> T {
        guard let sync else { return try body() }
        return try sync.duringChange(body)
    }

    /// Throws the reason a commit asked for cannot be made, before anything is changed; a board outside a
    /// repository with `autocommit: true` is fine (it warns at the commit).
    private func requireCommitPossible(_ request: CommitRequest) throws {
        do throws(SyncError) {
            guard let sync else { throw Self.noProvider }
            try sync.requireCommitPossible()
        } catch where request == .boardSetting && Self.isOutsideRepository(error) {
            return
        } catch {
            var failure = error
            failure.hint = (failure.hint.map { $0 + "\n" } ?? "") + "Nothing was changed."
            throw failure
        }
    }

    private func commit(paths: [String], message: CommitMessage, request: CommitRequest) throws(SyncError) -> CommitOutcome {
        do throws(SyncError) {
            guard let sync else { throw Self.noProvider }
            guard let result = try sync.commit(paths: paths, message: message) else { return .notCommitted }
            return .committed(result)
        } catch {
            if request == .boardSetting && Self.isOutsideRepository(error) {
                return .notInRepository("board.md sets 'autocommit: true' but \(error.message); the change was not committed")
            }
            var failure = error
            let note = "The change itself was made; 'kanban sync' commits it later."
            failure.hint = failure.hint.map { $0 + "\n" + note } ?? note
            throw failure
        }
    }

    private static func isOutsideRepository(_ error: SyncError) -> Bool {
        error.code == .notARepository || error.code == .gitNotInstalled
    }
}
