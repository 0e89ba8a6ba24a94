import Foundation

/// The kinds of change a person makes to the board.
enum ConvergeOperationKind: String, CaseIterable, Sendable {
    case add, move, reorder, title, labels, append, replace, archive, unarchive, delete

    /// How often, relative to the others.
    var weight: Int {
        switch self {
        case .add: 16
        case .move: 14
        case .reorder: 8
        case .title: 8
        case .labels: 8
        case .append: 16
        case .replace: 12
        case .archive: 6
        case .unarchive: 5
        case .delete: 7
        }
    }

    static func pick(using random: inout SeededRandom) -> ConvergeOperationKind {
        var roll = Int.random(in: 0..<allCases.reduce(0) { $0 + $1.weight }, using: &random)
        for kind in allCases {
            if roll < kind.weight { return kind }
            roll -= kind.weight
        }
        return .add
    }
}

extension ConvergeRun {
    /// One random change on `clone`, chosen from the cards the clone has now; recorded in the ledger when it worked.
    ///
    /// Body lines are unique (`L<clone>-<operation>`): `append` adds one (at the end, where two clones' appends
    /// collide, or after a random line), `replace` swaps one the clone sees for a new one, often the card's first,
    /// which other clones replace too.
    func performOperation(_ number: Int, on clone: ConvergeClone) throws {
        let board = ConvergeBoardFiles(reading: clone.directory)
        // Only cards the ledger knows: a card without a harness identity is reported by the checks, not worked on.
        let known = board.cards.filter { card in card.identity.map { ledger.cards[$0] != nil } ?? false }
        let active = known.filter { !$0.isArchived }
        let archived = known.filter(\.isArchived)
        let event = ConvergeLedger.Event(operation: number, clone: clone.index)
        let line = "L\(clone.index)-\(number)"

        var kind = ConvergeOperationKind.pick(using: &random)
        var card: ConvergeCardFile?
        var arguments: [String] = []
        var replaced: String?
        switch kind {
        case .add:
            break
        case .move:
            guard let chosen = pick(active), let from = chosen.column, let to = pick(Self.columns.filter { $0 != from }) else { break }
            card = chosen
            arguments = ["move", chosen.path, to] + (chance(30) ? ["--top"] : [])
        case .reorder:
            let crowded = active.filter { candidate in active.contains { $0.column == candidate.column && $0.path != candidate.path } }
            guard let chosen = pick(crowded) else { break }
            card = chosen
            let others = active.filter { $0.column == chosen.column && $0.path != chosen.path }
            if chance(40) {
                arguments = ["move", chosen.path, "--top"]
            } else if let other = pick(others) {
                arguments = ["move", chosen.path, "--after", other.path]
            }
        case .title:
            guard let chosen = pick(known) else { break }
            card = chosen
            arguments = ["set", chosen.path, "--title", "Title \(clone.name) op \(number)"]
        case .labels:
            guard let chosen = pick(known) else { break }
            card = chosen
            let missing = Self.labels.filter { !chosen.labels.contains($0) }
            if let present = pick(chosen.labels), chance(50) || missing.isEmpty {
                arguments = ["set", chosen.path, "--remove-label", present]
            } else if let label = pick(missing) {
                arguments = ["set", chosen.path, "--add-label", label]
            }
        case .append:
            guard let chosen = pick(known) else { break }
            card = chosen
            var lines = chosen.bodyLines
            if chance(50) || lines.isEmpty {
                lines.append(line)
            } else {
                lines.insert(line, at: Int.random(in: 0..<lines.count, using: &random) + 1)
            }
            try writeBody(lines)
            arguments = ["set", chosen.path, "--body-file", bodyFile]
        case .replace:
            let candidates = known.filter { $0.bodyLines.contains(where: ledger.isWrittenLine) }
            guard let chosen = pick(candidates) else { break }
            card = chosen
            let written = chosen.bodyLines.indices.filter { ledger.isWrittenLine(chosen.bodyLines[$0]) }
            guard let index = chance(50) ? written.first : pick(written) else { break }
            var lines = chosen.bodyLines
            replaced = lines[index]
            lines[index] = line
            try writeBody(lines)
            arguments = ["set", chosen.path, "--body-file", bodyFile]
        case .archive:
            guard let chosen = pick(active) else { break }
            card = chosen
            arguments = ["archive", chosen.path]
        case .unarchive:
            guard let chosen = pick(archived) else { break }
            card = chosen
            arguments = ["unarchive", chosen.path]
        case .delete:
            guard let chosen = pick(known) else { break }
            card = chosen
            arguments = ["delete", chosen.path]
        }
        guard let card, let identity = card.identity, !arguments.isEmpty else {
            kind = .add
            operationCounts[kind, default: 0] += 1
            try add(number, on: clone, line: line, event: event)
            return
        }
        operationCounts[kind, default: 0] += 1
        let outcome = try runner.run(.kanban, arguments, in: clone, label: "op \(number) \(kind)")
        guard outcome.succeeded else {
            failedOperations.append("op \(number) \(clone.name) \(kind) \(card.path): \(describe(outcome))")
            return
        }
        switch kind {
        case .delete:
            ledger.noteDeleted(identity, at: event)
        case .append:
            ledger.noteEdited(identity, at: event)
            ledger.noteLine(line, in: identity, at: event)
        case .replace:
            ledger.noteEdited(identity, at: event)
            ledger.noteLine(line, in: identity, at: event, replacing: replaced)
        default:
            ledger.noteEdited(identity, at: event)
        }
    }

    /// Adds a card (its title sometimes one another clone adds too), then gives it its identity.
    private func add(_ number: Int, on clone: ConvergeClone, line: String, event: ConvergeLedger.Event) throws {
        let title = chance(30) ? pick(sharedTitles) ?? "Shared task" : "Card \(clone.name) op \(number)"
        try writeBody([line])
        var arguments = ["add", title, "--column", pick(Self.columns) ?? "todo", "--body-file", bodyFile]
        if chance(30), let label = pick(Self.labels) { arguments += ["--label", label] }
        if chance(30) { arguments.append("--top") }
        let added = try runner.run(.kanban, arguments, in: clone, label: "op \(number) add")
        let path = added.output.split(separator: "\n").first.map(String.init) ?? ""
        guard added.succeeded, path.hasPrefix("cards/") else {
            failedOperations.append("op \(number) \(clone.name) add \"\(title)\": \(describe(added))")
            return
        }
        let identity = "c\(clone.index)-\(number)"
        let set = try runner.run(.kanban, ["set", path, "--field", "hid=\(identity)"], in: clone, label: "op \(number) add")
        guard set.succeeded else {
            failedOperations.append("op \(number) \(clone.name) add: setting hid on \(path): \(describe(set))")
            return
        }
        ledger.noteCreated(identity, title: title, at: event)
        ledger.noteLine(line, in: identity, at: event)
    }

    /// `exit 1: first line of its error output`.
    func describe(_ outcome: ChildProcess.Outcome) -> String {
        let how = outcome.timedOut ? "timed out" : "exit \(outcome.status)"
        return ([how] + outcome.firstLines(2)).joined(separator: ": ")
    }
}
