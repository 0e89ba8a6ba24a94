import Foundation
import KanbanCore
import KanbanGit
import KanbanServer

/// `kanban report`: how work flowed over the board, read from its git history.
enum ReportCommand: KanbanCommand {
    /// `--check` found a card past the SLE or a column over its limit.
    static let alerts: ExitCode = 3

    static let spec = CommandSpec(
        name: "report",
        abstract: "Measure how work flows, from the board's git history: lead and cycle times, throughput, a flow diagram.",
        discussion: """
            Reads every commit reachable from HEAD once and follows each card through columns, the archive, renames \
            and merges; a change counts at the author date of the commit that made it. Prints cards finished and \
            throughput per week; lead time (first commit to finish) and cycle time (start to finish) as median, \
            85th percentile and mean, in days; the mean days finished cards spent in each column; work in progress \
            now; the oldest cards in progress; then a cumulative flow diagram, throughput per week and the cycle time \
            of each finished card, drawn to the terminal's width.

            A card is started when it first leaves the board's first column (or enters --start, or a column after \
            it), and finished when it enters the last column (or --done, or a column after it) and stays there or is \
            archived from there; moved back out, it is open again. Deleted cards count where they were until the \
            delete. docs/report.md defines every figure and the --json fields.

            --forecast N says when N more cards will be done, --forecast-by DATE how many will be by then: a Monte \
            Carlo simulation that replays the daily throughput of the last 90 days (--forecast-window) 10,000 times \
            (--trials), at 50, 70, 85 and 95% confidence; --seed makes it repeat exactly.

            --check is for CI: one line for each card in progress longer than the SLE (the 85th percentile of cycle \
            time; --sle, or --max-age DAYS) and each column over its WIP limit, and exit status 3 when there is one.

            DATE is YYYY-MM-DD (UTC; --until then means the end of that day) or an ISO 8601 time.

            Given directories (each a board, or a directory of boards as 'kanban boards' finds them), it reports on \
            every board they hold, one after the other, each under a line 'board NAME (DIRECTORY)'; --json prints an \
            array of {"board": NAME, "directory", "report": the board's --json}; --check prints each board's lines \
            after its name and exits 3 when any board has one; --svg and --html take one board. A board whose \
            report fails is said on standard error, the others are still reported, and the exit status is 1.

            Examples:
              kanban report --since 2026-09-01
              kanban report --start in-progress --done review --label bug
              kanban report --forecast 20 --seed 7
              kanban report --forecast-by 2026-12-24
              kanban report --check --max-age 10
              kanban report --json | jq '.cycleTime'
              kanban report --html retro.html
              kanban report ~/src/company --since 2026-09-01      # one report a board
            """,
        arguments: [.repeating("directory", help: "A board, or a directory of boards; several may be given (default: the board, found as every command finds it).", isOptional: true)],
        options: [
            .option("since", valueName: "date", help: "Measure from this day (default: the first commit of a card)."),
            .option("until", valueName: "date", help: "Measure up to this day, leaving later commits out (default: now)."),
            .option("start", valueName: "column", help: "The column whose entry starts a card (default: the second column)."),
            .option("done", valueName: "column", help: "The column whose entry finishes a card (default: the last column)."),
            .option("label", short: "l", valueName: "id", help: "Only cards with this label (their last version); repeat to require several.", isRepeatable: true),
            CommonOptions.json,
            .option("svg", valueName: "file", help: "Also write the charts as one SVG file ('-': to standard output, instead of the text)."),
            .option("html", valueName: "file", help: "Also write the figures and charts as one standalone HTML page ('-': to standard output, instead of the text)."),
            .flag("allow-shallow", help: "Report on a shallow clone's history, counting only what it shows (and saying so)."),
            .option("sle", valueName: "percent", help: "The percentile of cycle time that makes the service-level expectation (default: 85)."),
            .option("forecast", valueName: "cards", help: "Forecast when this many more cards will be done."),
            .option("forecast-by", valueName: "date", help: "Forecast how many cards will be done by the end of this day."),
            .option("forecast-window", valueName: "days", help: "Sample the throughput of this many last days of the period (default: 90)."),
            .option("trials", valueName: "n", help: "Simulate this many futures (default: 10000)."),
            .option("seed", valueName: "n", help: "Seed the simulation, for a forecast that repeats exactly (default: random, printed)."),
            .flag("check", help: "Print one line per card past the SLE and per column over its WIP limit; exit 3 if any."),
            .option("max-age", valueName: "days", help: "With --check: the age past which a card is reported (default: the SLE)."),
        ],
        exclusiveOptions: [["forecast", "forecast-by"]],
        exitStatuses: [
            ExitStatusHelp(.success, "Done; with --check, nothing to report."),
            ExitStatusHelp(.failure, "Failure; the reason was written to standard error."),
            ExitStatusHelp(alerts, "With --check: a card is past the SLE or a column over its limit (one line each)."),
            ExitStatusHelp(.usage, "The command line was malformed."),
        ])

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        let named = try context.namedBoards(arguments.arguments("directory"))
        guard named.count > 1 else {
            if let only = named.first { context.use(try context.openBoard(at: only.directory).store) }
            return try report(arguments, context)
        }
        if let file = ["svg", "html"].first(where: arguments.isGiven) {
            throw arguments.usageError("--\(file) writes one board's report: give one board")
        }
        var status = ExitCode.success
        var reports: [JSON] = []
        for (index, found) in named.enumerated() {
            if !arguments.flag("json") {
                if index > 0 { context.print() }
                context.print(context.stylist.apply(.bold, to: "board \(found.name) (\(found.directory))"))
            }
            do {
                context.use(try context.openBoard(at: found.directory).store)
                let outcome = try report(arguments, context) { json in
                    reports.append(.object(["board": .string(found.name), "directory": .string(found.directory), "report": json]))
                }
                if outcome != .success && status == .success { status = outcome }
            } catch let error as KanbanError {
                context.reportFailure("board \(found.name): " + (error.location.map { "\($0): " } ?? "") + error.message)
                status = .failure
            } catch let error as SyncError {
                context.reportFailure("board \(found.name): " + error.message)
                status = .failure
            } catch let error as CommandFailure {
                context.reportFailure("board \(found.name): " + error.message)
                status = .failure
            }
        }
        if arguments.flag("json") { context.printJSON(.array(reports)) }
        return status
    }

    /// The report on the command's board; its JSON goes to `emit` when given (several boards), else to standard output.
    static func report(_ arguments: ParsedArguments, _ context: CommandContext, emit: ((JSON) -> Void)? = nil) throws -> ExitCode {
        let emit = emit ?? context.printJSON
        let now = Date()
        let since = try arguments.value("since").map { try date($0, option: "since", endOfDay: false, arguments: arguments) }
        let until = try arguments.value("until").map { try date($0, option: "until", endOfDay: true, arguments: arguments) } ?? now
        if let since, since > until {
            throw arguments.usageError("--since \(arguments.value("since") ?? "") comes after --until \(arguments.value("until") ?? "now")")
        }
        let provider = try context.syncProvider()
        let store = provider.store
        let board = try store.loadBoard()
        let serviceLevel = try number("sle", in: 1...100, arguments) ?? 85
        let options = FlowReport.Options(since: since, until: until, startColumn: arguments.value("start"),
                                         doneColumn: arguments.value("done"), labels: arguments.values("label"),
                                         serviceLevelPercentile: serviceLevel)
        try options.check(against: board) { "--" + $0 }
        let question = try forecastQuestion(arguments)
        let forecastOptions = try question.map { question in
            FlowForecast.Options(question: question,
                                 windowDays: try number("forecast-window", in: FlowForecast.windowRange, arguments) ?? FlowForecast.defaultWindowDays,
                                 trials: try number("trials", in: FlowForecast.trialRange, arguments) ?? FlowForecast.defaultTrials,
                                 seed: try seed(arguments))
        }
        if question == nil, let unused = ["forecast-window", "trials", "seed"].first(where: arguments.isGiven) {
            throw arguments.usageError("--\(unused) goes with --forecast or --forecast-by")
        }
        let maxAge = try arguments.value("max-age").map { text throws(UsageError) -> Double in
            guard let days = Double(text), days.isFinite, days >= 0, days <= 36_500 else {
                throw arguments.usageError("--max-age takes a number of days from 0 to 36500, not '\(text)'")
            }
            return days
        }
        if maxAge != nil && !arguments.flag("check") { throw arguments.usageError("--max-age goes with --check") }
        let toStandardOutput = ["svg", "html"].filter { arguments.value($0) == "-" }
        if toStandardOutput.count > 1 || (!toStandardOutput.isEmpty && arguments.flag("json")) {
            throw arguments.usageError("only one of --svg -, --html - and --json can write to standard output")
        }
        // A shallow clone's first commit is a cut: every card there would seem created at it, and the figures lie.
        let isShallow = try provider.isHistoryShallow()
        if isShallow && !arguments.flag("allow-shallow") {
            throw CommandFailure(message: "this clone's history is shallow: the report would count every card as created where the history was cut; "
                + "fetch the whole history with 'git fetch --unshallow', or give --allow-shallow to count only what it shows")
        }
        let shallowNote = isShallow ? "The history is shallow (--allow-shallow): only what it shows is counted; cards seem created where it was cut." : nil
        let histories = try provider.cardHistories()
        let report = try FlowReport(board: board, cards: histories, options: options)
        let forecast = try forecastOptions.map { options throws(KanbanError) in try FlowForecast(report, options: options) }
        if arguments.flag("check") {
            return try check(report, board: board, store: store, maxAge: maxAge, note: shallowNote, arguments: arguments, context: context, emit: emit)
        }
        let notInHistory = FlowReport.slugsNotInHistory(of: store, labels: options.labels, histories: histories)
        if let path = arguments.value("svg") {
            try write(ReportDocument.svg(report, title: board.title, note: shallowNote, forecast: forecast), to: path, context: context)
        }
        if let path = arguments.value("html") {
            try write(ReportDocument.html(report, title: board.title, notInHistory: notInHistory, note: shallowNote, forecast: forecast),
                      to: path, context: context)
        }
        if !toStandardOutput.isEmpty { return .success }
        if arguments.flag("json") {
            guard case .object(var members) = json(report, title: board.title, notInHistory: notInHistory) else { return .failure }
            members["shallowHistory"] = .bool(isShallow)
            members["forecast"] = forecast.map(ReportJSON.forecast) ?? .null
            emit(.object(members))
            return .success
        }
        let renderer = ReportRenderer(report: report, title: board.title, notInHistory: notInHistory, forecast: forecast,
                                      width: context.width, stylist: context.stylist)
        if let shallowNote { context.print(context.stylist.apply(.yellow, to: "note: " + shallowNote)) }
        for line in renderer.lines() { context.print(line) }
        return .success
    }

    /// A whole-number option in `range`, checked before it is used; nil when not given.
    static func number(_ option: String, in range: ClosedRange<Int>, _ arguments: ParsedArguments) throws(UsageError) -> Int? {
        guard let text = arguments.value(option) else { return nil }
        guard text.count <= 12, let value = Int(text), range.contains(value) else {
            throw arguments.usageError("--\(option) takes a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
        }
        return value
    }

    /// `--seed`: a whole number from 0 to 2^63 - 1; when not given, a random one short enough to read back from the
    /// output.
    static func seed(_ arguments: ParsedArguments) throws(UsageError) -> UInt64 {
        guard let text = arguments.value("seed") else { return UInt64.random(in: 0..<1_000_000) }
        guard let value = UInt64(text), value <= UInt64(Int64.max) else {
            throw arguments.usageError("--seed takes a whole number from 0 to \(Int64.max), not '\(text)'")
        }
        return value
    }

    /// The question of `--forecast` or `--forecast-by`, if one was given.
    static func forecastQuestion(_ arguments: ParsedArguments) throws(UsageError) -> FlowForecast.Question? {
        if let cards = try number("forecast", in: FlowForecast.cardRange, arguments) { return .when(cards: cards) }
        guard let text = arguments.value("forecast-by") else { return nil }
        return .howMany(by: try date(text, option: "forecast-by", endOfDay: true, arguments: arguments))
    }

    /// `--check`: one line for each card past the SLE (or `maxAge`) and each column over its WIP limit now.
    static func check(_ report: FlowReport, board: Board, store: BoardStore, maxAge: Double?, note: String?,
                      arguments: ParsedArguments, context: CommandContext, emit: (JSON) -> Void) throws -> ExitCode {
        let alerts = try FlowCheck(report: report, board: board, cards: store.load(.active).cards, maxAge: maxAge)
        if arguments.flag("json") {
            emit(ReportJSON.check(alerts))
        } else {
            if let note { context.errorOutput.writeLine(context.errorStylist.apply(.yellow, to: "note: " + note)) }
            for alert in alerts.alerts { context.print(alert.message) }
            if alerts.alerts.isEmpty { context.say(alerts.summary) }
        }
        return alerts.alerts.isEmpty ? .success : Self.alerts
    }

    /// A date option: `YYYY-MM-DD` (midnight UTC, or the end of that day for `--until`) or an ISO 8601 time.
    static func date(_ text: String, option: String, endOfDay: Bool, arguments: ParsedArguments) throws(UsageError) -> Date {
        let isDay = text.count == 10 && !text.contains("T")
        guard let date = ISO8601.date(from: text) else {
            throw arguments.usageError("invalid date '\(text)' for option '--\(option)'; expected YYYY-MM-DD or an ISO 8601 time such as 2026-11-22T09:30:00Z")
        }
        return isDay && endOfDay ? date.addingTimeInterval(FlowReport.day - 1) : date
    }

    /// Writes `text` to the file `path` (atomically), or to standard output when `path` is `-`.
    static func write(_ text: String, to path: String, context: CommandContext) throws {
        if path == "-" {
            context.output.write(text)
            return
        }
        let absolute = context.absolute(path)
        let directory = (absolute as NSString).deletingLastPathComponent
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CommandFailure(message: "cannot write '\(path)': there is no directory '\(directory)'")
        }
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: absolute), options: .atomic)
        } catch let error as CocoaError {
            let reason = (error.underlying as? POSIXError).map { String(cString: strerror($0.code.rawValue)) } ?? error.localizedDescription
            throw CommandFailure(message: "cannot write '\(path)': \(reason)")
        } catch {
            throw CommandFailure(message: "cannot write '\(path)': \(error.localizedDescription)")
        }
    }

    // MARK: JSON

    /// A number of days, to the thousandth.
    static func days(_ value: Double) -> JSON {
        .number(String((value * 1000).rounded() / 1000))
    }

    static func statistics(_ value: FlowReport.Statistics?) -> JSON {
        guard let value else { return .null }
        return .object(["count": .number(String(value.count)), "median": days(value.median), "percentile50": days(value.percentile(50)),
                        "percentile70": days(value.percentile(70)), "percentile85": days(value.percentile85),
                        "percentile95": days(value.percentile(95)), "mean": days(value.mean)])
    }

    static func place(_ place: CardPlace?) -> JSON {
        switch place {
        case .column(let id)?: return .string(id)
        case .archived?: return .string("archive")
        case .deleted?, nil: return .null
        }
    }

    /// The documented `--json` shape.
    static func json(_ report: FlowReport, title: String, notInHistory: [String]) -> JSON {
        func optionalDate(_ date: Date?) -> JSON { date.map { .string(JSON.timestamp($0)) } ?? .null }
        func counts(_ values: [Int]) -> JSON {
            .object(Dictionary(zip(report.columns.map(\.id), values.map { JSON.number(String($0)) }), uniquingKeysWith: { first, _ in first }))
        }
        let inProgress: [JSON] = report.inProgress.map { flow in
            .object([
                "slug": .string(flow.history.slug),
                "column": place(flow.place),
                "started": optionalDate(flow.started),
                "ageDays": days(report.until.timeIntervalSince(flow.started ?? report.until) / FlowReport.day),
            ])
        }
        let inProgressByDay = report.workInProgressByDay
        let flow: [JSON] = report.days.enumerated().map { index, day in
            .object(["date": .string(ReportFormat.day(day.date)), "counts": counts(day.counts), "inProgress": .number(String(inProgressByDay[index]))])
        }
        let aging: [JSON] = report.aging.map { card in
            .object([
                "slug": .string(card.flow.history.slug),
                "column": .string(card.column),
                "ageDays": days(card.ageDays),
                "percentileReached": card.percentileReached.map { .number(String($0)) } ?? .null,
                "pastServiceLevel": .bool(card.isPastServiceLevel),
            ])
        }
        func numbers(_ values: [Int]) -> JSON { .array(values.map { .number(String($0)) }) }
        let serviceLevel = JSON.object(["percentile": .number(String(report.serviceLevelPercentile)), "days": report.serviceLevel.map(days) ?? .null])
        var limits: [String: JSON] = [:]
        for column in report.columns { if let limit = column.wipLimit { limits[column.id] = .number(String(limit)) } }
        let overLimit: [String: JSON] = report.daysOverLimit.mapValues { .number(String($0)) }
        let queues: [JSON] = report.columns.filter(\.isQueue).map { .string($0.id) }
        let efficiency: JSON = report.flowEfficiency.map(days) ?? .null
        let workers: [JSON] = report.workers.map { worker in
            .object(["name": .string(worker.name), "agent": .bool(worker.isAgent), "cycleTime": statistics(worker.cycleTime)])
        }
        let throughput: [JSON] = report.weeks.map { week in
            .object(["week": .string(ReportFormat.day(week.start)), "finished": .number(String(week.finished))])
        }
        return .object([
            "board": .string(title),
            "since": .string(JSON.timestamp(report.since)),
            "until": .string(JSON.timestamp(report.until)),
            "startColumn": .string(report.startColumn),
            "doneColumn": .string(report.doneColumn),
            "columns": .array(report.columns.map { .object(["id": .string($0.id), "name": .string($0.name)]) }),
            "finished": .number(String(report.finished.count)),
            "started": .number(String(report.startedCount)),
            "created": .number(String(report.createdCount)),
            "throughputPerWeek": days(report.throughputPerWeek),
            "leadTime": statistics(report.leadTime),
            "cycleTime": statistics(report.cycleTime),
            "meanTimeInColumn": .object(report.meanTimeInColumn.mapValues(days)),
            "workInProgress": counts(report.workInProgress),
            "inProgress": .array(inProgress),
            "serviceLevel": serviceLevel,
            "aging": .array(aging),
            "limits": .object(limits),
            "daysOverLimit": .object(overLimit),
            "queues": .array(queues),
            "flowEfficiency": efficiency,
            "workers": .array(workers),
            "throughputHistogram": numbers(report.throughputHistogram),
            "cycleTimeHistogram": numbers(report.cycleTimeHistogram),
            "flow": .array(flow),
            "throughput": .array(throughput),
            "notInHistory": .array(notInHistory.map(JSON.string)),
            "cards": ReportJSON.cards(report),
        ])
    }
}
