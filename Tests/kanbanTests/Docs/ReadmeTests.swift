import Foundation
import Testing

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
}
