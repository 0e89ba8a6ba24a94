import Foundation

/// The kinds of change a person makes to the board.
enum ConvergeOperationKind: String, CaseIterable, Sendable {
    case add, move, reorder, title, labels, append, replace, handEdit, archive, unarchive, delete

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
        case .handEdit: 8
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

/// One change to make on a clone. Cards are named by their harness identity (`c2-17`, `i-3`), found on the clone's
/// disk when the change is made.
enum ConvergeAction: Sendable {
    /// A new card; `body` nil gives it one new unique line.
    case add(title: String, column: String, label: String? = nil, isTop: Bool = false, body: [String]? = nil)
    case move(String, to: String, isTop: Bool = false)
    case moveToTop(String)
    case moveAfter(String, other: String)
    case retitle(String)
    case addLabel(String, label: String)
    case removeLabel(String, label: String)
    /// A new unique line, at the end of the body (nil) or after the body line at that 0-based index.
    case append(String, after: Int? = nil)
    /// The body line at that 0-based index replaced by a new unique line.
    case replace(String, line: Int)
    /// A new unique line at the end of the file, written by another program (an editor): `modified` stays as it was.
    /// Committed at once with `git commit`, or left for the clone's next sync to commit.
    case handEdit(String, commitsAtOnce: Bool)
    case archive(String)
    case unarchive(String)
    case delete(String)

    var kind: ConvergeOperationKind {
        switch self {
        case .add: .add
        case .move: .move
        case .moveToTop, .moveAfter: .reorder
        case .retitle: .title
        case .addLabel, .removeLabel: .labels
        case .append: .append
        case .replace: .replace
        case .handEdit: .handEdit
        case .archive: .archive
        case .unarchive: .unarchive
        case .delete: .delete
        }
    }

    /// The identity of the card it changes; nil for `add`.
    var card: String? {
        switch self {
        case .add: nil
        case .move(let card, _, _), .moveToTop(let card), .moveAfter(let card, _), .retitle(let card), .addLabel(let card, _),
             .removeLabel(let card, _), .append(let card, _), .replace(let card, _), .handEdit(let card, _), .archive(let card),
             .unarchive(let card), .delete(let card):
            card
        }
    }
}

extension ConvergeRun {
    /// One random change on `clone`, chosen from the cards the clone has now.
    ///
    /// Body lines are unique (`L<clone>-<operation>`): `append` adds one (at the end, where two clones' appends
    /// collide, or after a random line), `replace` swaps one the clone sees for a new one, often the card's first
    /// written line, which other clones replace too.
    func performRandomOperation(_ number: Int, on clone: ConvergeClone) throws {
        let board = ConvergeBoardFiles(reading: clone.directory)
        try perform(chooseAction(on: clone, number: number, board: board), number: number, on: clone, board: board)
    }

    private func chooseAction(on clone: ConvergeClone, number: Int, board: ConvergeBoardFiles) -> ConvergeAction {
        // Only cards the ledger knows: a card without a harness identity is reported by the checks, not worked on.
        let known = board.cards.filter { card in card.identity.map { ledger.cards[$0] != nil } ?? false }
        let active = known.filter { !$0.isArchived }
        let archived = known.filter(\.isArchived)
        let add = ConvergeAction.add(title: chance(30) ? pick(sharedTitles) ?? "Shared task" : "Card \(clone.name) op \(number)",
                                     column: pick(Self.columns) ?? "todo", label: chance(30) ? pick(Self.labels) : nil, isTop: chance(30))
        switch ConvergeOperationKind.pick(using: &random) {
        case .add:
            return add
        case .move:
            guard let card = pick(active), let identity = card.identity, let from = card.column,
                  let to = pick(Self.columns.filter { $0 != from }) else { return add }
            return .move(identity, to: to, isTop: chance(30))
        case .reorder:
            let crowded = active.filter { candidate in active.contains { $0.column == candidate.column && $0.path != candidate.path } }
            guard let card = pick(crowded), let identity = card.identity else { return add }
            let others = active.filter { $0.column == card.column && $0.path != card.path }
            if chance(40) { return .moveToTop(identity) }
            guard let other = pick(others)?.identity else { return add }
            return .moveAfter(identity, other: other)
        case .title:
            guard let identity = pick(known)?.identity else { return add }
            return .retitle(identity)
        case .labels:
            guard let card = pick(known), let identity = card.identity else { return add }
            let missing = Self.labels.filter { !card.labels.contains($0) }
            if let present = pick(card.labels), chance(50) || missing.isEmpty { return .removeLabel(identity, label: present) }
            guard let label = pick(missing) else { return add }
            return .addLabel(identity, label: label)
        case .append:
            guard let card = pick(known), let identity = card.identity else { return add }
            if chance(50) || card.bodyLines.isEmpty { return .append(identity) }
            return .append(identity, after: Int.random(in: 0..<card.bodyLines.count, using: &random))
        case .replace:
            guard let card = pick(known.filter { $0.bodyLines.contains(where: ledger.isWrittenLine) }), let identity = card.identity else { return add }
            let written = card.bodyLines.indices.filter { ledger.isWrittenLine(card.bodyLines[$0]) }
            guard let line = chance(50) ? written.first : pick(written) else { return add }
            return .replace(identity, line: line)
        case .handEdit:
            guard let identity = pick(known)?.identity else { return add }
            return .handEdit(identity, commitsAtOnce: chance(50))
        case .archive:
            guard let identity = pick(active)?.identity else { return add }
            return .archive(identity)
        case .unarchive:
            guard let identity = pick(archived)?.identity else { return add }
            return .unarchive(identity)
        case .delete:
            guard let identity = pick(known)?.identity else { return add }
            return .delete(identity)
        }
    }

    /// Makes `action` on `clone` (whose board is `board`, read just before) and records it in the ledger when it worked.
    /// An action whose card is not on the clone, or that kanban refuses, is counted as a failed operation.
    func perform(_ action: ConvergeAction, number: Int, on clone: ConvergeClone, board: ConvergeBoardFiles) throws {
        operationCounts[action.kind, default: 0] += 1
        let event = ConvergeLedger.Event(operation: number, clone: clone.index)
        let line = "L\(clone.index)-\(number)"
        if case .add(let title, let column, let label, let isTop, let body) = action {
            try add(title: title, column: column, label: label, isTop: isTop, body: body, line: line, number: number, on: clone)
            return
        }
        guard let identity = action.card, let card = board.cards.first(where: { $0.identity == identity }) else {
            failedOperations.append("op \(number) \(clone.name) \(action.kind): card \(action.card ?? "?") is not on \(clone.name)")
            return
        }
        func path(of other: String) -> String { board.cards.first { $0.identity == other }?.path ?? other }
        var replaced: String?
        var arguments: [String]
        switch action {
        case .add:
            return
        case .move(_, let column, let isTop):
            arguments = ["move", card.path, column] + (isTop ? ["--top"] : [])
        case .moveToTop:
            arguments = ["move", card.path, "--top"]
        case .moveAfter(_, let other):
            arguments = ["move", card.path, "--after", path(of: other)]
        case .retitle:
            arguments = ["set", card.path, "--title", "Title \(clone.name) op \(number)"]
        case .addLabel(_, let label):
            arguments = ["set", card.path, "--add-label", label]
        case .removeLabel(_, let label):
            arguments = ["set", card.path, "--remove-label", label]
        case .append(_, let after):
            var lines = card.bodyLines
            lines.insert(line, at: after.map { min($0 + 1, lines.count) } ?? lines.count)
            try writeBody(lines)
            arguments = ["set", card.path, "--body-file", bodyFile]
        case .replace(_, let index):
            var lines = card.bodyLines
            guard lines.indices.contains(index) else {
                failedOperations.append("op \(number) \(clone.name) replace: \(identity) has no body line \(index)")
                return
            }
            replaced = lines[index]
            lines[index] = line
            try writeBody(lines)
            arguments = ["set", card.path, "--body-file", bodyFile]
        case .handEdit(_, let commitsAtOnce):
            try handEdit(card, line: line, commitsAtOnce: commitsAtOnce, number: number, on: clone)
            return
        case .archive:
            arguments = ["archive", card.path]
        case .unarchive:
            arguments = ["unarchive", card.path]
        case .delete:
            arguments = ["delete", card.path]
        }
        let outcome = try runner.run(.kanban, arguments, in: clone, label: "op \(number) \(action.kind)")
        guard outcome.succeeded else {
            failedOperations.append("op \(number) \(clone.name) \(action.kind) \(card.path): \(describe(outcome))")
            return
        }
        switch action {
        case .delete:
            ledger.noteDeleted(identity, at: event)
        case .append, .replace:
            ledger.noteEdited(identity, at: event)
            ledger.noteLine(line, in: identity, at: event, replacing: replaced.flatMap { ledger.isWrittenLine($0) ? $0 : nil })
        case .addLabel(_, let label):
            ledger.noteEdited(identity, at: event)
            ledger.noteLabel(label, added: true, on: identity, at: event)
        case .removeLabel(_, let label):
            ledger.noteEdited(identity, at: event)
            ledger.noteLabel(label, added: false, on: identity, at: event)
        default:
            ledger.noteEdited(identity, at: event)
        }
    }

    /// Adds a card, then gives it its identity (`c<clone>-<operation>`) with `kanban set --field hid=...`.
    private func add(title: String, column: String, label: String?, isTop: Bool, body: [String]?, line: String, number: Int,
                     on clone: ConvergeClone) throws {
        try writeBody(body ?? [line])
        var arguments = ["add", title, "--column", column, "--body-file", bodyFile]
        if let label { arguments += ["--label", label] }
        if isTop { arguments.append("--top") }
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
        let event = ConvergeLedger.Event(operation: number, clone: clone.index)
        ledger.noteCreated(identity, title: title, at: event)
        if body == nil { ledger.noteLine(line, in: identity, at: event) }
        if let label { ledger.noteLabel(label, added: true, on: identity, at: event) }
    }

    /// Appends `line` to `card`'s file as an editor would save it (a new file renamed over the old), leaving every
    /// other byte, `modified` included, as it was; then commits it with plain git, or leaves it for the next sync.
    ///
    /// A change made outside kanban counts from when it is committed (FORMAT.md), so the ledger notes the edit then:
    /// now, or at each later sync of the clone until one succeeds.
    private func handEdit(_ card: ConvergeCardFile, line: String, commitsAtOnce: Bool, number: Int, on clone: ConvergeClone) throws {
        let path = clone.directory + "/" + card.path
        guard var bytes = FileManager.default.contents(atPath: path).map({ [UInt8]($0) }) else {
            failedOperations.append("op \(number) \(clone.name) handEdit: cannot read \(card.path)")
            return
        }
        let crlf = bytes.count >= 2 && bytes[bytes.count - 2] == 0x0D && bytes.last == 0x0A
        if let last = bytes.last, last != 0x0A { bytes += crlf ? [0x0D, 0x0A] : [0x0A] }
        bytes += Array(line.utf8) + (crlf ? [0x0D, 0x0A] : [0x0A])
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            failedOperations.append("op \(number) \(clone.name) handEdit: cannot write \(card.path): \(error)")
            return
        }
        guard let identity = card.identity else { return }
        let event = ConvergeLedger.Event(operation: number, clone: clone.index)
        ledger.noteLine(line, in: identity, at: event)
        guard commitsAtOnce else {
            pendingHandEdits[clone.index, default: []].insert(identity)
            return
        }
        let added = try runner.run(.git, ["add", "-A"], in: clone, label: "op \(number) handEdit")
        let committed = added.succeeded
            ? try runner.run(.git, ["commit", "-q", "-m", "Edit \(card.path) by hand"], in: clone, label: "op \(number) handEdit") : added
        if committed.succeeded {
            ledger.noteEdited(identity, at: event)
            ledger.noteCommitted(by: clone.index, at: number)
        } else {
            failedOperations.append("op \(number) \(clone.name) handEdit: git commit: \(describe(committed))")
            pendingHandEdits[clone.index, default: []].insert(identity)
        }
    }

    /// `exit 1: first line of its error output`.
    func describe(_ outcome: ChildProcess.Outcome) -> String {
        let how = outcome.timedOut ? "timed out" : "exit \(outcome.status)"
        return ([how] + outcome.firstLines(2)).joined(separator: ": ")
    }
}
