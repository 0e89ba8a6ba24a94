import Foundation
import KanbanTestSupport
import Testing
@testable import KanbanCore

extension SyncTests {
    /// Generated edit pairs of one card, merged as `kanban merge-driver` merges them: every pair gives a card, never
    /// conflict markers, and keeps every line either side wrote.
    @Suite struct CardMergeFuzzTests {
        /// One generated version of a card file, with the body lines only it added (to find them in the merge).
        struct Version {
            var frontmatter: [(String, String)]?
            var bodyLines: [String]
            var crlf: Bool
            var bom: Bool
            var junk: [UInt8]?

            var bytes: [UInt8] {
                if let junk { return junk }
                let newline = crlf ? "\r\n" : "\n"
                var text = ""
                if let frontmatter {
                    text += "---" + newline
                    for (key, value) in frontmatter { text += "\(key): \(value)" + newline }
                    text += "---" + newline + newline
                }
                text += bodyLines.map { $0 + newline }.joined()
                return (bom ? [0xEF, 0xBB, 0xBF] : []) + Array(text.utf8)
            }
        }

        private static let words = ["Steps", "Open the app", "Log in", "See the error", "- [ ] check", "## Notes", "",
                                    "a: b", "---", "> quoted", "`code`", "Ünïcödé", "#tag", "1. one", "    indented"]
        private static let columns = ["todo", "doing", "done"]

        private static func base(_ random: inout SeededGenerator) -> Version {
            let crlf = Int.random(in: 0..<5, using: &random) == 0
            let bom = Int.random(in: 0..<6, using: &random) == 0
            let lines = (0..<Int.random(in: 0...8, using: &random)).map { _ in words.randomElement(using: &random)! }
            switch Int.random(in: 0..<20, using: &random) {
            case 0:
                return Version(frontmatter: nil, bodyLines: [], crlf: crlf, bom: false, junk: [])
            case 1, 2:
                return Version(frontmatter: nil, bodyLines: lines, crlf: crlf, bom: bom, junk: nil)
            case 3:
                let junk = (0..<Int.random(in: 1...40, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
                return Version(frontmatter: nil, bodyLines: [], crlf: crlf, bom: false, junk: junk)
            default:
                let frontmatter = [("title", "Fix login bug"), ("column", "todo"), ("position", "n"),
                                   ("created", "2026-01-01T09:00:00Z"), ("modified", "2026-01-05T10:00:00Z"), ("labels", "[bug, ui]")]
                return Version(frontmatter: frontmatter, bodyLines: lines, crlf: crlf, bom: bom, junk: nil)
            }
        }

        /// `version` changed at random by `side`; the body lines it adds are unique and returned.
        private static func edit(_ version: Version, side: String, _ random: inout SeededGenerator) -> (Version, [String]) {
            var version = version
            var added: [String] = []
            for step in 0..<Int.random(in: 1...5, using: &random) {
                let line = "\(side) line \(step) \(UInt16.random(in: 0...UInt16.max, using: &random))"
                switch Int.random(in: 0..<14, using: &random) {
                case 0 where version.frontmatter != nil:
                    set("title", "Title by \(side) \(step)", in: &version)
                case 1 where version.frontmatter != nil:
                    set("column", columns.randomElement(using: &random)!, in: &version)
                    set("position", String(UnicodeScalar(UInt8.random(in: 98...121, using: &random))), in: &version)
                case 2 where version.frontmatter != nil:
                    set("modified", "2026-01-0\(Int.random(in: 5...9, using: &random))T10:00:\(Int.random(in: 10...59, using: &random))Z", in: &version)
                case 3 where version.frontmatter != nil:
                    set("labels", ["[]", "[bug]", "[ui, \(side)]", "[bug, ui, later]"].randomElement(using: &random)!, in: &version)
                case 4 where version.frontmatter != nil:
                    set("\(side)-key", "value \(step)", in: &version)
                case 5:
                    version.crlf.toggle()
                case 6 where version.junk == nil:
                    version.bodyLines.append(line + "\u{0}binary")  // what git calls a binary file
                    added.append(line + "\u{0}binary")
                case 7 where version.frontmatter != nil && Int.random(in: 0..<4, using: &random) == 0:
                    version.frontmatter = nil
                case 8 where !version.bodyLines.isEmpty && version.junk == nil, 9 where !version.bodyLines.isEmpty && version.junk == nil:
                    let index = Int.random(in: 0..<version.bodyLines.count, using: &random)
                    version.bodyLines[index] = line
                    added.append(line)
                case 10 where !version.bodyLines.isEmpty:
                    version.bodyLines.remove(at: Int.random(in: 0..<version.bodyLines.count, using: &random))
                default:
                    guard version.junk == nil else {
                        version.junk?.append(contentsOf: Array(line.utf8))
                        continue
                    }
                    version.bodyLines.insert(line, at: Int.random(in: 0...version.bodyLines.count, using: &random))
                    added.append(line)
                }
            }
            // A line added and then replaced or removed by a later step is not in this side's version.
            let text = String(decoding: version.bytes, as: UTF8.self)
            return (version, added.filter { text.contains($0) })
        }

        private static func set(_ key: String, _ value: String, in version: inout Version) {
            guard var frontmatter = version.frontmatter else { return }
            if let index = frontmatter.firstIndex(where: { $0.0 == key }) {
                frontmatter[index].1 = value
            } else {
                frontmatter.append((key, value))
            }
            version.frontmatter = frontmatter
        }

        @Test func everyGeneratedPairMergesIntoACardThatKeepsBothSidesLines() {
            var random = SeededGenerator(seed: 0x13_0009)
            var keptText = 0
            for pair in 0..<500 {
                let base = Self.base(&random)
                let (ours, oursAdded) = Self.edit(base, side: "ours", &random)
                let (theirs, theirsAdded) = Self.edit(base, side: "theirs", &random)
                let outcome = CardMerge.merge(base: base.bytes, ours: ours.bytes, theirs: theirs.bytes, columnOrder: Self.columns)
                if outcome.keepsText { keptText += 1 }
                let merged = String(decoding: outcome.bytes, as: UTF8.self)
                let lines = merged.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
                #expect(!lines.contains { $0.hasPrefix("<<<<<<<") || $0.hasPrefix(">>>>>>>") },
                        "pair \(pair): conflict markers in\n\(merged)")
                for line in oursAdded + theirsAdded where !merged.contains(line) {
                    Issue.record("pair \(pair): lost the line '\(line)'\nbase:\n\(String(decoding: base.bytes, as: UTF8.self))\nours:\n\(String(decoding: ours.bytes, as: UTF8.self))\ntheirs:\n\(String(decoding: theirs.bytes, as: UTF8.self))\nmerged:\n\(merged)")
                }
                if ours.frontmatter != nil && theirs.frontmatter != nil && base.frontmatter != nil {
                    let document = try? FrontmatterDocument(bytes: outcome.bytes, dialect: .card)
                    #expect(document?.hasFrontmatter == true, "pair \(pair): the merge is no card:\n\(merged)")
                    #expect(document?.value(forKey: "title") != nil, "pair \(pair): no title in\n\(merged)")
                }
            }
            // The generator does make both sides change the same lines: the kept sections are exercised.
            #expect(keptText > 20, "only \(keptText) of 500 pairs kept text")
        }
    }
}
