import Foundation

/// One problem a check found.
struct ConvergeFinding: Sendable, Hashable {
    /// Names the cards, paths or commits and the clones it was seen on.
    var text: String
    /// Whether it is about work that could not travel because syncs failed (it never left its clone, or it is
    /// missing only on clones that cannot pull): a sign that the clones did not converge rather than something a merge
    /// destroyed.
    var isStranded = false
}

/// One of the promises checked at the end, and what broke it.
struct ConvergeCheck: Sendable {
    var number: Int
    var name: String
    var findings: [ConvergeFinding]

    var held: Bool { findings.isEmpty }
}

/// The checks run on the clones once the final rounds are over.
struct ConvergeChecks {
    let run: ConvergeRun
    let rounds: ConvergeRun.Rounds
    /// Each clone's board, as its files are on the disk.
    let boards: [ConvergeBoardFiles]
    /// The clones whose sync failed in the last round.
    let stuck: Set<Int>

    init(run: ConvergeRun, rounds: ConvergeRun.Rounds) {
        self.run = run
        self.rounds = rounds
        boards = run.clones.map { ConvergeBoardFiles(reading: $0.directory) }
        stuck = Set(rounds.syncs.filter { $0.round == rounds.count && !$0.succeeded }.map(\.clone))
    }

    func all() throws -> [ConvergeCheck] {
        [
            ConvergeCheck(number: 1, name: "one board on every clone, equal to the remote's tip", findings: oneBoard().map { ConvergeFinding(text: $0) }),
            ConvergeCheck(number: 2, name: "every card not deleted exists exactly once", findings: grouped(boards.map(everyCardOnce), markingStuck: true)),
            ConvergeCheck(number: 3, name: "no deleted card came back unless edited after the delete",
                          findings: grouped(boards.map(deletedStayDeleted), markingStuck: true)),
            ConvergeCheck(number: 4, name: "no text or label lost", findings: grouped(boards.map(noTextLost), markingStuck: true)),
            ConvergeCheck(number: 5, name: "no conflict markers", findings: grouped(boards.map { plain(noConflictMarkers($0)) })),
            ConvergeCheck(number: 6, name: "kanban doctor finds no errors", findings: grouped(try run.clones.map { plain(try doctorErrors($0)) })),
            ConvergeCheck(number: 7, name: "no empty commits", findings: try noEmptyCommits().map { ConvergeFinding(text: $0) }),
        ]
    }

    private func plain(_ texts: [String]) -> [ConvergeFinding] {
        texts.map { ConvergeFinding(text: $0) }
    }

    /// Findings per clone, merged: each once, with the clones it was seen on (in the order first seen). With
    /// `markingStuck`, a finding seen only on clones whose syncs fail is marked as stranded.
    private func grouped(_ perClone: [[ConvergeFinding]], markingStuck: Bool = false) -> [ConvergeFinding] {
        var order: [ConvergeFinding] = []
        var seenOn: [ConvergeFinding: [Int]] = [:]
        for (clone, findings) in perClone.enumerated() {
            for finding in findings {
                if seenOn[finding] == nil { order.append(finding) }
                seenOn[finding, default: []].append(clone)
            }
        }
        guard perClone.count > 1 else { return order }
        return order.map { finding in
            let clones = seenOn[finding] ?? []
            var merged = finding
            merged.text += clones.count == perClone.count ? " [every clone]" : " [on \(clones.map { "c\($0)" }.joined(separator: ", "))]"
            if markingStuck && !finding.isStranded && clones.allSatisfy(stuck.contains) {
                merged.text += " (only on clones whose syncs fail)"
                merged.isStranded = true
            }
            return merged
        }
    }

    // MARK: 1

    /// The clones' files compared byte for byte, and each clone's HEAD and working tree against the remote's tip.
    private func oneBoard() -> [String] {
        var findings: [String] = []
        var groups: [[Int]] = []
        for (index, board) in boards.enumerated() {
            if let group = groups.firstIndex(where: { boards[$0[0]].files == board.files }) {
                groups[group].append(index)
            } else {
                groups.append([index])
            }
        }
        if groups.count > 1 {
            findings.append("\(groups.count) different boards: " + groups.map { $0.map { "c\($0)" }.joined(separator: " ") }.joined(separator: " | "))
            let paths = Set(boards.flatMap(\.files.keys)).sorted()
            var differing: [String] = []
            for path in paths {
                var versions: [[UInt8]?] = []
                var holders: [[Int]] = []
                for (index, board) in boards.enumerated() {
                    let bytes = board.files[path]
                    if let version = versions.firstIndex(where: { $0 == bytes }) {
                        holders[version].append(index)
                    } else {
                        versions.append(bytes)
                        holders.append([index])
                    }
                }
                guard versions.count > 1 else { continue }
                let described = zip(versions, holders).map { bytes, clones in
                    (bytes == nil ? "absent on " : "") + clones.map { "c\($0)" }.joined(separator: " ")
                }
                differing.append("\(path): \(versions.count) versions (\(described.joined(separator: " | ")))")
            }
            findings += differing
        }
        let state = rounds.finalState
        for (index, clone) in state.clones.enumerated() {
            if clone[1] != state.remoteTree {
                findings.append("c\(index): HEAD \(clone[0].prefix(7)) holds a different tree from the remote's tip \(state.remoteHead.prefix(7))")
            }
            if !clone[2].isEmpty {
                let lines = clone[2].split(separator: "\n")
                findings.append("c\(index): uncommitted changes: " + lines.prefix(3).joined(separator: ", ") + (lines.count > 3 ? ", ..." : ""))
            }
        }
        return findings
    }

    // MARK: 2, 3

    /// Identity → the paths holding it, on one board.
    private func places(_ board: ConvergeBoardFiles) -> [String: [String]] {
        var places: [String: [String]] = [:]
        for card in board.cards {
            if let identity = card.identity { places[identity, default: []].append(card.path) }
        }
        return places
    }

    private func describe(_ event: ConvergeLedger.Event) -> String {
        event.clone < 0 ? "at setup" : "on c\(event.clone) at op \(event.operation)"
    }

    /// ` (stranded: c2's syncs failed)` when what happened at `event` never left its clone.
    private func stranded(_ event: ConvergeLedger.Event) -> String? {
        run.isPublished(event) ? nil : " (stranded: c\(event.clone)'s syncs failed)"
    }

    private func everyCardOnce(_ board: ConvergeBoardFiles) -> [ConvergeFinding] {
        let places = places(board)
        var findings: [ConvergeFinding] = []
        for record in run.ledger.cards.values.sorted(by: { ($0.created.operation, $0.identity) < ($1.created.operation, $1.identity) }) {
            let paths = places[record.identity] ?? []
            if paths.isEmpty && record.mustExist {
                let note = stranded(record.created)
                findings.append(ConvergeFinding(text: "\(record.identity) \"\(record.title)\" (added \(describe(record.created)), never deleted) is missing" + (note ?? ""),
                                                isStranded: note != nil))
            } else if paths.count > 1 {
                findings.append(ConvergeFinding(text: "\(record.identity) \"\(record.title)\" is there \(paths.count) times: \(paths.joined(separator: ", "))"))
            }
        }
        for card in board.cards {
            guard let identity = card.identity else {
                findings.append(ConvergeFinding(text: "\(card.path) has no hid: not a card anyone added"))
                continue
            }
            if run.ledger.cards[identity] == nil { findings.append(ConvergeFinding(text: "\(card.path) has hid \(identity), which nobody gave")) }
        }
        return findings
    }

    private func deletedStayDeleted(_ board: ConvergeBoardFiles) -> [ConvergeFinding] {
        let places = places(board)
        var findings: [ConvergeFinding] = []
        for record in run.ledger.cards.values.sorted(by: { ($0.created.operation, $0.identity) < ($1.created.operation, $1.identity) }) {
            guard record.mustBeGone, let delete = record.lastDelete, let paths = places[record.identity], !paths.isEmpty else { continue }
            let lastEdit = record.edits.last.map { "last edited \(describe($0))" } ?? "never edited"
            let note = stranded(delete).map { _ in " (the delete never left c\(delete.clone): its syncs failed)" }
            findings.append(ConvergeFinding(text: "\(record.identity) \"\(record.title)\" deleted \(describe(delete)) is on the board: \(paths.joined(separator: ", ")) (\(lastEdit))" + (note ?? ""),
                                            isStranded: note != nil))
        }
        return findings
    }

    // MARK: 4, 5

    private func noTextLost(_ board: ConvergeBoardFiles) -> [ConvergeFinding] {
        let present = Set(board.cards.compactMap(\.identity))
        // Every word of every card (letters, digits and '-'), so that a line kept in another form (quoted, in a list,
        // in a preserved conflict section) still counts, and `L1-5` is never found inside `L1-55`.
        var text: Set<Substring> = []
        for card in board.cards {
            for line in card.lines {
                for word in line.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "-") }) { text.insert(word) }
            }
        }
        var findings: [ConvergeFinding] = []
        // A card on the board has every line written into it, also one written before a delete that a later change
        // made void (issue 19: the card that stays is the merge of every version anyone made of it), except a line
        // its writer deleted with the card before committing it, which no history holds.
        for line in run.ledger.lines where line.replacement == nil && !line.isWithdrawn && !text.contains(Substring(line.text)) {
            guard let card = run.ledger.cards[line.identity], card.mustExist || present.contains(line.identity) else { continue }
            let note = stranded(line.written)
            findings.append(ConvergeFinding(text: "\(line.text) (written \(describe(line.written)) in \(line.identity) \"\(card.title)\") is lost" + (note ?? ""),
                                            isStranded: note != nil))
        }
        // And every label anyone added to it, unless someone removed that label afterwards.
        var labels: [String: Set<String>] = [:]
        for card in board.cards { if let identity = card.identity { labels[identity, default: []].formUnion(card.labels) } }
        for (identity, held) in labels.sorted(by: { $0.key < $1.key }) {
            guard let card = run.ledger.cards[identity] else { continue }
            for add in run.ledger.labelsToKeep(on: identity) where !held.contains(add.label) {
                let note = stranded(add.event)
                findings.append(ConvergeFinding(text: "label \(add.label) (added \(describe(add.event)) to \(identity) \"\(card.title)\") is lost" + (note ?? ""),
                                                isStranded: note != nil))
            }
        }
        return findings
    }

    private func noConflictMarkers(_ board: ConvergeBoardFiles) -> [String] {
        var findings: [String] = []
        for path in board.files.keys.sorted() {
            guard let bytes = board.files[path] else { continue }
            let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            for (index, line) in lines.enumerated() where line.hasPrefix("<<<<<<<") || line.hasPrefix(">>>>>>>") || line.hasPrefix("|||||||") {
                findings.append("\(path):\(index + 1): \(line.prefix(40))")
            }
        }
        return findings
    }

    // MARK: 6, 7

    private func doctorErrors(_ clone: ConvergeClone) throws -> [String] {
        let outcome = try run.runner.run(.kanban, ["doctor"], in: clone, label: "check")
        let errors = outcome.allOutput.split(separator: "\n").filter { $0.contains(": error:") }.map(String.init)
        if errors.isEmpty && !outcome.succeeded { return ["kanban doctor: \(run.describe(outcome))"] }
        return errors
    }

    /// Single-parent commits whose tree is their parent's, in the remote's history and every clone's.
    private func noEmptyCommits() throws -> [String] {
        var seen: Set<String> = []
        var findings: [String] = []
        let histories = [("the remote", run.remote, run.clones[0].environment, "main")]
            + run.clones.map { ("c\($0.index)", $0.directory, $0.environment, "HEAD") }
        for (name, directory, environment, head) in histories {
            let outcome = try run.runner.run(.git, ["log", "--format=%H %T %P%x09%s", head], in: directory, environment: environment,
                                             label: "check \(name)")
            guard outcome.succeeded else {
                findings.append("\(name): git log failed: \(run.describe(outcome))")
                continue
            }
            var trees: [Substring: Substring] = [:]
            var commits: [(commit: Substring, tree: Substring, parents: [Substring], subject: Substring)] = []
            for line in outcome.output.split(separator: "\n") {
                let parts = line.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
                let hashes = parts[0].split(separator: " ")
                guard hashes.count >= 2 else { continue }
                trees[hashes[0]] = hashes[1]
                commits.append((hashes[0], hashes[1], Array(hashes.dropFirst(2)), parts.count > 1 ? parts[1] : ""))
            }
            for commit in commits where commit.parents.count == 1 && seen.insert(String(commit.commit)).inserted {
                if trees[commit.parents[0]] == commit.tree {
                    findings.append("\(commit.commit.prefix(7)) \"\(commit.subject)\" changes nothing (in \(name)'s history)")
                }
            }
        }
        return findings
    }
}
