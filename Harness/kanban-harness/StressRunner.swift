#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Synchronization

/// Runs the stress adversary: a board in a git repository, `kanban watch` on it, and `processes` workers each
/// running `operations` random kanban commands one after another, all at once.
final class StressRunner: Sendable {
    let kanban: String
    let git: String
    let work: String
    let processes: Int
    let operations: Int
    let seed: UInt64

    static let columns = ["todo", "doing", "review", "done"]
    static let labels = ["bug", "docs", "ux"]
    /// The cards on the board before the workers start, shared by all of them.
    static let seedCards = ["seed-card-1", "seed-card-2", "seed-card-3", "seed-card-4", "seed-card-5", "seed-card-6"]

    var repository: String { work + "/repo" }
    var board: String { repository + "/board" }

    init(kanban: String, git: String, work: String, processes: Int, operations: Int, seed: UInt64) {
        self.kanban = kanban
        self.git = git
        self.work = work
        self.processes = processes
        self.operations = operations
        self.seed = seed
    }

    var environment: [String: String] {
        harnessEnvironment(home: work + "/home", extra: ["NO_COLOR": "1", "COLUMNS": "100"])
    }

    func runKanban(_ arguments: [String]) throws -> ChildProcess.Outcome {
        try BoardProcesses.run(kanban, arguments, in: board, environment: environment, timeout: 120)
    }

    func runGit(_ arguments: [String]) throws -> ChildProcess.Outcome {
        try BoardProcesses.run(git, arguments, in: repository, environment: environment, timeout: 120)
    }

    // MARK: Setting up

    /// The repository with its board (four columns, three labels, six cards) committed.
    func makeBoard() throws {
        try FileManager.default.createDirectory(atPath: work + "/home", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: repository, withIntermediateDirectories: true)
        try CrashScenario.write("# A project with its kanban board\n", to: repository + "/README.md")
        for arguments in [["init", "--quiet", "--initial-branch=main"]] {
            let outcome = try runGit(arguments)
            guard outcome.succeeded else { throw HarnessError(message: "git \(arguments.joined(separator: " ")) failed: \(outcome)") }
        }
        let made = try BoardProcesses.run(kanban, ["init", "board", "--title", "Stress board", "--columns", "todo:To Do,doing:Doing,review:Review,done:Done"],
                                          in: repository, environment: environment)
        guard made.succeeded else { throw HarnessError(message: "kanban init failed: \(made)") }
        for label in StressRunner.labels {
            let added = try runKanban(["label", "add", label])
            guard added.succeeded else { throw HarnessError(message: "kanban label add failed: \(added)") }
        }
        for (index, slug) in StressRunner.seedCards.enumerated() {
            let title = "Seed card \(index + 1)"
            let added = try runKanban(["add", title, "--column", StressRunner.columns[index % StressRunner.columns.count]])
            guard added.succeeded, added.output.contains(slug) else { throw HarnessError(message: "kanban add '\(title)' failed: \(added)") }
        }
        for arguments in [["add", "--all"], ["commit", "--quiet", "-m", "Start"]] {
            let outcome = try runGit(arguments)
            guard outcome.succeeded else { throw HarnessError(message: "git \(arguments.joined(separator: " ")) failed: \(outcome)") }
        }
    }

    // MARK: Working

    /// Runs the workers, each on a thread of its own, and returns every operation in the order each worker ran them.
    func runWorkers() -> [StressOperation] {
        let known = StressShared(StressRunner.seedCards)
        let results = StressShared([[StressOperation]](repeating: [], count: processes))
        let clock = ContinuousClock()
        let start = clock.now
        let finished = DispatchGroup()
        for worker in 1...processes {
            finished.enter()
            Thread.detachNewThread { [self] in
                let log = runWorker(worker, known: known, since: start, clock: clock)
                results.value.withLock { $0[worker - 1] = log }
                finished.leave()
            }
        }
        finished.wait()
        return results.value.withLock { $0.flatMap { $0 } }
    }

    private func seconds(since start: ContinuousClock.Instant, clock: ContinuousClock) -> Double {
        let elapsed = clock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    /// One worker's operations.
    private func runWorker(_ worker: Int, known: StressShared<[String]>, since start: ContinuousClock.Instant, clock: ContinuousClock) -> [StressOperation] {
        var random = SeededRandom(seed: seed &+ UInt64(worker) &* 0x9E37_79B9)
        var mine: [String] = []
        var log: [StressOperation] = []
        var added = 0
        let totalWeight = StressOperation.Kind.allCases.map(\.weight).reduce(0, +)
        for index in 1...operations {
            var draw = Int.random(in: 0..<totalWeight, using: &random)
            var kind = StressOperation.Kind.add
            for candidate in StressOperation.Kind.allCases {
                if draw < candidate.weight {
                    kind = candidate
                    break
                }
                draw -= candidate.weight
            }
            // Half the time a card of its own, half the time anyone's: the workers often change the same cards.
            let everyone = known.value.withLock { $0 }
            func anyCard() -> String {
                if !mine.isEmpty && Bool.random(using: &random) { return mine.randomElement(using: &random) ?? "seed-card-1" }
                return everyone.randomElement(using: &random) ?? "seed-card-1"
            }
            let column = StressRunner.columns.randomElement(using: &random) ?? "todo"
            let label = StressRunner.labels.randomElement(using: &random) ?? "bug"
            var card = kind == .add ? "" : anyCard()
            var arguments: [String]
            switch kind {
            case .add:
                added += 1
                // Numbers of one width: no card's slug is a prefix of another's, so a name never reaches the wrong card.
                let number = String(added)
                let padded = String(repeating: "0", count: max(0, String(operations).count - number.count)) + number
                arguments = ["add", "P\(worker) card \(padded)", "--column", column]
                if Bool.random(using: &random) { arguments += ["--label", label] }
                switch Int.random(in: 0..<4, using: &random) {
                case 0: arguments.append("--top")
                case 1: arguments += ["--after", anyCard()]
                default: break
                }
            case .setTitle:
                arguments = ["set", card, "--title", "\(card) retitled by P\(worker) at \(index)"]
            case .setLabels:
                arguments = ["set", card, Bool.random(using: &random) ? "--add-label" : "--remove-label", label]
            case .setBody:
                arguments = ["set", card, "--body", "Written by P\(worker) in operation \(index).\n\nA second paragraph.\n"]
            case .move:
                arguments = ["move", card, column] + (Bool.random(using: &random) ? ["--top"] : [])
            case .reorder:
                switch Int.random(in: 0..<4, using: &random) {
                case 0: arguments = ["move", card, "--top"]
                case 1: arguments = ["move", card, "--bottom"]
                case 2: arguments = ["move", card, "--after", anyCard()]
                default: arguments = ["move", card, "--before", anyCard()]
                }
            case .archive:
                arguments = ["archive", card]
            case .unarchive:
                arguments = ["unarchive", card]
            case .delete:
                arguments = ["delete", card]
            }
            let asksForCommit = Int.random(in: 0..<3, using: &random) == 0
            if asksForCommit { arguments.append("--commit") }
            var operation = StressOperation(worker: worker, index: index, kind: kind, card: card, arguments: arguments, asksForCommit: asksForCommit)
            operation.started = seconds(since: start, clock: clock)
            do {
                let outcome = try runKanban(arguments)
                operation.status = outcome.status
                operation.signal = outcome.signal
                operation.output = outcome.output
                operation.errorOutput = outcome.errorOutput + (outcome.timedOut ? "\ntimed out after 120 s" : "")
            } catch {
                operation.status = -1
                operation.errorOutput = "cannot run kanban: \(error)"
            }
            operation.ended = seconds(since: start, clock: clock)
            operation.classify()
            if kind == .add && operation.effect.madeChange && !operation.card.isEmpty {
                card = operation.card
                mine.append(card)
                known.value.withLock { $0.append(card) }
            }
            log.append(operation)
        }
        return log
    }
}

/// A value the workers share, behind a lock.
final class StressShared<Value: Sendable>: Sendable {
    let value: Mutex<Value>

    init(_ value: Value) {
        self.value = Mutex(value)
    }
}
