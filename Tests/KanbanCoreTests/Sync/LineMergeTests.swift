import Foundation
import Testing
@testable import KanbanCore

extension SyncTests {
    /// ``LineMerge``, the three-way line merge of card bodies (its agreement with `git merge-file` is tested in KanbanGitTests).
    @Suite struct LineMergeTests {
        private func merge(_ base: String, _ ours: String, _ theirs: String) -> LineMerge {
            LineMerge(base: base, ours: ours, theirs: theirs)
        }

        private func text(_ merge: LineMerge) -> String {
            String(decoding: merge.markedText(), as: UTF8.self)
        }

        @Test func takesChangesBothSidesMadeInDifferentPlaces() {
            let merged = merge("one\ntwo\nthree\nfour\nfive\n", "ONE\ntwo\nthree\nfour\nfive\n", "one\ntwo\nthree\nfour\nFIVE\n")
            #expect(!merged.hasConflicts)
            #expect(text(merged) == "ONE\ntwo\nthree\nfour\nFIVE\n")
        }

        @Test func takesAChangeBothSidesMadeAlikeOnce() {
            let merged = merge("one\ntwo\n", "one\nTWO\nadded\n", "one\nTWO\nadded\n")
            #expect(!merged.hasConflicts)
            #expect(text(merged) == "one\nTWO\nadded\n")
        }

        @Test func makesAConflictOfChangesToTheSameLine() throws {
            let merged = merge("one\ntwo\nthree\n", "one\nana\nthree\n", "one\nben\nthree\n")
            #expect(merged.regions.count == 3)
            guard case .conflict(let conflict) = merged.regions[1] else {
                Issue.record("no conflict in \(merged.regions)")
                return
            }
            #expect(conflict.ours == Array("ana\n".utf8))
            #expect(conflict.theirs == Array("ben\n".utf8))
        }

        @Test func makesAConflictOfChangesToTouchingLinesAsGitDoes() {
            // Lines two and three are next to each other: git calls that a conflict, and so does the merge.
            let merged = merge("one\ntwo\nthree\nfour\n", "one\nTWO\nthree\nfour\n", "one\ntwo\nTHREE\nfour\n")
            #expect(merged.hasConflicts)
            #expect(text(merged) == "one\n<<<<<<< ours\nTWO\nthree\n=======\ntwo\nTHREE\n>>>>>>> theirs\nfour\n")
        }

        @Test func narrowsAConflictToTheLinesThatDiffer() {
            let merged = merge("a\n", "same\nana\nend\n", "same\nben\nend\n")
            #expect(text(merged) == "same\n<<<<<<< ours\nana\n=======\nben\n>>>>>>> theirs\nend\n")
        }

        @Test func endsAConflictedLastLineWithALineBreakOfTheTextsKind() {
            #expect(text(merge("one\r\ntwo", "one\r\nana", "one\r\nben")) == "one\r\n<<<<<<< ours\r\nana\r\n=======\r\nben\r\n>>>>>>> theirs\r\n")
            #expect(text(merge("one\ntwo", "one\nana", "one\nben")) == "one\n<<<<<<< ours\nana\n=======\nben\n>>>>>>> theirs\n")
        }

        @Test func keepsAMissingFinalLineBreakOutsideConflicts() {
            #expect(text(merge("one\ntwo\nthree\nfour\nfive", "ONE\ntwo\nthree\nfour\nfive", "one\ntwo\nthree\nfour\nFIVE")) == "ONE\ntwo\nthree\nfour\nFIVE")
        }

        @Test func mergesTextsWithNULBytesThatGitRefuses() {
            let merged = LineMerge(base: Array("a\u{0}\nb\nc\nd\ne\n".utf8), ours: Array("A\u{0}\nb\nc\nd\ne\n".utf8),
                                   theirs: Array("a\u{0}\nb\nc\nd\nE\n".utf8))
            #expect(text(merged) == "A\u{0}\nb\nc\nd\nE\n")
        }
    }
}
