import Foundation
import KanbanCore
import KanbanSubprocess

extension GitSyncProvider {
    /// The commits that touched the card `slug`, newest first: in any column and in the archive, and before a rename
    /// (a `git mv` of its file, or a slug a sync gave it), under its former slug.
    ///
    /// The card's identity is its slug, so its history is that of every path it can have: `cards/*/<slug>.md` and
    /// `archive/YYYY-MM-DD-<slug>.md`. Unlike `git log --follow`, which guesses renames from content and follows one
    /// path only, this finds every move, even one that changed most of a small card. Where the commit that first
    /// added the card removed another card's file it was renamed from (as git detects renames), the history goes
    /// on under that card's slug, from before that commit.
    /// - Throws: ``SyncError/Code/notARepository`` and the like; an empty history is not an error.
    public func history(ofCard slug: String) throws(SyncError) -> [HistoryEntry] {
        let repository = try requireRepository(allowingDetached: true)
        guard try resolves("HEAD") else { return [] }
        var entries: [HistoryEntry] = []
        var slug = slug
        var start = "HEAD"
        var followed: Set<String> = [slug]
        while true {
            let found = try history(ofCard: slug, from: start, repository: repository)
            entries += found
            guard let first = found.last, let former = try renameSource(of: slug, in: first.commit),
                  followed.insert(former.slug).inserted else { break }
            (slug, start) = former
        }
        return entries
    }

    /// The commits from `start` that touched the card `slug` under that slug, newest first.
    private func history(ofCard slug: String, from start: String, repository: Repository) throws(SyncError) -> [HistoryEntry] {
        let pathspecs = Self.pathspecs(ofCard: slug)
        let format = "%x1e%H%x1f%aI%x1f%an%x1f%s%x1f%(trailers:only,unfold)%x1f%b%x1f"
        let output = try git.check(["log", "--topo-order", "--format=" + format, "--name-status", "--no-renames", start, "--"] + pathspecs,
                                   readOnly: true)
        var entries: [HistoryEntry] = []
        for record in output.text.split(separator: "\u{1e}") {
            let fields = record.split(separator: "\u{1f}", maxSplits: 6, omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 7, let date = ISO8601.date(from: fields[1]) else { continue }
            let trailers = fields[4].split(separator: "\n").compactMap { line -> CommitTrailer? in
                guard let colon = line.firstIndex(of: ":") else { return nil }
                return CommitTrailer(String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
            }
            var path: String?
            for line in fields[6].split(separator: "\n") {
                let parts = line.split(separator: "\t", maxSplits: 1)
                guard parts.count == 2, parts[0] != "D", let relative = repository.boardRelative(String(parts[1])),
                      BoardPath(relative)?.card?.slug == slug else { continue }
                path = relative
            }
            let marker = " [\(slug)]"
            let line = fields[5].split(separator: "\n").first { $0.hasPrefix("- ") && $0.hasSuffix(marker) }
            let summary = line.map { String($0.dropFirst(2).dropLast(marker.count)) }
            entries.append(HistoryEntry(commit: fields[0], date: date, author: fields[2], subject: fields[3], cardSummary: summary,
                                        trailers: trailers, path: path))
        }
        return entries
    }

    /// The card `commit` renamed to the card `slug`, and the parent of `commit` that has it: a parent without the
    /// card that has its bytes under another slug (a `git mv`, a slug a sync gave it), or whose file git's rename
    /// detection pairs with the card's; nil when the card is new in `commit`.
    private func renameSource(of slug: String, in commit: String) throws(SyncError) -> (slug: String, parent: String)? {
        // Card files relative to the board, as git gives them in the board's directory.
        func cardFiles(_ revision: String) throws(SyncError) -> [(path: String, object: String, slug: String)] {
            try git.check(["ls-tree", "-r", "-z", revision, "--", "cards", "archive"], readOnly: true).records.compactMap { record in
                guard let tab = record.firstIndex(of: "\t") else { return nil }
                let fields = record[..<tab].split(separator: " ")
                let path = String(record[record.index(after: tab)...])
                guard fields.count == 3, let card = BoardPath(path)?.card else { return nil }
                return (path, String(fields[2]), card.slug)
            }
        }
        let parents = try git.check(["rev-list", "--parents", "-n", "1", commit], readOnly: true).text
            .split(whereSeparator: \.isWhitespace).dropFirst().map(String.init)
        let objects = Set(try cardFiles(commit).filter { $0.slug == slug }.map(\.object))
        for parent in parents {
            let files = try cardFiles(parent)
            guard !files.contains(where: { $0.slug == slug }) else { continue }
            if let same = files.first(where: { objects.contains($0.object) }) { return (same.slug, parent) }
            let records = try git.check(["diff", "--name-status", "-z", "--find-renames", "--relative", parent, commit, "--", "cards", "archive"],
                                        readOnly: true).records
            var index = 0
            while index < records.count {
                let status = records[index]
                guard status.hasPrefix("R") || status.hasPrefix("C") else { index += 2; continue }
                if index + 2 < records.count, status.hasPrefix("R"), BoardPath(records[index + 2])?.card?.slug == slug,
                   let former = BoardPath(records[index + 1])?.card?.slug, former != slug {
                    return (former, parent)
                }
                index += 3
            }
        }
        return nil
    }

    /// The commits of `range` that changed a file of the card `slug`, newest first: every side of every merge walked,
    /// merges themselves left out, a move seen as a delete and an add. Each is the lines of `format`, then a line per
    /// changed file of the card as `changes` (`--name-only`, `--name-status`) gives it, relative to the board. Nil
    /// when git fails.
    func cardChanges(of slug: String, in range: [String], format: String, changes: String, limit: Int? = nil) -> [[Substring]]? {
        let arguments = ["log", "--full-history", "--no-merges", "--no-renames", "--relative", changes, "--format=%x00" + format]
            + (limit.map { ["-n", String($0)] } ?? []) + range + ["--"] + Self.pathspecs(ofCard: slug)
        guard let output = try? git.run(arguments, readOnly: true), output.succeeded else { return nil }
        return String(decoding: output.output, as: UTF8.self).split(separator: "\0").map { String($0).lines(omittingEmpty: true) }
    }

    /// The pathspecs of every file the card `slug` can be: in any column, or archived on any day.
    static func pathspecs(ofCard slug: String) -> [String] {
        let name = globEscaped(slug)
        return [":(glob)cards/*/\(name).md", ":(glob)archive/[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]-\(name).md",
                ":(literal)archive/\(slug).md"]
    }

    /// `slug` with glob characters escaped, for a `:(glob)` pathspec.
    static func globEscaped(_ slug: String) -> String {
        var result = ""
        for character in slug {
            if "*?[]\\".contains(character) { result.append("\\") }
            result.append(character)
        }
        return result
    }

    // MARK: Merge driver setup

    /// What ``setUpMergeDriver(command:)`` did.
    public struct MergeDriverSetup: Sendable, Hashable {
        /// The attributes file, relative to the board: `.gitattributes`.
        public var attributesPath: String
        /// The lines it added to the attributes file (none when they were there).
        public var addedAttributes: [String]
        /// The driver command in the repository's configuration (`merge.kanban.driver`).
        public var driver: String
        /// Whether the configuration changed.
        public var driverChanged: Bool
        /// Whether `merge.directoryRenames` was set to `false` (it was unset or something else before).
        public var directoryRenamesChanged: Bool
    }

    /// The lines of the board's `.gitattributes` that send cards to the `kanban` merge driver.
    public static let mergeAttributes = ["cards/**/*.md merge=kanban", "archive/*.md merge=kanban"]

    /// Registers `kanban merge-driver` for the board's cards: adds ``mergeAttributes`` to the board's `.gitattributes`
    /// (keeping what is there) and sets `merge.kanban.name` and `merge.kanban.driver` in the repository's own
    /// configuration (`.git/config`, which every clone sets up for itself; `.gitattributes` is committed and shared).
    /// It also sets `merge.directoryRenames` to `false` there: a column emptied by moves looks to git like a renamed
    /// directory, and with detection on, a plain `git pull` stops on it or moves other people's new cards into the
    /// wrong column (kanban's own merges always run with it off).
    /// - Parameter command: How git runs kanban, such as `kanban` or an absolute path (quoted for the shell as needed).
    public func setUpMergeDriver(command: String) throws(SyncError) -> MergeDriverSetup {
        _ = try requireRepository(allowingDetached: true)
        let root: BoardRoot
        let attributes: [UInt8]?
        do throws(KanbanError) {
            root = try store.openRoot()
            attributes = try root.readIfPresent(".gitattributes")
        } catch {
            throw SyncError(.gitFailed, "cannot read '.gitattributes': \(error.message)")
        }
        let existing = attributes ?? []
        let text = String(decoding: existing, as: UTF8.self)
        let present = Set(text.split(whereSeparator: \.isNewline).map { $0.split(whereSeparator: \.isWhitespace).joined(separator: " ") })
        let missing = Self.mergeAttributes.filter { !present.contains($0) }
        if !missing.isEmpty {
            var bytes = existing
            if let last = bytes.last, last != UInt8(ascii: "\n") { bytes.append(UInt8(ascii: "\n")) }
            bytes += Array(("# Cards merge key by key: kanban git-setup\n" + missing.map { $0 + "\n" }.joined()).utf8)
            do throws(KanbanError) {
                if attributes == nil {
                    try root.create(bytes, at: ".gitattributes")
                } else {
                    try root.write(bytes, to: ".gitattributes")
                }
            } catch {
                throw SyncError(.gitFailed, "cannot write '.gitattributes': \(error.message)")
            }
        }
        let driver = command + " merge-driver %O %A %B %P"
        let current = try git.run(["config", "--local", "--get", "merge.kanban.driver"], readOnly: true).text
            .trimmingCharacters(in: .newlines)
        if current != driver {
            try git.check(["config", "--local", "merge.kanban.driver", driver])
        }
        try git.check(["config", "--local", "merge.kanban.name", "kanban: merge cards key by key"])
        let renames = try git.run(["config", "--local", "--get", "merge.directoryRenames"], readOnly: true).text
            .trimmingCharacters(in: .whitespacesAndNewlines)
        if renames != "false" {
            try git.check(["config", "--local", "merge.directoryRenames", "false"])
        }
        return MergeDriverSetup(attributesPath: ".gitattributes", addedAttributes: missing, driver: driver, driverChanged: current != driver,
                                directoryRenamesChanged: renames != "false")
    }
}
