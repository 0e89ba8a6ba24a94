import Foundation
import KanbanCore
import KanbanGit
import KanbanServer

extension ExitCode {
    /// Someone else holds the card (also: another clone claimed it first, found by the sync): `3`.
    static let claimed: ExitCode = 3
    /// The card cannot be claimed (finished, started, waiting for others), or no card is ready: `4`.
    static let notReady: ExitCode = 4
}

/// The options every command of the work queue takes.
enum WorkQueueOptions {
    static let start = OptionSpec.option("start", valueName: "column", help: "The start column (default: board.md's 'start-column', else the column called In Progress or Doing, else the second).")
    static let done = OptionSpec.option("done", valueName: "column", help: "The done column (default: board.md's 'done-column', else the last).")
    static let name = OptionSpec.option("as", valueName: "name", help: "Whose claim (default: $KANBAN_AGENT, else git's user.name).")
    static let sync = OptionSpec.flag("sync", help: "Commit, and sync with the other clones before and after (kanban sync), so that a card claimed on two clones goes to one.")

    static let exitStatuses = [
        ExitStatusHelp(.success, "Done."),
        ExitStatusHelp(.failure, "Failure; the reason was written to standard error."),
        ExitStatusHelp(.claimed, "Someone else holds the card (with --sync: another clone claimed it first); the holder is named."),
        ExitStatusHelp(.notReady, "The card is done, started, or waits for cards not done; with --next, no card is ready."),
        ExitStatusHelp(.usage, "The command line was wrong."),
    ]

    /// The exit status for a refused claim, and the error reported.
    static func status(of error: KanbanError) -> ExitCode? {
        switch error.code {
        case .claimed: .claimed
        case .notReady: .notReady
        default: nil
        }
    }

    /// The lines of a sync a claim or release made: as `kanban sync` prints them, or, after `--json`, on standard
    /// error (standard output holds only the JSON).
    static func show(_ reports: [SyncReport], board: Board?, _ arguments: ParsedArguments, _ context: CommandContext) {
        for step in reports.flatMap(\.steps) {
            for line in step.lines(board: board) {
                if arguments.flag("json"), case .said(let text) = line {
                    if !context.isQuiet { context.errorOutput.writeLine(text) }
                } else {
                    SyncCommand.show(line, context: context)
                }
            }
        }
    }

    /// The claim's name: `--as`, else the default.
    static func holder(_ arguments: ParsedArguments, _ context: CommandContext) throws -> String {
        if let name = arguments.value("as") { return name }
        guard let name = try context.syncProvider().claimName(environment: context.environment) else {
            throw CommandFailure(message: "no name for the claim: give --as NAME, or set KANBAN_AGENT or git's user.name")
        }
        return name
    }
}

/// `kanban ready [--json]`: the cards an agent may start.
enum ReadyCommand: KanbanCommand {
    static let spec = CommandSpec(
        name: "ready",
        abstract: "List the cards that may be started: dependencies done, held by no one.",
        discussion: """
            A card is ready when it stands in a column before the start column, every card it depends on \
            ('depends-on', see 'kanban depend') is done (in the done column or after it, or archived), and no one \
            holds it ('kanban claim'). Cards are listed in board order: the first is what 'kanban claim --next' takes.

            --json prints the cards as 'kanban list --json' does.

            Examples:
              kanban ready
              kanban ready --json | jq -r '.[0].slug'
            """,
        options: [WorkQueueOptions.start, WorkQueueOptions.done, CommonOptions.json])

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let queue = try context.store().workQueue(start: arguments.value("start"), done: arguments.value("done"))
        let ready = queue.ready
        if arguments.flag("json") {
            JSONCardArrayWriter.write(ready, to: context.output)
            return .success
        }
        guard !ready.isEmpty else {
            context.say("No card is ready (none before \(queue.flow.startColumn) is free with its dependencies done).")
            return .success
        }
        let board = try context.store().loadBoard()
        let width = ready.map(\.slug.terminalWidth).max() ?? 0
        for card in ready {
            let slug = context.stylist.apply(.bold, to: VisibleControls.visible(card.slug).padded(toWidth: width))
            context.print("\(slug)  \(VisibleControls.visible(card.title))  \(context.stylist.apply(.dim, to: "(" + board.columnName(card.column) + ")"))")
        }
        return .success
    }
}

/// `kanban claim CARD | --next [--as NAME] [--sync] [--json]`.
enum ClaimCommand: KanbanCommand {
    /// A shared claim makes its own change and syncs; the command does not run inside one.
    static func changesBoard(_ arguments: ParsedArguments) -> Bool { !arguments.flag("sync") }

    static let spec = CommandSpec(
        name: "claim",
        abstract: "Take a card: record who holds it and move it to the start column.",
        discussion: """
            Records 'claimed-by' (--as, else $KANBAN_AGENT, else git's user.name) and 'claimed-at' in the card \
            and moves it to the bottom of the start column, in one write under the board's lock: two processes \
            claiming at once never get the same card. --next takes the first ready card ('kanban ready'). Claiming \
            a card you hold already changes nothing.

            With --sync the claim is committed and shared: a sync first, so other clones' claims are seen, then \
            the claim, then a sync that pushes it. When that sync meets a claim of the same card another clone \
            shared first, this claim gives way to it: the one told it succeeded keeps the card. This one is told \
            (exit status 3, naming the holder), or, with --next, the next ready card is taken instead. Merges of \
            claims that met otherwise keep the earlier claim (ties: the name that sorts first) on every clone alike; \
            'kanban sync' says when it dropped one held here.

            --json prints the card as 'kanban show --json' does.

            Examples:
              kanban claim --next --as agent-1 --sync --json
              kanban claim fix-login
            """,
        usage: "kanban claim (<card> | --next) [--as <name>] [--sync] [--json]",
        arguments: [.optional("card", help: "A slug, a unique slug prefix or a path.")],
        options: [
            .flag("next", short: "n", help: "Claim the first ready card."),
            WorkQueueOptions.name, WorkQueueOptions.sync, WorkQueueOptions.start, WorkQueueOptions.done, CommonOptions.json,
        ],
        exitStatuses: WorkQueueOptions.exitStatuses)

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let reference = arguments.argument("card").map(context.cardReference)
        if reference == nil && !arguments.flag("next") { throw arguments.usageError("name a card, or give --next for the first ready one") }
        if reference != nil && arguments.flag("next") { throw arguments.usageError("give a card or --next, not both") }
        let holder = try WorkQueueOptions.holder(arguments, context)
        let isJSON = arguments.flag("json")
        do {
            let session = try context.session()
            let board = try session.store.loadBoard()
            let outcome = try session.claim(reference, as: holder, start: arguments.value("start"), done: arguments.value("done"),
                                            sharing: arguments.flag("sync"))
            WorkQueueOptions.show(outcome.syncs, board: board, arguments, context)
            for (slug, winner) in outcome.lost {
                context.errorOutput.writeLine("\(context.errorStylist.apply(.bold + .yellow, to: "warning")): \(slug) was claimed first by \(winner) on another clone; trying the next ready card")
            }
            context.note(outcome.commit)
            if let unshared = outcome.unshared {
                context.errorOutput.writeLine("\(context.errorStylist.apply(.bold + .yellow, to: "warning")): the claim stands, committed here, but could not be shared: \(unshared.message); the next 'kanban sync' sends it (and says if another clone claimed the card first)")
            }
            context.warn(outcome.claim.change.overLimit)
            let card = outcome.claim.card
            if isJSON {
                try context.printCardsJSON([card])
            } else if outcome.claim.wasHeld {
                context.say("\(card.slug) is already yours (\(holder))")
            } else {
                context.say("claimed \(card.slug) as \(holder): \(VisibleControls.visible(card.title)) → \(board.columnName(card.column))")
            }
            return .success
        } catch let error as KanbanError {
            guard let status = WorkQueueOptions.status(of: error) else { throw error }
            context.report(error)
            return status
        }
    }
}

/// `kanban release CARD [--as NAME] [--force] [--sync]`.
enum ReleaseCommand: KanbanCommand {
    static func changesBoard(_ arguments: ParsedArguments) -> Bool { !arguments.flag("sync") }

    static let spec = CommandSpec(
        name: "release",
        abstract: "Give a card back: remove its claim and return it to the queue.",
        discussion: """
            Removes 'claimed-by' and 'claimed-at' and, unless the card is done, moves it to the top of the last \
            column before the start column, where the next 'kanban claim --next' finds it first. A card held by \
            someone else is refused unless --force is given.

            Examples:
              kanban release fix-login
              kanban release fix-login --force --sync
            """,
        arguments: [.required("card", help: "A slug, a unique slug prefix or a path.")],
        options: [
            WorkQueueOptions.name,
            .flag("force", short: "f", help: "Release a card someone else holds."),
            WorkQueueOptions.sync, WorkQueueOptions.start, WorkQueueOptions.done, CommonOptions.json,
        ],
        exitStatuses: [
            ExitStatusHelp(.success, "Released."),
            ExitStatusHelp(.failure, "Failure; the reason was written to standard error."),
            ExitStatusHelp(.claimed, "Someone else holds the card (give --force to release it anyway); the holder is named."),
            ExitStatusHelp(.notReady, "No one holds the card."),
            ExitStatusHelp(.usage, "The command line was wrong."),
        ])

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let reference = context.cardReference(arguments.argument("card") ?? "")
        let holder = arguments.flag("force") ? nil : try WorkQueueOptions.holder(arguments, context)
        do {
            let session = try context.session()
            let board = try session.store.loadBoard()
            let (released, commit, report) = try session.release(reference, by: holder, start: arguments.value("start"),
                                                                done: arguments.value("done"), sharing: arguments.flag("sync"))
            context.note(commit)
            WorkQueueOptions.show(report.map { [$0] } ?? [], board: board, arguments, context)
            if arguments.flag("json") {
                try context.printCardsJSON([released.card])
            } else {
                context.say("released \(released.card.slug) (\(board.columnName(released.card.column)))")
            }
            return .success
        } catch let error as KanbanError {
            guard let status = WorkQueueOptions.status(of: error) else { throw error }
            context.report(error)
            return status
        }
    }
}

/// `kanban depend CARD [ON...] [--remove SLUG]...`.
enum DependCommand: KanbanCommand {
    static func changesBoard(_ arguments: ParsedArguments) -> Bool {
        !arguments.arguments("on").isEmpty || !arguments.values("remove").isEmpty
    }

    static let spec = CommandSpec(
        name: "depend",
        abstract: "Say which cards a card waits for, or show what it waits for and blocks.",
        discussion: """
            A card waits for the cards its 'depends-on' list names (slugs): it is not ready ('kanban ready') until \
            each is done or archived. Naming cards adds them; --remove takes them out. Each must be a card on the \
            board, not the card itself, and no cycle may form. With no card to add or remove, prints what the card \
            waits for (and whether each is done) and which cards wait for it.

            SimpleKanban does not know 'depends-on' and drops it when it rewrites a card; 'kanban doctor' reports \
            a list dropped that way in a commit.

            Examples:
              kanban depend deploy-docs write-docs review-docs
              kanban depend deploy-docs --remove review-docs
              kanban depend deploy-docs
            """,
        usage: "kanban depend <card> [<on>...] [--remove <card>]... [--json]",
        arguments: [
            .required("card", help: "The card that waits."),
            .repeating("on", help: "Cards it waits for.", isOptional: true),
        ],
        options: [
            .option("remove", short: "r", valueName: "card", help: "Stop waiting for this card (repeatable).", isRepeatable: true),
            CommonOptions.json,
        ])

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let store = try context.store()
        let reference = context.cardReference(arguments.argument("card") ?? "")
        let added = arguments.arguments("on").map(context.cardReference)
        let removed = arguments.values("remove")
        var card = try store.card(reference, in: .active)
        if !added.isEmpty || !removed.isEmpty {
            let change = try store.setDependencies(of: card.path, adding: added, removing: removed)
            try context.commit(change)
            card = change.card ?? card
        }
        let queue = try store.workQueue()
        if arguments.flag("json") {
            context.printJSON(WorkJSON.work(of: card, in: queue))
            return .success
        }
        let waits = card.dependencies
        if waits.isEmpty {
            context.print("\(card.slug) waits for no card")
        } else {
            context.print("\(card.slug) waits for:")
            for slug in waits {
                let state = queue.isDone(slug) ? "done" : (queue.exists(slug) ? "not done" : "not on the board")
                context.print("  \(slug)  \(context.stylist.apply(queue.isDone(slug) ? .green : .yellow, to: state))")
            }
        }
        let blocks = queue.dependents(of: card.slug)
        if !blocks.isEmpty { context.print("blocks: \(blocks.joined(separator: ", "))") }
        return .success
    }
}
