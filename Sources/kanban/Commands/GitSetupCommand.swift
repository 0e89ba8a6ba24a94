import Foundation
import KanbanCore
import KanbanGit

/// `kanban git-setup [--driver COMMAND]`: register `kanban merge-driver` for the board's cards, and install the commit
/// hooks that give a delete committed with plain git its time.
enum GitSetupCommand: KanbanCommand {
    static func changesBoard(_ arguments: ParsedArguments) -> Bool { true }

    static let spec = CommandSpec(
        name: "git-setup",
        abstract: "Make git merge cards key by key (the kanban merge driver), and time deletes committed with plain git.",
        discussion: """
            Adds 'cards/**/*.md merge=kanban' and 'archive/*.md merge=kanban' to the board's .gitattributes (keeping \
            what is there), and sets merge.kanban.driver and merge.kanban.name in the repository's own git \
            configuration, with merge.directoryRenames = false: a column emptied by moves looks to git like a \
            renamed directory, and with its detection on a plain 'git pull' stops there or files other people's \
            new cards under the wrong column ('git config --local --unset merge.directoryRenames' undoes it; \
            'kanban sync' merges with it off whatever the setting). It also installs the prepare-commit-msg and \
            commit-msg hooks (in core.hooksPath when that is set), which give a commit made with plain git the \
            'Deleted: <slug> <time>' trailers kanban's own commits carry, so that a card deleted with 'kanban delete' \
            and committed later with 'git commit' counts from when it was deleted; without them it counts from the \
            commit's time. A hook of that name that is not kanban's is left as it is, with a warning giving the line \
            to add to it. Commit .gitattributes (or give --commit) to share it; git configuration and hooks are not \
            shared, so everyone runs 'kanban git-setup' once in their clone. Running it again changes nothing.
            """,
        options: [
            .option("driver", valueName: "command", help: "How git runs kanban (default: 'kanban' when that is this program on PATH, else this program's path)."),
        ])

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let provider = try context.syncProvider()
        let command = arguments.value("driver") ?? defaultCommand(context)
        let setup = try provider.setUpMergeDriver(command: command)
        let attributes = context.displayPath(setup.attributesPath, store: provider.store)
        if setup.addedAttributes.isEmpty {
            context.say("\(attributes) already sends cards to the kanban merge driver")
        } else {
            context.say("added to \(attributes): \(setup.addedAttributes.joined(separator: ", "))")
        }
        context.say(setup.driverChanged ? "set merge.kanban.driver = \(setup.driver)" : "merge.kanban.driver is already \(setup.driver)")
        context.say(setup.directoryRenamesChanged ? "set merge.directoryRenames = false" : "merge.directoryRenames is already false")
        for hook in try provider.setUpCommitHooks(command: command) {
            report(hook, context)
        }
        if !setup.addedAttributes.isEmpty {
            try context.commit(paths: [setup.attributesPath],
                               message: CommitMessage(subject: "Merge cards key by key with kanban merge-driver"))
        }
        return .success
    }

    /// One line for what became of a commit hook: on standard output when it is kanban's, else a warning.
    private static func report(_ hook: GitSyncProvider.CommitHookSetup, _ context: CommandContext) {
        let path = displayPath(hook.path, context)
        let warning = context.errorStylist.apply(.bold + .yellow, to: "warning")
        switch hook.outcome {
        case .installed:
            context.say("installed the \(hook.name) hook: \(path)")
        case .updated:
            context.say("updated the \(hook.name) hook: \(path)")
        case .unchanged:
            context.say("the \(hook.name) hook is already kanban's: \(path)")
        case .foreign:
            context.errorOutput.writeLine("""
                \(warning): \(path) is not kanban's hook; left as it is. So that a card deleted with 'kanban delete' and \
                committed with plain git counts from when it was deleted, add this line to it:
                  \(hook.line)
                """)
        case .failed(let reason):
            context.errorOutput.writeLine("\(warning): cannot install the \(hook.name) hook at \(path): \(reason); "
                                          + "a card deleted with 'kanban delete' and committed with plain git counts from the commit's time")
        }
    }

    /// `path` relative to the current directory when it is below it, else as it is.
    private static func displayPath(_ path: String, _ context: CommandContext) -> String {
        let here = FileSystemPaths.resolved(context.currentDirectory)
        return path.hasPrefix(here + "/") ? String(path.dropFirst(here.count + 1)) : path
    }

    /// `kanban` when that name on `PATH` is this program, else this program's absolute path, quoted for the shell.
    static func defaultCommand(_ context: CommandContext) -> String {
        let running = Platform.runningExecutable
        let path = context.environment["PATH"] ?? ""
        for directory in path.split(separator: ":") where directory.hasPrefix("/") {
            let candidate = String(directory) + "/kanban"
            if FileManager.default.isExecutableFile(atPath: candidate) {
                return FileSystemPaths.resolved(candidate) == running ? "kanban" : shellQuoted(running)
            }
        }
        return shellQuoted(running)
    }

    /// `path` as one shell word.
    static func shellQuoted(_ path: String) -> String {
        let plain = path.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || "/._-+".unicodeScalars.contains($0) }
        return plain ? path : "'" + path.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
