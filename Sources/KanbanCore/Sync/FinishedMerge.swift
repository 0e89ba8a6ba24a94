
/// A merge that had stopped on cards (git: a `git merge` or plain `git pull`), finished by the sync, which merges those
/// cards by the rules.
public struct FinishedMerge: Sendable, Hashable {
    /// The merge commit; its paths are the board files git had stopped on.
    public var commit: CommitResult
    /// The slugs of the cards git had stopped on, in order.
    public var cards: [String]
    /// Whether git had stopped on `board.md` too.
    public var isBoardFileMerged: Bool
    /// The cards a rule decided about, those git stopped on and then those tidied.
    public var resolutions: [CardResolution]
    /// The commit that recorded tidying after the merge (cards kept once, cards split out), when one was needed.
    public var resolutionCommit: CommitResult?

    /// Creates a result.
    public init(commit: CommitResult, cards: [String] = [], isBoardFileMerged: Bool = false, resolutions: [CardResolution] = [],
                resolutionCommit: CommitResult? = nil) {
        self.commit = commit
        self.cards = cards
        self.isBoardFileMerged = isBoardFileMerged
        self.resolutions = resolutions
        self.resolutionCommit = resolutionCommit
    }
}
