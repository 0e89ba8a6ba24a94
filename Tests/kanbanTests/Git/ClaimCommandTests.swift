import Foundation
import Testing

extension GitTests {
    /// `kanban claim`, `release`, `ready` and `depend` as agents use them: claims raced between processes on one
    /// board, between clones that sync through one remote, and between linked worktrees of one clone.
    @Suite struct ClaimCommandTests {
        /// Adds `count` cards to the shared board in `ana`, committed and pushed.
        private func addCards(_ count: Int, workspace: GitWorkspace, in ana: String) throws {
            for index in 1...count {
                let added = try workspace.kanban(["add", "Task \(index)"], in: ana)
                try #require(added.status == 0, "\(added)")
            }
            try workspace.git(["add", "--all"], in: ana)
            try workspace.git(["commit", "--quiet", "-m", "Add tasks"], in: ana)
            try workspace.git(["push", "--quiet"], in: ana)
        }

        private func claimedSlug(_ output: KanbanProcess.Output) throws -> String {
            let json = try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [[String: Any]]
            return try #require(json?.first?["slug"] as? String, "\(output)")
        }

        @Test func processesRacingForTheNextCardNeverGetTheSameOne() throws {
            try withGitWorkspace { workspace in
                let (ana, _) = try workspace.makeSharedBoard()
                try addCards(6, workspace: workspace, in: ana)
                let outputs = Locked<[KanbanProcess.Output]>([])
                DispatchQueue.concurrentPerform(iterations: 8) { index in
                    if let output = try? workspace.kanban(["claim", "--next", "--as", "agent-\(index)", "--json"], in: ana) {
                        outputs.withLock { $0.append(output) }
                    }
                }
                let all = outputs.withLock { $0 }
                #expect(all.count == 8)
                let won = all.filter { $0.status == 0 }
                #expect(won.count == 6, "\(all)")
                #expect(all.filter { $0.status == 4 }.count == 2, "\(all)")
                let slugs = try won.map(claimedSlug)
                #expect(Set(slugs).count == 6, "two processes got one card: \(slugs)")
                let ready = try workspace.kanban(["ready", "--json"], in: ana)
                #expect(ready.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
            }
        }

        @Test func twoClonesClaimingOneCardEndWithTheEarlierClaimAndTheLaterIsTold() throws {
            try withGitWorkspace { workspace in
                let (ana, ben) = try workspace.makeSharedBoard(setUpMergeDriver: true)
                try addCards(1, workspace: workspace, in: ana)
                try workspace.git(["pull", "--quiet"], in: ben)
                // Both claim before either syncs: Ana first (a second earlier), then Ben.
                #expect(try workspace.kanban(["claim", "task-1", "--as", "ana", "--commit"], in: ana).status == 0)
                try waitUntilNextSecond()
                #expect(try workspace.kanban(["claim", "task-1", "--as", "ben", "--commit"], in: ben).status == 0)
                // Ben syncs first: his claim reaches the remote, then Ana's earlier one wins the merge on her side.
                #expect(try workspace.kanban(["sync"], in: ben).status == 0)
                let anaSync = try workspace.kanban(["sync"], in: ana)
                #expect(anaSync.status == 0, "\(anaSync)")
                #expect(!anaSync.stderr.contains("dropped"), "\(anaSync)")
                // Ben's next sync brings Ana's claim in and tells him his was dropped.
                let benSync = try workspace.kanban(["sync"], in: ben)
                #expect(benSync.status == 0, "\(benSync)")
                #expect(benSync.stderr.contains("task-1: the claim of ben was dropped: ana claimed it first on another clone"), "\(benSync)")
                for clone in [ana, ben] {
                    let shown = try workspace.kanban(["show", "task-1", "--json"], in: clone)
                    #expect(shown.stdout.contains("\"claimedBy\" : \"ana\"") || shown.stdout.contains("\"claimedBy\": \"ana\""), "\(shown)")
                }
                // Ben claiming it again with --sync is told who holds it, with the claim exit status.
                let again = try workspace.kanban(["claim", "task-1", "--as", "ben", "--sync"], in: ben)
                #expect(again.status == 3, "\(again)")
                #expect(again.stderr.contains("held by ana"), "\(again)")
            }
        }

        @Test func aClaimStillBeingSharedGivesWayToOneSharedBeforeIt() throws {
            try withGitWorkspace { workspace in
                let (ana, ben) = try workspace.makeSharedBoard(setUpMergeDriver: true)
                try addCards(1, workspace: workspace, in: ana)
                try workspace.git(["pull", "--quiet"], in: ben)
                // The moment Ben's claim is committed, before it is pushed, Ana claims the card and pushes: hers is
                // shared first. Ben's is as early (the same second) and his name sorts first, so the merge keeps his;
                // his claim gives way to hers all the same, and he is told.
                let kanban = try KanbanProcess.binaryPath()
                try workspace.script(ben + "/.git/hooks/post-commit", """
                    #!/bin/sh
                    [ -e '\(ben)/.git/raced' ] && exit 0
                    touch '\(ben)/.git/raced'
                    cd '\(ana)' && env -u GIT_DIR -u GIT_INDEX_FILE -u GIT_WORK_TREE -u GIT_PREFIX '\(kanban)' claim task-1 --as zoe --sync > '\(ben)/.git/raced' 2>&1
                    """)
                let claim = try workspace.kanban(["claim", "task-1", "--as", "aaron", "--sync"], in: ben)
                #expect(claim.status == 3, "\(claim)\nthe hook: \((try? workspace.read(ben + "/.git/raced")) ?? "did not run")")
                #expect(claim.stderr.contains("claimed first by zoe"), "\(claim)")
                #expect(try workspace.kanban(["sync"], in: ana).status == 0)
                for clone in [ana, ben] {
                    #expect(try workspace.read(clone + "/cards/in-progress/task-1.md").contains("claimed-by: zoe"), "\(clone)")
                }
            }
        }

        @Test func aSyncTriesAgainWhenAnotherSyncWonGitsRefLock() throws {
            try withGitWorkspace { workspace in
                let (ana, ben) = try workspace.makeSharedBoard()
                try addCards(1, workspace: workspace, in: ana)
                #expect(try workspace.kanban(["add", "Local", "--commit"], in: ben).status == 0)
                // A git that loses the first fetch and the first push to another process holding the ref's lock, as
                // two syncs of one repository, or two clones pushing at once, make it do.
                let marks = workspace.root + "/marks"
                try workspace.script(workspace.root + "/racing-git", """
                    #!/bin/sh
                    case " $* " in
                    *" fetch "*) if [ ! -e '\(marks).fetch' ]; then touch '\(marks).fetch'
                        echo "error: cannot lock ref 'refs/remotes/origin/main': is at 1111 but expected 2222" >&2; exit 1; fi ;;
                    *" push "*) if [ ! -e '\(marks).push' ]; then touch '\(marks).push'
                        printf 'To remote\\n!\\tHEAD:refs/heads/main\\t[remote rejected] (failed to update ref)\\nDone\\n'
                        echo "remote: error: cannot lock ref 'refs/heads/main': is at 1111 but expected 2222" >&2; exit 1; fi ;;
                    esac
                    exec '\(workspace.gitPath)' "$@"
                    """)
                let synced = try workspace.kanban(["sync"], in: ben, environment: ["KANBAN_GIT": workspace.root + "/racing-git"])
                #expect(synced.status == 0, "\(synced)")
                #expect(workspace.exists(marks + ".fetch") && workspace.exists(marks + ".push"), "the racing git was not run")
                #expect(try workspace.git(["log", "-1", "--format=%s", "origin/main"], in: ben).hasPrefix("Merge"))
            }
        }

        @Test func aClaimWhoseSyncFailsStandsAndSaysSo() throws {
            try withGitWorkspace { workspace in
                let (ana, _) = try workspace.makeSharedBoard()
                try addCards(1, workspace: workspace, in: ana)
                try workspace.script(workspace.root + "/remote.git/hooks/pre-receive", "#!/bin/sh\necho 'no pushes today' >&2\nexit 1\n")
                let claim = try workspace.kanban(["claim", "task-1", "--as", "amy", "--sync", "--json"], in: ana)
                #expect(claim.status == 0, "\(claim)")
                #expect(claim.stderr.contains("the claim stands, committed here, but could not be shared"), "\(claim)")
                #expect(try workspace.read(ana + "/cards/in-progress/task-1.md").contains("claimed-by: amy"))
                #expect(try workspace.git(["status", "--porcelain", "--", "cards"], in: ana).isEmpty)
            }
        }

        @Test func claimNextWithSyncGoesOnToTheNextCardWhenAnotherCloneTookOne() throws {
            try withGitWorkspace { workspace in
                let (ana, ben) = try workspace.makeSharedBoard(setUpMergeDriver: true)
                try addCards(2, workspace: workspace, in: ana)
                try workspace.git(["pull", "--quiet"], in: ben)
                let first = try workspace.kanban(["claim", "--next", "--as", "ana", "--sync", "--json"], in: ana)
                #expect(first.status == 0, "\(first)")
                #expect(try claimedSlug(first) == "task-1")
                // Ben has not synced: his --next syncs first, so he sees Ana's claim and takes the second card.
                let second = try workspace.kanban(["claim", "--next", "--as", "ben", "--sync", "--json"], in: ben)
                #expect(second.status == 0, "\(second)")
                #expect(try claimedSlug(second) == "task-2")
                let none = try workspace.kanban(["claim", "--next", "--as", "ben", "--sync"], in: ben)
                #expect(none.status == 4, "\(none)")
                #expect(none.stderr.contains("no card is ready"), "\(none)")
                // Released with --sync, the card is first in Ana's queue after her next sync.
                #expect(try workspace.kanban(["release", "task-2", "--as", "ben", "--sync"], in: ben).status == 0)
                #expect(try workspace.kanban(["sync"], in: ana).status == 0)
                let ready = try workspace.kanban(["ready"], in: ana)
                #expect(ready.stdout.hasPrefix("task-2"), "\(ready)")
            }
        }

        @Test func aSyncNamesCardsWaitingForASlugTheMergeGaveToOneOfTwoCards() throws {
            try withGitWorkspace { workspace in
                let (ana, ben) = try workspace.makeSharedBoard(setUpMergeDriver: true)
                // Both clones add "Deploy" (one slug, two cards); Ana's other card waits for hers.
                #expect(try workspace.kanban(["add", "Deploy", "--commit"], in: ana).status == 0)
                #expect(try workspace.kanban(["add", "Announce", "--commit"], in: ana).status == 0)
                #expect(try workspace.kanban(["depend", "announce", "deploy", "--commit"], in: ana).status == 0)
                try waitUntilNextSecond()
                #expect(try workspace.kanban(["add", "Deploy", "--commit"], in: ben).status == 0)
                #expect(try workspace.kanban(["sync"], in: ana).status == 0)
                let synced = try workspace.kanban(["sync"], in: ben)
                #expect(synced.status == 0, "\(synced)")
                #expect(synced.stderr.contains("announce waits for 'deploy', a slug two clones gave a new card"), "\(synced)")
                #expect(synced.stderr.contains("kanban depend announce deploy-"), "\(synced)")
            }
        }

        @Test func linkedWorktreesShareTheMainWorktreesBoard() throws {
            try withGitWorkspace { workspace in
                let (ana, _) = try workspace.makeSharedBoard()
                try addCards(2, workspace: workspace, in: ana)
                let linked = workspace.root + "/ana-feature"
                try workspace.git(["worktree", "add", "--quiet", "-b", "feature", linked], in: ana)
                // In the linked worktree, the board is the main worktree's: a claim there is seen in the main one.
                let claim = try workspace.kanban(["claim", "--next", "--as", "agent-wt"], in: linked + "/cards")
                #expect(claim.status == 0, "\(claim)")
                #expect(try workspace.read(ana + "/cards/in-progress/task-1.md").contains("claimed-by: agent-wt"))
                #expect(!workspace.exists(linked + "/cards/in-progress/task-1.md"))
                let status = try workspace.kanban(["status", "--json"], in: linked)
                #expect(status.stdout.contains("\"reason\" : \"main-worktree\"") || status.stdout.contains("\"reason\": \"main-worktree\""), "\(status)")
                let text = try workspace.kanban(["status"], in: linked)
                #expect(text.stdout.contains("the main worktree's board"), "\(text)")
                // Naming the worktree's own board still works.
                let own = try workspace.kanban(["ready", "--board", linked], in: linked)
                #expect(own.stdout.contains("task-1"), "\(own)")
            }
        }

        @Test func doctorReportsDependencyListsSimpleKanbanDroppedUnknownSlugsAndCycles() throws {
            try withGitWorkspace { workspace in
                let (ana, _) = try workspace.makeSharedBoard()
                try addCards(4, workspace: workspace, in: ana)
                for (card, on) in [("task-2", "task-1"), ("task-3", "task-1"), ("task-4", "task-3")] {
                    #expect(try workspace.kanban(["depend", card, on, "--commit"], in: ana).status == 0)
                }
                // The app rewrites task-2 (moving it, say): only the keys it knows survive. Committed.
                let path = ana + "/cards/todo/task-2.md"
                let appVersion = try workspace.read(path).split(separator: "\n").filter { !$0.hasPrefix("depends-on:") }.joined(separator: "\n")
                try workspace.write(appVersion, to: path)
                try workspace.git(["commit", "--quiet", "-am", "Move card"], in: ana)
                // task-3's list is emptied on purpose: not a drop.
                #expect(try workspace.kanban(["depend", "task-3", "--remove", "task-1", "--commit"], in: ana).status == 0)
                #expect(try workspace.read(ana + "/cards/todo/task-3.md").contains("depends-on: []"))
                // A card waiting for one deleted since, and a cycle written by hand.
                #expect(try workspace.kanban(["depend", "task-1", "task-4"], in: ana).status == 0)
                #expect(try workspace.kanban(["delete", "task-4"], in: ana).status == 0)
                try workspace.write("---\ntitle: A\ncolumn: todo\nposition: x\ndepends-on: [b-card]\n---\n", to: ana + "/cards/todo/a-card.md")
                try workspace.write("---\ntitle: B\ncolumn: todo\nposition: y\ndepends-on: [a-card]\n---\n", to: ana + "/cards/todo/b-card.md")
                let doctor = try workspace.kanban(["doctor"], in: ana)
                let all = doctor.stdout + doctor.stderr
                #expect(all.contains("cards/todo/task-2.md") && all.contains("dropped 'depends-on: [task-1]'"), "\(doctor)")
                #expect(!all.contains("cards/todo/task-3.md"), "\(doctor)")
                #expect(all.contains("depends on 'task-4', which is not on the board"), "\(doctor)")
                #expect(all.contains("a-card → b-card → a-card"), "\(doctor)")
            }
        }

        @Test func dependCommandsShowWaitsAndRefuseCycles() throws {
            try withGitWorkspace { workspace in
                let (ana, _) = try workspace.makeSharedBoard()
                try addCards(3, workspace: workspace, in: ana)
                #expect(try workspace.kanban(["depend", "task-3", "task-1", "task-2"], in: ana).status == 0)
                let shown = try workspace.kanban(["depend", "task-3"], in: ana)
                #expect(shown.stdout.contains("task-1  not done"), "\(shown)")
                let cycle = try workspace.kanban(["depend", "task-1", "task-3"], in: ana)
                #expect(cycle.status == 1)
                #expect(cycle.stderr.contains("cycle: task-1 → task-3 → task-1"), "\(cycle)")
                let refused = try workspace.kanban(["claim", "task-3", "--as", "a"], in: ana)
                #expect(refused.status == 4, "\(refused)")
                #expect(refused.stderr.contains("waits for task-1, task-2"), "\(refused)")
                let blocks = try workspace.kanban(["show", "task-1"], in: ana)
                #expect(blocks.stdout.contains("blocks:"), "\(blocks)")
                // The board draws who holds a card and what a card waits for.
                #expect(try workspace.kanban(["claim", "task-1", "--as", "amy"], in: ana).status == 0)
                let board = try workspace.kanban(["board", "--color", "never"], in: ana, environment: ["COLUMNS": "120"])
                #expect(board.stdout.contains("task-1 ● amy"), "\(board)")
                #expect(board.stdout.contains("waits: task-1, task-2"), "\(board)")
            }
        }
    }
}

/// Sleeps until just after the next whole second, so that two stamps written before and after differ (cards keep whole
/// seconds).
func waitUntilNextSecond() throws {
    let now = Date().timeIntervalSince1970
    Thread.sleep(forTimeInterval: now.rounded(.down) + 1.05 - now)
}
