import KanbanCore
import Testing
@testable import KanbanWatch

/// The byte-level check a polling pass uses agrees with KanbanCore's on every kind of name.
@Suite struct CardFileNameTests {
    @Test(arguments: [
        "fix-login.md", "a.md", ".md", "x.md", "md", ".x.md.swp", ".#fix-login.md", "#fix-login.md#", "fix-login.md~",
        "4913", "fix-login.md___jb_tmp___", "fix-login.md___jb_old___", "a___jb_b.md", "notes.txt", ".fix-login.md.4242.0.kanban-tmp",
        "UPPER.MD", "x.mdx", "é.md", "café-au-lait.md", "x.md\u{301}", "___jb_\u{301}x.md", "日本語.md", "x.m", "ab.md ", " .md",
    ])
    func agreesWithKanbanCore(_ name: String) {
        #expect(CardFileName.isCard(name) == CardFile.isCardFileName(name), "\(name.debugDescription)")
    }
}
