#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
@testable import KanbanWatch

extension BoardWatcherTests {
    /// Symbolic links are never followed out of the board.
    @Suite struct SymlinkTests {
        @Test(arguments: Mechanism.allCases)
        func linksOutOfTheBoardAreNotFollowed(_ mechanism: Mechanism) throws {
            let board = try WatchedBoard()
            let outside = board.parent + "/outside"
            try FileSystemTestSupport.makeDirectory(outside)
            try FileSystemTestSupport.write(WatchedBoard.cardText(title: "Secret", column: "todo"), to: outside + "/secret.md")
            try board.start(mechanism)

            try FileSystemTestSupport.check(symlink(outside + "/secret.md", board.path("cards/todo/secret.md")), "symlink")
            try FileSystemTestSupport.check(symlink(outside, board.path("cards/elsewhere")), "symlink")
            #expect(board.recorder.waitForNotice { notices in notices.filter { $0.code == .linkNotFollowed }.count >= 2 })
            // Changes out there are not the board's.
            try FileSystemTestSupport.write(WatchedBoard.cardText(title: "Secret 2", column: "todo"), to: outside + "/secret.md")
            try FileSystemTestSupport.write(WatchedBoard.cardText(title: "Other", column: "todo"), to: outside + "/other.md")
            try board.barrier()
            #expect(board.recorder.cardEvents.isEmpty, "\(board.recorder.cardEvents)")
            let paths = Set(board.recorder.notices.filter { $0.code == .linkNotFollowed }.compactMap(\.path))
            #expect(paths == ["cards/todo/secret.md", "cards/elsewhere"])
        }

        @Test(arguments: Mechanism.allCases)
        func aLinkInsideTheBoardIsACard(_ mechanism: Mechanism) throws {
            let board = try WatchedBoard()
            try board.start(mechanism)
            try FileSystemTestSupport.check(symlink("../todo/fix-login.md", board.path("cards/done/fix-login-link.md")), "symlink")
            #expect(board.recorder.wait { $0.contains { $0.kind == .created && $0.slug == "fix-login-link" } })
            try board.barrier()
            #expect(board.recorder.cardEvents.summaries == ["created fix-login-link"])
            #expect(board.recorder.notices.isEmpty)
        }
    }
}
