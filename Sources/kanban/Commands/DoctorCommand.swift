import KanbanCore

/// `kanban doctor [--fix] [--json]`.
enum DoctorCommand: KanbanCommand {
    static func changesBoard(_ arguments: ParsedArguments) -> Bool { arguments.flag("fix") }

    static let spec = CommandSpec(
        name: "doctor",
        abstract: "Check the board for problems, and repair the safe ones.",
        discussion: """
            Prints every problem as 'path:line:column: error|warning: message' and exits 1 if any is an error. \
            --fix repairs what is safe, touching as few files as possible: stale 'column:' fields, duplicate, \
            missing or over-long positions (keeping the order you see), and cards without frontmatter. Files \
            that do not parse, conflict markers, duplicate slugs and undeclared columns or labels are left to you. \
            The board's index (a cache of the cards, kept in .git/kanban-index or ~/.cache/kanban) is checked \
            against the files too; --fix builds it again.
            """,
        options: [
            .flag("fix", help: "Repair what is safe and say what changed."),
            CommonOptions.json,
        ],
        exitStatuses: [
            ExitStatusHelp(ExitCode(rawValue: 0), "No errors (there may be warnings)."),
            ExitStatusHelp(ExitCode(rawValue: 1), "At least one error remains, or the check failed."),
            ExitStatusHelp(ExitCode(rawValue: 64), "The command line was wrong."),
        ])

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let store = try context.store()
        var repairs: [Repair] = []
        var repairChange: BoardChange?
        if arguments.flag("fix") {
            let repaired = try store.repair()
            repairs = repaired.repairs
            repairChange = repaired.change
        }
        // --fix always builds the index again (it is only a cache); it says so when the old one was wrong.
        var indexRebuilt: Int?
        if arguments.flag("fix") {
            let disagreeing = try store.checkIndex().disagreeingPaths
            let count = try store.rebuildIndex()
            if !disagreeing.isEmpty { indexRebuilt = count }
        }
        // A dependency list a commit (or an uncommitted rewrite) dropped, as SimpleKanban's rewrite of a card does.
        let diagnostics = try store.check() + ((try? context.syncProvider())?.droppedDependencies() ?? [])
        let index = try store.checkIndex()
        // An entry that matches its file's stat data but not its contents would give wrong answers: an error.
        let indexProblems = index.disagreeingPaths.map { path in
            (path: path, message: "the board index disagrees with what is on disk here although the stat data match; 'kanban doctor --fix' rebuilds the index (\(index.path ?? "index"))")
        }
        if arguments.flag("json") {
            context.printJSON(.object([
                "repairs": .array(repairs.map { .object(["code": .string($0.code.rawValue), "path": .string($0.path), "summary": .string($0.summary)]) }),
                "problems": .array(diagnostics.map { diagnostic in
                    .object([
                        "severity": .string(diagnostic.severity.rawValue), "code": .string(diagnostic.code.rawValue),
                        "path": .string(diagnostic.location.path), "line": diagnostic.location.line.map { .number(String($0)) } ?? .null,
                        "column": diagnostic.location.column.map { .number(String($0)) } ?? .null, "message": .string(diagnostic.message),
                    ])
                } + indexProblems.map { problem in
                    .object([
                        "severity": .string("error"), "code": .string("index-disagrees"), "path": .string(problem.path),
                        "line": .null, "column": .null, "message": .string(problem.message),
                    ])
                }),
            ]))
        } else {
            let stylist = context.stylist
            for repair in repairs {
                context.say("\(stylist.apply(.green, to: "fixed")) \(repair.path): \(repair.summary)")
            }
            if let indexRebuilt {
                context.say("\(stylist.apply(.green, to: "fixed")) board index: rebuilt from the files (\(indexRebuilt) card\(indexRebuilt == 1 ? "" : "s"))")
            }
            for diagnostic in diagnostics {
                let label = diagnostic.severity == .error ? stylist.apply(.bold + .red, to: "error") : stylist.apply(.bold + .yellow, to: "warning")
                context.print("\(diagnostic.location): \(label): \(diagnostic.message)")
            }
            for problem in indexProblems {
                context.print("\(problem.path): \(stylist.apply(.bold + .red, to: "error")): \(problem.message)")
            }
            let errors = diagnostics.filter { $0.severity == .error }.count + indexProblems.count
            let warnings = diagnostics.count + indexProblems.count - errors
            if !context.isQuiet {
                let summary = diagnostics.isEmpty && indexProblems.isEmpty ? "no problems found" : "\(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")"
                context.errorOutput.writeLine(summary + (repairs.isEmpty ? "" : "; \(repairs.count) repaired"))
            }
        }
        if let repairChange, !repairs.isEmpty {
            try context.commit(repairChange, message: CommitMessage(
                subject: "Repair board: \(repairs.count) fix\(repairs.count == 1 ? "" : "es")",
                body: repairs.map { "- \($0.path): \($0.summary)" }.joined(separator: "\n")))
        }
        return diagnostics.contains { $0.severity == .error } || !indexProblems.isEmpty ? .failure : .success
    }
}
