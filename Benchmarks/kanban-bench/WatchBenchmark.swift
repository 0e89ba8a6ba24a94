#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import KanbanCore
import KanbanWatch

/// What `kanban-bench watch` was asked for.
struct WatchBenchmarkOptions {
    /// Edits timed for event latency.
    var edits = 300
    /// Card files changed between the two commits of the `git checkout` measurement.
    var checkoutFiles = 10_000
    /// Cards on the board a polling pass is timed on.
    var pollCards = 100_000
    /// The watcher's settle window, in milliseconds.
    var settleMilliseconds = 50
    /// Which measurements to run.
    var measurements: Set<String> = ["latency", "checkout", "poll"]
    var keepsBoards = false

    static let help = """
        OVERVIEW: Measures KanbanWatch: event latency beside inotifywait, the time from a large git checkout to its
        last event, and the processor time of one polling pass.

        USAGE: kanban-bench watch [--edits <n>] [--checkout-files <n>] [--poll-cards <n>] [--settle <ms>]
                                  [--only latency,checkout,poll] [--keep]

        OPTIONS:
          --edits <n>            Edits timed for latency (default: 300).
          --checkout-files <n>   Card files changed between the two commits (default: 10000).
          --poll-cards <n>       Cards on the board a polling pass is timed on (default: 100000).
          --settle <ms>          The watcher's settle window (default: 50).
          --only <list>          Run only these measurements: latency, checkout, poll.
          --keep                 Keep the generated boards and print where they are.
          -h, --help             Show this help.

        Targets: median latency within the settle window plus 5 ms of inotifywait's; last event at most 2 s
        after git checkout exits; one polling pass over 100,000 cards in at most 0.3 s of processor time.

        """

    /// Parses `arguments` (after `watch`); nil when help was asked for.
    static func parse(_ arguments: [String]) throws(BenchmarkError) -> WatchBenchmarkOptions? {
        var options = WatchBenchmarkOptions()
        var remaining = SubcommandArguments(arguments)
        while let argument = remaining.next() {
            switch argument {
            case "-h", "--help": return nil
            case "--edits": options.edits = try remaining.number(of: argument, in: 10...100_000)
            case "--checkout-files": options.checkoutFiles = try remaining.number(of: argument, in: 10...1_000_000)
            case "--poll-cards": options.pollCards = try remaining.number(of: argument, in: 10...10_000_000)
            case "--settle": options.settleMilliseconds = try remaining.number(of: argument, in: 0...10_000)
            case "--keep": options.keepsBoards = true
            case "--only":
                let text = try remaining.value(of: argument, placeholder: "<list>")
                let names = Set(text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
                let unknown = names.subtracting(["latency", "checkout", "poll"])
                guard unknown.isEmpty, !names.isEmpty else {
                    throw BenchmarkError("Error: '--only' takes latency, checkout and poll, not '\(text)'")
                }
                options.measurements = names
            default:
                throw BenchmarkError("Error: unknown option '\(argument)' for 'kanban-bench watch'; see --help")
            }
        }
        return options
    }
}

/// `kanban-bench watch ...`: runs the watcher measurements and prints each figure beside its target.
/// - Parameter arguments: The arguments after `watch`.
/// - Throws: ``BenchmarkError`` for a bad command line or when a measurement cannot be made (a lost event,
///   a board that cannot be written); figures that miss their targets are reported, not thrown.
func runWatchBenchmarks(arguments: [String]) throws {
    guard let options = try WatchBenchmarkOptions.parse(arguments) else {
        print(WatchBenchmarkOptions.help, terminator: "")
        return
    }
    let parent = POSIX.environmentValue("TMPDIR").flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    let root = try POSIX.makeTemporaryDirectory(in: parent, prefix: "kanban-bench-watch")
    defer {
        if options.keepsBoards {
            print("boards kept in \(root)")
        } else {
            try? POSIX.removeTree(root)
        }
    }
    var loadAverage = "unknown"
    if let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) {
        loadAverage = text.split(separator: " ").prefix(3).joined(separator: " ")
    }
    print("kanban-bench watch: \(ProcessInfo.processInfo.activeProcessorCount) cores, load average \(loadAverage) at start")
    let measurements = WatchMeasurements(root: root, options: options)
    if options.measurements.contains("latency") { try measurements.latency() }
    if options.measurements.contains("checkout") { try measurements.checkout() }
    if options.measurements.contains("poll") { try measurements.pollingPass() }
}

/// Timings in milliseconds, summarised.
struct LatencySample {
    var milliseconds: [Double]

    var median: Double { percentile(50) }
    var p99: Double { percentile(99) }

    func percentile(_ percent: Double) -> Double {
        guard !milliseconds.isEmpty else { return .nan }
        let sorted = milliseconds.sorted()
        let rank = Int((percent / 100 * Double(sorted.count - 1)).rounded(.up))
        return sorted[min(sorted.count - 1, max(0, rank))]
    }
}

/// `12.3 ms`.
func formatMilliseconds(_ value: Double) -> String {
    value.isNaN ? "n/a" : String(format: "%.1f ms", value)
}

/// `met` or `MISSED`.
func verdict(_ met: Bool) -> String { met ? "met" : "MISSED" }
