import KanbanTestSupport
import Testing
@testable import KanbanCore

/// `BoardText.plainText(ofMarkdownLine:)` skips the rules a line cannot meet (issue 36: every rule ran on every line,
/// 4 s for the excerpts of 10,000 cards); on generated lines it gives what running every rule gives.
@Suite struct PlainTextAgreementTests {
    /// Every rule, on every line: the function as it was before the rules were skipped.
    static func everyRule(_ line: String) -> String {
        let setAside = "\\`*_{}[]()#+-.!|>~<".unicodeScalars.map { $0 }
        let canSetAside = !line.unicodeScalars.contains { (0xFDD0...0xFDEF).contains($0.value) }
        var text = !canSetAside ? line : line.replacing(/\\([\\`*_{}\[\]()#+\-.!|>~<])/) { match in
            let index = match.output.1.unicodeScalars.first.flatMap { setAside.firstIndex(of: $0) } ?? 0
            return String(Character(Unicode.Scalar(0xFDD0 + UInt32(index)) ?? " "))
        }
        text = text.replacing(/^(>\s*)+/, with: "")
        text = text.replacing(/^([-*+]|\d{1,9}[.)])\s+/, with: "")
        text = text.replacing(/^\[[ xX]\]\s+/, with: "")
        text = text.replacing(/!\[([^\]]*)\]\([^)]*\)/) { String($0.output.1) }
        text = text.replacing(/\[([^\]]*)\]\([^)]*\)/) { String($0.output.1) }
        text = text.replacing(/<((?:https?|mailto):[^>\s]+)>/) { String($0.output.1) }
        text = text.replacing(/`+([^`]*)`+/) { String($0.output.1) }
        text = text.replacing(/(\*\*|__|~~)(.+?)\1/) { String($0.output.2) }
        text = text.replacing(/(^|[^\w*])\*(?!\s)([^*]+?)\*(?![\w*])/) { String($0.output.1) + String($0.output.2) }
        text = text.replacing(/(^|\W)_(?!\s)([^_]+?)_(?!\w)/) { String($0.output.1) + String($0.output.2) }
        if text.hasPrefix("|") && text.hasSuffix("|") {
            text = text.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: " · ")
        }
        if canSetAside {
            text = String(String.UnicodeScalarView(text.unicodeScalars.map { scalar in
                let index = Int(scalar.value) - 0xFDD0
                return setAside.indices.contains(index) ? setAside[index] : scalar
            }))
        }
        return text.trimmingCharacters(in: .whitespaces)
    }

    static let pieces = ["word", "Ünïcode", " ", " ", "**", "*", "_", "__", "~~", "`", "``", "[link](http://x)", "![img](p.png)",
                         "<https://example.com>", "\\*", "\\_", "\\\\", "> ", "- ", "+ ", "12. ", "3) ", "[ ] ", "[x] ", "|", "#",
                         "1", "2026", ".", ")", "!", "(", "]", "[", "<", ">", String(Character(Unicode.Scalar(0xFDD1)!)), "snake_case", "a*b", "x_y_z"]

    @Test func skippingRulesChangesNoLine() {
        var random = SeededGenerator(seed: 36)
        for _ in 0..<3_000 {
            var line = ""
            for _ in 0..<Int.random(in: 1...16, using: &random) {
                line += Self.pieces.randomElement(using: &random)!
            }
            #expect(BoardText.plainText(ofMarkdownLine: line) == Self.everyRule(line), "\(line.debugDescription)")
        }
    }
}
