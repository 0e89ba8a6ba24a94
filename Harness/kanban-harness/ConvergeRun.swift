import Foundation

/// How a converge run is shaped, from the command line.
struct ConvergeSettings: Sendable {
    var seed: UInt64
    var cloneCount: Int
    var operationCount: Int
    var maxRounds: Int
    var keepsWorkDirectory: Bool
    /// A scripted run instead of random work; it sets the number of clones and operations.
    var scenario: ConvergeScenario?
    /// The chance, in percent, that an operation is followed by a sync of its clone.
    var syncChance = 30

    init(_ options: HarnessOptions) throws {
        seed = try options.seed()
        cloneCount = try options.integer("clones", default: 4)
        operationCount = try options.integer("ops", default: 100)
        maxRounds = try options.integer("max-rounds", default: 10)
        keepsWorkDirectory = options.flag("keep")
        guard cloneCount >= 1 else { throw HarnessError(message: "--clones takes at least 1") }
        guard maxRounds >= 1 else { throw HarnessError(message: "--max-rounds takes at least 1") }
    }

    /// These settings for `scenario`: its clones, its steps.
    func playing(_ scenario: ConvergeScenario) -> ConvergeSettings {
        var settings = self
        settings.scenario = scenario
        settings.cloneCount = scenario.cloneCount
        settings.operationCount = scenario.steps.count
        return settings
    }
}

/// One run: a bare remote, the clones behind it, the random work they do, and what was recorded along the way.
///
/// Everything runs one command at a time, so the order of operations is the order of real time, and a seed gives the
/// same choices again (the boards can still differ a little between replays: cards carry the time, in seconds).
final class ConvergeRun {
    static let columns = ["todo", "doing", "review", "done"]
    static let labels = ["bug", "ux", "docs", "urgent"]
    /// Initial cards the creator adds before anyone clones.
    static let initialCardCount = 5

    let settings: ConvergeSettings
    let runner: ConvergeRunner
    let workDirectory: String
    /// The bare repository everyone pushes to.
    let remote: String
    private(set) var clones: [ConvergeClone] = []
    var random: SeededRandom
    var ledger = ConvergeLedger()
    /// The syncs made during the random work, in order.
    var workSyncs: [ConvergeSyncRecord] = []
    /// Per clone, the operation up to which its work reached the remote: its last sync that succeeded.
    var publishedThrough: [Int] = []
    /// How many operations of each kind ran, and those that failed.
    var operationCounts: [ConvergeOperationKind: Int] = [:]
    var failedOperations: [String] = []
    /// Titles several clones add, so that the same slug is made on two clones for two different cards.
    let sharedTitles: [String]
    /// Per clone, the cards edited by hand and not yet committed.
    var pendingHandEdits: [Int: Set<String>] = [:]
    /// Where operations write the bodies they hand to `kanban set --body-file`.
    let bodyFile: String

    init(settings: ConvergeSettings, kanban: String, git: String, workDirectory: String) {
        self.settings = settings
        self.workDirectory = workDirectory
        remote = workDirectory + "/remote.git"
        bodyFile = workDirectory + "/body.txt"
        runner = ConvergeRunner(kanban: kanban, git: git, logPath: workDirectory + "/converge.log")
        random = SeededRandom(seed: settings.seed)
        sharedTitles = (1...max(4, settings.operationCount / 50)).map { "Shared task \($0)" }
    }

    // MARK: Setup

    /// The remote, the board its creator pushes, and the clones, each with the merge driver set up.
    func setUp() throws {
        let setup = ConvergeClone(index: -1, directory: workDirectory + "/creator", home: workDirectory + "/home/creator", identity: "Board Creator")
        try makeDirectory(workDirectory + "/home/creator")
        try required(.git, ["init", "-q", "--bare", "-b", "main", remote], in: workDirectory, environment: setup.environment)
        try required(.git, ["clone", "-q", remote, setup.directory], in: workDirectory, environment: setup.environment)
        try required(.kanban, ["init", ".", "--title", "Team board", "--columns", "todo:To Do,doing:Doing,review:Review,done:Done"], in: setup)
        for label in Self.labels {
            try required(.kanban, ["label", "add", label, label.capitalized], in: setup)
        }
        try required(.kanban, ["git-setup", "--commit"], in: setup)
        for number in 1...Self.initialCardCount {
            let identity = "i-\(number)"
            let line = "Li-\(number)"
            try writeBody([line])
            let added = try required(.kanban, ["add", "Initial card \(number)", "--column", Self.columns[number % Self.columns.count],
                                               "--body-file", bodyFile], in: setup)
            let path = added.output.split(separator: "\n").first.map(String.init) ?? ""
            try required(.kanban, ["set", path, "--field", "hid=\(identity)"], in: setup)
            let event = ConvergeLedger.Event(operation: 0, clone: -1)
            ledger.noteCreated(identity, title: "Initial card \(number)", at: event)
            ledger.noteLine(line, in: identity, at: event)
        }
        try required(.kanban, ["sync"], in: setup)
        for index in 0..<settings.cloneCount {
            let home = workDirectory + "/home/c\(index)"
            try makeDirectory(home)
            let clone = ConvergeClone(index: index, directory: workDirectory + "/c\(index)", home: home, identity: "Clone \(index)")
            try required(.git, ["clone", "-q", remote, clone.directory], in: workDirectory, environment: clone.environment)
            try required(.kanban, ["git-setup"], in: clone)
            clones.append(clone)
        }
        publishedThrough = Array(repeating: 0, count: clones.count)
    }

    @discardableResult
    private func required(_ tool: ConvergeRunner.Tool, _ arguments: [String], in directory: String,
                          environment: [String: String]) throws -> ChildProcess.Outcome {
        let outcome = try runner.run(tool, arguments, in: directory, environment: environment, label: "setup")
        guard outcome.succeeded else {
            try requireIntactWorkDirectory()
            throw HarnessError(message: "setting up failed: \(tool) \(arguments.joined(separator: " ")): \(outcome)")
        }
        return outcome
    }

    /// Throws when the remote is gone from the work directory: something outside the run deleted files under the
    /// temporary directory, and nothing the run found can be blamed on kanban.
    func requireIntactWorkDirectory() throws {
        guard !FileManager.default.fileExists(atPath: remote + "/HEAD") else { return }
        throw HarnessError(message: """
            the work directory \(workDirectory) lost files while the run went on (\(remote)/HEAD is gone): something \
            else deletes files under \(NSTemporaryDirectory()); run again with TMPDIR set to a directory of your own
            """)
    }

    @discardableResult
    private func required(_ tool: ConvergeRunner.Tool, _ arguments: [String], in clone: ConvergeClone) throws -> ChildProcess.Outcome {
        try required(tool, arguments, in: clone.directory, environment: clone.environment)
    }

    private func makeDirectory(_ path: String) throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// Writes `lines` as a body to ``bodyFile``.
    func writeBody(_ lines: [String]) throws {
        let text = lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n"
        guard FileManager.default.createFile(atPath: bodyFile, contents: Data(text.utf8)) else {
            throw HarnessError(message: "cannot write \(bodyFile)")
        }
    }

    // MARK: Random choices

    /// True `percent` times in a hundred.
    func chance(_ percent: Int) -> Bool {
        Int.random(in: 0..<100, using: &random) < percent
    }

    func pick<Element>(_ elements: [Element]) -> Element? {
        elements.isEmpty ? nil : elements[Int.random(in: 0..<elements.count, using: &random)]
    }

    // MARK: The work

    /// `operationCount` random operations, each on a random clone, some followed by a sync of that clone.
    func work(progress: (Int) -> Void) throws {
        guard settings.operationCount > 0 else { return }
        for number in 1...settings.operationCount {
            let clone = clones[Int.random(in: 0..<clones.count, using: &random)]
            try performRandomOperation(number, on: clone)
            if chance(settings.syncChance) {
                let method: ConvergeSyncMethod = chance(70) ? .kanban : chance(50) ? .pullRebase : .pullMerge
                workSyncs.append(try sync(clone, method: method, operation: number, round: nil))
            }
            progress(number)
        }
    }

    /// Whether what a clone did at `event` reached the remote (its clone synced successfully afterwards).
    func isPublished(_ event: ConvergeLedger.Event) -> Bool {
        event.clone < 0 || event.operation <= publishedThrough[event.clone]
    }

    // MARK: Syncing until quiet

    /// Where every clone and the remote stand: enough to tell whether a round of syncs changed anything.
    struct State: Equatable {
        /// Per clone: HEAD, HEAD's tree, and `git status --porcelain`.
        var clones: [[String]]
        var remoteHead: String
        var remoteTree: String

        /// Whether every clone has the remote's tree checked out and nothing else.
        var isOneBoard: Bool {
            clones.allSatisfy { $0[1] == remoteTree && $0[2].isEmpty }
        }
    }

    func state() throws -> State {
        var states: [[String]] = []
        for clone in clones {
            let heads = try runner.run(.git, ["rev-parse", "HEAD", "HEAD^{tree}"], in: clone, label: "state")
            let status = try runner.run(.git, ["status", "--porcelain"], in: clone, label: "state")
            let lines = heads.output.split(separator: "\n").map(String.init)
            states.append([lines.first ?? "none", lines.dropFirst().first ?? "none", status.output])
        }
        let remoteHeads = try runner.run(.git, ["rev-parse", "main", "main^{tree}"], in: remote, environment: clones[0].environment,
                                         label: "state remote")
        let lines = remoteHeads.output.split(separator: "\n").map(String.init)
        return State(clones: states, remoteHead: lines.first ?? "none", remoteTree: lines.dropFirst().first ?? "none")
    }

    /// What the final rounds found.
    struct Rounds {
        /// Rounds run.
        var count = 0
        /// The round after which a whole round changed nothing; nil when the last round still changed something.
        var quietAfter: Int?
        /// The first round after which every clone held the remote's board and kept holding it.
        var oneBoardAfter: Int?
        var syncs: [ConvergeSyncRecord] = []
        var finalState: State
    }

    /// Every clone runs `kanban sync` in turn, round after round, until a round changes nothing (at most `maxRounds`).
    func syncUntilQuiet() throws -> Rounds {
        var before = try state()
        var rounds = Rounds(finalState: before)
        for round in 1...settings.maxRounds {
            runner.note("--- round \(round)")
            for clone in clones {
                rounds.syncs.append(try sync(clone, method: .kanban, operation: nil, round: round))
            }
            let after = try state()
            rounds.count = round
            rounds.finalState = after
            if !after.isOneBoard {
                rounds.oneBoardAfter = nil
            } else if rounds.oneBoardAfter == nil {
                rounds.oneBoardAfter = round
            }
            if after == before {
                rounds.quietAfter = round
                break
            }
            before = after
        }
        return rounds
    }
}
