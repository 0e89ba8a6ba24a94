import Foundation
import Testing
@testable import KanbanCore

@Suite struct BoardDiscoveryTests {
    static func boardText(_ title: String) -> String {
        "---\ntitle: \(title)\ncolumns:\n  - id: todo\n    name: To Do\n  - id: done\n    name: Done\n---\n"
    }

    /// Writes `text` to `relative` under `root`, making the directories on the way.
    static func write(_ text: String, _ relative: String, in root: String) throws {
        let url = URL(fileURLWithPath: root + "/" + relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    @Test func findsNestedBoardsSortedByPathAndNamedByIt() throws {
        try withTemporaryDirectory { root in
            try Self.write(Self.boardText("Top"), "board.md", in: root)
            try Self.write(Self.boardText("Web"), "products/web/board.md", in: root)
            try Self.write(Self.boardText("App"), "products/app/board.md", in: root)
            try Self.write(Self.boardText("Inner"), "products/app/plans/board.md", in: root)
            try Self.write(Self.boardText("Dash"), "products-old/board.md", in: root)
            let found = try BoardDiscovery.boards(under: root)
            #expect(found.map(\.name) == [".", "products/app", "products/app/plans", "products/web", "products-old"])
            #expect(found.map { $0.board?.title } == ["Top", "App", "Inner", "Web", "Dash"])
            #expect(found[1].directory == root + "/products/app")
            #expect(found.allSatisfy { $0.error == nil })
        }
    }

    @Test(arguments: ["evil\u{1B}]0;x\u{7}", "two\nlines", "ends\n", "c1\u{9B}2J", "nul\u{1}", "sep\u{2028}x"])
    func aNameWithAControlCharacterOrLineBreakIsAnErrorNotAName(_ name: String) throws {
        try withTemporaryDirectory { root in
            try Self.write(Self.boardText("Good"), "good/board.md", in: root)
            try Self.write(Self.boardText("Hostile"), "nested/\(name)/board.md", in: root)
            let found = try BoardDiscovery.boards(under: root)
            #expect(found.map(\.name) == ["good", "nested/" + name])
            #expect(found[0].error == nil)
            #expect(found[1].board == nil && found[1].error?.message.hasPrefix("a board's name (its directory's path) cannot hold control character") == true,
                    "\(String(describing: found[1].error))")
            // Given itself, it is named by its directory's name, checked the same.
            let given = try BoardDiscovery.boards(inEach: [root + "/good", root + "/nested/" + name])
            #expect(given.map { $0.error == nil } == [true, false])
        }
    }

    @Test func aBrokenBoardFileIsReportedWithItsPlaceNotSkipped() throws {
        try withTemporaryDirectory { root in
            try Self.write(Self.boardText("Good"), "good/board.md", in: root)
            try Self.write("---\ntitle: Broken\ncolumns:\n  - id: todo\n", "broken/board.md", in: root)
            let found = try BoardDiscovery.boards(under: root)
            #expect(found.map(\.name) == ["broken", "good"])
            let broken = try #require(found.first)
            #expect(broken.board == nil)
            let error = try #require(broken.error)
            #expect(error.code == .invalidBoard)
            let location = try #require(broken.errorLocation)
            #expect(location.hasPrefix("broken/board.md:"), "\(location)")
            #expect(location.split(separator: ":").count == 3, "\(location): line and column")
        }
    }

    @Test func neverEntersHiddenBuildOrDependencyDirectoriesNorACardsOwnFolders() throws {
        try withTemporaryDirectory { root in
            try Self.write(Self.boardText("Main"), "main/board.md", in: root)
            for hidden in [".git/board.md", ".hidden/x/board.md", ".build/checkouts/board.md", "node_modules/pkg/board.md",
                           "main/cards/todo/board.md", "main/archive/old/board.md"] {
                try Self.write(Self.boardText("Hidden"), hidden, in: root)
            }
            #expect(try BoardDiscovery.boards(under: root).map(\.name) == ["main"])
        }
    }

    @Test func symlinkedDirectoriesAreNotFollowedSoALoopEnds() throws {
        try withTemporaryDirectory { root in
            try Self.write(Self.boardText("A"), "a/board.md", in: root)
            try Self.write(Self.boardText("Outside"), "outside/board.md", in: root)
            let inner = root + "/inner"
            try FileManager.default.createDirectory(atPath: inner, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: inner + "/loop", withDestinationPath: root)
            try FileManager.default.createSymbolicLink(atPath: inner + "/escape", withDestinationPath: root + "/outside")
            try FileManager.default.createSymbolicLink(atPath: inner + "/self", withDestinationPath: ".")
            #expect(try BoardDiscovery.boards(under: inner).isEmpty)
            #expect(try BoardDiscovery.boards(under: root).map(\.name) == ["a", "outside"])
        }
    }

    @Test func theDepthAndTheCountAreBounded() throws {
        try withTemporaryDirectory { root in
            try Self.write(Self.boardText("Deep"), "1/2/3/board.md", in: root)
            #expect(try BoardDiscovery.boards(under: root, maximumDepth: 3).map(\.name) == ["1/2/3"])
            #expect(try BoardDiscovery.boards(under: root, maximumDepth: 2).isEmpty)
            try Self.write(Self.boardText("Other"), "other/board.md", in: root)
            #expect(throws: KanbanError.self) { try BoardDiscovery.boards(under: root, boardLimit: 1) }
            #expect(throws: KanbanError.self) { try BoardDiscovery.boards(under: root + "/missing") }
        }
    }

    @Test func eachDirectoryGivenNamesItsBoardsAndNamesMustNotClash() throws {
        try withTemporaryDirectory { root in
            try Self.write(Self.boardText("Alpha"), "work/alpha/board.md", in: root)
            try Self.write(Self.boardText("Beta"), "work/beta/board.md", in: root)
            try Self.write(Self.boardText("Solo"), "solo/board.md", in: root)
            try Self.write(Self.boardText("Again"), "elsewhere/alpha/board.md", in: root)
            let found = try BoardDiscovery.boards(inEach: [root + "/work", root + "/solo", root + "/work/alpha"])
            #expect(found.map(\.name) == ["alpha", "beta", "solo"])
            #expect(found.map { $0.board?.title } == ["Alpha", "Beta", "Solo"])
            #expect(throws: KanbanError.self) { try BoardDiscovery.boards(inEach: [root + "/work", root + "/elsewhere/alpha"]) }
            try FileManager.default.createDirectory(atPath: root + "/empty", withIntermediateDirectories: true)
            let error = try #require(throws: KanbanError.self) { try BoardDiscovery.boards(inEach: [root + "/empty"]) }
            #expect(error.code == .boardNotFound)
        }
    }
}
