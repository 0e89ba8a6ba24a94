import Testing

@testable import KanbanCore
@testable import KanbanGit

/// Which commits of a card count as a change made outside kanban (issue 19): they changed the card but not its
/// `modified`, so the merge times them by their commit.
@Suite struct UnstampedChangeTests {
    private func isUnstamped(_ patch: String) -> Bool {
        GitSyncProvider.isUnstampedChange(patch.split(separator: "\n", omittingEmptySubsequences: false))
    }

    @Test func aHandEditOfTheTitleOrBodyIsUnstamped() {
        #expect(isUnstamped("""
            diff --git a/cards/todo/task.md b/cards/todo/task.md
            --- a/cards/todo/task.md
            +++ b/cards/todo/task.md
            @@ -1,4 +1,4 @@
             ---
            -title: Task
            +title: Task by hand
             modified: 2026-01-01T09:00:00Z
            """))
        #expect(isUnstamped("diff --git a/x b/x\n@@ -5 +5,2 @@\n The plan.\n+---\n"), "a body line '---' is content")
    }

    @Test func aKanbanChangeSetsModified() {
        #expect(!isUnstamped("diff --git a/x b/x\n@@ -1,3 +1,3 @@\n-title: A\n+title: B\n-modified: 2026-01-01T09:00:00Z\n+modified: 2026-01-01T09:01:00Z\n"))
        #expect(!isUnstamped("diff --git a/x b/x\nnew file mode 100644\n--- /dev/null\n+++ b/x\n@@ -0,0 +1,3 @@\n+---\n+title: A\n+modified: 2026-01-01T09:00:00Z\n"))
    }

    @Test func reKeyingANeighbourIsNoChangeOfIt() {
        #expect(!isUnstamped("diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -3 +3 @@\n-position: n\n+position: p\n"))
    }

    /// kanban archives or moves a card in the second of its last change without a new `modified`: a rename, and a
    /// `column` and `position` line, say nothing about who made them.
    @Test func aMoveIsNotCountedAsAChangeMadeOutsideKanban() {
        #expect(!isUnstamped("diff --git a/cards/todo/x.md b/archive/2026-01-01-x.md\nsimilarity index 100%\nrename from cards/todo/x.md\nrename to archive/2026-01-01-x.md\n"))
        #expect(!isUnstamped("diff --git a/cards/todo/x.md b/cards/done/x.md\nrename from cards/todo/x.md\n@@ -2,2 +2,2 @@\n-column: todo\n+column: done\n-position: n\n+position: a\n"))
    }
}
