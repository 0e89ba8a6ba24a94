import KanbanCore
import KanbanSubprocess

/// `git status --porcelain=v2 -z --branch` read into values.
///
/// Each path is reduced to what matters for commits: whether `HEAD` has it and whether the working tree has it.
/// A staged rename becomes its two halves (the old path gone, the new path present), so that renames staged by a
/// person and moves left unstaged by `kanban` read the same.
struct GitStatusReport: Sendable, Hashable {
    /// One path that differs between `HEAD`, the index and the working tree.
    struct Entry: Sendable, Hashable {
        /// Relative to the repository's top directory.
        var path: String
        /// Whether the last commit has the path.
        var isInHead: Bool
        /// Whether the working tree has the path.
        var isInWorkingTree: Bool
        /// Whether the path has an unresolved merge conflict.
        var isConflicted: Bool
        /// The two-letter state (`.M`, `R.`, `UU`, `??`).
        var state: String
    }

    /// The branch, or nil when `HEAD` is detached.
    var branch: String?
    /// Whether `HEAD` is detached.
    var isDetached = false
    /// Whether the branch has no commit yet.
    var isUnborn = false
    /// The upstream, such as `origin/main`.
    var upstream: String?
    /// Commits ahead of and behind the upstream; nil when the upstream branch is not known locally.
    var ahead: Int?
    var behind: Int?
    /// The changed paths, in the order git lists them (one entry per path).
    var entries: [Entry] = []

    /// Reads the NUL-separated records of `git status --porcelain=v2 -z [--branch]`.
    init(records: [String]) {
        var byPath: [String: Int] = [:]
        func add(_ entry: Entry) {
            if let index = byPath[entry.path] {
                entries[index].isInHead = entries[index].isInHead || entry.isInHead
                entries[index].isInWorkingTree = entries[index].isInWorkingTree || entry.isInWorkingTree
                entries[index].isConflicted = entries[index].isConflicted || entry.isConflicted
            } else {
                byPath[entry.path] = entries.count
                entries.append(entry)
            }
        }
        var index = 0
        while index < records.count {
            let record = records[index]
            index += 1
            guard let kind = record.first else { continue }
            switch kind {
            case "#":
                readHeader(record)
            case "1":
                let fields = record.split(separator: " ", maxSplits: 8, omittingEmptySubsequences: false)
                guard fields.count == 9 else { continue }
                add(Entry(path: String(fields[8]), isInHead: fields[3] != "000000", isInWorkingTree: fields[5] != "000000",
                          isConflicted: false, state: String(fields[1])))
            case "2":
                let fields = record.split(separator: " ", maxSplits: 9, omittingEmptySubsequences: false)
                guard fields.count == 10, index < records.count else { continue }
                let original = records[index]
                index += 1
                add(Entry(path: original, isInHead: true, isInWorkingTree: false, isConflicted: false, state: String(fields[1])))
                add(Entry(path: String(fields[9]), isInHead: false, isInWorkingTree: fields[5] != "000000",
                          isConflicted: false, state: String(fields[1])))
            case "u":
                let fields = record.split(separator: " ", maxSplits: 10, omittingEmptySubsequences: false)
                guard fields.count == 11 else { continue }
                add(Entry(path: String(fields[10]), isInHead: fields[4] != "000000", isInWorkingTree: fields[6] != "000000",
                          isConflicted: true, state: String(fields[1])))
            case "?":
                add(Entry(path: String(record.dropFirst(2)), isInHead: false, isInWorkingTree: true, isConflicted: false, state: "??"))
            default:
                continue  // "!" ignored files, and anything a later git adds
            }
        }
    }

    private mutating func readHeader(_ record: String) {
        let fields = record.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
        guard fields.count == 3 else { return }
        let value = String(fields[2])
        switch fields[1] {
        case "branch.oid":
            isUnborn = value == "(initial)"
        case "branch.head":
            if value == "(detached)" {
                isDetached = true
            } else {
                branch = value
            }
        case "branch.upstream":
            upstream = value
        case "branch.ab":
            let counts = value.split(separator: " ")
            if counts.count == 2 {
                ahead = Int(counts[0].dropFirst())
                behind = Int(counts[1].dropFirst())
            }
        default:
            break
        }
    }
}
