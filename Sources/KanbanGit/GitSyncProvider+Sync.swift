import KanbanCore

extension GitSyncProvider {
    /// `kanban sync`: finishes a `git merge` that stopped on cards (merging them by the rules), commits every
    /// uncommitted change of the board as one commit, pulls (fast-forward, or a card-by-card merge in a merge
    /// commit), and when `pushing`, pushes, never by force (fetching and merging again when someone pushed
    /// meanwhile). `onStep` hears of each step as it is done.
    /// - Throws: ``SyncError``, having lost nothing: ``SyncError/Code/gitNotInstalled``,
    ///   ``SyncError/Code/notARepository``, ``SyncError/Code/detachedHead``, ``SyncError/Code/noRemote`` (after
    ///   committing), ``SyncError/Code/conflict`` for a conflict in files outside the board, and what each step
    ///   throws; an error after the commit says the changes are committed locally.
    public func sync(pushing: Bool, onStep: (SyncStep) -> Void) throws(SyncError) -> SyncReport {
        // One sync of the repository at a time (its worktrees' too): see exclusiveSync.
        try exclusiveSync { Result { () throws(SyncError) -> SyncReport in try syncAlone(pushing: pushing, onStep: onStep) } }.get()
    }

    private func syncAlone(pushing: Bool, onStep: (SyncStep) -> Void) throws(SyncError) -> SyncReport {
        // A sync inside a change (an app's) must not trust what the change learnt: the merge it finishes ends an
        // operation the change saw under way.
        forgetRepository()
        let status = try status()
        switch status.availability {
        case .gitNotInstalled:
            throw SyncError(.gitNotInstalled, "git is not installed", hint: Git.installHint)
        case .notARepository:
            throw SyncError(.notARepository, "the board is not in a git repository",
                            hint: "The board works without git. To share it: 'git init', 'git remote add origin URL', commit, 'git push -u origin main'.")
        case .ready:
            break
        }
        // (During a rebase HEAD is detached too; committing below reports the rebase, which is what to fix.)
        if status.isDetached && status.operationInProgress == nil {
            throw SyncError(.detachedHead, "HEAD is detached: not on any branch", hint: "Switch to the board's branch ('git switch main'), then sync.")
        }
        var report = SyncReport()
        func record(_ step: SyncStep) {
            report.steps.append(step)
            onStep(step)
        }
        var committed: CommitResult?
        do throws(SyncError) {
            if status.operationInProgress == .merge, let finished = try finishMerge() {
                forgetRepository()
                record(.finishedMerge(finished))
            }
            committed = try commitPendingChanges()
            if let committed { record(.committed(committed)) }
            if status.remotes.isEmpty && status.upstream == nil {
                throw SyncError(.noRemote, "the repository has no remote to sync with",
                                hint: "Add one and push once:\n  git remote add origin URL\n  git push -u origin \(status.branch ?? "main")")
            }
            record(.pulled(try pull(), from: status.upstream ?? "the upstream"))
            if pushing { record(.pushed(try push())) }
            return report
        } catch {
            throw error.afterCommitting(committed)
        }
    }
}
