import Foundation

/// The commits of a board's history: who changed which board file, when. Parents come before their children, a
/// commit's own changes are listed against its parent, and a merge's against all its parents at once, so that only
/// what the merge itself decided shows (a card it renamed, a card it merged), never what one side brought in.
/// KanbanGit reads it from `git log` (`HistoryLog+Git.swift`); ``BoardHistory`` works out each card's history from it.
package struct HistoryLog: Sendable, Hashable {
    /// One commit and the board files it changed.
    package struct Commit: Sendable, Hashable {
        /// The full hash.
        package var hash: String
        /// The author date, in seconds since 1970 (kept by rebase and cherry-pick).
        package var time: Int64
        /// How many parents the commit has: 0 for a root, 2 or more for a merge.
        package var parentCount: Int
        /// The parents' full hashes, as `git log` gave them (not kept in the history cache: empty there).
        package var parents: [String]
        /// Who made it.
        package var author: CommitAuthor
        /// What changed, in git's order.
        package var changes: [FileChange]

        package var isMerge: Bool { parentCount > 1 }

        package init(hash: String, time: Int64, parentCount: Int, parents: [String] = [], author: CommitAuthor = CommitAuthor(name: "", email: ""),
                     changes: [FileChange]) {
            self.hash = hash
            self.time = time
            self.parentCount = parentCount
            self.parents = parents
            self.author = author
            self.changes = changes
        }
    }

    /// One file a commit changed.
    package struct FileChange: Sendable, Hashable {
        /// The path, relative to the board.
        package var path: String
        /// The file's object before, one for each parent (for a merge, the version of each parent); nil where it did
        /// not exist.
        package var before: [String?]
        /// The file's object after; nil when the commit removed it.
        package var after: String?

        /// Whether the commit made the file (it existed in no parent).
        package var isAdded: Bool { after != nil && before.allSatisfy { $0 == nil } }
        /// Whether the commit removed the file.
        package var isDeleted: Bool { after == nil }

        package init(path: String, before: [String?], after: String?) {
            self.path = path
            self.before = before
            self.after = after
        }
    }

    /// The commits, oldest first (parents before children).
    package var commits: [Commit]

    /// A history of `commits`, oldest first (KanbanGit reads one from `git log`).
    package init(commits: [Commit]) {
        self.commits = commits
    }
}
