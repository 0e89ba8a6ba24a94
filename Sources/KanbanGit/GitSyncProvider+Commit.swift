import Foundation
import KanbanCore
import KanbanSubprocess

extension GitSyncProvider {
    /// Commits exactly `paths` with `message`, as `git commit -- <paths>`: whatever else is staged or changed in the
    /// repository (a person's own work) stays as it was, uncommitted.
    ///
    /// Paths that no longer exist are recorded as removed when git knows them, and skipped when it never did (a
    /// card made and moved again before any commit). Hooks run as usual.
    /// - Parameters:
    ///   - paths: Files relative to the board, such as a ``BoardChange``'s ``BoardChange/paths``.
    ///   - message: The commit message.
    /// - Returns: The commit, or nil when the paths hold no change (no empty commits are made).
    /// - Throws: ``SyncError`` with ``SyncError/Code/notARepository``, ``SyncError/Code/operationInProgress``,
    ///   ``SyncError/Code/missingIdentity``, ``SyncError/Code/indexLocked`` (after retrying),
    ///   ``SyncError/Code/hookFailed`` (with the hook's output) or ``SyncError/Code/gitFailed``.
    ///   The working tree is never changed; the paths are left unstaged again when the commit fails.
    /// Throws what would stop ``commit(paths:message:)``: no repository, a git operation under way, a detached HEAD.
    /// A caller checks before changing the board, so that a change it cannot commit is never made.
    public func requireCommitPossible() throws(SyncError) {
        _ = try requireRepository(allowingDetached: false)
    }

    public func commit(paths: [String], message: CommitMessage) throws(SyncError) -> CommitResult? {
        // Never on a detached HEAD: no branch would keep the commit, and switching back would leave it behind.
        _ = try requireRepository(allowingDetached: false)
        var seen: Set<String> = []
        var paths = paths.filter { Self.isInsideBoard($0) && seen.insert($0).inserted }
        guard !paths.isEmpty else { return nil }
        // One listing finds which paths git knows and where else it has these cards (see indexedPaths).
        let (tracked, former) = try indexedPaths(paths)
        paths += former.filter { seen.insert($0).inserted }
        let recordable = paths.filter { FileSystem.exists(store.directory + "/" + $0) || tracked.contains($0) || former.contains($0) }
        guard !recordable.isEmpty else { return nil }
        // Who commits is checked by the commit itself (user.useConfigOnly), and a refusal explained by
        // requireIdentity (commitFailure): asking git first would cost two processes on every commit.
        var message = message
        message.trailers += deletionTrailers(for: recordable)
        if let agent = agentName, !message.trailers.contains(where: { $0.key == Self.agentTrailer }) {
            message.trailers.append(CommitTrailer(Self.agentTrailer, agent))
        }

        let added = try git.runTakingIndexLock(["add", "--all", "--"] + recordable, literalPaths: true)
        guard added.succeeded else { throw git.failure(["add"], added) }
        let staged = try git.check(["diff", "--cached", "--name-only", "-z", "--"] + recordable, literalPaths: true, readOnly: true)
        guard !staged.records.isEmpty else { return nil }
        let committed = try git.runTakingIndexLock(
            ["-c", "user.useConfigOnly=true", "commit", "--quiet", "--cleanup=whitespace", "--message", message.text, "--"] + recordable,
            literalPaths: true)
        guard committed.succeeded else {
            unstage(recordable)
            throw commitFailure(committed)
        }
        let head = try git.check(["rev-parse", "HEAD"], readOnly: true).text.trimmingCharacters(in: .whitespacesAndNewlines)
        return CommitResult(commit: head, message: message, paths: recordable)
    }

    /// The trailer that marks a commit an agent made: `Kanban-Agent: NAME`. The report counts an agent's work apart from
    /// people's by it.
    public static let agentTrailer = "Kanban-Agent"

    /// The agent whose commits these are: `KANBAN_AGENT` in git's environment, when it is one line of text.
    var agentName: String? {
        guard let name = configuration.environment["KANBAN_AGENT"]?.trimmingCharacters(in: .whitespaces), !name.isEmpty,
              name.count <= 200, !name.contains(where: { $0.isNewline || $0.asciiValue.map { $0 < 0x20 } == true }) else { return nil }
        return name
    }

    /// Which of `paths` git has in its index, and where else it has the cards at `paths`: their files in the index
    /// that are gone from the working tree, left by an earlier change that was not committed (a move, say).
    /// Committing the card commits those removals too, so that HEAD never holds one card twice. One `git ls-files`.
    func indexedPaths(_ paths: [String]) throws(SyncError) -> (tracked: Set<String>, former: [String]) {
        let slugs = Set(paths.compactMap { BoardPath($0)?.card?.slug })
        func escaped(_ slug: String) -> String {
            var text = ""
            for character in slug {
                if "*?[]\\".contains(character) { text.append("\\") }
                text.append(character)
            }
            return text
        }
        let patterns = slugs.sorted().flatMap { slug in [":(glob)cards/*/\(escaped(slug)).md", ":(glob)archive/*\(escaped(slug)).md"] }
        let indexed = try git.check(["ls-files", "-z", "--cached", "--"] + paths.map { ":(literal)" + $0 } + patterns, readOnly: true).records
        let given = Set(paths)
        let former = indexed.filter { path in
            guard !given.contains(path), let card = BoardPath(path)?.card, slugs.contains(card.slug) else { return false }
            return !FileSystem.exists(store.directory + "/" + path)
        }
        return (Set(indexed).intersection(given), former)
    }

    /// Commits every uncommitted change of the board (its cards and `board.md`, nothing else) as one commit.
    /// - Parameter message: The message; when nil, one describing the card changes: `Move "Fix login bug" from
    ///   To Do to Done` for one, `Update 3 cards: 2 moved, 1 added` with a line per card for several.
    /// - Returns: The commit, or nil when nothing changed (no empty commits are made).
    /// - Throws: As ``commit(paths:message:)``; ``SyncError/Code/conflict`` while board files have unresolved
    ///   merge conflicts. Holds the board's lock meanwhile, so a change another process is making is committed
    ///   whole or not at all.
    public func commitPendingChanges(message: CommitMessage?) throws(SyncError) -> CommitResult? {
        let repository = try requireRepository(allowingDetached: true)
        // Hold the board's lock, so that a command in the middle of a move is never committed half done.
        return try exclusively { () throws(SyncError) -> CommitResult? in try commitPending(message: message, repository: repository) }
    }

    private func commitPending(message: CommitMessage?, repository: Repository) throws(SyncError) -> CommitResult? {
        let report = try boardStatus()
        let conflicted = report.entries.filter(\.isConflicted).compactMap { repository.boardRelative($0.path) }
        if !conflicted.isEmpty {
            throw SyncError(.conflict, "board files have unresolved merge conflicts", hint: "Resolve them, then 'git add' them.",
                            conflicts: conflicted.map { SyncConflict(path: $0, slug: BoardPath($0)?.card?.slug, isBoardFile: true) })
        }
        let pending = pendingChanges(report, repository: repository)
        stampEditsMadeOutsideKanban(pending.events)
        var paths = pending.events.flatMap(\.paths)
        if pending.boardFileChanged { paths.append(BoardFile.path) }
        guard !paths.isEmpty else { return nil }
        let board = try? store.loadBoard()
        guard let message = message ?? CommitMessage(describing: pending.events, boardFileChanged: pending.boardFileChanged, board: board) else {
            return nil
        }
        return try commit(paths: paths, message: message)
    }

    /// Gives each card about to be committed that was changed outside kanban (an editor, `sed`) the time of that
    /// change as its `modified`, as kanban's own commands do, so that the sync rules see it as the later change it
    /// is. Such a card's content differs from `HEAD`'s while its `modified` does not, and its file was written in a
    /// later second than that `modified` (kanban writes both in the same second; a second's grace covers a write
    /// that crossed into the next). A card that cannot be stamped is committed as it is.
    func stampEditsMadeOutsideKanban(_ events: [CardEvent]) {
        for event in events where [.edited, .reordered, .moved].contains(event.kind) {
            // The file first (a stat and a read): only a card written after its `modified` asks git for HEAD's copy,
            // so a commit of kanban's own changes runs no git call more.
            let path = store.directory + "/" + event.path
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
                  let written = (attributes[.modificationDate] as? Date)?.flooredToSeconds,
                  let now = try? FileSystem.readFile(path), let after = BoardMerge.modifiedTime(now),
                  written > after.addingTimeInterval(1),
                  let head = try? git.run(["show", "HEAD:./" + (event.previousPath ?? event.path)], readOnly: true), head.succeeded,
                  now != head.output, BoardMerge.modifiedTime(head.output) == after else { continue }
            _ = try? store.markModified(event.path, at: written)
        }
    }

    /// Runs `body` holding the board's exclusive lock, the one every store operation takes (reentrant: a caller
    /// that holds it already, such as a command committing its own change, keeps it).
    func exclusively<T>(_ body: () throws(SyncError) -> T) throws(SyncError) -> T {
        let result: Result<T, SyncError>
        do {
            result = try store.withExclusiveAccess { () -> Result<T, SyncError> in
                do throws(SyncError) { return .success(try body()) } catch { return .failure(error) }
            }
        } catch let error as KanbanError {
            throw SyncError(error.code == .locked ? .locked : .gitFailed, "cannot lock the board: \(error.message)")
        } catch {
            throw SyncError(.gitFailed, "cannot lock the board: \(error)")
        }
        return try result.get()
    }

    /// Whether `path` stays inside the board: relative, without `..`.
    static func isInsideBoard(_ path: String) -> Bool {
        guard !path.isEmpty, !path.hasPrefix("/") else { return false }
        return !path.split(separator: "/").contains("..")
    }

    /// The error for a failed `git commit`: who-are-you, a hook's refusal (with what it wrote), or git's words.
    func commitFailure(_ output: Git.Output) -> SyncError {
        let said = output.said
        if said.contains("Please tell me who you are") || said.contains("identity unknown") {
            do {
                try requireIdentity()
            } catch {
                return error
            }
        }
        let hooks = ["pre-commit", "prepare-commit-msg", "commit-msg"].filter(hookExists)
        if !hooks.isEmpty {
            let names = hooks.count == 1 ? "the \(hooks[0]) hook" : "a commit hook (\(hooks.joined(separator: ", ")))"
            return SyncError(.hookFailed, "\(names) refused the commit; nothing was committed",
                             hint: "Fix what the hook reports, then commit again ('kanban sync' commits the board's pending changes).",
                             output: said.nonEmpty ?? "(the hook printed nothing)")
        }
        return SyncError(.gitFailed, "'git commit' failed with exit status \(output.status); nothing was committed", output: said.nonEmpty)
    }

    /// Whether the repository has an executable hook called `name` (in `core.hooksPath` when set).
    private func hookExists(_ name: String) -> Bool {
        guard let output = try? git.run(["rev-parse", "--git-path", "hooks/" + name], readOnly: true), output.succeeded else {
            return false
        }
        var path = output.text.trimmingCharacters(in: .newlines)
        if !path.hasPrefix("/") { path = store.directory + "/" + path }
        return Subprocess.isExecutable(path)
    }

    /// Takes `paths` out of the index again after a failed commit, so the index is as the person left it.
    private func unstage(_ paths: [String]) {
        let hasHead = (try? git.run(["rev-parse", "--verify", "--quiet", "HEAD"], readOnly: true))?.succeeded ?? false
        let arguments = hasHead ? ["reset", "--quiet", "--"] : ["rm", "--cached", "--quiet", "-r", "--ignore-unmatch", "--"]
        _ = try? git.runTakingIndexLock(arguments + paths, literalPaths: true)
    }
}
