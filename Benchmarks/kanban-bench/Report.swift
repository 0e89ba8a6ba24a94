#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The table the benchmark prints, with the targets from the issue marked met or MISSED.
struct Report {
    var results: [SizeResult]
    var environment: Environment
    var options: BenchmarkOptions

    /// Board size at which the load targets apply.
    static let targetSize = 100_000
    static let targetRatio = 1.0
    static let targetPeakMemoryMB = 200
    static let targetOperationSeconds = 0.15
    /// The board index's targets at ``targetSize`` cards, for whole processes with a warm index.
    static let targetCommandSeconds = 0.1
    static let targetGrepSpeedup = 4.0
    static let targetSingleCardCommandSeconds = 0.03
    /// A first command with no index (it builds one) may be this much slower than one with the index off: noise.
    static let targetColdSlack = 1.10
    /// The loader this project replaces, as measured in the issue (seconds, and as the issue writes them).
    static let ancestor: [Int: (seconds: Double, text: String)] = [1_000: (0.25, "0.25 s"), 100_000: (26.6, "26.6 s")]

    static func grepCommand(board directory: String) -> [String] {
        ["grep", "-r", "-l", "-e", CardText.wordInEveryCard, directory + "/cards", directory + "/archive"]
    }

    var text: String {
        var lines: [String] = []
        let cores = ProcessInfo.processInfo.activeProcessorCount
        lines.append("kanban-bench — \(cores) core\(cores == 1 ? "" : "s"), Swift \(Self.compilerVersion), \(Self.today())")
        let widths = [10, 15, 10, 10, 7, 16]
        lines.append(row(["cards", "load (median)", "peak mem", "grep -r", "ratio", "ancestor", "target"], widths))
        for result in results {
            var ratioText = "—"
            var ratio: Double?
            if let grep = result.grepSeconds, grep > 0 {
                ratio = result.loadSeconds / grep
                ratioText = String(format: "%.2f", result.loadSeconds / grep)
            }
            var ancestor = "—"
            if let figure = Self.ancestor[result.cardCount] {
                ancestor = "\(figure.text) (\(Int((figure.seconds / result.loadSeconds).rounded()))×)"
            }
            var target = "—"
            if result.cardCount >= Self.targetSize {
                let memoryMB = Double(result.peakMemoryKiB) / 1024
                let ratioMark = ratio.map { mark($0 <= Self.targetRatio) } ?? "not measured (no grep)"
                target = "ratio ≤ \(String(format: "%.1f", Self.targetRatio)) \(ratioMark); "
                    + "peak ≤ \(Self.targetPeakMemoryMB) MB \(mark(memoryMB <= Double(Self.targetPeakMemoryMB)))"
            }
            lines.append(row([grouped(result.cardCount), formatSeconds(result.loadSeconds), "\(megabytes(result.peakMemoryKiB)) MB",
                              result.grepSeconds.map(formatSeconds) ?? "no grep", ratioText, ancestor, target], widths))
        }
        for result in results {
            lines.append(singleCardLine("single-card operations on \(grouped(result.cardCount)) cards (median of \(result.operationRuns))",
                                        result.operations.named))
        }
        if environment.kanban == nil {
            lines.append("command line: skipped, because there is no kanban executable beside the benchmark (in "
                         + "\(KanbanExecutable.benchmarkDirectory)); build it with `\(KanbanExecutable.buildCommand)`, "
                         + "into the same release build directory, to measure it.")
        }
        for result in results where !result.commands.isEmpty {
            lines.append(readCommandsLine(result))
            if !result.monitoredCommands.isEmpty { lines.append(readCommandsLine(result, monitored: true)) }
        }
        for result in results {
            guard let commands = result.singleCardCommands else { continue }
            lines.append(singleCardLine("single-card commands as processes on \(grouped(result.cardCount)) cards "
                                        + "(median of \(result.operationRuns), warm index)", commands.named,
                                        target: result.cardCount >= Self.targetSize ? Self.targetSingleCardCommandSeconds : nil))
            let list = result.commands.first.map { " (list: \(formatSeconds($0.seconds)))" } ?? ""
            lines.append("agents' commands as processes on \(grouped(result.cardCount)) cards, each reading the whole board "
                         + "(median of \(result.operationRuns), warm index): "
                         + commands.boardWide.map { "\($0.name) \(formatSeconds($0.seconds))" }.joined(separator: ", ") + list)
        }
        for result in results {
            guard let cold = result.coldListSeconds, let off = result.indexOffListSeconds else { continue }
            var line = "list on \(grouped(result.cardCount)) cards with no index to start from (it builds one) \(formatSeconds(cold)), "
                + "with the index off \(formatSeconds(off))"
            if result.cardCount >= Self.targetSize {
                line += "   (target: no slower than with the index off, within \(Int((Self.targetColdSlack - 1) * 100))%: "
                    + "\(mark(cold <= off * Self.targetColdSlack)))"
            }
            lines.append(line)
        }
        lines.append(scalingLine)
        for result in results {
            var line = "cpu time (user + sys, median) on \(grouped(result.cardCount)) cards: load \(formatSeconds(result.loadProcessorSeconds))"
            if let grep = result.grepProcessorSeconds {
                line += ", grep -r \(formatSeconds(grep))"
                if grep > 0 { line += ", ratio " + String(format: "%.2f", result.loadProcessorSeconds / grep) }
            }
            lines.append(line)
        }
        lines.append("")
        lines.append(contentsOf: notes)
        for result in results where !result.breakdown.isEmpty {
            lines.append("")
            lines.append(contentsOf: result.breakdown)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `<title>: move 0.007 s, set 0.004 s   (target < 0.15 s: met ✓)`; with `target` nil, the figures alone.
    private func singleCardLine(_ title: String, _ timings: [(name: String, seconds: Double)],
                                target: Double? = Report.targetOperationSeconds) -> String {
        let figures = timings.map { "\($0.name) \(formatSeconds($0.seconds))" }.joined(separator: ", ")
        guard let target else { return "\(title): \(figures)" }
        let missed = timings.filter { $0.seconds > target }.map(\.name)
        let verdict = missed.isEmpty ? mark(true) : "\(mark(false)): \(missed.joined(separator: ", "))"
        return "\(title): \(figures)   (target ≤ \(target) s: \(verdict))"
    }

    /// How each command's time grows from the smallest board to the largest.
    private var scalingLine: String {
        guard let first = results.first, let last = results.last, first.cardCount < last.cardCount else { return "" }
        var parts: [String] = []
        for (position, timing) in last.commands.enumerated() where position < first.commands.count {
            parts.append("\(timing.command.label) \(formatSeconds(first.commands[position].seconds)) → \(formatSeconds(timing.seconds))")
        }
        if let small = first.singleCardCommands, let large = last.singleCardCommands {
            for (small, large) in zip(small.named + small.boardWide, large.named + large.boardWide) {
                parts.append("\(small.name) \(formatSeconds(small.seconds)) → \(formatSeconds(large.seconds))")
            }
        }
        guard !parts.isEmpty else { return "" }
        return "scaling from \(grouped(first.cardCount)) to \(grouped(last.cardCount)) cards (\(last.cardCount / first.cardCount)× the cards): "
            + parts.joined(separator: ", ")
    }

    /// Every target missed, in a few words each; empty when all were met (or nothing was measured at the target size).
    var missedTargets: [String] {
        var missed: [String] = []
        for result in results where result.cardCount >= Self.targetSize {
            let size = grouped(result.cardCount)
            if let grep = result.grepSeconds, grep > 0, result.loadSeconds / grep > Self.targetRatio {
                missed.append("load on \(size) cards is slower than grep -r")
            }
            if Double(result.peakMemoryKiB) / 1024 > Double(Self.targetPeakMemoryMB) { missed.append("load's peak memory on \(size) cards") }
            for (name, seconds) in result.operations.named where seconds >= Self.targetOperationSeconds {
                missed.append("library \(name) on \(size) cards")
            }
            for timing in result.judgedCommands where !verdict(timing, grep: result.grepSeconds) {
                missed.append("\(timing.command.label) on \(size) cards" + (result.monitoredCommands.isEmpty ? "" : " with the board monitor"))
            }
            for timing in result.commands + result.monitoredCommands where Double(timing.peakMemoryKiB) / 1024 > Double(Self.targetPeakMemoryMB) {
                missed.append("\(timing.command.label)'s peak memory on \(size) cards")
            }
            for (name, seconds) in result.singleCardCommands?.named ?? [] where seconds > Self.targetSingleCardCommandSeconds {
                missed.append("kanban \(name) on \(size) cards")
            }
            if let cold = result.coldListSeconds, let off = result.indexOffListSeconds, cold > off * Self.targetColdSlack {
                missed.append("list with no index on \(size) cards")
            }
        }
        return missed
    }

    /// Whether a read command met its target (true when grep, which it needs, was not measured).
    private func verdict(_ timing: CommandTiming, grep: Double?) -> Bool {
        switch timing.command.target {
        case .fastAndBeatsGrep:
            return timing.seconds <= Self.targetCommandSeconds && grep.map { timing.seconds * Self.targetGrepSpeedup <= $0 } ?? true
        case .fast:
            return timing.seconds <= Self.targetCommandSeconds
        case .noSlowerThanGrep:
            return grep.map { timing.seconds <= $0 } ?? true
        }
    }

    /// The read commands on one board beside grep -r, with the target where it applies.
    private func readCommandsLine(_ result: SizeResult, monitored: Bool = false) -> String {
        let commands = monitored ? result.monitoredCommands : result.commands
        let figures = commands.map { "\($0.command.label) \(formatSeconds($0.seconds)) (\(megabytes($0.peakMemoryKiB)) MB)" }
        var line = monitored
            ? "command line on \(grouped(result.cardCount)) cards with the board monitor running (as under kanban watch; median of \(result.runs)): "
            : "command line on \(grouped(result.cardCount)) cards (whole processes, median of \(result.runs)): "
        line += figures.joined(separator: ", ")
        if let grep = result.grepSeconds { line += "; grep -r \(formatSeconds(grep))" }
        guard result.cardCount >= Self.targetSize else { return line }
        if !monitored && !result.monitoredCommands.isEmpty {
            return line + "   (no monitor: every card file is stat'ed; the targets are judged with the monitor, next line)"
        }
        let missed = commands.filter { !verdict($0, grep: result.grepSeconds) }.map(\.command.shortName)
        let summary = missed.isEmpty ? mark(true) : "\(mark(false)): \(missed.joined(separator: ", "))"
        return line + "   (targets, warm index: list, list --json and board --json ≤ \(Self.targetCommandSeconds) s and "
            + "\(Int(Self.targetGrepSpeedup))× faster than grep -r; search title:login ≤ \(Self.targetCommandSeconds) s; "
            + "search \(CardText.wordInEveryCard) (body words) no slower than grep -r: \(summary))"
    }

    private var notes: [String] {
        let runCounts = Set(results.map(\.runs)).sorted()
        let runs = runCounts.map(String.init).joined(separator: " or ") + (runCounts == [1] ? " run" : " runs")
        var notes = [
            "load: BoardStore(directory:).load(.all) timed inside a fresh child process (start-up not counted), "
                + "median of \(runs) after one warm-up; peak mem: the child's ru_maxrss from wait4, MB = 2^20 bytes "
                + "(a child that loads nothing: \(megabytes(environment.idleMemoryKiB)) MB).",
        ]
        if let grep = environment.grepVersion {
            notes.append("grep -r: `\(Self.grepCommand(board: "<board>").joined(separator: " "))` (\(grep)), wall time of the "
                         + "process, output drained through a pipe; it lists every card. ratio = load / grep -r.")
            notes.append("cpu time: the load's own (in the child, start-up excluded) and the whole grep process's; it changes "
                         + "little when other work competes for the cores, so it is the steadier comparison on a busy machine.")
        } else {
            notes.append("grep -r: no grep on PATH, so there is no grep time and no ratio.")
        }
        notes.append("ancestor: the loader this one replaces, as measured in the issue (not re-measured here); "
                     + "in brackets, how many times faster the load is now.")
        notes.append("single-card operations: BoardStore(directory:) then card(slug), moveCard(to: \(SingleCardOperations.moveTarget)), "
                     + "updateCard(title:), createCard(in: \(SingleCardOperations.sourceColumn)), archiveCard, on a card in "
                     + "\(SingleCardOperations.sourceColumn); writes are fsync'd; each run's files are put back afterwards.")
        if let kanban = environment.kanban {
            let commands = (results.first?.commands ?? []).map { "`\($0.command.arguments.joined(separator: " "))`" }
            notes.append("index: kanban keeps each board's index in $XDG_CACHE_HOME/kanban, set to a directory beside the "
                         + "boards; it is built once (two seconds after the board was written, so that no file is too recent "
                         + "to trust) before the commands are timed, which then run with a warm index.")
            notes.append("board monitor: the read commands timed again while the benchmark runs the board monitor `kanban watch` "
                         + "runs (KanbanWatch's IndexMonitor, in this process), after one warm-up round that gives the index its "
                         + "first token: a command then looks only at the files the monitor names as changed since, instead of "
                         + "stat'ing every card file (git's fsmonitor does the same for `git status`).")
            notes.append("kanban executable: " + (kanban.isStaticallyLinked
                ? "built with --static-swift-stdlib, as the README installs it (the Swift runtime and Foundation linked in)."
                : "linked to the toolchain's shared libraries (built without --static-swift-stdlib; each process start "
                    + "loads about twenty of them, some 5 ms more than the README's install)."))
            notes.append("command line: `kanban --board <board>` with \(commands.joined(separator: ", ")) (every card holds "
                         + "'\(CardText.wordInEveryCard)', so the search lists every active card, as grep -r lists every file), "
                         + "run from \(kanban.path): wall time of the whole process, start-up included, output drained "
                         + "through a pipe as grep's is; median of \(runs) after one warm-up, each run beside a load and a grep -r; "
                         + "in brackets, the highest peak memory (ru_maxrss). Targets at \(grouped(Self.targetSize)) cards "
                         + "as the line says; peak memory ≤ \(Self.targetPeakMemoryMB) MB each. A missed target fails the run (exit 1).")
            notes.append("single-card commands as processes: `kanban --board <board> --quiet` with `move <card> "
                         + "\(SingleCardOperations.moveTarget)`, `set <card> --title '\(SingleCardOperations.newTitle)'`, "
                         + "`add '\(SingleCardOperations.probeTitle)' --column \(SingleCardOperations.sourceColumn)` and "
                         + "`archive <card>`, on the same card, each timed as a whole process (start-up included); "
                         + "each run's files are put back afterwards.")
        }
        notes.append("machine: load average \(environment.loadAverageAtStart) at the start, \(Self.loadAverage()) at the end "
                     + "(other work on the machine slows every figure).")
        let touched = results.map(\.operations.mostPathsTouched).max() ?? 0
        if touched > 2 { notes.append("note: an operation touched \(touched) files, so neighbours were re-keyed.") }
        for result in results where result.diagnostics > 0 {
            notes.append("note: \(result.diagnostics) of the \(grouped(result.cardCount)) generated files did not load (diagnostics).")
        }
        return notes
    }

    private func row(_ cells: [String], _ widths: [Int]) -> String {
        var line = ""
        for (index, cell) in cells.enumerated() {
            line += index < widths.count ? cell.rightPadded(to: widths[index]) : cell
        }
        while line.last == " " { line.removeLast() }
        return line
    }

    private func mark(_ met: Bool) -> String { met ? "met ✓" : "MISSED ✗" }

    private func megabytes(_ kibibytes: Int) -> Int { Int((Double(kibibytes) / 1024).rounded()) }

    /// The compiler this was built with; `swift --version` is not at hand at run time.
    static var compilerVersion: String {
        #if compiler(>=6.4)
        return "6.4 or later"
        #elseif compiler(>=6.3.3)
        return "6.3.3"
        #elseif compiler(>=6.3.2)
        return "6.3.2"
        #elseif compiler(>=6.3.1)
        return "6.3.1"
        #elseif compiler(>=6.3)
        return "6.3"
        #else
        return "before 6.3"
        #endif
    }

    /// The 1-minute load average from `/proc/loadavg`, or "unknown".
    static func loadAverage() -> String {
        guard let text = try? POSIX.readFile("/proc/loadavg"),
              let first = String(decoding: text, as: UTF8.self).split(separator: " ").first else { return "unknown" }
        return String(first)
    }

    /// Today's date in UTC, `YYYY-MM-DD`.
    static func today() -> String {
        var text = ByteWriter(capacity: 10)
        text.writeDay(Int(time(nil)) / 86_400)
        return String(decoding: text.bytes, as: UTF8.self)
    }
}

/// `0.012 s`, or `26.60 s` from a second up.
func formatSeconds(_ seconds: Double) -> String {
    if seconds >= 10 { return String(format: "%.1f s", seconds) }
    if seconds >= 1 { return String(format: "%.2f s", seconds) }
    return String(format: "%.3f s", seconds)
}

/// `100000` → `100,000`.
func grouped(_ number: Int) -> String {
    let digits = Array(String(number.magnitude))
    var text = ""
    for (index, digit) in digits.enumerated() {
        if index > 0 && (digits.count - index) % 3 == 0 { text.append(",") }
        text.append(digit)
    }
    return number < 0 ? "-" + text : text
}

extension String {
    func rightPadded(to width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }

    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
