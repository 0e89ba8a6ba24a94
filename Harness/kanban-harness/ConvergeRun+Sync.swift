import Foundation

/// How a clone syncs.
enum ConvergeSyncMethod: String, Sendable {
    /// `kanban sync`: commit, pull (fast-forward or merge), push.
    case kanban = "kanban sync"
    /// Pending board changes committed (`kanban sync --no-push` or `git add -A && git commit`), then `git pull --rebase`
    /// and `git push`, with the merge driver doing the cards.
    case pullRebase = "git pull --rebase"
    /// The same with `git pull --no-rebase`: a merge commit.
    case pullMerge = "git pull --no-rebase"
}

/// One sync of one clone and how it ended.
struct ConvergeSyncRecord: Sendable {
    /// Why a sync failed, from the words of `kanban` or git.
    enum Failure: String, CaseIterable, Sendable {
        /// The two sides' changes conflict (kanban's exit 2, git's CONFLICT).
        case conflict
        /// The remote refused the push (it moved on meanwhile).
        case rejected
        /// Something left in the clone stopped it (an operation in progress, local changes in the way).
        case blocked
        /// Anything else: a crash, a time-out, an error nobody expected.
        case fault
    }

    var clone: Int
    /// The operation it followed, during the work.
    var operation: Int?
    /// The round it belongs to, during the final rounds.
    var round: Int?
    var method: ConvergeSyncMethod
    /// The step that failed (`kanban sync`, `git commit`, `git pull --rebase`, `git push`), when one did.
    var failedStep: String?
    var failure: Failure?
    var status: Int32 = 0
    /// The first lines of what the failed step said.
    var message: [String] = []
    /// For a failed `kanban sync` (or `kanban sync --no-push`), the conflicts git finds merging the clone's HEAD with its upstream (`git merge-tree`),
    /// which kanban's message does not name: `CONFLICT (modify/delete): ...`.
    var gitConflicts: [String] = []

    /// The kinds of conflict git named (`content`, `modify/delete`, `rename/rename`, `file location`...), each once.
    var conflictKinds: [String] {
        var kinds: [String] = []
        for line in gitConflicts {
            guard line.hasPrefix("CONFLICT ("), let close = line.firstIndex(of: ")") else { continue }
            let kind = String(line[line.index(line.startIndex, offsetBy: 10)..<close])
            if !kinds.contains(kind) { kinds.append(kind) }
        }
        return kinds
    }

    var succeeded: Bool { failure == nil }

    /// Conflicts git decides by paths alone and never hands to a merge driver: a card renamed (moved) on both sides,
    /// or deleted on one side and changed or moved on the other.
    static let pathConflictKinds: Set<String> = ["rename/rename", "modify/delete", "rename/delete", "file location",
                                                 "directory/file", "file/directory", "distinct types"]

    /// For a plain `git pull`, the cards the merge driver would not merge because git handed it versions of two
    /// different cards as one card's (`kanban merge-driver: PATH: git paired two different cards`).
    var pairedCards: Set<String> = []

    /// A plain `git pull` that stopped only on conflicts of ``pathConflictKinds`` (git's own limit, which no merge
    /// driver can lift) or on cards git paired wrongly, which the driver refuses to merge (FORMAT.md says so both);
    /// the next `kanban sync` of the clone merges what git would not.
    var isStoppedByGitAlone: Bool {
        guard failure == .conflict, method != .kanban, failedStep == method.rawValue, !gitConflicts.isEmpty else { return false }
        return gitConflicts.allSatisfy { line in
            guard line.hasPrefix("CONFLICT ("), let close = line.firstIndex(of: ")") else { return false }
            let kind = String(line[line.index(line.startIndex, offsetBy: 10)..<close])
            if Self.pathConflictKinds.contains(kind) { return true }
            let marker = "Merge conflict in "
            guard kind == "content" || kind == "add/add", let range = line.range(of: marker) else { return false }
            return pairedCards.contains(String(line[range.upperBound...]))
        }
    }

    /// `op 17 c2 git pull --rebase` or `round 2 c2 kanban sync`.
    var label: String {
        let when = operation.map { "op \($0)" } ?? round.map { "round \($0)" } ?? ""
        return "\(when) c\(clone) \(method.rawValue)"
    }

    /// `op 17 c2 git pull --rebase: git push failed (exit 1, rejected): ! [rejected] ...`.
    var summary: String {
        guard let failure else { return "\(label): ok" }
        let step = failedStep.map { $0 == method.rawValue ? "" : "\($0) " } ?? ""
        let git = gitConflicts.isEmpty ? "" : " [git merge-tree: " + gitConflicts.map { String($0.prefix(160)) }.joined(separator: " / ") + "]"
        return "\(label): \(step)exit \(status), \(failure.rawValue): " + message.joined(separator: " / ") + git
    }
}

extension ConvergeRun {
    /// Syncs `clone` with `method`. A plain git pull that stops on a conflict is aborted, as a person who cannot
    /// resolve it would, so the clone is left as it was before the pull. Before a plain git pull, pending changes are
    /// committed with `kanban sync --no-push` (which pulls too) or with `git commit`: as `committingWithKanban` says,
    /// or at random when it is nil.
    func sync(_ clone: ConvergeClone, method: ConvergeSyncMethod, operation: Int?, round: Int?,
              committingWithKanban: Bool? = nil) throws -> ConvergeSyncRecord {
        var record = ConvergeSyncRecord(clone: clone.index, operation: operation, round: round, method: method)
        let label = operation.map { "op \($0) sync" } ?? round.map { "round \($0) sync" } ?? "sync"
        func fail(_ step: String, _ outcome: ChildProcess.Outcome, _ failure: ConvergeSyncRecord.Failure) -> ConvergeSyncRecord {
            record.failedStep = step
            record.failure = outcome.timedOut ? .fault : failure
            record.status = outcome.timedOut ? -1 : outcome.status
            record.message = outcome.timedOut ? ["timed out"] : Self.gist(outcome)
            return record
        }

        // Hand edits left uncommitted are committed by this sync (kanban sync, or the commit before a plain pull):
        // they count from now, and from each later sync until one succeeds.
        let committing = pendingHandEdits[clone.index] ?? []
        let event = ConvergeLedger.Event(operation: operation ?? settings.operationCount + (round ?? 0), clone: clone.index)
        for identity in committing.sorted() { ledger.noteEdited(identity, at: event) }
        // Every method starts with a commit of the whole working tree (kanban sync, or the commit before a plain pull).
        ledger.noteCommitted(by: clone.index, at: event.operation)
        defer {
            if record.succeeded {
                publishedThrough[clone.index] = operation ?? Int.max
                pendingHandEdits[clone.index] = nil
            }
        }
        switch method {
        case .kanban:
            let outcome = try runner.run(.kanban, ["sync"], in: clone, label: label)
            if !outcome.succeeded {
                record = fail("kanban sync", outcome, Self.classifyKanban(outcome))
                record.gitConflicts = try conflictsWithUpstream(clone, label: label)
            }
            return record
        case .pullRebase, .pullMerge:
            if committingWithKanban ?? chance(50) {
                let outcome = try runner.run(.kanban, ["sync", "--no-push"], in: clone, label: label)
                if !outcome.succeeded {
                    record = fail("kanban sync --no-push", outcome, Self.classifyKanban(outcome))
                    record.gitConflicts = try conflictsWithUpstream(clone, label: label)
                    return record
                }
            } else {
                let added = try runner.run(.git, ["add", "-A"], in: clone, label: label)
                if !added.succeeded { return fail("git add -A", added, .fault) }
                let staged = try runner.run(.git, ["diff", "--cached", "--quiet"], in: clone, label: label)
                if !staged.succeeded {
                    let message = "Work on \(clone.name)" + (operation.map { " at op \($0)" } ?? "")
                    let committed = try runner.run(.git, ["commit", "-q", "-m", message], in: clone, label: label)
                    if !committed.succeeded { return fail("git commit", committed, Self.classifyGit(committed)) }
                }
            }
            let pull = method == .pullRebase ? ["pull", "--rebase"] : ["pull", "--no-rebase", "--no-edit"]
            let pulled = try runner.run(.git, pull, in: clone, label: label)
            if !pulled.succeeded {
                try abortOperationInProgress(clone, label: label)
                record = fail(method.rawValue, pulled, Self.classifyGit(pulled))
                record.gitConflicts = pulled.allOutput.split(separator: "\n").filter { $0.hasPrefix("CONFLICT (") }.map(String.init)
                record.pairedCards = Self.pairedCards(in: pulled.allOutput)
                return record
            }
            let pushed = try runner.run(.git, ["push", "-q"], in: clone, label: label)
            if !pushed.succeeded { return fail("git push", pushed, Self.classifyGit(pushed)) }
            return record
        }
    }

    /// The `CONFLICT (...)` lines of `git merge-tree` merging HEAD with its upstream: what git finds in the way,
    /// without touching the working tree or the index.
    private func conflictsWithUpstream(_ clone: ConvergeClone, label: String) throws -> [String] {
        let outcome = try runner.run(.git, ["merge-tree", "--write-tree", "--name-only", "HEAD", "@{upstream}"], in: clone,
                                     label: label + " diagnosis")
        return outcome.output.split(separator: "\n").filter { $0.hasPrefix("CONFLICT (") }.map(String.init)
    }

    /// Aborts a rebase or merge git left stopped in `clone`.
    private func abortOperationInProgress(_ clone: ConvergeClone, label: String) throws {
        let gitDirectory = clone.directory + "/.git"
        let manager = FileManager.default
        if manager.fileExists(atPath: gitDirectory + "/rebase-merge") || manager.fileExists(atPath: gitDirectory + "/rebase-apply") {
            _ = try runner.run(.git, ["rebase", "--abort"], in: clone, label: label + " abort")
        }
        if manager.fileExists(atPath: gitDirectory + "/MERGE_HEAD") {
            _ = try runner.run(.git, ["merge", "--abort"], in: clone, label: label + " abort")
        }
    }

    static func classifyKanban(_ outcome: ChildProcess.Outcome) -> ConvergeSyncRecord.Failure {
        if outcome.status == 2 { return .conflict }
        let said = outcome.allOutput
        if said.contains("rejected") || said.contains("refused") || said.contains("refuses") { return .rejected }
        if said.contains("in progress") || said.contains("would be overwritten") { return .blocked }
        return .fault
    }

    /// The paths of `kanban merge-driver: PATH: git paired two different cards ...` lines in a plain pull's output.
    static func pairedCards(in output: String) -> Set<String> {
        let prefix = "kanban merge-driver: ", suffix = ": git paired two different cards"
        var paths: Set<String> = []
        for line in output.split(separator: "\n") {
            guard let start = line.range(of: prefix), let end = line.range(of: suffix), start.upperBound <= end.lowerBound else { continue }
            paths.insert(String(line[start.upperBound..<end.lowerBound]))
        }
        return paths
    }

    static func classifyGit(_ outcome: ChildProcess.Outcome) -> ConvergeSyncRecord.Failure {
        let said = outcome.allOutput
        if said.contains("CONFLICT") || said.contains("conflict") { return .conflict }
        if said.contains("[rejected]") || said.contains("non-fast-forward") || said.contains("fetch first") { return .rejected }
        if said.contains("would be overwritten") || said.contains("unstaged changes") || said.contains("in progress") { return .blocked }
        return .fault
    }

    /// What a failed step said that matters: git's CONFLICT lines and errors first, else the first lines.
    static func gist(_ outcome: ChildProcess.Outcome) -> [String] {
        let lines = outcome.allOutput.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let telling = lines.filter {
            $0.hasPrefix("CONFLICT") || $0.hasPrefix("error") || $0.hasPrefix("fatal") || $0.hasPrefix("!") || $0.hasPrefix("kanban")
        }
        return Array((telling.isEmpty ? outcome.firstLines(3) : telling).prefix(3))
    }
}
