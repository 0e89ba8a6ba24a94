#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import KanbanCore
import KanbanSubprocess

extension GitSyncProvider {
    /// The name a claim records when none is given: `KANBAN_AGENT`, else git's author name for the board's repository
    /// (`GIT_AUTHOR_NAME`, else `user.name`), else the login name; nil when none is set.
    /// - Parameter environment: The process's environment.
    public func claimName(environment: [String: String]) -> String? {
        for key in ["KANBAN_AGENT", "GIT_AUTHOR_NAME"] {
            if let name = environment[key]?.trimmingCharacters(in: .whitespaces), !name.isEmpty { return name }
        }
        if let output = try? git.run(["config", "--get", "user.name"], readOnly: true), output.succeeded {
            let name = output.text.trimmingCharacters(in: .whitespacesAndNewlines)
            if !name.isEmpty { return name }
        }
        for key in ["USER", "LOGNAME"] {
            if let name = environment[key]?.trimmingCharacters(in: .whitespaces), !name.isEmpty { return name }
        }
        return nil
    }
}

extension GitSyncProvider {
    /// Cards whose `depends-on` a change dropped whole, not touching it otherwise: what SimpleKanban does when it
    /// rewrites a card (it keeps only the keys it knows), and what an editor's careless save does. A list emptied on
    /// purpose (`kanban depend --remove`) is written `depends-on: []`, so it is not taken for one. Looks at the
    /// uncommitted changes and the last `limit` commits that touched a `depends-on` line, newest first; a card
    /// whose list came back since, or that is gone, is not reported. Empty outside a repository or when git fails.
    public func droppedDependencies(limit: Int = 200) -> [Diagnostic] {
        guard let root = try? store.load(.all) else { return [] }
        var current: [String: Card] = [:]
        for card in root.cards where current[card.slug] == nil { current[card.slug] = card }
        var decided: Set<String> = []
        var found: [Diagnostic] = []
        func read(_ output: Git.Output, commit fallback: String?) {
            var commit = fallback
            var slug: String?
            var removed: String?
            var added = false
            // One file's diff: a list added or changed back means the card has one; a list removed and none written
            // means it was dropped, when the card has none now. The newest change to a card decides.
            func finish() {
                defer { slug = nil; removed = nil; added = false }
                guard let name = slug, !decided.contains(name), removed != nil || added else { return }
                decided.insert(name)
                guard let removed, !added, let card = current[name], card.field(Card.dependenciesKey) == nil else { return }
                let by = commit.map { "commit \($0)" } ?? "an uncommitted change"
                found.append(Diagnostic(.warning, .droppedKeys, at: SourceLocation(path: card.path, line: 1, column: 1),
                    "\(by) dropped '\(removed)' (SimpleKanban keeps only the keys it knows when it rewrites a card); 'kanban depend \(card.slug) SLUG...' puts it back"))
            }
            for line in output.text.split(separator: "\n", omittingEmptySubsequences: false) {
                if line.hasPrefix("\u{1}") {
                    finish()
                    commit = String(line.dropFirst())
                } else if line.hasPrefix("diff --git ") {
                    finish()
                    // `diff --git a/cards/todo/x.md b/cards/doing/x.md`: the new name.
                    if let last = line.split(separator: " ").last, last.hasSuffix(".md") {
                        var name = (last.split(separator: "/").last ?? "").dropLast(3)
                        if last.hasPrefix("b/archive/"), name.count > 11 { name = name.dropFirst(11) }
                        slug = String(name)
                    }
                } else if line.hasPrefix("-\(Card.dependenciesKey):") {
                    removed = String(line.dropFirst())
                } else if line.hasPrefix("+\(Card.dependenciesKey):") {
                    added = true
                }
            }
            finish()
        }
        let pattern = "-G^\(Card.dependenciesKey):"
        if let uncommitted = try? git.run(["diff", "HEAD", "--unified=0", "--relative", pattern, "--", "cards", "archive"], readOnly: true),
           uncommitted.succeeded {
            read(uncommitted, commit: nil)
        }
        if let log = try? git.run(["log", "-n", String(limit), "--unified=0", "--relative", "--format=%x01%h", "-p", pattern, "--",
                                   "cards", "archive"], readOnly: true), log.succeeded {
            read(log, commit: nil)
        }
        return found
    }
}

extension GitSyncProvider {
    /// The card `slug` as the incoming (second) parent of each merge made since `commit` had it, oldest first: what
    /// the upstream had shared when this side's commits met it. Empty when git fails or there is no such merge.
    public func incomingVersions(ofCard slug: String, since commit: String) -> [[UInt8]] {
        guard let merges = try? git.run(["rev-list", "--merges", "--reverse", "\(commit)..HEAD"], readOnly: true), merges.succeeded else { return [] }
        var versions: [[UInt8]] = []
        for merge in merges.text.split(separator: "\n") {
            let incoming = "\(merge)^2"
            // ls-tree takes no pattern: the card is found by its slug among the board's files.
            guard let listing = try? git.run(["ls-tree", "-r", "-z", "--name-only", incoming, "--", "cards", "archive"], readOnly: true),
                  listing.succeeded, let path = listing.records.first(where: { BoardPath($0)?.card?.slug == slug }),
                  let shown = try? git.run(["cat-file", "blob", "\(incoming):./\(path)"], readOnly: true), shown.succeeded else { continue }
            versions.append(shown.output)
        }
        return versions
    }
}

extension GitSyncProvider {
    /// The repositories whose sync lock the current thread or task holds.
    @TaskLocal static var syncsHeld: Set<String> = []

    /// Runs `body` holding the repository's sync lock (an advisory `flock` on `kanban-sync.lock` in its git
    /// directory, shared by all its worktrees), so that no other `kanban sync` of the repository runs meanwhile: two
    /// at once race for git's own ref locks, and a claim being shared must pull, look and push with no other sync
    /// pushing a state in between. Waits up to the network time limit and then runs anyway (git's own locks still
    /// protect the repository). Outside a repository, `body` runs as it is.
    public func exclusiveSync<T>(_ body: () throws -> T) rethrows -> T {
        guard let repository = try? requireRepository(allowingDetached: true) else { return try body() }
        let common = (try? git.run(["rev-parse", "--path-format=absolute", "--git-common-dir"], readOnly: true))
            .flatMap { $0.succeeded ? $0.text.trimmingCharacters(in: .whitespacesAndNewlines) : nil } ?? repository.gitDirectory
        guard !Self.syncsHeld.contains(common) else { return try body() }
        let descriptor = open(common + "/kanban-sync.lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return try body() }
        defer { close(descriptor) }
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: configuration.networkTimeout)
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 && clock.now < deadline {
            Subprocess.pause(.milliseconds(20))
        }
        defer { _ = flock(descriptor, LOCK_UN) }
        return try Self.$syncsHeld.withValue(Self.syncsHeld.union([common])) { try body() }
    }
}
