#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// `swift run -c release kanban-bench [--sizes 1000,10000] [--runs N] [--keep] [--breakdown]`, or `... watch`, or
// `... tui`, or `... report`, or `... import`; see --help.
// The benchmark also runs itself as a child (`--child-load <board>` and friends) to measure each load alone.

let arguments = Array(CommandLine.arguments.dropFirst())
if let mode = ChildMode(arguments: arguments) {
    exit(mode.run())
}
if arguments.first == "watch" {
    do {
        try runWatchBenchmarks(arguments: Array(arguments.dropFirst()))
        exit(0)
    } catch {
        POSIX.printError("kanban-bench watch: \(error)\n")
        exit(1)
    }
}
if arguments.first == "serve" {
    do {
        try runServeBenchmarks(arguments: Array(arguments.dropFirst()))
        exit(0)
    } catch {
        POSIX.printError("kanban-bench serve: \(error)\n")
        exit(1)
    }
}
if arguments.first == "tui" {
    do {
        try runTUIBenchmarks(arguments: Array(arguments.dropFirst()))
        exit(0)
    } catch {
        POSIX.printError("kanban-bench tui: \(error)\n")
        exit(1)
    }
}
if arguments.first == "import" {
    do {
        try runImportBenchmark(arguments: Array(arguments.dropFirst()))
        exit(0)
    } catch {
        POSIX.printError("kanban-bench import: \(error)\n")
        exit(1)
    }
}
if arguments.first == "report" {
    do {
        try runReportBenchmark(arguments: Array(arguments.dropFirst()))
        exit(0)
    } catch {
        POSIX.printError("kanban-bench report: \(error)\n")
        exit(1)
    }
}
switch BenchmarkOptions.parse(arguments) {
case .help:
    print(BenchmarkOptions.help, terminator: "")
    exit(0)
case .usageError(let message):
    POSIX.printError("\(message)\nUsage: kanban-bench [--sizes <n,n,...>] [--runs <n>] [--keep] [--breakdown]; see --help.\n")
    exit(64)
case .run(let options):
    exit(Benchmark(options: options).run())
}
