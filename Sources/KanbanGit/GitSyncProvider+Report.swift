import Foundation
import KanbanCore
import KanbanSubprocess

extension GitSyncProvider {
    /// Every card's history, read from the commits reachable from HEAD: one `git log` over the board's files and two
    /// `git cat-file --batch` reads (the versions of `board.md`, each card's last version). See ``BoardHistory``.
    /// - Returns: The cards in the order their histories began; none when the branch has no commit yet.
    /// - Throws: ``SyncError/Code/notARepository`` and the like, or ``SyncError/Code/gitFailed``.
    public func cardHistories() throws(SyncError) -> [CardHistory] {
        let repository = try requireRepository(allowingDetached: true)
        guard try resolves("HEAD") else { return [] }
        // Paths make git work out which commits touch them, which doubles its work: a board at the top of its
        // repository takes every change and leaves out what is not the board's itself.
        let paths = repository.prefix.isEmpty ? [] : ["--"] + HistoryLog.pathspecs
        let output = try git.check(HistoryLog.arguments + ["HEAD"] + paths, readOnly: true)
        let log = HistoryLog(parsing: output.output)
        do {
            return try BoardHistory(log) { objects in try blobs(objects) }.cards
        } catch let error as SyncError {
            throw error
        } catch {
            throw SyncError(.gitFailed, "cannot read the board's history: \(error)")
        }
    }

    /// Whether the repository's history is shallow (a `git clone --depth` or CI's default checkout): its first commit
    /// is a cut, not the board's beginning, so every card there seems created at the cut.
    /// - Throws: ``SyncError/Code/notARepository`` and the like, or ``SyncError/Code/gitFailed``.
    public func isHistoryShallow() throws(SyncError) -> Bool {
        _ = try requireRepository(allowingDetached: true)
        let output = try git.check(["rev-parse", "--is-shallow-repository"], readOnly: true)
        return String(decoding: output.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) == "true"
    }
}
