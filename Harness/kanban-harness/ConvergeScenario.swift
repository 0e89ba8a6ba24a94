import Foundation

/// A scripted run: a few steps on two clones that each show one way the promise can break, judged by the same final
/// rounds and checks as a random run (`kanban-harness converge --scenario NAME`, or `all`).
///
/// Every scenario starts from the creator's board: `i-1` and `i-5` in Doing, `i-2` in Review, `i-3` in Done, `i-4` in
/// To Do, each with one body line (`Li-<n>`).
struct ConvergeScenario: Sendable {
    enum Step: Sendable {
        case act(Int, ConvergeAction)
        /// A sync; with a plain git method, pending changes are committed with `git commit`.
        case sync(Int, ConvergeSyncMethod)
        /// Waits, so that the next step's times (whole seconds) differ from the last one's: whether a changed card
        /// keeps its `modified` line decides whether git sees a move as a rename.
        case pause(Double)
        /// Waits for the start of the next second, so that the next few steps share their times.
        case startOfSecond
    }

    var name: String
    /// What the clones do, and what should happen.
    var summary: String
    var cloneCount = 2
    var steps: [Step]

    /// c0 and c1 each add a card titled "Twin", c1 a second later, in another column; c1 pulls c0's with
    /// `git pull --no-rebase` (two files, one slug); c2's sync renames c1's card (created later); a second passes.
    private static let twinRenamed: [Step] = [.act(0, .add(title: "Twin", column: "todo")), .pause(1.1), .act(1, .add(title: "Twin", column: "done")),
                                              .sync(0, .kanban), .sync(1, .pullMerge), .sync(2, .kanban), .pause(1.1)]

    static let all: [ConvergeScenario] = [
        ConvergeScenario(name: "delete-vs-move", summary: "c0 deletes a card, c1 moves it; both sync",
                         steps: [.act(0, .delete("i-4")), .act(1, .move("i-4", to: "done")), .sync(0, .kanban), .sync(1, .kanban)]),
        ConvergeScenario(name: "delete-vs-edit", summary: "c0 deletes a card, c1 then appends to its body; both sync",
                         steps: [.act(0, .delete("i-4")), .act(1, .append("i-4")), .sync(0, .kanban), .sync(1, .kanban)]),
        ConvergeScenario(name: "edit-then-delete", summary: "c0 appends to a card's body, c1 then deletes it and syncs; c0 syncs (the card must stay deleted)",
                         steps: [.act(0, .append("i-4")), .act(1, .delete("i-4")), .sync(1, .kanban), .sync(0, .kanban)]),
        ConvergeScenario(name: "archive-vs-delete", summary: "c0 archives a card, c1 deletes it; both sync",
                         steps: [.act(0, .archive("i-4")), .act(1, .delete("i-4")), .sync(0, .kanban), .sync(1, .kanban)]),
        ConvergeScenario(name: "append-both", summary: "c0 and c1 each append a line at the end of one card's body; both sync (both lines must survive)",
                         steps: [.act(0, .append("i-4")), .act(1, .append("i-4")), .sync(0, .kanban), .sync(1, .kanban)]),
        ConvergeScenario(name: "replace-both", summary: "c0 and c1 each replace the same body line of one card; both sync (both new lines must survive)",
                         steps: [.act(0, .replace("i-4", line: 0)), .act(1, .replace("i-4", line: 0)), .sync(0, .kanban), .sync(1, .kanban)]),
        ConvergeScenario(name: "same-title", summary: "c0 and c1 each add a card titled \"Shared task 1\" (so the same slug), a second apart; both sync (two cards must survive)",
                         steps: [.act(0, .add(title: "Shared task 1", column: "todo")), .pause(1.1), .act(1, .add(title: "Shared task 1", column: "todo")),
                                 .sync(0, .kanban), .sync(1, .kanban)]),
        ConvergeScenario(name: "same-title-same-second", summary: "c0 and c1 each add a card titled \"Shared task 1\" with the same body within one second; both sync (two cards must survive)",
                         steps: [.startOfSecond, .act(0, .add(title: "Shared task 1", column: "todo", body: ["Same words"])),
                                 .act(1, .add(title: "Shared task 1", column: "todo", body: ["Same words"])), .sync(0, .kanban), .sync(1, .kanban)]),
        ConvergeScenario(name: "same-title-other-column", summary: "c0 adds a card titled \"Shared task 1\" to To Do, c1 one with the same title to Doing; both sync (two cards must survive)",
                         steps: [.act(0, .add(title: "Shared task 1", column: "todo")), .act(1, .add(title: "Shared task 1", column: "doing")),
                                 .sync(0, .kanban), .sync(1, .kanban)]),
        ConvergeScenario(name: "emptied-column", summary: "c0 moves both cards of Doing to Done, c1 adds a card to Doing; both sync",
                         steps: [.act(0, .move("i-1", to: "done")), .act(0, .move("i-5", to: "done")),
                                 .act(1, .add(title: "New in Doing", column: "doing")), .sync(0, .kanban), .sync(1, .kanban)]),
        ConvergeScenario(name: "emptied-column-split", summary: "c0 moves one card of Doing to Done and the other to To Do, c1 adds a card to Doing; both sync",
                         steps: [.act(0, .move("i-1", to: "done")), .act(0, .move("i-5", to: "todo")),
                                 .act(1, .add(title: "New in Doing", column: "doing")), .sync(0, .kanban), .sync(1, .kanban)]),
        ConvergeScenario(name: "move-vs-move-git-merge", summary: "c0 and c1 move one card to different columns; c0 syncs with kanban sync, c1 with git pull --no-rebase",
                         steps: [.pause(1.1), .act(0, .move("i-4", to: "doing")), .act(1, .move("i-4", to: "done")), .sync(0, .kanban), .sync(1, .pullMerge)]),
        ConvergeScenario(name: "archive-vs-move-git-merge", summary: "c0 archives a card, c1 moves it; c0 syncs with kanban sync, c1 with git pull --no-rebase",
                         steps: [.pause(1.1), .act(0, .archive("i-4")), .act(1, .move("i-4", to: "done")), .sync(0, .kanban), .sync(1, .pullMerge)]),
        // Step numbers are operation numbers, so the card c0 adds at step 1 is c0-1, and the one c1 adds at step 3 is c1-3.
        ConvergeScenario(name: "merged-in-then-deleted",
                         summary: "c0 adds a card and c3 pulls it; c0 appends a line; c2, which never had the card, syncs a change of its own (its merge brings the card in); c1 pulls that and deletes the card; c3 then retitles it and syncs (the card stays, with the line)",
                         cloneCount: 4,
                         steps: [.act(0, .add(title: "Late card", column: "todo")), .sync(0, .kanban), .sync(3, .kanban),
                                 .act(0, .append("c0-1")), .sync(0, .kanban), .act(2, .append("i-4")), .sync(2, .kanban), .sync(1, .kanban),
                                 .pause(1.1), .act(1, .delete("c0-1")), .sync(1, .kanban), .pause(1.1), .act(3, .retitle("c0-1")),
                                 .sync(3, .kanban)]),
        ConvergeScenario(name: "renamed-vs-archive",
                         summary: "c0 and c1 each add a card titled \"Twin\", c1 a second later, in another column; c1 pulls c0's with git pull --no-rebase (two files, one slug); c2's sync renames c1's card (created later); c1 archives it under its old slug and syncs (one card, archived, renamed)",
                         cloneCount: 3,
                         steps: twinRenamed + [.act(1, .archive("c1-3")),
                                 .sync(1, .kanban)]),
        ConvergeScenario(name: "renamed-vs-delete",
                         summary: "as renamed-vs-archive, but c1 deletes its card under its old slug and syncs; c2 syncs (the renamed card is deleted)",
                         cloneCount: 3,
                         steps: twinRenamed + [.act(1, .delete("c1-3")),
                                 .sync(1, .kanban), .sync(2, .kanban)]),
        ConvergeScenario(name: "renamed-vs-delete-then-edit",
                         summary: "as renamed-vs-delete, but c2, which renamed the card, appends a line to it after the delete, then both sync (the card stays, renamed, with the line)",
                         cloneCount: 3,
                         steps: twinRenamed + [.act(1, .delete("c1-3")),
                                 .pause(1.1), .act(2, .append("c1-3")), .sync(1, .kanban), .sync(2, .kanban)]),
    ]

    static func named(_ name: String) -> ConvergeScenario? {
        all.first { $0.name == name }
    }

    /// `  delete-vs-move         c0 deletes a card, ...`, one line per scenario.
    static var list: String {
        let width = (all.map(\.name.count).max() ?? 0) + 2
        return all.map { "  " + $0.name.padding(toLength: width, withPad: " ", startingAt: 0) + $0.summary }.joined(separator: "\n")
    }
}

extension ConvergeRun {
    /// Runs the scenario's steps in order; step numbers play the part of operation numbers.
    func play(_ scenario: ConvergeScenario) throws {
        for (index, step) in scenario.steps.enumerated() {
            let number = index + 1
            switch step {
            case .act(let clone, let action):
                try perform(action, number: number, on: clones[clone], board: ConvergeBoardFiles(reading: clones[clone].directory))
            case .sync(let clone, let method):
                // A person who pulls with git commits with git too.
                workSyncs.append(try sync(clones[clone], method: method, operation: number, round: nil, committingWithKanban: false))
            case .pause(let seconds):
                Thread.sleep(forTimeInterval: seconds)
            case .startOfSecond:
                let now = Date().timeIntervalSince1970
                Thread.sleep(forTimeInterval: now.rounded(.up) - now + 0.01)
            }
        }
    }
}
