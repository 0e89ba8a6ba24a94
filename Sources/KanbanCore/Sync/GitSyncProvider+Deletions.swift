import Foundation

/// When cards were deleted, which a merge needs and git does not keep: a card deleted on one side and changed on the
/// other stays deleted only when the change is older than the delete (FORMAT.md, "Sync").
///
/// A commit's time is when the delete was committed, which may be long after it was made (`kanban delete`, then
/// `kanban sync` an hour later). So each clone notes its deletes in its git directory (`kanban-deletions`, one
/// `slug<TAB>time` line each, never shared), and the commit that records a delete carries its time in a trailer,
/// `Deleted: <slug> <time>`, for the other clones. A delete known from neither (a file removed by hand and
/// committed with plain git) counts from its commit's time.
extension GitSyncProvider {
    static let deletionLogName = "kanban-deletions"

    /// Notes that the cards `slugs` were deleted at `date`, for the commit that will record it. Does nothing outside
    /// a git repository; a note that cannot be written only makes the delete count from its commit's time.
    public func recordDeletions(of slugs: [String], at date: Date = Date()) {
        guard !slugs.isEmpty, let directory = try? requireRepository(allowingDetached: true).gitDirectory else { return }
        let path = directory + "/" + Self.deletionLogName
        var bytes = (try? FileSystem.readFile(path)) ?? []
        // Old notes have long been committed: keep the log short.
        if bytes.count > 256 * 1024, let cut = bytes[(bytes.count - 128 * 1024)...].firstIndex(of: 0x0A) {
            bytes = Array(bytes[(cut + 1)...])
        }
        let stamp = ISO8601.string(from: date.flooredToSeconds)
        for slug in slugs where !slug.contains("\t") && !slug.contains("\n") {
            bytes += Array("\(slug)\t\(stamp)\n".utf8)
        }
        try? FileSystem.writeAtomically(bytes, to: path)
    }

    /// The deletes this clone noted: slug → the time of the latest.
    func recordedDeletions() -> [String: Date] {
        guard let directory = try? requireRepository(allowingDetached: true).gitDirectory,
              let bytes = try? FileSystem.readFile(directory + "/" + Self.deletionLogName) else { return [:] }
        var times: [String: Date] = [:]
        for line in String(decoding: bytes, as: UTF8.self).lines(omittingEmpty: true) {
            let fields = line.split(separator: "\t")
            guard fields.count == 2, let date = ISO8601.date(from: String(fields[1])) else { continue }
            times[String(fields[0])] = max(times[String(fields[0])] ?? date, date)
        }
        return times
    }

    /// The `Deleted:` trailers for a commit of `paths` (relative to the board): one for each card among them that is
    /// gone from the board (not moved) and whose delete this clone noted.
    func deletionTrailers(for paths: [String]) -> [CommitTrailer] {
        var removed: Set<String> = []
        var present: Set<String> = []
        for path in paths {
            guard let card = BoardPath(path)?.card else { continue }
            if FileSystem.exists(store.directory + "/" + path) { present.insert(card.slug) } else { removed.insert(card.slug) }
        }
        let gone = removed.subtracting(present)
        guard !gone.isEmpty else { return [] }
        let times = recordedDeletions()
        return gone.sorted { $0.utf8Precedes($1) }.compactMap { slug in
            times[slug].map { CommitTrailer("Deleted", "\(slug) \(ISO8601.string(from: $0))") }
        }
    }

    /// When the card `slug` was deleted on the branch `tip` since `base`: the time its latest deleting commit's
    /// trailer gives, else (for this clone's own deletes) the time it noted, else the commit's time. Where several
    /// commits there deleted it (two clones deleted it, and a merge joined them), the latest delete counts, whichever
    /// was committed last.
    func deletionTime(of slug: String, on tip: String, since base: String, isLocal: Bool) -> Date? {
        guard let output = try? git.run(["log", "--full-history", "--format=%x00%ct%n%(trailers:key=Deleted,valueonly,unfold)", "\(base)..\(tip)", "--"]
                                            + Self.pathspecs(ofCard: slug), readOnly: true),
              output.succeeded else { return nil }
        // One record per commit, newest first: its time, then its `Deleted:` trailers.
        let records = String(decoding: output.output, as: UTF8.self).split(separator: "\0").map { String($0).lines(omittingEmpty: true) }
        func trailerTime(_ record: [Substring], committed: Date) -> Date? {
            for line in record.dropFirst() {
                let fields = line.split(separator: " ")
                if fields.count == 2, fields[0] == slug, let date = ISO8601.date(from: String(fields[1])) { return min(date, committed) }
            }
            return nil
        }
        func committedTime(_ record: [Substring]) -> Date? {
            record.first.flatMap { TimeInterval(String($0)) }.map { Date(timeIntervalSince1970: $0) }
        }
        guard let last = records.first, let committed = committedTime(last) else { return nil }
        var time = trailerTime(last, committed: committed) ?? (isLocal ? recordedDeletions()[slug].map { min($0, committed) } : nil) ?? committed
        for record in records.dropFirst() {
            if let committed = committedTime(record), let deleted = trailerTime(record, committed: committed) { time = max(time, deleted) }
        }
        return time
    }
}
