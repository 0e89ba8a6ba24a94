import Foundation
import Testing

@testable import KanbanServer

/// README.md is a newcomer's first page: it opens with the two commands that run the tool on the sample board and
/// run the tests (a broken edit once buried them under 348,000 lines).
@Suite struct ReadmeTests {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    @Test func opensWithTheSampleBoardAndTheTestCommands() throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).prefix(6).map(String.init)
        #expect(lines.first == "# kanban")
        #expect(lines.contains { $0.hasPrefix("swift run kanban --board SampleBoards/product-launch board") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("swift test") }, "\(lines)")
        // A newcomer's page, not the manual (issue 36: it had grown to 1,506 lines); the manual is docs/.
        #expect(text.split(separator: "\n", omittingEmptySubsequences: false).count <= 320, "README.md has grown past 320 lines")
        #expect(FileManager.default.fileExists(atPath: Self.root.appendingPathComponent("SampleBoards/product-launch/board.md").path))
    }

    /// The keys of `kanban watch --json` in docs/watch.md are those the command's help lists (issue 20 #9: the docs
    /// left out "previousPath", which a consumer that tracks files needs to follow a rename).
    @Test func listsTheKeysOfWatchJSONAsTheHelpDoes() throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent("docs/watch.md"), encoding: .utf8)
        let help = try KanbanProcess.run(["help", "watch"])
        #expect(help.status == 0, "\(help)")
        func keys(after marker: String, in text: String) -> [String]? {
            let flat = text.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\\ ", with: "")
            guard let start = flat.range(of: marker), let open = flat[start.upperBound...].firstIndex(of: "{"),
                  let close = flat[open...].firstIndex(of: "}") else { return nil }
            return flat[flat.index(after: open)..<close].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        }
        let documented = try #require(keys(after: "With `--json` each is one line", in: text))
        let helped = try #require(keys(after: "With --json each event is one JSON object", in: help.stdout))
        #expect(documented == helped)
        #expect(documented.contains("\"previousPath\""))
    }

    /// Every relative link in README.md, docs/, Benchmarks/README.md and CHANGELOG.md leads to a file that exists,
    /// and every `#anchor` to a heading of that file (GitHub's slugs): the docs moved into pages once and must not
    /// point into nothing.
    @Test func everyLinkInTheDocsLeadsSomewhere() throws {
        let manager = FileManager.default
        let pages = ["README.md", "CHANGELOG.md", "FORMAT.md", "Benchmarks/README.md"]
            + (try manager.contentsOfDirectory(atPath: Self.root.appendingPathComponent("docs").path)).filter { $0.hasSuffix(".md") }.map { "docs/" + $0 }
        func text(_ page: String) throws -> String { try String(contentsOf: Self.root.appendingPathComponent(page), encoding: .utf8) }
        func anchors(_ page: String) throws -> Set<String> {
            var slugs: Set<String> = []
            var inFence = false
            for line in try text(page).split(separator: "\n", omittingEmptySubsequences: false) {
                if line.hasPrefix("```") { inFence.toggle() }
                guard !inFence, line.hasPrefix("#") else { continue }
                let title = line.drop(while: { $0 == "#" }).trimmingCharacters(in: .whitespaces).lowercased()
                slugs.insert(String(title.compactMap { character -> Character? in
                    if character == " " { return "-" }
                    return character.isLetter || character.isNumber || character == "-" || character == "_" ? character : nil
                }))
            }
            return slugs
        }
        var checked = 0
        for page in pages where manager.fileExists(atPath: Self.root.appendingPathComponent(page).path) {
            let directory = (page as NSString).deletingLastPathComponent
            for match in try text(page).matches(of: /\]\(([^)\s]+)\)/) {
                let target = String(match.1)
                guard !target.contains("://"), !target.hasPrefix("mailto:") else { continue }
                let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                let file = parts[0].isEmpty ? page : (directory.isEmpty ? parts[0] : directory + "/" + parts[0])
                let resolved = URL(fileURLWithPath: Self.root.appendingPathComponent(file).path).standardized.path
                #expect(manager.fileExists(atPath: resolved), "\(page): the link \(target) leads to no file")
                if parts.count == 2, resolved.hasSuffix(".md"), manager.fileExists(atPath: resolved) {
                    let relative = String(resolved.dropFirst(Self.root.standardized.path.count + 1))
                    #expect(try anchors(relative).contains(parts[1]), "\(page): the link \(target) leads to no heading")
                }
                checked += 1
            }
        }
        #expect(checked > 20, "only \(checked) links found")
    }
}
