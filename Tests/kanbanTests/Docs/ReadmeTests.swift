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
        #expect(text.count < 200_000, "README.md is \(text.count) characters")
        #expect(FileManager.default.fileExists(atPath: Self.root.appendingPathComponent("SampleBoards/product-launch/board.md").path))
    }

    /// The keys of `kanban watch --json` in README.md are those the command's help lists (issue 20 #9: the README
    /// left out "previousPath", which a consumer that tracks files needs to follow a rename).
    @Test func listsTheKeysOfWatchJSONAsTheHelpDoes() throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
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
}
