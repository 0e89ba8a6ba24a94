import Foundation

extension AgentsRun {
    /// An agent stops after this many turns in a row found no card ready while no card became done.
    static let idleTurnLimit = 40

    /// Runs every agent on a thread of its own until each stops.
    func runAgents() {
        let finished = DispatchGroup()
        for agent in agents {
            finished.enter()
            Thread.detachNewThread { [self] in
                work(as: agent)
                finished.leave()
            }
        }
        finished.wait()
    }

    /// One agent's loop: claim the next ready card, check its dependencies, work, append a line, sync, and finish it
    /// if it still holds it; when no card is ready, sync and stop once every card is done.
    private func work(as agent: Agent) {
        var random = SeededRandom(seed: settings.seed &+ UInt64(agent.index + 1) &* 0x9E37_79B9)
        let deadline = settings.timeLimit
        var iteration = 0
        // Turns in a row that found no card ready while the number of cards done stood still: when a card is held
        // by someone who will never finish it, every agent would wait to the time limit.
        var idleTurns = 0
        var doneCount = -1
        while true {
            guard iteration < settings.maxIterations, elapsed < deadline else {
                records.withLock { $0.stoppedByLimit.append("\(agent.name) after \(iteration) turns, \(String(format: "%.0f", elapsed)) s") }
                return
            }
            iteration += 1
            let label = "\(agent.name) turn \(iteration)"
            guard let claim = run(["claim", "--next", "--sync", "--json"], as: agent, label: label + " claim") else { continue }
            let lostOnTheWay = claim.errorOutput.components(separatedBy: "was claimed first by").count - 1
            if lostOnTheWay > 0 { records.withLock { $0.lostAtClaim += lostOnTheWay } }
            switch claim.status {
            case 0:
                break
            case 3:
                records.withLock { $0.lostAtClaim += 1 }
                continue
            case 4:
                _ = sync(as: agent, label: label)
                if isEveryCardDone(on: agent.clone) { return }
                let nowDone = doneCards(on: agent.clone)
                idleTurns = nowDone == doneCount ? idleTurns + 1 : 0
                doneCount = nowDone
                if idleTurns >= Self.idleTurnLimit {
                    records.withLock { $0.stoppedByLimit.append("\(agent.name) after \(iteration) turns: \(idleTurns) turns in a row found no card ready and no card newly done (\(nowDone) of \(cards.count) done)") }
                    return
                }
                Thread.sleep(forTimeInterval: Double.random(in: 0.05...0.25, using: &random))
                continue
            default:
                records.withLock { $0.claimFailures.append("\(label): \(describe(claim))") }
                Thread.sleep(forTimeInterval: Double.random(in: 0.05...0.25, using: &random))
                continue
            }
            let claimedAt = elapsed
            guard let (claimed, isPure) = Self.cards(inJSON: claim.output), claimed.count == 1, let slug = claimed[0]["slug"] as? String else {
                records.withLock { $0.failures.append("\(label): claim printed no card: \(describe(claim))") }
                continue
            }
            if !isPure { records.withLock { $0.impureJSON += 1 } }
            let holder = (claimed[0]["fields"] as? [String: Any])?["claimed-by"] as? String
            guard holder == agent.name else {
                // Check 3 reports a claim granted with someone else's name.
                let state = "claimed-by \(holder ?? "no one") in the JSON"
                records.withLock { $0.claims.append(.init(agent: agent.name, card: slug, at: claimedAt, dependenciesNotDone: [], state: state)) }
                continue
            }
            // The dependencies, as the agent's own board sees them right after the claim.
            guard let shown = show(slug, as: agent, label: label) else { continue }
            let work = shown["work"] as? [String: Any]
            let dependencies = work?["dependsOn"] as? [[String: Any]] ?? []
            let notDone = dependencies.filter { ($0["done"] as? Bool) != true }.map { $0["slug"] as? String ?? "?" }
            let state = work?["state"] as? String ?? "?"
            records.withLock { $0.claims.append(.init(agent: agent.name, card: slug, at: claimedAt, dependenciesNotDone: notDone, state: state)) }

            Thread.sleep(forTimeInterval: Double.random(in: 0...0.1, using: &random))
            let line = "Worked by \(agent.name) in turn \(iteration)."
            var body = shown["body"] as? String ?? ""
            if !body.isEmpty && !body.hasSuffix("\n") { body += "\n" }
            guard succeeded(run(["set", slug, "--body", body + line + "\n"], as: agent, label: label + " set"), label + " set") else { continue }
            _ = sync(as: agent, label: label)

            guard let again = show(slug, as: agent, label: label) else { continue }
            let holderNow = (again["work"] as? [String: Any])?["claimedBy"] as? String
            guard holderNow == agent.name else {
                records.withLock { $0.lostAfterSuccess.append("\(slug): \(agent.name) claimed it, then found it held by \(holderNow ?? "no one") after a sync") }
                continue
            }
            let movedAt = elapsed
            let moved = succeeded(run(["move", slug, "done", "--commit"], as: agent, label: label + " move"), label + " move")
            let finished = records.withLock {
                $0.finishes.append(.init(agent: agent.name, card: slug, at: movedAt, line: line, moved: moved))
                if moved { $0.done[agent.name, default: 0] += 1 }
                return $0.done.values.reduce(0, +)
            }
            if moved && cards.count >= 100 && finished % max(1, cards.count / 10) == 0 {
                FileHandle.standardError.write(Data("agents: \(finished) of \(cards.count) cards moved to done, \(String(format: "%.0f", elapsed)) s\n".utf8))
            }
            _ = sync(as: agent, label: label)
        }
    }

    /// Runs `kanban arguments` in the agent's worktree; nil (recorded as a failure) when it cannot start.
    private func run(_ arguments: [String], as agent: Agent, label: String) -> ChildProcess.Outcome? {
        do {
            return try runner.run(.kanban, arguments, in: agent.directory, environment: agent.environment, label: label)
        } catch {
            records.withLock { $0.failures.append("\(label): cannot run kanban: \(error)") }
            return nil
        }
    }

    /// True when the step ran and exited 0; else records its failure.
    private func succeeded(_ outcome: ChildProcess.Outcome?, _ label: String) -> Bool {
        guard let outcome else { return false }
        if !outcome.succeeded { records.withLock { $0.failures.append("\(label): \(describe(outcome))") } }
        return outcome.succeeded
    }

    /// `kanban sync`, tried up to three times.
    private func sync(as agent: Agent, label: String) -> Bool {
        for attempt in 1...3 {
            guard let outcome = run(["sync"], as: agent, label: "\(label) sync") else { return false }
            records.withLock {
                $0.syncs += 1
                if !outcome.succeeded { $0.failedSyncs.append("\(label) sync (attempt \(attempt)): \(describe(outcome))") }
            }
            if outcome.succeeded { return true }
            Thread.sleep(forTimeInterval: 0.05 * Double(attempt))
        }
        return false
    }

    /// `kanban show CARD --json`, parsed; nil (recorded) when it fails.
    private func show(_ slug: String, as agent: Agent, label: String) -> [String: Any]? {
        guard let outcome = run(["show", slug, "--json"], as: agent, label: label + " show") else { return nil }
        guard outcome.succeeded, let card = (try? JSONSerialization.jsonObject(with: Data(outcome.output.utf8))) as? [String: Any] else {
            records.withLock { $0.failures.append("\(label) show \(slug): \(describe(outcome))") }
            return nil
        }
        return card
    }

    /// True when the clone's board, read from the disk, holds every card in the done column and no other card.
    func isEveryCardDone(on clone: ConvergeClone) -> Bool {
        let board = ConvergeBoardFiles(reading: boardDirectory(of: clone))
        return board.cards.count == cards.count && board.cards.allSatisfy { $0.column == "done" }
    }

    /// The cards in the done column of the clone's board, read from the disk.
    private func doneCards(on clone: ConvergeClone) -> Int {
        ConvergeBoardFiles(reading: boardDirectory(of: clone)).cards.filter { $0.column == "done" }.count
    }

    /// The JSON array of cards in a `--json` output, and whether the output was that array alone. A leading line
    /// that is not JSON (sync's progress) is skipped, so that the run can go on; the caller counts it.
    static func cards(inJSON output: String) -> ([[String: Any]], Bool)? {
        if let cards = (try? JSONSerialization.jsonObject(with: Data(output.utf8))) as? [[String: Any]] { return (cards, true) }
        guard let start = output.range(of: "\n[")?.lowerBound,
              let cards = (try? JSONSerialization.jsonObject(with: Data(output[start...].utf8))) as? [[String: Any]] else { return nil }
        return (cards, false)
    }

    /// `exit 1: error: ...` in one line.
    func describe(_ outcome: ChildProcess.Outcome) -> String {
        let how = outcome.timedOut ? "timed out" : outcome.signal.map { "signal \($0)" } ?? "exit \(outcome.status)"
        return "\(how): " + outcome.firstLines(2).joined(separator: " / ")
    }
}
