import Foundation
import KanbanCore
import KanbanSubprocess

extension GitSyncProvider {
    /// The branch's upstream, from `branch.<name>.remote` and `branch.<name>.merge`.
    struct Upstream: Sendable {
        var branch: String
        var remote: String
        /// The branch on the remote, such as `refs/heads/main`.
        var mergeReference: String
        /// How people name it, such as `origin/main`.
        var name: String
    }

    // MARK: Pull

    /// Fetches, then fast-forwards the branch to its upstream, or, when both have new commits, merges them: one merge
    /// commit whose board is merged card by card by rules that need no person (see ``BoardMerge``) and whose other
    /// files git merges. Then tidies what plain `git merge`s may have left (a card in two places, another card kept
    /// inside one by the merge driver) in a commit of its own.
    ///
    /// Uncommitted work outside the board is put aside for the merge and put back. A conflict in files outside the
    /// board changes nothing and is reported.
    /// - Throws: ``SyncError`` with ``SyncError/Code/notARepository``, ``SyncError/Code/detachedHead``,
    ///   ``SyncError/Code/operationInProgress``, ``SyncError/Code/noRemote``, ``SyncError/Code/noUpstream``,
    ///   ``SyncError/Code/timedOut``, ``SyncError/Code/remoteFailed``, ``SyncError/Code/localChanges``,
    ///   ``SyncError/Code/missingIdentity`` or ``SyncError/Code/conflict``.
    public func pull() throws(SyncError) -> PullResult {
        _ = try requireRepository(allowingDetached: false)
        let upstream = try requireUpstream()
        try fetch(upstream)
        return try integrate(upstream)
    }

    /// The upstream of the current branch, or why there is none.
    func requireUpstream() throws(SyncError) -> Upstream {
        let reference = try git.check(["symbolic-ref", "--quiet", "HEAD"], readOnly: true).text.trimmingCharacters(in: .whitespacesAndNewlines)
        let branch = reference.hasPrefix("refs/heads/") ? String(reference.dropFirst("refs/heads/".count)) : reference
        let remote = try git.run(["config", "--get", "branch.\(branch).remote"], readOnly: true).text.trimmingCharacters(in: .whitespacesAndNewlines)
        let merge = try git.run(["config", "--get", "branch.\(branch).merge"], readOnly: true).text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !remote.isEmpty, !merge.isEmpty else {
            let remotes = try git.check(["remote"], readOnly: true).lines
            guard let first = remotes.first else {
                throw SyncError(.noRemote, "the repository has no remote to sync with",
                                hint: "Add one and push the branch once:\n  git remote add origin URL\n  git push -u origin \(branch)")
            }
            throw SyncError(.noUpstream, "branch '\(branch)' has no upstream branch",
                            hint: "Push it once with 'git push -u \(first) \(branch)' (or set one with 'git branch --set-upstream-to'), then sync.")
        }
        let short = merge.hasPrefix("refs/heads/") ? String(merge.dropFirst("refs/heads/".count)) : merge
        return Upstream(branch: branch, remote: remote, mergeReference: merge, name: remote == "." ? short : "\(remote)/\(short)")
    }

    /// `git fetch <remote>`, within the network time limit.
    func fetch(_ upstream: Upstream) throws(SyncError) {
        guard upstream.remote != "." else { return }
        var output: Git.Output
        var attempt = 0
        repeat {
            attempt += 1
            do {
                output = try git.run(["fetch", "--quiet", upstream.remote], network: true)
            } catch let error where error.code == .timedOut {
                throw SyncError(.timedOut, "the remote '\(upstream.remote)' did not answer within \(Git.describe(configuration.networkTimeout)); nothing was changed",
                                hint: "Check the network and the remote's address ('git remote -v'), then sync again.", output: error.output)
            }
            // Another fetch of this repository (a sync in another worktree, say) updated the remote-tracking branch
            // at the same moment ("cannot lock ref 'refs/remotes/...'"): it holds what this one wanted; fetch again.
            guard !output.succeeded, String(decoding: output.errorOutput, as: UTF8.self).contains("cannot lock ref"),
                  attempt < max(1, configuration.pushAttempts) else { break }
            Subprocess.pause(Self.backoff(attempt: attempt))
        } while true
        guard output.succeeded else {
            throw SyncError(.remoteFailed, "cannot fetch from '\(upstream.remote)'; nothing was changed",
                            hint: "Check the remote's address ('git remote -v') and that you may read it.", output: output.said.nonEmpty)
        }
    }

    /// Brings the fetched upstream into the branch: nothing, a fast-forward, or a merge; then tidies the board.
    /// Holds the board's lock throughout, so that no command changes a card in the middle.
    func integrate(_ upstream: Upstream) throws(SyncError) -> PullResult {
        try exclusively { () throws(SyncError) -> PullResult in
            let repository = try requireRepository(allowingDetached: false)
            var result = try bringIn(upstream, repository: repository)
            let (resolutions, change) = try tidy()
            if !resolutions.isEmpty {
                result.resolutions += resolutions
                result.resolutionCommit = try commit(change, message: Self.tidyMessage(resolutions, board: try? store.loadBoard()))
            }
            return result
        }
    }

    private func bringIn(_ upstream: Upstream, repository: Repository) throws(SyncError) -> PullResult {
        guard try resolves("@{upstream}") else { return PullResult(kind: .noUpstreamBranch) }
        guard try resolves("HEAD") else {
            let behind = Int(try git.check(["rev-list", "--count", "@{upstream}"], readOnly: true).text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
            try fastForward(repository: repository)
            return PullResult(kind: .fastForward, incoming: behind)
        }
        let counts = try git.check(["rev-list", "--left-right", "--count", "HEAD...@{upstream}"], readOnly: true)
            .text.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        let (ahead, behind) = counts.count == 2 ? (counts[0], counts[1]) : (0, 0)
        if behind == 0 { return PullResult(kind: .upToDate) }
        if ahead == 0 {
            try fastForward(repository: repository)
            return PullResult(kind: .fastForward, incoming: behind)
        }
        let merged = try mergeUpstream(upstream, repository: repository)
        var result = PullResult(kind: .merged, incoming: behind, replayed: ahead, resolutions: merged.resolutions)
        result.isStashKept = merged.isStashKept
        return result
    }

    private func fastForward(repository: Repository) throws(SyncError) {
        let output = try git.runTakingIndexLock(["merge", "--ff-only", "--quiet", "@{upstream}"])
        guard output.succeeded else {
            throw pullRefused(output, repository: repository) ?? SyncError(.gitFailed, "git could not bring in the upstream's commits; nothing was changed",
                                                                           output: output.said.nonEmpty)
        }
    }

    /// The error for a fast-forward git refused because of uncommitted work in the way, or nil when that was not why.
    func pullRefused(_ output: Git.Output, repository: Repository) -> SyncError? {
        let said = output.said
        let untracked = Self.untrackedInTheWay(said)
        if !untracked.isEmpty {
            // `git stash` leaves untracked files where they are, and `git stash --include-untracked` cannot be
            // popped once the pull has put the incoming files there: moving them aside is what works.
            let shown = untracked.prefix(10)
            var hint = "Move \(untracked.count == 1 ? "it" : "them") aside, sync again, then compare with the incoming \(untracked.count == 1 ? "version" : "versions"):"
            for path in shown {
                let absolute = repository.topLevel + "/" + path
                hint += "\n  mv -n \(Self.shellQuoted(absolute)) \(Self.shellQuoted(absolute + ".mine"))"
            }
            if untracked.count > shown.count { hint += "\n  (and the same for the other \(untracked.count - shown.count) files git lists above)" }
            let names = untracked.count == 1 ? "an untracked file is" : "untracked files are"
            return SyncError(.localChanges, "\(names) in the way of files the incoming commits add: \(shown.joined(separator: ", "))\(untracked.count > shown.count ? ", ..." : ""); nothing was changed",
                             hint: hint, output: said)
        }
        if said.contains("would be overwritten") || said.contains("unstaged changes") || said.contains("uncommitted changes") {
            return SyncError(.localChanges, "uncommitted changes would be overwritten by the incoming commits; nothing was changed",
                             hint: "Commit them, or put them aside with 'git stash' (and back with 'git stash pop' after the sync), then sync again.",
                             output: said)
        }
        return nil
    }

    /// The paths (relative to the repository's top) git lists after "The following untracked working tree files
    /// would be overwritten by ...".
    static func untrackedInTheWay(_ said: String) -> [String] {
        var paths: [String] = []
        var isListing = false
        for line in said.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.contains("untracked working tree files would be") {
                isListing = true
            } else if isListing, line.hasPrefix("\t") {
                paths.append(String(line.dropFirst()))
            } else {
                isListing = false
            }
        }
        return paths
    }

    /// `text` as one word to a POSIX shell: as it is when it holds only characters no shell treats specially, else
    /// in single quotes.
    static func shellQuoted(_ text: String) -> String {
        let plain = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._/-+,:@%")
        if !text.isEmpty, text.allSatisfy(plain.contains) { return text }
        return "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    // MARK: After the pull

    /// `Tidy the board after a merge`, with a line per card.
    static func tidyMessage(_ resolutions: [CardResolution], board: Board?) -> CommitMessage {
        let lines = resolutions.map { $0.summary(board: board) }
        let trailers = resolutions.map { CommitTrailer("Card", $0.slug) }
        if resolutions.count == 1 {
            return CommitMessage(subject: "Tidy \"\(resolutions[0].slug)\" after a merge", body: lines[0], trailers: trailers)
        }
        return CommitMessage(subject: "Tidy \(resolutions.count) cards after a merge", body: lines.map { "- " + $0 }.joined(separator: "\n"),
                             trailers: trailers)
    }

    // MARK: Push

    /// Sends the local commits to the upstream branch, never by force. When the upstream has moved on, waits a
    /// little (see ``backoff(attempt:)``), pulls (as ``pull()``) and tries again, up to
    /// ``GitConfiguration/pushAttempts`` times. A rejected push never loses the local commits.
    /// - Throws: ``SyncError`` with ``SyncError/Code/pushRejected`` when the remote refuses the push (its hook's
    ///   words in ``SyncError/output``), ``SyncError/Code/timedOut``, ``SyncError/Code/remoteFailed``, or what
    ///   ``pull()`` throws. The local commits are kept whatever happens.
    public func push() throws(SyncError) -> PushResult {
        try push(retrying: true)
    }

    /// ``push()``; when `retrying` is false, once: an upstream that moved on is ``SyncError/Code/pushRejected`` at
    /// once, nothing pulled (a claim being shared looks at what came in before it tries again).
    public func push(retrying: Bool) throws(SyncError) -> PushResult {
        _ = try requireRepository(allowingDetached: false)
        let upstream = try requireUpstream()
        guard try resolves("HEAD") else { return PushResult(pushed: 0, upstream: upstream.name) }
        var pulls: [PullResult] = []
        var attempt = 0
        while true {
            attempt += 1
            let pending = try unpushedCount(upstream)
            guard pending > 0 else { return PushResult(pushed: 0, upstream: upstream.name, pulls: pulls) }
            let output: Git.Output
            do {
                output = try git.run(["push", "--porcelain", upstream.remote, "HEAD:" + upstream.mergeReference], network: true)
            } catch let error where error.code == .timedOut {
                throw SyncError(.timedOut, "the remote '\(upstream.remote)' did not answer within \(Git.describe(configuration.networkTimeout)); nothing was pushed",
                                hint: "Your commits are kept locally. Check the network and the remote's address ('git remote -v'), then sync again.",
                                output: error.output)
            }
            if output.succeeded { return PushResult(pushed: pending, upstream: upstream.name, pulls: pulls) }
            let refused = output.lines.first { $0.hasPrefix("!") }
            // Another push updated the branch between the remote's check and its update ("cannot lock ref ... is at X
            // but expected Y"): the upstream moved on, as with a rejected push, only later in the remote's work.
            let lostRace = refused.map { $0.contains("[remote rejected]") && $0.contains("failed to update ref") } ?? false
                && String(decoding: output.errorOutput, as: UTF8.self).contains("cannot lock ref")
            if let refused, refused.contains("[rejected]") || lostRace {
                guard retrying, attempt < max(1, configuration.pushAttempts) else {
                    throw SyncError(.pushRejected, "the upstream kept moving on; gave up after \(attempt) tries",
                                    hint: "Your commits are kept locally; sync again.", output: output.said.nonEmpty)
                }
                // Others are pushing too: wait a little (longer each time, and not the same on every machine, so
                // that racing clones take turns), then bring their commits in and try again.
                Subprocess.pause(Self.backoff(attempt: attempt))
                try fetch(upstream)
                pulls.append(try integrate(upstream))
                continue
            }
            if let refused, refused.contains("[remote rejected]") {
                let reason = refused.split(separator: "\t").last.map(String.init) ?? refused
                let remoteSaid = String(decoding: output.errorOutput, as: UTF8.self).split(separator: "\n")
                    .filter { $0.hasPrefix("remote:") }.joined(separator: "\n")
                let why = reason.replacingOccurrences(of: "[remote rejected]", with: "").trimmingCharacters(in: CharacterSet(charactersIn: " ()"))
                throw SyncError(.pushRejected, "the remote refused the push: \(why)",
                                hint: "Your commits are kept locally. Ask whoever runs the remote, or fix what it reports, then sync again.",
                                output: remoteSaid.nonEmpty ?? output.said.nonEmpty)
            }
            throw SyncError(.remoteFailed, "cannot push to '\(upstream.remote)'; your commits are kept locally",
                            hint: "Check the remote's address ('git remote -v') and that you may write to it.", output: output.said.nonEmpty)
        }
    }

    /// How long to wait before the push after `attempt` rejected ones: 0.2 s doubling to at most 3.2 s, plus up to
    /// half as much again at random.
    static func backoff(attempt: Int) -> Duration {
        let base = 0.2 * Double(1 << min(max(attempt - 1, 0), 4))
        return .milliseconds(Int((base + Double.random(in: 0...(base / 2))) * 1000))
    }

    /// Local commits the upstream does not have.
    private func unpushedCount(_ upstream: Upstream) throws(SyncError) -> Int {
        let arguments = try resolves("@{upstream}") ? ["rev-list", "--count", "@{upstream}..HEAD"]
            : ["rev-list", "--count", "HEAD", "--not", "--remotes=\(upstream.remote)"]
        return Int(try git.check(arguments, readOnly: true).text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }

    // MARK: Revisions

    /// Whether `name` names a commit.
    func resolves(_ name: String) throws(SyncError) -> Bool {
        try git.run(["rev-parse", "--verify", "--quiet", name + "^{commit}"], readOnly: true).succeeded
    }

    /// The full hash `name` names.
    func revision(_ name: String) throws(SyncError) -> String {
        try git.check(["rev-parse", "--verify", name + "^{commit}"], readOnly: true).text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

extension Git.Output {
    /// Throws ``SyncError/Code/gitFailed`` when the call failed.
    func requireSuccess(_ git: Git, _ command: String) throws(SyncError) {
        guard succeeded else { throw git.failure([command], self) }
    }
}
