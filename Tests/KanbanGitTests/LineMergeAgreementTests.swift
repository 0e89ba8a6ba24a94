import Foundation
import KanbanTestSupport
import Testing
@testable import KanbanCore

extension SyncTests {
    /// ``LineMerge`` against `git merge-file`, which it replaces: on generated texts it writes what git writes, and
    /// ``CardMerge`` keeps what it kept when it read git's markers.
    @Suite struct LineMergeAgreementTests {

        /// Generated texts: few distinct lines (so that diffs have many equally short answers), blank lines and lines
        /// without letters (which git's merge level joins conflicts over), CRLF, and missing final line breaks.
        private static let words = ["a", "b", "c", "", "Steps", "- [ ] check", "---", "}", "{", "x", "## Notes", "    indented"]

        private static func text(_ lines: [String], crlf: Bool, finalBreak: Bool) -> String {
            let lineBreak = crlf ? "\r\n" : "\n"
            return lines.joined(separator: lineBreak) + (finalBreak && !lines.isEmpty ? lineBreak : "")
        }

        private static func edited(_ lines: [String], by side: String, steps: Int, _ random: inout SeededGenerator) -> [String] {
            var lines = lines
            for step in 0..<steps {
                let line = Bool.random(using: &random) ? words.randomElement(using: &random)! : "\(side) \(step)"
                switch Int.random(in: 0..<4, using: &random) {
                case 0 where !lines.isEmpty: lines[Int.random(in: 0..<lines.count, using: &random)] = line
                case 1 where !lines.isEmpty: lines.remove(at: Int.random(in: 0..<lines.count, using: &random))
                default: lines.insert(line, at: Int.random(in: 0...lines.count, using: &random))
                }
            }
            return lines
        }

        /// Three generated texts: a base and two edits of it.
        private static func triple(maximumLines: Int, maximumSteps: Int, _ random: inout SeededGenerator) -> (String, String, String) {
            let lines = (0..<Int.random(in: 0...maximumLines, using: &random)).map { _ in words.randomElement(using: &random)! }
            let crlf = Int.random(in: 0..<6, using: &random) == 0
            func finalBreak(_ random: inout SeededGenerator) -> Bool { Int.random(in: 0..<5, using: &random) != 0 }
            func lineEnds(_ random: inout SeededGenerator) -> Bool { Int.random(in: 0..<8, using: &random) == 0 ? !crlf : crlf }
            let base = text(lines, crlf: crlf, finalBreak: finalBreak(&random))
            let ours = text(edited(lines, by: "ours", steps: Int.random(in: 1...maximumSteps, using: &random), &random),
                            crlf: lineEnds(&random), finalBreak: finalBreak(&random))
            let theirs = text(edited(lines, by: "theirs", steps: Int.random(in: 1...maximumSteps, using: &random), &random),
                              crlf: lineEnds(&random), finalBreak: finalBreak(&random))
            return (base, ours, theirs)
        }

        /// `git merge-file --stdout` of three texts, as `CardMerge` ran it before the merge was written in Swift.
        private static func gitMergeFile(_ base: String, _ ours: String, _ theirs: String, markerSize: Int = 7,
                                         in sandbox: GitSandbox) throws -> GitSandbox.Run {
            for (name, text) in [("ours", ours), ("base", base), ("theirs", theirs)] {
                try Data(text.utf8).write(to: URL(fileURLWithPath: sandbox.root + "/" + name))
            }
            return try sandbox.run(["-c", "merge.conflictStyle=merge", "merge-file", "--stdout", "--marker-size=\(markerSize)",
                                    "-L", "ours", "-L", "base", "-L", "theirs", "ours", "base", "theirs"], in: sandbox.root)
        }

        /// `CardMerge.mergeLines` as it was: git's merge read back from its markers, the winner's lines in place.
        private static func gitMergeLines(base: String, ours: String, theirs: String, oursWins: Bool,
                                          in sandbox: GitSandbox) throws -> (text: String, kept: String?) {
            if ours == theirs || theirs == base { return (ours, nil) }
            if ours == base { return (theirs, nil) }
            var size = 7
            let lines = [base, ours, theirs].flatMap { $0.lineSlices(omittingEmpty: true) }
            while size < 1_000, lines.contains(where: { line in ["<", "=", ">", "|"].contains { line.hasPrefix(String(repeating: $0, count: size)) } }) {
                size *= 2
            }
            let output = try gitMergeFile(base, ours, theirs, markerSize: size, in: sandbox)
            guard output.status >= 0 && output.status < 128 else { return oursWins ? (ours, theirs) : (theirs, ours) }
            guard output.status > 0 else { return (output.output, nil) }
            let open = String(repeating: "<", count: size) + " "
            let middle = String(repeating: "=", count: size)
            let close = String(repeating: ">", count: size) + " "
            var text: [Substring] = []
            var kept: [Substring] = []
            var oursSide: [Substring] = []
            var theirsSide: [Substring] = []
            var place = 0  // 0 outside, 1 ours, 2 theirs
            let endsWithBreak = output.output.endsWithLineBreak
            for line in output.output.lineSlices().dropLast(endsWithBreak ? 1 : 0) {
                let marker = line.droppingCarriageReturn
                switch place {
                case 0 where marker.hasPrefix(open): place = 1
                case 1 where marker == middle: place = 2
                case 2 where marker.hasPrefix(close):
                    text += oursWins ? oursSide : theirsSide
                    if !kept.isEmpty { kept.append("") }
                    kept += oursWins ? theirsSide : oursSide
                    oursSide = []
                    theirsSide = []
                    place = 0
                case 0: text.append(line)
                case 1: oursSide.append(line)
                default: theirsSide.append(line)
                }
            }
            let result = text.joined(separator: "\n") + (endsWithBreak && !text.isEmpty ? "\n" : "")
            let keptText = kept.joined(separator: "\n")
            return (result, keptText.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : keptText + "\n")
        }

        @Test(arguments: [(maximumLines: 10, maximumSteps: 4, seed: UInt64(0x24_0001)), (60, 12, 0x24_0002), (400, 120, 0x24_0003)])
        func writesWhatGitMergeFileWrites(maximumLines: Int, maximumSteps: Int, seed: UInt64) throws {
            try withGitSandbox { sandbox in
                var random = SeededGenerator(seed: seed)
                var conflicted = 0
                for index in 0..<150 {
                    let (base, ours, theirs) = Self.triple(maximumLines: maximumLines, maximumSteps: maximumSteps, &random)
                    let git = try Self.gitMergeFile(base, ours, theirs, in: sandbox)
                    let merged = LineMerge(base: base, ours: ours, theirs: theirs)
                    let conflicts = merged.regions.count { if case .conflict = $0 { true } else { false } }
                    if git.status > 0 { conflicted += 1 }
                    // git's exit status is the number of conflicts, up to 127.
                    #expect(Array(merged.markedText()) == Array(git.output.utf8) && Int(git.status) == min(conflicts, 127),
                            "case \(index): base \(base.debugDescription), ours \(ours.debugDescription), theirs \(theirs.debugDescription)")
                }
                #expect(conflicted > 30, "only \(conflicted) of 150 merges had conflicts")
            }
        }

        @Test(arguments: [true, false])
        func cardMergeKeepsWhatItKeptWithGitMergeFile(oursWins: Bool) throws {
            try withGitSandbox { sandbox in
                var random = SeededGenerator(seed: oursWins ? 0x24_0010 : 0x24_0011)
                for index in 0..<150 {
                    var (base, ours, theirs) = Self.triple(maximumLines: 12, maximumSteps: 5, &random)
                    if index % 10 == 0 { theirs += "=======\n" }  // a line that looks like a marker
                    if index % 25 == 1 { ours += "nul \u{0} byte\n" }  // what git calls binary
                    let expected = try Self.gitMergeLines(base: base, ours: ours, theirs: theirs, oursWins: oursWins, in: sandbox)
                    let merged = CardMerge.mergeLines(base: base, ours: ours, theirs: theirs, oursWins: oursWins)
                    #expect(merged.text == expected.text && merged.kept == expected.kept,
                            "case \(index): base \(base.debugDescription), ours \(ours.debugDescription), theirs \(theirs.debugDescription)")
                }
            }
        }
    }
}
