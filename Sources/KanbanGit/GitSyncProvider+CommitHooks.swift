import Foundation
import KanbanCore
import KanbanSubprocess

/// The git hooks that give a commit made with plain git the `Deleted:` trailers kanban's own commits carry, so that a
/// card deleted with `kanban delete` and committed by `git commit` later counts from when it was deleted, on every
/// clone, not from when it was committed (see ``deletionTime(of:on:since:isLocal:)``).
///
/// Two hooks, because neither covers every commit alone: `prepare-commit-msg` runs for every commit, with
/// `--no-verify` and for a rebase's commits too, but before the editor, where a message still to be written must be
/// left empty (an empty message aborts the commit); `commit-msg` runs after the editor, but not with `--no-verify`.
/// Both run `kanban commit-msg-hook`, which adds only the trailers the message does not have yet.
extension GitSyncProvider {
    /// The hooks ``setUpCommitHooks(command:)`` installs, in the order git runs them.
    public static let commitHookNames = ["prepare-commit-msg", "commit-msg"]

    /// The line that marks a hook as kanban's own, which `kanban git-setup` may rewrite.
    static let commitHookMarker = "# Installed by 'kanban git-setup'"

    /// What ``setUpCommitHooks(command:)`` did with one hook.
    public struct CommitHookSetup: Sendable, Hashable {
        /// What happened to the hook.
        public enum Outcome: Sendable, Hashable {
            /// There was none; kanban's was written.
            case installed
            /// It was kanban's, for another command or not executable; it was written again.
            case updated
            /// It was kanban's already, as it should be.
            case unchanged
            /// It is someone else's: left as it is. ``CommitHookSetup/line`` is what to add to it.
            case foreign
            /// It could not be written, for the reason given.
            case failed(String)
        }

        /// The hook's name, such as `prepare-commit-msg`.
        public var name: String
        /// The hook's file, absolute (in `core.hooksPath` when that is set).
        public var path: String
        /// What happened to it.
        public var outcome: Outcome
        /// The line that runs `kanban commit-msg-hook` from this hook (a shell command that always succeeds).
        public var line: String
    }

    /// Installs the hooks ``commitHookNames`` in the repository's hooks directory (`core.hooksPath` when it is set):
    /// `#!/bin/sh` scripts that run `<command> commit-msg-hook` when that command is there, and never fail. A hook
    /// of that name that is not kanban's is left as it is; running it again changes nothing.
    /// - Parameter command: How the hooks run kanban, such as `kanban` or an absolute path (quoted for the shell as
    ///   needed); the merge driver's command.
    /// - Returns: What became of each hook; one that could not be written says why.
    /// - Throws: ``SyncError`` when the board is in no repository or git fails.
    public func setUpCommitHooks(command: String) throws(SyncError) -> [CommitHookSetup] {
        _ = try requireRepository(allowingDetached: true)
        var setups: [CommitHookSetup] = []
        for name in Self.commitHookNames {
            let path = try git.check(["rev-parse", "--path-format=absolute", "--git-path", "hooks/" + name], readOnly: true).text
                .trimmingCharacters(in: .newlines)
            let line = Self.commitHookLine(name, command: command)
            let script = Array(Self.commitHookScript(name, command: command).utf8)
            setups.append(CommitHookSetup(name: name, path: path, outcome: Self.install(script, at: path), line: line))
        }
        return setups
    }

    /// Writes the hook `script` at `path` unless a hook that is not kanban's is there.
    private static func install(_ script: [UInt8], at path: String) -> CommitHookSetup.Outcome {
        let existing: [UInt8]?
        if FileSystem.exists(path) {
            // A hook that cannot be read (a link to nowhere, a directory) is not known to be kanban's.
            guard let bytes = try? FileSystem.readFile(path),
                  String(decoding: bytes, as: UTF8.self).lines().contains(where: { $0 == commitHookMarker }) else { return .foreign }
            if bytes == script && Subprocess.isExecutable(path) { return .unchanged }
            existing = bytes
        } else {
            existing = nil
        }
        do {
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try FileSystem.writeAtomically(script, to: path)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        } catch let error as KanbanError {
            return .failed(error.message)
        } catch {
            return .failed(error.localizedDescription)
        }
        return existing == nil ? .installed : .updated
    }

    /// The line of the hook `name` that runs `kanban commit-msg-hook` with the hook's arguments, doing nothing when
    /// `command` is not there and never failing.
    static func commitHookLine(_ name: String, command: String) -> String {
        let arguments = name == "prepare-commit-msg" ? "\"$1\" \"$2\"" : "\"$1\""
        return "command -v \(command) >/dev/null 2>&1 && \(command) commit-msg-hook \(arguments) || :"
    }

    /// kanban's hook `name`.
    static func commitHookScript(_ name: String, command: String) -> String {
        """
        #!/bin/sh
        \(commitHookMarker)
        # A commit that deletes cards gets the times 'kanban delete' noted as 'Deleted:' trailers, as kanban's own
        # commits do, so that every clone's 'kanban sync' counts each delete from when it was made (FORMAT.md,
        # "Sync"). It never stops a commit, and does nothing where kanban is missing.
        \(commitHookLine(name, command: command))

        """
    }

    // MARK: The hooks' work

    /// Adds to the commit message in the file `messagePath` a `Deleted: <slug> <time>` trailer for each card the
    /// commit being made deletes whose delete this clone noted (``recordDeletions(of:at:)``), unless the message has
    /// a `Deleted:` trailer for that card already: what `kanban commit-msg-hook` does for the hooks. A card deleted
    /// is one whose file the commit removes (staged for deletion, on any board in the repository) and that has no
    /// file of its slug left on that board in the commit (so not a move or an archive).
    ///
    /// A merge's message is left alone (the merge of a sync reads no merge's trailers), and so is a message with
    /// nothing in it yet but comments: git opens the editor next, and an empty message must still abort the commit;
    /// the `commit-msg` hook adds the trailers after the editor.
    /// - Parameters:
    ///   - messagePath: The message file the hook was given, absolute.
    ///   - source: What `prepare-commit-msg` says the message comes from (`message`, `template`, `merge`, `squash`,
    ///     `commit`); nil when it does not say.
    ///   - directory: Where git ran the hook (the working tree's top), absolute: the relative paths git passes in
    ///     `GIT_INDEX_FILE` and `GIT_DIR` are relative to it.
    ///   - configuration: How to run git, with the hook's environment (`GIT_INDEX_FILE` names the index of the
    ///     commit being made).
    /// - Returns: The trailers added.
    /// - Throws: ``SyncError`` when git fails or the message cannot be read; the message is then as it was.
    package static func addDeletionTrailers(toMessageAt messagePath: String, source: String?, in directory: String,
                                            configuration: GitConfiguration) throws(SyncError) -> [CommitTrailer] {
        guard source != "merge" else { return [] }
        var configuration = configuration
        for name in ["GIT_INDEX_FILE", "GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR", "GIT_OBJECT_DIRECTORY"] {
            if let value = configuration.environment[name], !value.isEmpty, !value.hasPrefix("/") {
                configuration.environment[name] = directory + "/" + value
            }
        }
        let located = try Git(configuration: configuration, directory: directory)
            .check(["rev-parse", "--show-toplevel", "--absolute-git-dir"], readOnly: true).lines
        // In a bare repository there is no board to commit.
        guard located.count == 2, !FileSystem.exists(located[1] + "/MERGE_HEAD") else { return [] }
        let git = Git(configuration: configuration, directory: located[0])
        let trailers = try deletionTrailersForStagedChanges(git, boardsIn: located[0], gitDirectory: located[1])
        guard !trailers.isEmpty else { return [] }

        let message: [UInt8]
        do {
            message = try FileSystem.readFile(messagePath)
        } catch {
            throw SyncError(.gitFailed, "cannot read the commit message: \(error.message)")
        }
        let written = try git.check(["stripspace", "--strip-comments"], readOnly: true, input: textAboveScissors(message))
        guard written.text.contains(where: { !$0.isWhitespace }) else { return [] }
        // `--no-divider`: a `---` line is part of a commit message (as for `git commit --trailer`), not a patch's start.
        let present = try git.check(["interpret-trailers", "--parse", "--no-divider", messagePath], readOnly: true).lines
            .compactMap { line -> Substring? in
                guard let colon = line.firstIndex(of: ":"), line[..<colon].lowercased() == "deleted" else { return nil }
                return line[line.index(after: colon)...].split(separator: " ").first
            }
        let missing = trailers.filter { trailer in !present.contains { trailer.value.hasPrefix($0 + " ") } }
        guard !missing.isEmpty else { return [] }
        try git.check(["interpret-trailers", "--in-place", "--no-divider", "--where", "end", "--if-exists", "addIfDifferent",
                       "--if-missing", "add"] + missing.flatMap { ["--trailer", "\($0.key): \($0.value)"] } + [messagePath])
        return missing
    }

    /// The `Deleted:` trailers for the cards the commit being made deletes (its index against `HEAD`) whose deletes
    /// were noted in `gitDirectory`, on every board in the working tree `top`.
    private static func deletionTrailersForStagedChanges(_ git: Git, boardsIn top: String, gitDirectory: String) throws(SyncError) -> [CommitTrailer] {
        let removed = try git.check(["diff", "--cached", "--no-renames", "--diff-filter=D", "--name-only", "-z"], readOnly: true).records
        var slugsByBoard: [String: Set<String>] = [:]
        for path in removed {
            guard let card = boardCard(atRepositoryPath: path) else { continue }
            slugsByBoard[card.prefix, default: []].insert(card.slug)
        }
        guard !slugsByBoard.isEmpty else { return [] }
        let times = recordedDeletions(inGitDirectory: gitDirectory)
        var trailers: [CommitTrailer] = []
        for (prefix, slugs) in slugsByBoard.sorted(by: { $0.key.utf8Precedes($1.key) }) {
            let noted = slugs.filter { times[$0] != nil }
            guard !noted.isEmpty, FileSystem.exists(top + "/" + prefix + BoardFile.path) else { continue }
            // A card with a file left on its board in this commit was moved or archived, not deleted.
            let indexed = try git.check(["ls-files", "-z", "--cached", "--", prefix + "cards", prefix + "archive"],
                                        literalPaths: true, readOnly: true).records
            let kept = Set(indexed.compactMap { BoardPath(String($0.dropFirst(prefix.count)))?.card?.slug })
            for slug in noted.subtracting(kept).sorted(by: { $0.utf8Precedes($1) }) {
                guard let time = times[slug] else { continue }
                trailers.append(CommitTrailer("Deleted", "\(slug) \(ISO8601.string(from: time))"))
            }
        }
        return trailers
    }

    /// The board (its directory relative to the repository's top: empty, or ending in `/`) and the slug of the card
    /// file at `path` (relative to the top); nil for any other file.
    static func boardCard(atRepositoryPath path: String) -> (prefix: String, slug: String)? {
        let components = path.split(separator: "/", omittingEmptySubsequences: false)
        // `cards/<column>/<card>.md`, then `archive/<card>.md`.
        for depth in [3, 2] where components.count >= depth {
            let prefix = components.dropLast(depth).map { $0 + "/" }.joined()
            if let slug = BoardPath(String(path.dropFirst(prefix.count)))?.card?.slug { return (prefix, slug) }
        }
        return nil
    }

    /// The message without git's scissors line and what follows it (`git commit --verbose` puts the diff there).
    static func textAboveScissors(_ message: [UInt8]) -> [UInt8] {
        let scissors = Array(" ------------------------ >8 ------------------------".utf8)
        var start = 0
        while start < message.count {
            let end = message[start...].firstIndex(of: UInt8(ascii: "\n")) ?? message.count
            let line = message[start..<end]
            if line.count > scissors.count, line.suffix(scissors.count).elementsEqual(scissors) { return Array(message[..<start]) }
            start = end + 1
        }
        return message
    }
}
