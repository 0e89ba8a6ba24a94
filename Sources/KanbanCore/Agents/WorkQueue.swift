import Foundation

/// Where work starts and ends on a board: the start column (a claimed card moves there) and the done column.
/// The columns before the start column hold the work waiting to be picked up.
///
/// `board.md` may name them (`start-column: in-progress`, `done-column: done`); otherwise the start column is the first
/// one called "in progress" or "doing" (by id or name), else the second column, and the done column is the last.
public struct WorkFlow: Sendable, Hashable {
    /// The column a claimed card moves to.
    public var startColumn: String
    /// The column that holds finished work; it and the columns after it count as done.
    public var doneColumn: String
    /// The board's column ids in order.
    public var columnIDs: [String]

    /// The `board.md` key naming the start column.
    public static let startKey = "start-column"
    /// The `board.md` key naming the done column.
    public static let doneKey = "done-column"

    private static let startNames: Set<String> = ["in-progress", "in_progress", "inprogress", "in progress", "doing", "wip", "started", "active"]

    /// The flow of `board`, with `start` and `done` (when given) over what `board.md` says.
    /// - Throws: ``KanbanError/Code/columnNotFound`` for a column the board lacks, and
    ///   ``KanbanError/Code/invalidArgument`` when the start column is the first column or comes after the done column.
    public init(board: Board, start: String? = nil, done: String? = nil) throws(KanbanError) {
        let ids = board.columns.map(\.id)
        columnIDs = ids
        func named(_ value: String?, key: String) throws(KanbanError) -> String? {
            guard let id = value ?? board.fields.first(where: { $0.key == key })?.value.string, !id.isEmpty else { return nil }
            guard ids.contains(id) else {
                let source = value == nil ? "board.md's '\(key)'" : "the column"
                throw KanbanError(.columnNotFound, "\(source) '\(id)' is not on the board; the board's columns are: \(ids.joined(separator: ", "))")
            }
            return id
        }
        let guessed = board.columns.first { Self.startNames.contains($0.id.lowercased()) || Self.startNames.contains($0.name.lowercased()) }?.id
        guard let last = ids.last else { throw KanbanError(.invalidBoard, "the board has no columns") }
        startColumn = try named(start, key: Self.startKey) ?? guessed ?? ids[min(1, ids.count - 1)]
        doneColumn = try named(done, key: Self.doneKey) ?? last
        guard let startIndex = ids.firstIndex(of: startColumn), let doneIndex = ids.firstIndex(of: doneColumn) else {
            throw KanbanError(.columnNotFound, "the board's columns changed while it was read")
        }
        if startIndex == 0 {
            throw KanbanError(.invalidArgument, "the start column '\(startColumn)' is the board's first column, so no column holds work to pick up; name a later one with '\(Self.startKey)' in board.md or --start")
        }
        if startIndex >= doneIndex {
            throw KanbanError(.invalidArgument, "the start column '\(startColumn)' is not before the done column '\(doneColumn)'; set '\(Self.startKey)' and '\(Self.doneKey)' in board.md, or give --start and --done")
        }
    }

    /// A flow from the board's columns without the checks: for what does not depend on the flow (cycles).
    init(unchecked board: Board) {
        columnIDs = board.columns.map(\.id)
        startColumn = columnIDs.count > 1 ? columnIDs[1] : columnIDs.first ?? ""
        doneColumn = columnIDs.last ?? ""
    }

    private func position(of column: String) -> Int? { columnIDs.firstIndex(of: column) }

    /// Whether `column` holds work waiting to be picked up: it comes before the start column.
    public func isWaitingColumn(_ column: String) -> Bool {
        guard let index = position(of: column), let start = position(of: startColumn) else { return false }
        return index < start
    }

    /// Whether `column` holds finished work: the done column or one after it.
    public func isDoneColumn(_ column: String) -> Bool {
        guard let index = position(of: column), let done = position(of: doneColumn) else { return false }
        return index >= done
    }

    /// The last column before the start column: where a released card goes back to.
    public var lastWaitingColumn: String {
        columnIDs[max(0, (position(of: startColumn) ?? 1) - 1)]
    }
}

/// Where one card stands for an agent looking for work.
public enum Readiness: Sendable, Hashable {
    /// Finished: in the done column or after it, or archived.
    case done
    /// Held by someone (and not finished).
    case claimed(CardClaim)
    /// In the start column or after it, not finished, and held by no one.
    case started
    /// Waiting to be picked up, but some of the cards it depends on are not finished (or not on the board).
    case waiting(on: [String])
    /// Waiting to be picked up, with every card it depends on finished, and held by no one.
    case ready
}

/// The board as agents see it: which cards may be started, which wait and for what, who holds what.
///
/// Built from a snapshot of the active cards and the slugs of the archived ones (an archived card counts as done).
/// Every surface (`kanban ready`, `claim`, `list --json`, the page, the MCP tools) asks it, so they agree.
public struct WorkQueue: Sendable {
    /// The flow the queue follows.
    public let flow: WorkFlow
    /// The active cards in board order.
    public let cards: [Card]
    private let bySlug: [String: Card]
    private let archived: Set<String>
    private let dependents: [String: [String]]

    /// The queue of `cards` (active, in board order) on a board whose archive holds `archivedSlugs`.
    public init(flow: WorkFlow, cards: [Card], archivedSlugs: Set<String>) {
        self.flow = flow
        self.cards = cards
        var bySlug: [String: Card] = [:]
        var dependents: [String: [String]] = [:]
        for card in cards {
            if bySlug[card.slug] == nil { bySlug[card.slug] = card }
            for slug in card.dependencies { dependents[slug, default: []].append(card.slug) }
        }
        self.bySlug = bySlug
        self.archived = archivedSlugs
        self.dependents = dependents
    }

    /// The queue of the board in `snapshot`, which may hold archived cards too.
    public init(flow: WorkFlow, snapshot: BoardSnapshot) {
        self.init(flow: flow, cards: snapshot.cards.filter { !$0.isArchived },
                  archivedSlugs: Set(snapshot.cards.lazy.filter(\.isArchived).map(\.slug)))
    }

    /// Whether the card `slug` is finished: archived, or in the done column or after it.
    public func isDone(_ slug: String) -> Bool {
        if let card = bySlug[slug] { return flow.isDoneColumn(card.column) }
        return archived.contains(slug)
    }

    /// Whether `slug` names a card on the board (active or archived).
    public func exists(_ slug: String) -> Bool {
        bySlug[slug] != nil || archived.contains(slug)
    }

    /// The cards `card` depends on that are not finished (or not on the board), in its order.
    public func unfinishedDependencies(of card: Card) -> [String] {
        card.dependencies.filter { !isDone($0) }
    }

    /// The slugs of the active cards that depend on `slug`, in board order.
    public func dependents(of slug: String) -> [String] {
        dependents[slug] ?? []
    }

    /// Where `card` stands.
    public func readiness(of card: Card) -> Readiness {
        if card.isArchived || flow.isDoneColumn(card.column) { return .done }
        if let claim = card.claim { return .claimed(claim) }
        guard flow.isWaitingColumn(card.column) else { return .started }
        let waiting = unfinishedDependencies(of: card)
        return waiting.isEmpty ? .ready : .waiting(on: waiting)
    }

    /// The cards that may be started, in board order: waiting to be picked up, every dependency finished, held by no one.
    public var ready: [Card] {
        cards.filter { readiness(of: $0) == .ready }
    }

    /// Each cycle of dependencies, once, as the slugs around it starting from the smallest (`a → b → a` is `[a, b]`).
    public func cycles() -> [[String]] {
        var found: Set<[String]> = []
        var state: [String: Int] = [:]  // 1: on the path, 2: finished
        // Depth first without recursion, so that a long chain of dependencies cannot exhaust the stack.
        var path: [(slug: String, next: Int)] = []
        for card in cards where state[card.slug] == nil {
            state[card.slug] = 1
            path.append((card.slug, 0))
            while let top = path.last {
                let dependencies = bySlug[top.slug]?.dependencies ?? []
                guard top.next < dependencies.count else {
                    state[top.slug] = 2
                    path.removeLast()
                    continue
                }
                path[path.count - 1].next += 1
                let next = dependencies[top.next]
                guard bySlug[next] != nil else { continue }
                switch state[next] {
                case 1:
                    guard let start = path.lastIndex(where: { $0.slug == next }) else { continue }
                    var cycle = path[start...].map(\.slug)
                    if let smallest = cycle.indices.min(by: { cycle[$0].utf8.lexicographicallyPrecedes(cycle[$1].utf8) }) {
                        cycle = Array(cycle[smallest...] + cycle[..<smallest])
                    }
                    found.insert(cycle)
                case nil:
                    state[next] = 1
                    path.append((next, 0))
                default:
                    break
                }
            }
        }
        return found.sorted { $0.joined(separator: " ").utf8.lexicographicallyPrecedes($1.joined(separator: " ").utf8) }
    }
}
