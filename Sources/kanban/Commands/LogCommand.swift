import Foundation
import KanbanCore
import KanbanServer

/// `kanban log CARD [--json]`: a card's history, one line per commit.
enum LogCommand: KanbanCommand {
    static let spec = CommandSpec(
        name: "log",
        abstract: "Show a card's history: one line per commit, across columns and the archive.",
        discussion: """
            Lists the commits that touched the card, newest first: '<commit> <date> <what it did> (<author>)'. The \
            card is followed by its slug through every column and the archive, so each move shows, however much \
            the card changed, and across a rename (a 'git mv' of its file, or a new slug a sync gave it) under its \
            former slug. A deleted card's history is found by its slug; a name no card ever had is an error (exit 1).

            --json prints an array of {"commit", "date", "author", "subject", "summary", "trailers": {...}, "path"}: \
            "summary" is what the commit did to this card (the subject, or for a commit of several cards the line \
            about this one), "path" the card's file after the commit (null when the commit removed it).

            Example:
              kanban log fix-login-bug
            """,
        arguments: [.required("card", help: "A slug, a unique slug prefix or a path (a deleted card: its slug).")],
        options: [CommonOptions.json])

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let reference = arguments.argument("card") ?? ""
        let provider = try context.syncProvider()
        let slug: String
        var notOnBoard: KanbanError?
        do {
            slug = try provider.store.card(context.cardReference(reference), in: .all).slug
        } catch {
            // A card that is gone from the board still has a history under its slug.
            guard error.code == .cardNotFound, Slug.isValid(reference) else { throw error }
            slug = reference
            notOnBoard = error
        }
        let entries = try provider.history(ofCard: slug)
        if entries.isEmpty, var error = notOnBoard {
            error.message = "no card on the board or in its history matches '\(reference)'"
            throw error
        }
        if arguments.flag("json") {
            context.printJSON(.array(entries.map { entry in
                .object([
                    "commit": .string(entry.commit),
                    "date": .string(JSON.timestamp(entry.date)),
                    "author": .string(entry.author),
                    "subject": .string(entry.subject),
                    "summary": .string(entry.cardSummary),
                    "trailers": .object(Dictionary(entry.trailers.map { ($0.key, JSON.string($0.value)) }, uniquingKeysWith: { first, _ in first })),
                    "path": entry.path.map(JSON.string) ?? .null,
                ])
            }))
            return .success
        }
        guard !entries.isEmpty else {
            if !context.isQuiet { context.errorOutput.writeLine("no commit touches '\(slug)' yet") }
            return .success
        }
        let stylist = context.stylist
        for entry in entries {
            let day = String(JSON.timestamp(entry.date).prefix(10))
            context.print("\(stylist.apply(.yellow, to: entry.shortCommit)) \(stylist.apply(.dim, to: day)) \(entry.cardSummary) \(stylist.apply(.dim, to: "(\(entry.author))"))")
        }
        return .success
    }
}
