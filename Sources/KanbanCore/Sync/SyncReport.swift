/// One step a sync took, in the order it took them: what each surface shows as the sync goes.
public enum SyncStep: Sendable, Hashable {
    /// A merge that had stopped on cards was finished first.
    case finishedMerge(FinishedMerge)
    /// The board's changes not recorded yet were recorded.
    case committed(CommitResult)
    /// The other side's changes were brought in from `upstream`.
    case pulled(PullResult, from: String)
    /// The recorded changes were sent out (with the pulls a moved-on upstream needed first).
    case pushed(PushResult)
    /// Claims held here before the sync that the merge gave to someone else, who claimed first on another clone.
    case claimsLost([LostClaim])
    /// Cards that wait for a slug the merge gave to one of two cards added under it on two clones, the other being
    /// renamed: which of the two each means is for a person to say.
    case dependenciesToCheck([RenamedDependency])
}

/// A card whose `depends-on` names a slug two clones both gave a new card, one of which the merge renamed.
public struct RenamedDependency: Sendable, Hashable {
    /// The card that waits.
    public var card: String
    /// The slug it waits for, now the other card's.
    public var slug: String
    /// The renamed card's new slug.
    public var renamedTo: String

    /// Creates one.
    public init(card: String, slug: String, renamedTo: String) {
        self.card = card
        self.slug = slug
        self.renamedTo = renamedTo
    }
}

/// A claim a sync dropped: another clone's claim of the card was earlier (``CardClaim/wins(over:)``).
public struct LostClaim: Sendable, Hashable {
    /// The card.
    public var slug: String
    /// Who held it here before the sync.
    public var holder: String
    /// The claim that won.
    public var winner: CardClaim

    /// Creates a lost claim.
    public init(slug: String, holder: String, winner: CardClaim) {
        self.slug = slug
        self.holder = holder
        self.winner = winner
    }
}

/// What a sync did, step by step (``SyncProvider/sync(pushing:onStep:)``).
public struct SyncReport: Sendable, Hashable {
    /// The steps, in order.
    public var steps: [SyncStep]

    /// Creates a report.
    public init(steps: [SyncStep] = []) {
        self.steps = steps
    }

    /// The lines every surface shows for the report: ``SyncStep/lines(board:)`` of each step.
    public func lines(board: Board?) -> [SyncLine] {
        steps.flatMap { $0.lines(board: board) }
    }
}

/// One line of a sync's account, as the command prints it and the page and MCP return it.
public enum SyncLine: Sendable, Hashable {
    /// What happened.
    case said(String)
    /// A change recorded: `committed 1a2b3c4 Merge origin/main into main`.
    case committed(CommitResult)
    /// Something a person has to look at (a card with text kept from both sides, work kept in a stash).
    case warning(String)

    /// The line as plain text (a warning without its `warning: ` label).
    public var text: String {
        switch self {
        case .said(let text), .warning(let text): text
        case .committed(let result): "committed \(result.shortCommit) \(result.message.subject)"
        }
    }
}

extension SyncStep {
    /// What the step's merges resolved, card by card.
    public var resolutions: [CardResolution] {
        switch self {
        case .finishedMerge(let finished): finished.resolutions
        case .pulled(let pull, _): pull.resolutions
        case .pushed(let push): push.pulls.flatMap(\.resolutions)
        case .committed, .claimsLost, .dependenciesToCheck: []
        }
    }

    /// The lines that tell a person what this step did.
    public func lines(board: Board?) -> [SyncLine] {
        switch self {
        case .finishedMerge(let finished):
            var stoppedOn = finished.cards.isEmpty ? [] : [finished.cards.count == 1 ? "1 card" : "\(finished.cards.count) cards"]
            if finished.isBoardFileMerged { stoppedOn.insert("board.md", at: 0) }
            var lines: [SyncLine] = [.said(stoppedOn.isEmpty ? "finished the git merge in progress"
                                           : "finished the git merge that stopped on \(stoppedOn.joined(separator: " and ")), merging card by card"),
                                     .committed(finished.commit)]
            lines += Self.lines(finished.resolutions, board: board)
            if let commit = finished.resolutionCommit { lines.append(.committed(commit)) }
            return lines
        case .committed(let result):
            return [.committed(result)]
        case .pulled(let pull, let upstream):
            return Self.lines(pull, from: upstream, board: board)
        case .pushed(let push):
            return push.pulls.flatMap { Self.lines($0, from: push.upstream, board: board) }
                + [.said(push.pushed == 0 ? "nothing to push: \(push.upstream) has every commit"
                         : "pushed \(Self.commits(push.pushed)) to \(push.upstream)")]
        case .dependenciesToCheck(let found):
            return found.map { item in
                .warning("\(item.card) waits for '\(item.slug)', a slug two clones gave a new card; the merge renamed one of them to "
                         + "'\(item.renamedTo)'. If \(item.card) meant that one: kanban depend \(item.card) \(item.renamedTo) --remove \(item.slug)")
            }
        case .claimsLost(let lost):
            return lost.map { claim in
                .warning("\(claim.slug): the claim of \(claim.holder) was dropped: \(claim.winner.holder) claimed it first on another clone"
                         + (claim.winner.date.map { " (at \(ISO8601.string(from: $0)))" } ?? ""))
            }
        }
    }

    private static func lines(_ pull: PullResult, from upstream: String, board: Board?) -> [SyncLine] {
        var lines: [SyncLine]
        switch pull.kind {
        case .upToDate:
            lines = [.said("up to date with \(upstream)")]
        case .noUpstreamBranch:
            lines = [.said("\(upstream) does not exist yet; the push creates it")]
        case .fastForward:
            lines = [.said("pulled \(commits(pull.incoming)) from \(upstream)")]
        case .merged:
            lines = [.said("pulled \(commits(pull.incoming)) from \(upstream) and merged \(pull.incoming == 1 ? "it" : "them") with your \(pull.replayed == 1 ? "commit" : commits(pull.replayed))")]
        }
        lines += Self.lines(pull.resolutions, board: board)
        if let commit = pull.resolutionCommit { lines.append(.committed(commit)) }
        if pull.isStashKept {
            lines.append(.warning("your uncommitted changes outside the board conflict with the incoming commits; they are kept in 'git stash list' (get them back with 'git stash pop')"))
        }
        return lines
    }

    /// A line per card a rule decided about; a warning for each a person has to look at.
    private static func lines(_ resolutions: [CardResolution], board: Board?) -> [SyncLine] {
        resolutions.map { resolution in
            let line = resolution.summary(board: board)
            return resolution.kind == .keptText ? .warning("\(line) (\(resolution.keptPath))") : .said(line)
        }
    }

    private static func commits(_ count: Int) -> String {
        count == 1 ? "1 commit" : "\(count) commits"
    }
}

extension CardResolution {
    /// One line about the resolution, for commit messages and what a sync says: `fix-login: moved to two places;
    /// kept in Done, where the later change put it`.
    public func summary(board: Board?) -> String {
        func place(_ path: String) -> String {
            guard let column = BoardPath(path)?.card?.directoryColumn else { return "the archive" }
            return board?.column(withID: column)?.name ?? column
        }
        switch kind {
        case .placed:
            return "\(slug): moved to two places; kept in \(place(keptPath)), where the later change put it"
        case .keptText:
            return "\(slug): both sides changed the same lines; the other side's text is kept at the end of the card, to tidy by hand"
        case .keptAfterDelete:
            return "\(slug): deleted on one side but changed on the other after that; kept"
        case .deleted:
            return "\(slug): deleted on one side; the other side's earlier change goes with it"
        case .renamed:
            return "\(slug): another card with this name was added on the other side; this one is now \(newSlug ?? "?")"
        case .keptOnce:
            return "\(slug): was in several places after a merge; kept once, in \(place(keptPath))"
        case .split:
            return "\(slug): held another card kept there by git's merge; that card is now \(newSlug ?? "?")"
        case .claimContested:
            return "\(slug): claimed on both sides; the claim of \(otherClaim?.holder ?? "the other side") was dropped for the one kept"
        }
    }
}

extension SyncError {
    /// The error of a sync that stopped after recording the board's changes as `committed`: what stopped it left
    /// everything else as it was, and the next sync picks up from there.
    public func afterCommitting(_ committed: CommitResult?) -> SyncError {
        guard let committed else { return self }
        var failure = self
        failure.message = failure.message.replacingOccurrences(of: "; nothing was changed", with: "; nothing was pulled or pushed")
        let note = "Your board changes are committed locally (\(committed.shortCommit)); 'kanban sync' picks up from there."
        failure.hint = failure.hint.map { $0 + "\n" + note } ?? note
        return failure
    }
}

extension SyncError {
    /// The error as a person reads it, a line each: `error: message`, each conflict, git's or a hook's words
    /// (`  | ...`), then the hint.
    public var lines: [String] {
        ["error: \(message)"] + detailLines
    }

    /// The lines under the message: each conflict (`  conflict: path ("Title", slug)`), git's or a hook's words
    /// (`  | ...`), then the hint, indented.
    public var detailLines: [String] {
        var lines = conflicts.map { conflict in
            let card = conflict.slug.map { slug in " (" + (conflict.title.map { "\"\($0)\", " } ?? "") + slug + ")" } ?? ""
            return "  conflict: \(conflict.path)\(card)"
        }
        if let output {
            lines += output.split(separator: "\n", omittingEmptySubsequences: false).map { "  | " + $0 }
        }
        if let hint {
            lines += hint.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }
        }
        return lines
    }
}
