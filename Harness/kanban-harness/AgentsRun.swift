import Foundation
import Synchronization

/// How an agents run is shaped, from the command line.
struct AgentsSettings: Sendable {
    var seed: UInt64
    var agentCount: Int
    var cloneCount: Int
    /// Worktrees per clone, the main one included.
    var worktreeCount: Int
    var cardCount: Int
    /// Turns of one agent's loop, at most.
    var maxIterations: Int
    /// The agents stop after this many seconds, done or not.
    var timeLimit: Double
    var maxRounds: Int
    var keepsWorkDirectory: Bool

    init(_ options: HarnessOptions) throws {
        seed = try options.seed()
        agentCount = try options.integer("agents", default: 4)
        cloneCount = try options.integer("clones", default: 2)
        worktreeCount = try options.integer("worktrees", default: 2)
        cardCount = try options.integer("cards", default: 40)
        maxIterations = try options.integer("max-iterations", default: 20 * cardCount + 100)
        timeLimit = Double(try options.integer("time-limit", default: 900))
        maxRounds = try options.integer("max-rounds", default: 10)
        keepsWorkDirectory = options.flag("keep")
        for (name, value) in [("agents", agentCount), ("clones", cloneCount), ("worktrees", worktreeCount), ("cards", cardCount),
                              ("max-iterations", maxIterations), ("time-limit", Int(timeLimit)), ("max-rounds", maxRounds)] {
            guard value >= 1 else { throw HarnessError(message: "--\(name) takes at least 1") }
        }
        guard cardCount <= 9_999 else { throw HarnessError(message: "--cards takes at most 9999") }
    }
}

/// One agent: its name, and the worktree of a clone it works in.
struct Agent: Sendable {
    var index: Int
    var clone: ConvergeClone
    /// 0 is the clone's main worktree; the others are linked worktrees (`git worktree add`).
    var worktree: Int
    /// The board directory of its worktree, where its commands run: for a linked worktree, a copy kanban must not use.
    var directory: String
    var environment: [String: String]

    /// `agent-3`: its claim name (`KANBAN_AGENT`).
    var name: String { "agent-\(index)" }
}

/// A card the creator made, with the cards it waits for.
struct AgentsCard: Sendable {
    var slug: String
    var title: String
    var dependencies: [String]
}

/// What the agents did, as they did it: one lock around all of it.
struct AgentsRecords: Sendable {
    /// A claim `kanban claim --next` granted (exit 0).
    struct Claim: Sendable {
        var agent: String
        var card: String
        /// Seconds since the agents started, when the claim command returned.
        var at: Double
        /// What `kanban show --json` said right after, of dependencies not done; empty when all were done.
        var dependenciesNotDone: [String]
        /// `work.state` by that `kanban show`: `claimed` when all is well.
        var state: String
    }

    /// A card an agent moved to done, having seen after a sync that it still held it.
    struct Finish: Sendable {
        var agent: String
        var card: String
        /// When the move started, in seconds since the agents started.
        var at: Double
        /// The body line it appended.
        var line: String
        var moved: Bool
    }

    var claims: [Claim] = []
    var finishes: [Finish] = []
    /// Claims given up at claim time: exit 3, and the warnings of `--next` moving on to the next card.
    var lostAtClaim = 0
    /// Claims granted and then, after the agent's next sync, held by someone else.
    var lostAfterSuccess: [String] = []
    /// `kanban claim` failures other than 3 and 4 (a sync that could not finish, a crash).
    var claimFailures: [String] = []
    /// Claims whose stdout held more than the JSON the command promises.
    var impureJSON = 0
    var syncs = 0
    var failedSyncs: [String] = []
    /// Other steps that failed: set, move, show.
    var failures: [String] = []
    /// Cards moved to done, per agent.
    var done: [String: Int] = [:]
    /// Agents that stopped because they hit the iteration or time limit.
    var stoppedByLimit: [String] = []
}

/// One run: a bare remote, the clones behind it, their worktrees, the agents and what they recorded.
final class AgentsRun: Sendable {
    static let columns = "todo:To Do,in-progress:In Progress,done:Done"
    /// The board's place in the repository: not its root, so a linked worktree's board is found at the same relative place.
    static let boardPath = "board"

    let settings: AgentsSettings
    let runner: ConvergeRunner
    let workDirectory: String
    let remote: String
    let clones: [ConvergeClone]
    let agents: [Agent]
    let cards: [AgentsCard]
    let records = Mutex(AgentsRecords())
    let clock = ContinuousClock()
    let started: ContinuousClock.Instant

    init(settings: AgentsSettings, kanban: String, git: String, workDirectory: String) {
        self.settings = settings
        self.workDirectory = workDirectory
        remote = workDirectory + "/remote.git"
        runner = ConvergeRunner(kanban: kanban, git: git, logPath: workDirectory + "/agents.log")
        let clones = (0..<settings.cloneCount).map { index in
            ConvergeClone(index: index, directory: workDirectory + "/c\(index)", home: workDirectory + "/home/c\(index)", identity: "Clone \(index)")
        }
        self.clones = clones
        // Round robin over (clone, worktree), clones first: two agents share a clone only when every clone has one.
        agents = (0..<settings.agentCount).map { index in
            let slot = index % (settings.cloneCount * settings.worktreeCount)
            let clone = clones[slot % settings.cloneCount]
            let worktree = slot / settings.cloneCount
            let root = worktree == 0 ? clone.directory : workDirectory + "/c\(clone.index)-wt\(worktree)"
            var environment = clone.environment
            environment["KANBAN_AGENT"] = "agent-\(index)"
            return Agent(index: index, clone: clone, worktree: worktree, directory: root + "/" + Self.boardPath, environment: environment)
        }
        var random = SeededRandom(seed: settings.seed)
        let width = max(3, String(settings.cardCount).count)
        var cards: [AgentsCard] = []
        for number in 1...settings.cardCount {
            let padded = String(repeating: "0", count: width - String(number).count) + String(number)
            var dependencies: [String] = []
            if !cards.isEmpty {
                for _ in 0..<Int.random(in: 0...2, using: &random) {
                    let slug = cards[Int.random(in: 0..<cards.count, using: &random)].slug
                    if !dependencies.contains(slug) { dependencies.append(slug) }
                }
            }
            cards.append(AgentsCard(slug: "card-\(padded)", title: "Card \(padded)", dependencies: dependencies))
        }
        self.cards = cards
        started = clock.now
    }

    /// Seconds since the run began.
    var elapsed: Double {
        let duration = clock.now - started
        return Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// A clone's board: the main worktree's.
    func boardDirectory(of clone: ConvergeClone) -> String {
        clone.directory + "/" + Self.boardPath
    }

    // MARK: Setup

    /// The remote; the board its creator fills with the cards and their dependencies and pushes; the clones, each
    /// with the merge driver set up and its linked worktrees.
    func setUp() throws {
        let creator = ConvergeClone(index: -1, directory: workDirectory + "/creator", home: workDirectory + "/home/creator", identity: "Board Creator")
        let board = creator.directory + "/" + Self.boardPath
        try makeDirectory(workDirectory + "/home/creator")
        try required(.git, ["init", "-q", "--bare", "-b", "main", remote], in: workDirectory, creator.environment)
        try required(.git, ["clone", "-q", remote, creator.directory], in: workDirectory, creator.environment)
        try required(.kanban, ["init", Self.boardPath, "--title", "Agents board", "--columns", Self.columns], in: creator.directory, creator.environment)
        try required(.kanban, ["git-setup", "--commit"], in: board, creator.environment)
        for card in cards {
            let added = try required(.kanban, ["add", card.title], in: board, creator.environment)
            guard added.output.contains("/\(card.slug).md") else {
                throw HarnessError(message: "setting up failed: kanban add '\(card.title)' did not make \(card.slug): \(added)")
            }
        }
        for card in cards where !card.dependencies.isEmpty {
            try required(.kanban, ["depend", card.slug] + card.dependencies, in: board, creator.environment)
        }
        try required(.kanban, ["sync"], in: board, creator.environment)
        for clone in clones {
            try makeDirectory(workDirectory + "/home/c\(clone.index)")
            try required(.git, ["clone", "-q", remote, clone.directory], in: workDirectory, clone.environment)
            try required(.kanban, ["git-setup"], in: boardDirectory(of: clone), clone.environment)
            for worktree in 1..<settings.worktreeCount {
                try required(.git, ["worktree", "add", "-q", "../c\(clone.index)-wt\(worktree)", "-b", "agent-c\(clone.index)-wt\(worktree)"],
                             in: clone.directory, clone.environment)
            }
        }
        // Each agent's kanban must take its clone's main board, whichever worktree it runs in.
        for agent in agents {
            let status = try required(.kanban, ["status", "--json"], in: agent.directory, agent.environment)
            let board = (try? JSONSerialization.jsonObject(with: Data(status.output.utf8))) as? [String: Any]
            let found = (board?["board"] as? [String: Any])?["directory"] as? String
            guard let found, (found as NSString).standardizingPath == (boardDirectory(of: agent.clone) as NSString).standardizingPath else {
                throw HarnessError(message: "\(agent.name) in \(agent.directory): kanban status names board \(found ?? "none"), not its clone's main board \(boardDirectory(of: agent.clone))",
                                   status: .failed)
            }
        }
    }

    @discardableResult
    private func required(_ tool: ConvergeRunner.Tool, _ arguments: [String], in directory: String,
                          _ environment: [String: String]) throws -> ChildProcess.Outcome {
        let outcome = try runner.run(tool, arguments, in: directory, environment: environment, label: "setup")
        guard outcome.succeeded else {
            throw HarnessError(message: "setting up failed: \(tool) \(arguments.joined(separator: " ")) in \(directory): \(outcome)")
        }
        return outcome
    }

    private func makeDirectory(_ path: String) throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    // MARK: The final rounds

    /// What the final rounds found.
    struct Rounds {
        var count = 0
        /// The round after which a whole round changed nothing; nil when the last round still changed something.
        var quietAfter: Int?
        var syncs = 0
        var failures: [String] = []
        /// Per clone: HEAD, HEAD's tree, `git status --porcelain`.
        var clones: [[String]] = []
        var remoteHead = "none"
        var remoteTree = "none"
    }

    /// Every clone runs `kanban sync` in turn, round after round, until a round changes nothing.
    func syncUntilQuiet() throws -> Rounds {
        var rounds = Rounds()
        try readState(into: &rounds)
        for round in 1...settings.maxRounds {
            runner.note("--- round \(round)")
            let before = rounds.clones + [[rounds.remoteHead]]
            for clone in clones {
                let outcome = try runner.run(.kanban, ["sync"], in: boardDirectory(of: clone), environment: clone.environment, label: "round \(round) c\(clone.index)")
                rounds.syncs += 1
                if !outcome.succeeded { rounds.failures.append("round \(round) c\(clone.index): \(outcome.firstLines(2).joined(separator: " / "))") }
            }
            try readState(into: &rounds)
            rounds.count = round
            if rounds.clones + [[rounds.remoteHead]] == before {
                rounds.quietAfter = round
                break
            }
        }
        return rounds
    }

    private func readState(into rounds: inout Rounds) throws {
        rounds.clones = []
        for clone in clones {
            let heads = try runner.run(.git, ["rev-parse", "HEAD", "HEAD^{tree}"], in: clone.directory, environment: clone.environment, label: "state")
            let status = try runner.run(.git, ["status", "--porcelain"], in: clone.directory, environment: clone.environment, label: "state")
            let lines = heads.output.split(separator: "\n").map(String.init)
            rounds.clones.append([lines.first ?? "none", lines.dropFirst().first ?? "none", status.output])
        }
        let remote = try runner.run(.git, ["rev-parse", "main", "main^{tree}"], in: remote, environment: clones[0].environment, label: "state remote")
        let lines = remote.output.split(separator: "\n").map(String.init)
        rounds.remoteHead = lines.first ?? "none"
        rounds.remoteTree = lines.dropFirst().first ?? "none"
    }
}
