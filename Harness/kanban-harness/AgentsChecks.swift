import Foundation

/// One check of an agents run and what it found.
struct AgentsCheck {
    var number: Int
    var name: String
    var findings: [String]
    var held: Bool { findings.isEmpty }
}

/// The checks of an agents run, judged from the board files on the disk and the agents' records, never from
/// kanban's own reading (but for `kanban doctor`).
struct AgentsChecks {
    let run: AgentsRun
    let rounds: AgentsRun.Rounds
    let records: AgentsRecords
    let boards: [ConvergeBoardFiles]

    init(run: AgentsRun, rounds: AgentsRun.Rounds) {
        self.run = run
        self.rounds = rounds
        records = run.records.withLock { $0 }
        boards = run.clones.map { ConvergeBoardFiles(reading: run.boardDirectory(of: $0)) }
    }

    func all() throws -> [AgentsCheck] {
        [
            AgentsCheck(number: 1, name: "one board on every clone, equal to the remote's tip", findings: oneBoard()),
            AgentsCheck(number: 2, name: "every card done, each exactly once", findings: everyCardDoneOnce()),
            AgentsCheck(number: 3, name: "no card held by two: one claimed-by, the agent that finished it", findings: oneHolder()),
            AgentsCheck(number: 4, name: "no card claimed before its dependencies were done", findings: dependenciesFirst()),
            AgentsCheck(number: 5, name: "nothing lost: every line an agent wrote into a card it finished", findings: linesKept()),
            AgentsCheck(number: 6, name: "kanban doctor finds no errors", findings: try doctorErrors()),
        ]
    }

    /// The first clone's board, which check 1 says every clone holds.
    private var board: ConvergeBoardFiles { boards[0] }

    // MARK: 1

    private func oneBoard() -> [String] {
        var findings: [String] = []
        for (index, other) in boards.enumerated().dropFirst() where other.files != board.files {
            let paths = Set(board.files.keys).union(other.files.keys).filter { board.files[$0] != other.files[$0] }.sorted()
            findings.append("c\(index) differs from c0 in \(paths.count) files: " + paths.prefix(5).joined(separator: ", ") + (paths.count > 5 ? ", ..." : ""))
        }
        for (index, clone) in rounds.clones.enumerated() {
            if clone[1] != rounds.remoteTree {
                findings.append("c\(index): HEAD \(clone[0].prefix(7)) holds a different tree from the remote's tip \(rounds.remoteHead.prefix(7))")
            }
            if !clone[2].isEmpty {
                let lines = clone[2].split(separator: "\n")
                findings.append("c\(index): uncommitted changes: " + lines.prefix(3).joined(separator: ", ") + (lines.count > 3 ? ", ..." : ""))
            }
        }
        return findings
    }

    // MARK: 2

    /// Title → the card files holding it.
    private var filesByTitle: [String: [ConvergeCardFile]] {
        var result: [String: [ConvergeCardFile]] = [:]
        for card in board.cards {
            let title = BoardFiles.value(of: "title", in: card.lines.map { Substring($0) }) ?? "?"
            result[title, default: []].append(card)
        }
        return result
    }

    private func everyCardDoneOnce() -> [String] {
        var findings: [String] = []
        let byTitle = filesByTitle
        for card in run.cards {
            let files = byTitle[card.title] ?? []
            if files.isEmpty {
                findings.append("\(card.slug) is gone")
            } else if files.count > 1 {
                findings.append("\(card.slug) is there \(files.count) times: \(files.map(\.path).joined(separator: ", "))")
            } else if files[0].column != "done" {
                findings.append("\(card.slug) is not done: \(files[0].path), claimed-by \(claimedBy(files[0]).joined(separator: ", "))")
            }
        }
        let known = Set(run.cards.map(\.title))
        for (title, files) in byTitle.sorted(by: { $0.key < $1.key }) where !known.contains(title) {
            findings.append("a card nobody made: '\(title)' at \(files.map(\.path).joined(separator: ", "))")
        }
        return findings
    }

    /// The `claimed-by` values in a card's frontmatter (one, when all is well).
    private func claimedBy(_ card: ConvergeCardFile) -> [String] {
        guard let close = card.lines.dropFirst().firstIndex(of: "---") else { return [] }
        return card.lines[1..<close].filter { $0.hasPrefix("claimed-by:") }.map {
            BoardFiles.value(of: "claimed-by", in: [Substring($0)]) ?? ""
        }
    }

    // MARK: 3

    private func oneHolder() -> [String] {
        var findings: [String] = []
        let byTitle = filesByTitle
        let finishers = Dictionary(grouping: records.finishes.filter(\.moved), by: \.card)
        for card in run.cards {
            guard let file = byTitle[card.title]?.first else { continue }
            let holders = claimedBy(file)
            let finishedBy = Set((finishers[card.slug] ?? []).map(\.agent)).sorted()
            // A card never claimed is check 2's finding; a card done must name one holder.
            if holders.count > 1 || (holders.isEmpty && file.column == "done") {
                findings.append("\(card.slug): \(holders.isEmpty ? "no claimed-by" : "claimed-by \(holders.count) times: " + holders.joined(separator: ", "))")
            }
            for claim in records.claims where claim.card == card.slug && claim.state != "claimed" {
                findings.append("\(card.slug): 'kanban claim' granted it to \(claim.agent) at \(Self.seconds(claim.at)) s in state '\(claim.state)', not 'claimed'")
            }
            let granted = Set(records.claims.filter { $0.card == card.slug }.map(\.agent))
            for holder in holders where !granted.contains(holder) {
                findings.append("\(card.slug): held by \(holder), whose 'kanban claim' never succeeded for it (a claim that exited 1 still made it)")
            }
            if finishedBy.count > 1 {
                findings.append("\(card.slug): finished by \(finishedBy.count) agents, each holding it after a sync: \(finishedBy.joined(separator: ", ")); final claimed-by \(holders.joined(separator: ", "))")
            } else if let finisher = finishedBy.first, holders != [finisher] {
                findings.append("\(card.slug): finished by \(finisher), who held it after a sync, but its final claimed-by is \(holders.isEmpty ? "none" : holders.joined(separator: ", "))")
            }
        }
        return findings
    }

    // MARK: 4

    private func dependenciesFirst() -> [String] {
        var findings: [String] = []
        let dependencies = Dictionary(uniqueKeysWithValues: run.cards.map { ($0.slug, $0.dependencies) })
        // The first time each card was moved to done, by anyone: a card claimed before every card it waits for had
        // been moved there was claimed too soon, whatever its board said.
        var firstDone: [String: Double] = [:]
        for finish in records.finishes where finish.moved {
            firstDone[finish.card] = min(firstDone[finish.card] ?? .infinity, finish.at)
        }
        for claim in records.claims {
            if !claim.dependenciesNotDone.isEmpty {
                findings.append("\(claim.card) claimed by \(claim.agent) at \(Self.seconds(claim.at)) s while kanban show said not done: \(claim.dependenciesNotDone.joined(separator: ", "))")
            }
            let early = (dependencies[claim.card] ?? []).filter { (firstDone[$0] ?? .infinity) > claim.at }
            if !early.isEmpty {
                findings.append("\(claim.card) claimed by \(claim.agent) at \(Self.seconds(claim.at)) s before anyone had moved to done: "
                                + early.map { "\($0) (\(firstDone[$0].map { Self.seconds($0) + " s" } ?? "never"))" }.joined(separator: ", "))
            }
        }
        return findings
    }

    // MARK: 5

    private func linesKept() -> [String] {
        let byTitle = filesByTitle
        let titles = Dictionary(uniqueKeysWithValues: run.cards.map { ($0.slug, $0.title) })
        var findings: [String] = []
        for finish in records.finishes {
            guard let title = titles[finish.card], let file = byTitle[title]?.first else { continue }
            if !file.bodyLines.contains(finish.line) {
                findings.append("\(finish.card): lost the line '\(finish.line)'")
            }
        }
        return findings
    }

    // MARK: 6

    private func doctorErrors() throws -> [String] {
        var findings: [String] = []
        for clone in run.clones {
            let outcome = try run.runner.run(.kanban, ["doctor"], in: run.boardDirectory(of: clone), environment: clone.environment, label: "check c\(clone.index)")
            let errors = outcome.allOutput.split(separator: "\n").filter { $0.contains(": error:") }
            if errors.isEmpty && !outcome.succeeded { findings.append("c\(clone.index): kanban doctor \(run.describe(outcome))") }
            findings += errors.map { "c\(clone.index): \($0)" }
        }
        return findings
    }

    static func seconds(_ value: Double) -> String {
        String(format: "%.2f", value)
    }
}
