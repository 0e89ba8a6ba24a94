import Foundation

/// What a claim made through a session did: the claim, its commit, and, for a claim shared with the other clones,
/// the sync and the claims lost on the way.
public struct SessionClaim: Sendable {
    /// The claim that stands.
    public var claim: ClaimResult
    /// Its commit.
    public var commit: CommitOutcome
    /// The syncs made (a claim shared with the other clones): the first brings in their claims, each later one
    /// sends a claim out.
    public var syncs: [SyncReport] = []
    /// Cards claimed here that another clone had claimed first, and who holds them: a claim of the next ready card
    /// goes on to another card after each.
    public var lost: [(slug: String, holder: String)] = []
    /// Why the claim could not be sent out (a sync after it failed): it stands, committed here, and goes out with the
    /// next sync, which may find that another clone claimed the card first.
    public var unshared: SyncError?
}

extension BoardSession {
    /// How many cards a claim of the next ready card tries, when other clones keep winning them, before giving up.
    public static let claimAttempts = 5
    /// How many times a claim being shared pulls and pushes while the upstream keeps moving on.
    static let shareRounds = 8

    /// Claims a card for `holder` (``BoardStore/claimCard(_:as:start:done:)``) as one change, committed as the
    /// policy says. With `sharing`, the claim is committed whatever the policy and shared with the other clones: a
    /// sync first (so their claims are seen), the claim, and a sync that sends it out; when the merge finds that
    /// another clone claimed the same card first (``CardClaim/wins(over:)``), the claim is lost: a named card is an
    /// error naming the holder, and the next ready card is looked for again (up to ``claimAttempts`` cards). A sync
    /// after the claim that fails leaves the claim standing, committed (``SessionClaim/unshared``).
    /// - Throws: ``KanbanError`` (``KanbanError/Code/claimed`` for a card someone else holds, also after a sync;
    ///   ``KanbanError/Code/notReady``), ``SyncError`` when a sync fails (a claim made stands, committed).
    public func claim(_ reference: String?, as holder: String, start: String? = nil, done: String? = nil,
                      sharing: Bool = false) throws -> SessionClaim {
        guard sharing else {
            let (claim, commit) = try change { store in
                let claim = try store.claimCard(reference, as: holder, start: start, done: done)
                return (claim, [claim.change])
            }
            return SessionClaim(claim: claim, commit: commit)
        }
        // The whole claim under the repository's sync lock: no other sync of this clone (an agent in another worktree)
        // may push the claim, or a merge of it, before it has given way to a claim shared first.
        guard let sync else { return try claimSharing(reference, as: holder, start: start, done: done) }
        return try sync.exclusiveSync { try claimSharing(reference, as: holder, start: start, done: done) }
    }

    /// ``claim(_:as:start:done:sharing:)`` shared with the other clones, holding the sync lock.
    private func claimSharing(_ reference: String?, as holder: String, start: String?, done: String?) throws -> SessionClaim {
        let shared = BoardSession(store: store, sync: sync, commitPolicy: .always)
        var syncs = [try shared.sync(pushing: false)]
        var lost: [(slug: String, holder: String)] = []
        let name = holder.trimmingCharacters(in: .whitespaces)
        for _ in 0..<Self.claimAttempts {
            let (claim, commit) = try shared.change { store in
                let claim = try store.claimCard(reference, as: name, start: start, done: done)
                return (claim, [claim.change])
            }
            let (now, failure) = try share(claim.card, committedAs: commit.commit, by: name, in: shared, syncs: &syncs)
            if let failure, now.claim?.holder == name {
                return SessionClaim(claim: ClaimResult(card: now, change: claim.change, wasHeld: claim.wasHeld), commit: commit,
                                    syncs: syncs, lost: lost, unshared: failure)
            }
            let finished = now.isArchived || (try? WorkFlow(board: store.loadBoard(), start: start, done: done))?.isDoneColumn(now.column) == true
            if let winner = now.claim, winner.holder != name || finished {
                // Another clone claimed it first, or finished it meanwhile: not this agent's card.
                lost.append((now.slug, winner.holder))
                if reference != nil {
                    if finished && winner.holder == name {
                        throw KanbanError(.notReady, "\(now.slug) was finished on another clone meanwhile")
                    }
                    throw KanbanError(.claimed, "\(now.slug) was claimed first by \(winner.holder)\(winner.date.map { " at " + ISO8601.string(from: $0) } ?? ""), on another clone; your claim was dropped by the sync")
                }
                continue
            }
            return SessionClaim(claim: ClaimResult(card: now, change: claim.change, wasHeld: claim.wasHeld), commit: commit,
                                syncs: syncs, lost: lost)
        }
        throw KanbanError(.claimed, "other clones claimed each of the \(Self.claimAttempts) cards tried first: \(lost.map { "\($0.slug) (\($0.holder))" }.joined(separator: ", "))")
    }

    /// Shares a claim just committed (`commit`) of `card`: brings in what the others pushed meanwhile, gives way to a
    /// claim of the card they shared first, and only then pushes, once; when the upstream moved on again, looks again.
    /// A claim told it succeeded is then never taken back by one made elsewhere at the same moment, even an earlier one.
    /// - Returns: The card as it now stands, and why it could not be shared (nil when it was).
    private func share(_ card: Card, committedAs commit: CommitResult?, by name: String, in shared: BoardSession,
                       syncs: inout [SyncReport]) throws -> (Card, SyncError?) {
        var now = card
        for _ in 0..<Self.shareRounds {
            switch Result(catching: { () throws(SyncError) in try shared.sync(pushing: false) }) {
            case .success(let report): syncs.append(report)
            case .failure(let error): return (now, error)
            }
            now = try store.card(card.slug, in: .all)
            let incoming = commit.map { sync?.incomingVersions(ofCard: now.slug, since: $0.commit) ?? [] } ?? []
            if now.claim?.holder == name, let published = incoming.compactMap(BoardMerge.claim(in:)).last(where: { $0.holder != name }) {
                try giveWay(now, to: published)
                now = try store.card(now.slug, in: .all)
            }
            switch Result(catching: { () throws(SyncError) in try shared.pushOnce() }) {
            case .success(let report):
                syncs.append(report)
                return (now, nil)
            case .failure(let error) where error.code == .pushRejected:
                continue
            case .failure(let error):
                return (now, error)
            }
        }
        return (now, SyncError(.pushRejected, "the upstream kept moving on; gave up after \(Self.shareRounds) tries",
                               hint: "The claim is committed here; 'kanban sync' shares it."))
    }

    /// Writes `claim` back on `card` (a claim shared before this one, which this one gave way to), committed.
    private func giveWay(_ card: Card, to claim: CardClaim) throws {
        let session = BoardSession(store: store, sync: sync, commitPolicy: .always)
        var fields = [YAMLMapEntry(key: CardClaim.holderKey, value: .string(claim.holder))]
        if let date = claim.date { fields.append(YAMLMapEntry(key: CardClaim.dateKey, value: .unquoted(ISO8601.string(from: date)))) }
        _ = try session.change { store in
            // By slug: an agent in another worktree of this clone may have moved the card since it was read.
            let change = try store.updateCard(card.slug, CardUpdate(fields: fields), in: .all)
            return ((), [change])
        }
    }

    /// Gives a card back (``BoardStore/releaseCard(_:by:start:done:)``) as one change; with `sharing`, committed and
    /// synced with the other clones.
    public func release(_ reference: String, by holder: String?, start: String? = nil, done: String? = nil,
                        sharing: Bool = false) throws -> (claim: ClaimResult, commit: CommitOutcome, sync: SyncReport?) {
        let session = sharing ? BoardSession(store: store, sync: sync, commitPolicy: .always) : self
        let (claim, commit) = try session.change { store in
            let claim = try store.releaseCard(reference, by: holder, start: start, done: done)
            return (claim, [claim.change])
        }
        return (claim, commit, sharing ? try session.sync(pushing: true) : nil)
    }
}
