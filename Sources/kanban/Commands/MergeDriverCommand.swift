import Foundation
import KanbanCore
import KanbanGit

/// `kanban merge-driver BASE OURS THEIRS [PATH]`: git's merge driver for cards (`%O %A %B %P`).
enum MergeDriverCommand: KanbanCommand {
    static let conflictStatus = ExitCode(rawValue: 1)

    static let spec = CommandSpec(
        name: "merge-driver",
        abstract: "Merge two versions of a card for git (set up by 'kanban git-setup').",
        discussion: """
            git runs it as 'kanban merge-driver %O %A %B %P' when both sides of a merge or rebase changed a card. \
            The frontmatter merges key by key: a key one side changed takes that change; a key both changed takes \
            the value of the version with the later 'modified' (on a tie, the one whose column is further along \
            the board); labels merge as sets (added on either side kept, removed on either side removed); \
            'column' and 'position' go together. The bodies merge line by line; where both sides changed the same \
            lines, the later version's lines stay and the other side's are kept in a marked section at the end of \
            the card, for a person to tidy. Two different cards added under one name on both sides become one file \
            holding the other card in a marked section, which 'kanban sync' or 'kanban doctor --fix' makes a card \
            of its own. The result replaces OURS. It always gives a card, with no conflict markers, except when \
            the versions git gives it are of two different cards (git took one card for another renamed: their \
            'created' times differ, or the history holds the common version only under another card's name): then \
            it fails, leaving OURS as it was, so that git stops and 'kanban sync' merges the board card by card.
            """,
        arguments: [
            .required("base", help: "The common ancestor's version (git's %O)."),
            .required("ours", help: "The current branch's version, replaced by the merge (git's %A)."),
            .required("theirs", help: "The other branch's version (git's %B)."),
            .optional("path", help: "The card's path in the repository (git's %P), to find the board's columns."),
        ],
        exitStatuses: [
            ExitStatusHelp(.success, "The card merged (text both sides changed may be kept in a marked section)."),
            ExitStatusHelp(conflictStatus, "A version could not be read, the result could not be written, or the versions are of two different cards."),
            ExitStatusHelp(.usage, "The command line was wrong."),
        ])

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let oursPath = context.absolute(arguments.argument("ours") ?? "")
        let base = try read(arguments.argument("base") ?? "", context)
        let ours = try read(arguments.argument("ours") ?? "", context)
        let theirs = try read(arguments.argument("theirs") ?? "", context)
        let path = arguments.argument("path")
        let name = path ?? oursPath
        if !base.isEmpty, CardMerge.pairsDifferentCards(base: base, ours: ours, theirs: theirs) {
            // git took one card for another renamed (they look alike): merging would put one side's change on the
            // wrong card. Stop the merge on this file, left as it was, for 'kanban sync' to merge card by card.
            context.reportFailure("kanban merge-driver: \(name): git paired two different cards (their 'created' times differ) as versions of one; "
                                  + "left as it was: run 'kanban sync' to merge the board card by card")
            return conflictStatus
        }
        if !base.isEmpty, let path, let other = otherCardsPath(ofBase: arguments.argument("base") ?? "", resultPath: path, context) {
            // The same, for two cards made in the same second: the common version was another card's file.
            context.reportFailure("kanban merge-driver: \(name): git paired two different cards (the common version is '\(other)') as versions of one; "
                                  + "left as it was: run 'kanban sync' to merge the board card by card")
            return conflictStatus
        }
        var note: String?
        let merged: [UInt8]
        if CardMerge.areTwoCards(base: base, ours: ours, theirs: theirs) {
            // The card already pushed keeps the file; the local one is kept inside it. During a rebase the local
            // commit is "theirs"; during a merge it is "ours".
            let rebasing = isRebasing(context)
            merged = CardMerge.keeping(rebasing ? theirs : ours, in: rebasing ? ours : theirs)
            note = "two different cards were added under this name; the other one is kept inside it until 'kanban sync' or 'kanban doctor --fix' makes it a card of its own"
        } else {
            let outcome = CardMerge.merge(base: base, ours: ours, theirs: theirs, columnOrder: columnOrder(near: path, context))
            merged = outcome.bytes
            if outcome.keepsText {
                note = "both sides changed the same lines; the later version's are in place and the other side's are kept at the end of the card"
            }
        }
        do {
            try Data(merged).write(to: URL(fileURLWithPath: oursPath), options: .atomic)
        } catch {
            context.reportFailure("cannot write the merged card to '\(oursPath)': \(error.localizedDescription)")
            return conflictStatus
        }
        if let note, !context.isQuiet { context.errorOutput.writeLine("kanban merge-driver: \(name): \(note)") }
        return .success
    }

    /// Where the common version git gave the driver was another card's: one of the paths that held its bytes in the
    /// repository's history, when none of them can be the card at `path` (their slugs differ, see
    /// ``CardMerge/mayBeOneCard(path:path:)``). Nil when one can, and when git cannot say.
    private static func otherCardsPath(ofBase base: String, resultPath path: String, _ context: CommandContext) -> String? {
        guard let configuration = try? context.gitConfiguration(),
              let paths = GitSyncProvider.paths(holdingBytesOf: context.absolute(base), in: context.currentDirectory, configuration: configuration),
              !paths.isEmpty, !paths.contains(where: { CardMerge.mayBeOneCard(path: $0, path: path) }) else {
            return nil
        }
        return paths[0]
    }

    /// Whether git is in the middle of a rebase in the current directory's repository.
    private static func isRebasing(_ context: CommandContext) -> Bool {
        guard let configuration = try? context.gitConfiguration() else { return false }
        return GitSyncProvider.isRebasing(in: context.currentDirectory, configuration: configuration)
    }

    private static func read(_ path: String, _ context: CommandContext) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: context.absolute(path)) else {
            throw CommandFailure(message: "cannot read '\(path)'")
        }
        return [UInt8](data)
    }

    /// The column ids of the board that `path` (`<board>/cards/<column>/<card>.md` or `<board>/archive/<card>.md`,
    /// relative to the repository's top, where git runs drivers) is in; empty when it cannot be read.
    private static func columnOrder(near path: String?, _ context: CommandContext) -> [String] {
        guard let path else { return [] }
        var components = path.split(separator: "/").map(String.init)
        if components.count >= 3 && components[components.count - 3] == "cards" {
            components.removeLast(3)
        } else if components.count >= 2 && components[components.count - 2] == "archive" {
            components.removeLast(2)
        } else {
            return []
        }
        let directory = components.isEmpty ? context.currentDirectory : context.absolute(components.joined(separator: "/"))
        guard let board = try? BoardStore(directory: directory).loadBoard() else { return [] }
        return board.columns.map(\.id)
    }
}
