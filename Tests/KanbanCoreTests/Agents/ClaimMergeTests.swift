import Foundation
import Testing

@testable import KanbanCore

/// The merge rule for a card two clones claimed before they synced: one claim survives, the same on both sides.
@Suite struct ClaimMergeTests {
    private let base = """
        ---
        title: Fix login
        column: todo
        position: n
        created: 2026-05-01T10:00:00Z
        modified: 2026-05-01T10:00:00Z
        labels: []
        ---

        Body.
        """

    private func claimed(by holder: String, at time: String, position: String, modified: String) -> String {
        """
        ---
        title: Fix login
        column: doing
        position: \(position)
        created: 2026-05-01T10:00:00Z
        modified: \(modified)
        labels: []
        claimed-by: \(holder)
        claimed-at: \(time)
        ---

        Body.
        """
    }

    private func merge(_ ours: String, _ theirs: String) throws -> FrontmatterDocument {
        let outcome = CardMerge.merge(base: Array(base.utf8), ours: Array(ours.utf8), theirs: Array(theirs.utf8), columnOrder: ["todo", "doing", "done"])
        return try FrontmatterDocument(bytes: outcome.bytes, dialect: .card)
    }

    private func holder(_ document: FrontmatterDocument) -> (String?, String?) {
        (document.value(forKey: "claimed-by")?.string, document.value(forKey: "claimed-at")?.string)
    }

    @Test func theEarlierClaimWinsWhicheverSideMerges() throws {
        // Amy claimed first, but Zed's version is the later one (its 'modified' is later).
        let amy = claimed(by: "amy", at: "2026-05-02T09:00:00Z", position: "n", modified: "2026-05-02T09:00:00Z")
        let zed = claimed(by: "zed", at: "2026-05-02T09:00:05Z", position: "t", modified: "2026-05-02T09:00:05Z")
        for (ours, theirs) in [(amy, zed), (zed, amy)] {
            let merged = try merge(ours, theirs)
            #expect(holder(merged) == ("amy", "2026-05-02T09:00:00Z"))
            #expect(merged.value(forKey: "column")?.string == "doing")
        }
    }

    @Test func aTieGoesToTheNameThatSortsFirst() throws {
        let bea = claimed(by: "bea", at: "2026-05-02T09:00:00Z", position: "n", modified: "2026-05-02T09:00:00Z")
        let abe = claimed(by: "abe", at: "2026-05-02T09:00:00Z", position: "t", modified: "2026-05-02T09:00:00Z")
        #expect(holder(try merge(bea, abe)).0 == "abe")
        #expect(holder(try merge(abe, bea)).0 == "abe")
    }

    @Test func aClaimWinsOverAReleaseOfAnEarlierClaim() throws {
        let amy = claimed(by: "amy", at: "2026-05-02T09:00:00Z", position: "n", modified: "2026-05-02T09:00:00Z")
        // From a base where Amy held the card: Amy released it on one side while Zed's forced claim took it on the other.
        let released = base.replacingOccurrences(of: "modified: 2026-05-01T10:00:00Z", with: "modified: 2026-05-03T09:00:00Z")
        let zed = claimed(by: "zed", at: "2026-05-02T10:00:00Z", position: "t", modified: "2026-05-02T10:00:00Z")
        let outcome = CardMerge.merge(base: Array(amy.utf8), ours: Array(released.utf8), theirs: Array(zed.utf8), columnOrder: ["todo", "doing", "done"])
        let merged = try FrontmatterDocument(bytes: outcome.bytes, dialect: .card)
        #expect(holder(merged) == ("zed", "2026-05-02T10:00:00Z"))
    }

    @Test func aCardItsHolderFinishedKeepsThatHolderOverAnEarlierClaim() throws {
        // Amy claimed first but had not synced; Zed claimed later, synced, and finished the card.
        let amy = claimed(by: "amy", at: "2026-05-02T09:00:00Z", position: "n", modified: "2026-05-02T09:00:00Z")
        let zed = claimed(by: "zed", at: "2026-05-02T09:00:05Z", position: "n", modified: "2026-05-02T09:30:00Z")
            .replacingOccurrences(of: "column: doing", with: "column: done")
        for (ours, theirs) in [(amy, zed), (zed, amy)] {
            let merged = try merge(ours, theirs)
            #expect(holder(merged) == ("zed", "2026-05-02T09:00:05Z"))
            #expect(merged.value(forKey: "column")?.string == "done")
        }
    }

    @Test func aHolderWhoFinishedKeepsTheCardOverAClaimAnotherMergeChose() throws {
        // Found by kanban-harness agents (seed 2026): Zed held the card (the base); Amy's clone merged a claim of hers
        // made in the same second (ties go to the name that sorts first) while Zed finished the card.
        let zedHolds = claimed(by: "zed", at: "2026-05-02T09:00:00Z", position: "n", modified: "2026-05-02T09:00:00Z")
        let amyChosen = claimed(by: "amy", at: "2026-05-02T09:00:00Z", position: "t", modified: "2026-05-02T09:00:00Z")
        let zedFinished = zedHolds.replacingOccurrences(of: "column: doing", with: "column: done")
            .replacingOccurrences(of: "modified: 2026-05-02T09:00:00Z", with: "modified: 2026-05-02T09:40:00Z")
        for (ours, theirs) in [(amyChosen, zedFinished), (zedFinished, amyChosen)] {
            let outcome = CardMerge.merge(base: Array(zedHolds.utf8), ours: Array(ours.utf8), theirs: Array(theirs.utf8),
                                          columnOrder: ["todo", "doing", "done"])
            let merged = try FrontmatterDocument(bytes: outcome.bytes, dialect: .card)
            #expect(holder(merged).0 == "zed")
            #expect(merged.value(forKey: "column")?.string == "done")
        }
    }

    @Test func aClaimMadeAfterAReleaseStands() throws {
        // Amy held the card; on one side she released it and Zed claimed it; the other side left Amy's claim as it was.
        let amy = claimed(by: "amy", at: "2026-05-02T09:00:00Z", position: "n", modified: "2026-05-02T09:00:00Z")
        let zed = claimed(by: "zed", at: "2026-05-02T11:00:00Z", position: "t", modified: "2026-05-02T11:00:00Z")
        let outcome = CardMerge.merge(base: Array(amy.utf8), ours: Array(amy.utf8), theirs: Array(zed.utf8), columnOrder: ["todo", "doing", "done"])
        let merged = try FrontmatterDocument(bytes: outcome.bytes, dialect: .card)
        #expect(holder(merged) == ("zed", "2026-05-02T11:00:00Z"))
    }

    @Test func oneSideClaimingIsTakenAsIs() throws {
        let amy = claimed(by: "amy", at: "2026-05-02T09:00:00Z", position: "n", modified: "2026-05-02T09:00:00Z")
        let edited = base.replacingOccurrences(of: "Body.", with: "Body, edited.")
        let merged = try merge(edited, amy)
        #expect(holder(merged) == ("amy", "2026-05-02T09:00:00Z"))
        #expect(merged.body.contains("Body, edited."))
    }
}
