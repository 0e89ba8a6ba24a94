import KanbanCore
import KanbanGit

/// `kanban commit-msg-hook MESSAGE-FILE [SOURCE [COMMIT]]`: the `Deleted:` trailers of a commit made with plain git,
/// for the `prepare-commit-msg` and `commit-msg` hooks `kanban git-setup` installs.
///
/// Hidden from help: git runs it, not a person. It never stops a commit: whatever goes wrong, it says so on standard
/// error and exits 0.
enum CommitMsgHookCommand: KanbanCommand {
    static let spec = CommandSpec(
        name: "commit-msg-hook",
        abstract: "Add the 'Deleted:' trailers of a commit's card deletes to its message (git's commit hooks run it).",
        discussion: """
            The prepare-commit-msg and commit-msg hooks 'kanban git-setup' installs run it as 'kanban commit-msg-hook \
            "$1" "$2"'. For each card the commit deletes (its file staged for deletion, and no file of its slug left \
            on its board: not a move or an archive) whose delete 'kanban delete' noted in this clone, it adds \
            'Deleted: <slug> <time>' to the message, as kanban's own commits do, unless the message has a 'Deleted:' \
            trailer for that card already. Every clone's 'kanban sync' then counts the delete from when it was made, \
            not from when it was committed. A merge's message is left alone, and so is one with nothing written in \
            it yet (git opens the editor next, and an empty message must still abort the commit; the commit-msg hook \
            adds the trailers after the editor). It never stops a commit: when something goes wrong it leaves the \
            message as it was, says why on standard error and exits 0.
            """,
        arguments: [
            .required("message-file", help: "The file holding the commit message (the hook's $1)."),
            .optional("source", help: "Where the message comes from: message, template, merge, squash or commit (prepare-commit-msg's $2)."),
            .optional("commit", help: "The commit whose message is reused (prepare-commit-msg's $3; not needed)."),
        ],
        exitStatuses: [
            ExitStatusHelp(.success, "Always, whether it added trailers, had none to add or failed: a hook must not stop the commit."),
            ExitStatusHelp(.usage, "The command line was wrong (the hooks' line ends in '|| :', so the commit still goes ahead)."),
        ],
        isHidden: true)

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let path = context.absolute(arguments.argument("message-file") ?? "")
        let source = arguments.argument("source").flatMap { $0.isEmpty ? nil : $0 }
        let configuration = GitConfiguration(executable: GitConfiguration.locate(in: context.environment), environment: context.environment)
        do {
            _ = try GitSyncProvider.addDeletionTrailers(toMessageAt: path, source: source, in: context.currentDirectory,
                                                         configuration: configuration)
        } catch {
            // Never stop a commit: the cost of a failure is only that its deletes count from the commit's time.
            let label = context.errorStylist.apply(.bold + .yellow, to: "warning")
            let said = error.output.flatMap { $0.split(separator: "\n").first }.map { " (\($0))" } ?? ""
            context.errorOutput.writeLine("\(label): kanban commit-msg-hook: \(error.message)\(said); the commit goes ahead without "
                                          + "'Deleted:' trailers, so its card deletes count from the commit's time")
        }
        return .success
    }
}
