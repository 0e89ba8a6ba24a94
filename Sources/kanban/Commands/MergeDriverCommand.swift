import Foundation
import KanbanCore

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
            'column' and 'position' go together. The bodies merge with 'git merge-file': conflict markers are left \
            only where both sides changed the same lines. The result replaces OURS.
            """,
        arguments: [
            .required("base", help: "The common ancestor's version (git's %O)."),
            .required("ours", help: "The current branch's version, replaced by the merge (git's %A)."),
            .required("theirs", help: "The other branch's version (git's %B)."),
            .optional("path", help: "The card's path in the repository (git's %P), to find the board's columns."),
        ],
        exitStatuses: [
            ExitStatusHelp(.success, "The card merged cleanly."),
            ExitStatusHelp(conflictStatus, "Both sides changed the same body lines: conflict markers were left (or the merge failed)."),
            ExitStatusHelp(.usage, "The command line was wrong."),
        ])

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let oursPath = context.absolute(arguments.argument("ours") ?? "")
        let base = try read(arguments.argument("base") ?? "", context)
        let ours = try read(arguments.argument("ours") ?? "", context)
        let theirs = try read(arguments.argument("theirs") ?? "", context)
        let path = arguments.argument("path")
        let outcome = try CardMerge.merge(base: base, ours: ours, theirs: theirs, columnOrder: columnOrder(near: path, context),
                                          configuration: try context.gitConfiguration())
        do {
            try Data(outcome.bytes).write(to: URL(fileURLWithPath: oursPath), options: .atomic)
        } catch {
            throw CommandFailure(message: "cannot write the merged card to '\(oursPath)': \(error.localizedDescription)")
        }
        guard !outcome.hasConflicts else {
            context.errorOutput.writeLine("kanban merge-driver: \(path ?? oursPath): both sides changed the same lines of the body; conflict markers left")
            return conflictStatus
        }
        return .success
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
