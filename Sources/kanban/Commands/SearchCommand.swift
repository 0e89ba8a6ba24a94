import Foundation
import KanbanCore
import KanbanServer

/// `kanban search QUERY [--archived] [--json]` and `kanban search --regex PATTERN`.
enum SearchCommand: KanbanCommand {
    static let spec = CommandSpec(
        name: "search",
        abstract: "Find cards by words in their title, body and labels.",
        discussion: """
            Words match ignoring case and diacritics, and every word must match. "Quoted phrases" match as a \
            whole. label:ID, column:ID and title:WORD look in one place only; a leading '-' negates any term.

            Examples:
              kanban search login safari
              kanban search '"error page"' label:bug -column:done
              kanban search --regex 'TODO|FIXME'

            A card file that cannot be parsed is reported when it holds the words searched for; files that \
            certainly do not match are not parsed at all.

            --all-boards searches every board 'kanban boards' finds (under the git work tree's top, else the \
            current directory; --boards-in DIR looks under DIR): each board's results under its name, and in \
            --json each card with a "board" key.
            """,
        arguments: [.repeating("query", help: "Words, \"phrases\", label:ID, column:ID, title:WORD, -TERM.", isOptional: true)],
        options: [
            .option("regex", short: "e", valueName: "pattern", help: "Match a regular expression against titles and body lines instead."),
            .flag("archived", help: "Search archived cards too."),
            .flag("all-boards", help: "Search every board under the repository (or --boards-in DIR)."),
            .option("boards-in", valueName: "directory", help: "With --all-boards: where to look for boards."),
            CommonOptions.json,
        ],
        exitStatuses: [
            ExitStatusHelp(ExitCode(rawValue: 0), "At least one card matched."),
            ExitStatusHelp(ExitCode(rawValue: 1), "No card matched, or the search failed."),
            ExitStatusHelp(ExitCode(rawValue: 64), "The command line was wrong."),
        ])

    /// Lets negated terms through the option parser: in `kanban search login -label:wontfix`, a word that starts
    /// with `-` and is not one of the options `search` takes is a query term, so it is moved after a `--`.
    static func preparing(_ argv: [String]) -> [String] {
        guard !argv.contains("--") else { return argv }
        // Find the subcommand: the first word that is not a global option or its value.
        var start = 0
        while start < argv.count, argv[start].hasPrefix("-") {
            start += ["-C", "--board", "--color"].contains(argv[start]) ? 2 : 1
        }
        guard start < argv.count, argv[start] == spec.name else { return argv }
        let known: Set<String> = ["-e", "-h", "-q", "-C"]
        var kept: [String] = Array(argv[...start])
        var terms: [String] = []
        var takesValue = false
        for token in argv[(start + 1)...] {
            if takesValue {
                kept.append(token)
                takesValue = false
            } else if token.hasPrefix("-") && !token.hasPrefix("--") && token.count > 1 && !known.contains(token) {
                terms.append(token)
            } else {
                kept.append(token)
                takesValue = ["-e", "--regex", "-C", "--board", "--color"].contains(token)
            }
        }
        return terms.isEmpty ? argv : kept + ["--"] + terms
    }

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let words = arguments.arguments("query")
        let query: CardQuery
        if let pattern = arguments.value("regex") {
            guard words.isEmpty else { throw arguments.usageError("give either a query or --regex, not both") }
            do {
                query = try CardQuery(regularExpression: pattern)
            } catch {
                throw arguments.usageError(error.message)
            }
        } else {
            guard !words.isEmpty else { throw arguments.usageError("missing argument '<query>'") }
            do {
                query = try CardQuery(parsing: words.joined(separator: " "))
            } catch {
                throw arguments.usageError(error.message)
            }
        }
        if arguments.flag("all-boards") || arguments.value("boards-in") != nil {
            return try searchEveryBoard(query, arguments, context)
        }
        let store = try context.store()
        let (hits, diagnostics) = try store.search(query, in: arguments.flag("archived") ? .all : .active)
        KeptUntilExit.keep(hits)
        context.warn(diagnostics)
        if arguments.flag("json") {
            JSONCardArrayWriter.write(hits, to: context.output)
            return hits.isEmpty ? .failure : .success
        }
        // On a terminal a result stays on one line; piped output keeps whole lines for scripts.
        let renderer = SearchRenderer(hits: hits, stylist: context.stylist, width: context.isOutputTerminal ? context.width : nil)
        ChunkedText.write(count: hits.count, to: context.output, renderer.lines)
        return hits.isEmpty ? .failure : .success
    }

    /// The search on every board under the repository (or `--boards-in`): each board's hits under its name.
    private static func searchEveryBoard(_ query: CardQuery, _ arguments: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let directory = arguments.value("boards-in").map(context.absolute)
            ?? BoardsCommand.workTreeTop(from: context.currentDirectory) ?? context.currentDirectory
        var results: [(board: FoundBoard, hits: [SearchHit])] = []
        for found in try BoardDiscovery.boards(under: directory) {
            if let error = found.error {
                context.errorOutput.writeLine("\(found.errorLocation ?? found.name): warning: \(error.message); board skipped")
                continue
            }
            let store = try BoardStore(directory: found.directory, index: context.indexPlacement)
            let (hits, diagnostics) = try store.search(query, in: arguments.flag("archived") ? .all : .active)
            context.warn(diagnostics)
            if !hits.isEmpty { results.append((found, hits)) }
        }
        if arguments.flag("json") {
            context.printJSON(.array(results.flatMap { result in
                result.hits.map { hit -> JSON in
                    guard case .object(var members) = JSON(card: hit.card) else { return JSON(card: hit.card) }
                    members["board"] = .string(result.board.name)
                    return .object(members)
                }
            }))
            return results.isEmpty ? .failure : .success
        }
        for (index, result) in results.enumerated() {
            if index > 0 { context.output.writeLine("") }
            let title = result.board.board.map { "  " + context.stylist.apply(.dim, to: $0.title) } ?? ""
            context.output.writeLine(context.stylist.apply(.bold, to: result.board.name) + title)
            let renderer = SearchRenderer(hits: result.hits, stylist: context.stylist, width: context.isOutputTerminal ? context.width : nil)
            ChunkedText.write(count: result.hits.count, to: context.output, renderer.lines)
        }
        return results.isEmpty ? .failure : .success
    }
}
