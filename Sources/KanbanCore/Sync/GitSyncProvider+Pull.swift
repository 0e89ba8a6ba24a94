import Foundation

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

    /// Fetches, then fast-forwards the branch to its upstream, or, when both have new commits, rebases the local ones
    /// onto the upstream (uncommitted work outside the board is stashed for the rebase and put back, staged or not,
    /// as it was).
    ///
    /// A rebase that stops on a conflict is continued when every conflict is a card two people moved to different
    /// places (a rename/rename conflict): the card is kept once, where the later version put it (see
    /// ``CardMerge``). Any other conflict aborts the rebase, which leaves the branch and the working tree as they
    /// were, and is reported with the cards concerned. A pull that leaves one card in two columns (when git did not
    /// see the moves as renames) keeps it in one, by the same rule, and commits that.
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
        let output: Git.Output
        do {
            output = try git.run(["fetch", "--quiet", upstream.remote], network: true)
        } catch let error where error.code == .timedOut {
            throw SyncError(.timedOut, "the remote '\(upstream.remote)' did not answer within \(Git.describe(configuration.networkTimeout)); nothing was changed",
                            hint: "Check the network and the remote's address ('git remote -v'), then sync again.", output: error.output)
        }
        guard output.succeeded else {
            throw SyncError(.remoteFailed, "cannot fetch from '\(upstream.remote)'; nothing was changed",
                            hint: "Check the remote's address ('git remote -v') and that you may read it.", output: output.said.nonEmpty)
        }
    }

    /// Brings the fetched upstream into the branch: nothing, a fast-forward, or a rebase.
    func integrate(_ upstream: Upstream) throws(SyncError) -> PullResult {
        guard try resolves("@{upstream}") else { return PullResult(kind: .noUpstreamBranch) }
        let before = try resolves("HEAD") ? try revision("HEAD") : nil
        let mergeBase = before == nil ? nil
            : try git.run(["merge-base", "HEAD", "@{upstream}"], readOnly: true).lines.first.flatMap { $0.isEmpty ? nil : $0 }
        var ahead = 0
        var behind = 0
        if before != nil {
            let counts = try git.check(["rev-list", "--left-right", "--count", "HEAD...@{upstream}"], readOnly: true)
                .text.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
            if counts.count == 2 { (ahead, behind) = (counts[0], counts[1]) }
        } else {
            behind = Int(try git.check(["rev-list", "--count", "@{upstream}"], readOnly: true).text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        }
        var result: PullResult
        if behind == 0 {
            result = PullResult(kind: .upToDate)
        } else if ahead == 0 {
            let output = try git.runTakingIndexLock(["merge", "--ff-only", "--quiet", "@{upstream}"])
            guard output.succeeded else { throw pullRefused(output) }
            result = PullResult(kind: .fastForward, incoming: behind)
        } else {
            try requireIdentity()
            let (resolutions, isStashKept) = try rebaseOntoUpstream()
            result = PullResult(kind: .rebased, incoming: behind, replayed: ahead, resolutions: resolutions)
            result.isStashKept = isStashKept
        }

        let touched = try boardPathsChanged(since: before)
        let (resolutions, change) = try keepDuplicatedCardsOnce(Set(touched.compactMap { BoardPath($0)?.card?.slug }), base: mergeBase)
        if !resolutions.isEmpty {
            result.resolutions += resolutions
            result.resolutionCommit = try commit(change, message: Self.resolutionMessage(resolutions, board: try? store.loadBoard()))
        }
        return result
    }

    /// The error for a fast-forward or rebase git refused to start.
    private func pullRefused(_ output: Git.Output) -> SyncError {
        let said = output.said
        if said.contains("would be overwritten") || said.contains("unstaged changes") || said.contains("uncommitted changes") {
            return SyncError(.localChanges, "uncommitted changes would be overwritten by the incoming commits; nothing was changed",
                             hint: "Commit them, or put them aside with 'git stash' (and back with 'git stash pop' after the sync), then sync again.",
                             output: said)
        }
        return SyncError(.gitFailed, "git could not bring in the upstream's commits; nothing was changed", output: said.nonEmpty)
    }

    // MARK: Rebase

    /// Rebases the local commits onto the upstream, resolving cards moved on both sides, or aborting and throwing
    /// ``SyncError/Code/conflict``. Returns the resolutions it made, and whether the uncommitted work git stashed for
    /// the rebase conflicted with it and was left in the stash.
    private func rebaseOntoUpstream() throws(SyncError) -> ([CardResolution], Bool) {
        var output = try git.runTakingIndexLock(["rebase", "--autostash", "@{upstream}"])
        var resolutions: [CardResolution] = []
        var rounds = 0
        while !output.succeeded {
            guard try repository()?.operation == .rebase else { throw pullRefused(output) }
            rounds += 1
            let unmerged = try unmergedEntries()
            if unmerged.isEmpty {
                // Nothing left to merge. When the index equals the new base too, the replayed commit has become empty
                // (the other side made the same change): dropping it loses nothing. Anything else is unexpected.
                let staged = try git.run(["diff", "--cached", "--quiet"], readOnly: true)
                guard staged.succeeded, rounds <= 1_000 else {
                    try abortRebase()
                    throw SyncError(.gitFailed, "the rebase onto the upstream stopped; it was aborted and nothing was changed",
                                    output: output.said.nonEmpty)
                }
                output = try git.runTakingIndexLock(["rebase", "--skip"])
                continue
            }
            guard rounds <= 1_000, let resolved = try resolveCardConflicts(unmerged) else {
                let conflicts = describeConflicts(unmerged)
                try abortRebase()
                let cards = conflicts.compactMap { $0.slug }
                let what = cards.isEmpty ? "files" : cards.count == 1 ? "card '\(cards[0])'" : "cards \(cards.map { "'\($0)'" }.joined(separator: ", "))"
                throw SyncError(.conflict, "your changes and the upstream's conflict on \(what); nothing was changed",
                                hint: "Your commits and files are as they were before the sync. Merge by hand with 'git pull --rebase' and resolve the files listed, or ask whoever changed them upstream.",
                                conflicts: conflicts)
            }
            resolutions += resolved
            output = try git.runTakingIndexLock(["rebase", "--continue"])
        }
        return (resolutions, output.said.contains("Applying autostash resulted in conflicts"))
    }

    /// Aborts the rebase this provider started, which puts the branch, the index and the working tree back.
    private func abortRebase() throws(SyncError) {
        let output = try git.runTakingIndexLock(["rebase", "--abort"])
        guard output.succeeded else {
            throw SyncError(.gitFailed, "a rebase stopped on a conflict and could not be aborted",
                            hint: "Run 'git rebase --abort' to put everything back as it was.", output: output.said.nonEmpty)
        }
    }

    /// A path with an unresolved conflict, relative to the repository's top.
    struct UnmergedEntry: Sendable {
        var path: String
        /// `DD`, `AU`, `UA`, `UU`, `AA`, `DU`, `UD`.
        var state: String
    }

    /// Every conflicted path of the repository.
    private func unmergedEntries() throws(SyncError) -> [UnmergedEntry] {
        let output = try git.check(["status", "--porcelain=v2", "-z", "--untracked-files=no"], readOnly: true)
        return GitStatusReport(records: output.records).entries.filter(\.isConflicted).map { UnmergedEntry(path: $0.path, state: $0.state) }
    }

    /// Stage 2 (ours) or 3 (theirs) of a conflicted board path.
    private func stagedVersion(_ stage: Int, of path: String) -> [UInt8]? {
        guard let output = try? git.run(["show", ":\(stage):./" + path], readOnly: true), output.succeeded else { return nil }
        return output.output
    }

    /// The conflicts to report, with card slugs and titles (read before the rebase is aborted).
    private func describeConflicts(_ unmerged: [UnmergedEntry]) -> [SyncConflict] {
        let repository = try? repository()
        return unmerged.map { entry in
            guard let path = repository?.boardRelative(entry.path), let boardPath = BoardPath(path) else {
                return SyncConflict(path: entry.path, isBoardFile: false)
            }
            guard let file = boardPath.card else { return SyncConflict(path: path, isBoardFile: true) }
            var title: String?
            for stage in [2, 3] where title == nil {
                if let bytes = stagedVersion(stage, of: path), let card = try? CardReader.read(bytes, file: file, includeBody: false).0 {
                    title = card.title
                }
            }
            return SyncConflict(path: path, slug: file.slug, title: title, isBoardFile: true)
        }
    }

    // MARK: After the pull

    /// Board paths (relative to the board) that differ between `revision` and `HEAD`; every board path when
    /// `revision` is nil.
    private func boardPathsChanged(since revision: String?) throws(SyncError) -> [String] {
        if let revision {
            return try git.check(["diff", "--name-only", "-z", "--no-renames", "--relative", revision, "HEAD", "--", "."], readOnly: true).records
        }
        return try git.check(["ls-files", "-z", "--", "."], readOnly: true).records
    }


    /// `Resolve "Fix login bug": keep in Done`, or a summary with one line per card.
    static func resolutionMessage(_ resolutions: [CardResolution], board: Board?) -> CommitMessage {
        func place(_ path: String) -> String {
            guard let column = BoardPath(path)?.card?.directoryColumn else { return "the archive" }
            return board?.column(withID: column)?.name ?? column
        }
        let lines = resolutions.map { "Resolve \"\($0.slug)\": keep in \(place($0.keptPath))" }
        let trailers = resolutions.flatMap { resolution -> [CommitTrailer] in
            [CommitTrailer("Card", resolution.slug)] + (BoardPath(resolution.keptPath)?.card?.directoryColumn.map { [CommitTrailer("To", $0)] } ?? [])
        }
        if resolutions.count == 1 {
            return CommitMessage(subject: lines[0], body: "The card was moved to different columns on two branches.", trailers: trailers)
        }
        return CommitMessage(subject: "Resolve \(resolutions.count) cards moved to different columns on two branches",
                             body: lines.map { "- " + $0 }.joined(separator: "\n"), trailers: trailers)
    }

    // MARK: Push

    /// Sends the local commits to the upstream branch, never by force. When the upstream has moved on, pulls (as
    /// ``pull()``) and tries again, up to ``GitConfiguration/pushAttempts`` times.
    /// - Throws: ``SyncError`` with ``SyncError/Code/pushRejected`` when the remote refuses the push (its hook's
    ///   words in ``SyncError/output``), ``SyncError/Code/timedOut``, ``SyncError/Code/remoteFailed``, or what
    ///   ``pull()`` throws. The local commits are kept whatever happens.
    public func push() throws(SyncError) -> PushResult {
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
            if let refused, refused.contains("[rejected]") {
                guard attempt < max(1, configuration.pushAttempts) else {
                    throw SyncError(.pushRejected, "the upstream kept moving on; gave up after \(attempt) tries",
                                    hint: "Your commits are kept locally; sync again.", output: output.said.nonEmpty)
                }
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
