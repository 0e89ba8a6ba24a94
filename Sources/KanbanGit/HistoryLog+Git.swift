import Foundation
import KanbanCore

/// Reading a board's ``HistoryLog`` from `git log --reverse --topo-order --full-history --no-renames -c --raw -z
/// --no-abbrev --format=%x01%H %at %P%x02%an%x02%ae%x02<Kanban-Agent trailers>` (see ``arguments``): parents before
/// children, each merge's changes against all its parents at once (`-c`), and who made each commit.
extension HistoryLog {
    /// The `git log` arguments whose output ``init(parsing:)`` reads, run in the board directory.
    package static let arguments = [
        "log", "--reverse", "--topo-order", "--full-history", "--no-renames", "-c", "--raw", "-z", "--no-abbrev",
        "--relative", "--format=%x01%H %at %P%x02%an%x02%ae%x02%(trailers:key=Kanban-Agent,valueonly,unfold,separator=%x2C)",
    ]

    /// The board's own paths, as pathspecs for ``arguments``.
    package static let pathspecs = ["board.md", "cards", "archive"]

    /// Reads `git log` output made with ``arguments``. Records it cannot read are skipped.
    ///
    /// - Complexity: O(n) in the output's length; it is read byte by byte, and only hashes, objects and paths become
    ///   strings (a history of 20,000 commits is 6 MB).
    package init(parsing output: [UInt8]) {
        var commits: [Commit] = []
        output.withUnsafeBufferPointer { bytes in
            var start = 0
            var pendingMeta: Range<Int>?
            while start < bytes.count {
                let end = bytes[start...].firstIndex(of: 0) ?? bytes.count
                defer { start = end + 1 }
                if let meta = pendingMeta {
                    pendingMeta = nil
                    guard !commits.isEmpty, let change = Self.change(meta: UnsafeBufferPointer(rebasing: bytes[meta]),
                                                                     path: String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self))
                    else { continue }
                    commits[commits.count - 1].changes.append(change)
                    continue
                }
                var first = start
                while first < end, bytes[first] == UInt8(ascii: "\n") { first += 1 }
                guard first < end else { continue }
                if bytes[first] == 1 {
                    if let commit = Self.commit(UnsafeBufferPointer(rebasing: bytes[(first + 1)..<end])) { commits.append(commit) }
                } else if bytes[first] == UInt8(ascii: ":") {
                    pendingMeta = first..<end
                }
            }
        }
        self.init(commits: commits)
    }

    /// A commit from its header, `<hash> <author time> <parent>...`, then the author's name, email and the
    /// `Kanban-Agent` trailers' values, each after a byte 2 (which git's names, emails and unfolded trailers do not
    /// hold; a header without them has an empty author).
    private static func commit(_ record: UnsafeBufferPointer<UInt8>) -> Commit? {
        var fields = record.split(separator: 2, maxSplits: 3, omittingEmptySubsequences: false)
        let header = fields.removeFirst()
        func text(_ index: Int) -> String { index < fields.count ? String(decoding: fields[index], as: UTF8.self) : "" }
        let agent = text(2).trimmingCharacters(in: .whitespacesAndNewlines)
        let author = CommitAuthor(name: text(0), email: text(1), agent: agent.isEmpty ? nil : agent)
        let words = header.split(separator: UInt8(ascii: " "))
        guard words.count >= 2, !words[1].isEmpty else { return nil }
        var time: Int64 = 0
        for digit in words[1] {
            guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9"), time < Int64.max / 10 - 10 else { return nil }
            time = time * 10 + Int64(digit - UInt8(ascii: "0"))
        }
        return Commit(hash: String(decoding: words[0], as: UTF8.self), time: time, parentCount: words.count - 2,
                      parents: words.dropFirst(2).map { String(decoding: $0, as: UTF8.self) }, author: author, changes: [])
    }

    /// A change from a raw line's fields (`:100644 100644 <old> <new> M`, with one more mode and object per parent
    /// for a merge) and its path.
    private static func change(meta: UnsafeBufferPointer<UInt8>, path: String) -> FileChange? {
        let parents = meta.prefix(while: { $0 == UInt8(ascii: ":") }).count
        let fields = UnsafeBufferPointer(rebasing: meta[parents...]).split(separator: UInt8(ascii: " "))
        // parents + 1 modes, parents + 1 objects, the status.
        guard fields.count == 2 * (parents + 1) + 1 else { return nil }
        let objects = fields[(parents + 1)..<(2 * (parents + 1))].map { field -> String? in
            field.allSatisfy { $0 == UInt8(ascii: "0") } ? nil : String(decoding: field, as: UTF8.self)
        }
        guard let after = objects.last else { return nil }
        return FileChange(path: path, before: Array(objects.dropLast()), after: after)
    }
}
