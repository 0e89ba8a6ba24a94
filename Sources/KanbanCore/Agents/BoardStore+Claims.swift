import Foundation

/// What a claim did.
public struct ClaimResult: Sendable {
    /// The card claimed (or given back), as written.
    public var card: Card
    /// The store's change; no paths when the card was already held by the same name.
    public var change: BoardChange
    /// Whether the same name held the card already (nothing was written).
    public var wasHeld: Bool
}

extension BoardStore {
    /// The board as agents see it (``WorkQueue``): the active cards and the archive's slugs, read now.
    /// - Parameters:
    ///   - start: The start column over what `board.md` says (see ``WorkFlow``).
    ///   - done: The done column over what `board.md` says.
    public func workQueue(start: String? = nil, done: String? = nil) throws(KanbanError) -> WorkQueue {
        let snapshot = try load(.all)
        return WorkQueue(flow: try WorkFlow(board: snapshot.board, start: start, done: done), snapshot: snapshot)
    }

    /// Takes a card for `holder`: records who and when (`claimed-by`, `claimed-at`) and moves it to the bottom of the
    /// start column, in one write, holding the board's lock from choosing the card to writing it, so two processes
    /// claiming at once never get the same card.
    /// - Parameters:
    ///   - reference: The card (a slug, a unique prefix or a path); nil for the first ready card in board order.
    ///   - holder: The name to record.
    ///   - start: The start column over what `board.md` says; `done` likewise.
    /// - Returns: The claim; ``ClaimResult/wasHeld`` when `holder` held the card already (nothing is written).
    /// - Throws: ``KanbanError/Code/claimed`` when someone else holds the card, ``KanbanError/Code/notReady`` when it
    ///   is finished, started, or waits for unfinished cards (or, for the next card, when none is ready).
    @discardableResult
    public func claimCard(_ reference: String?, as holder: String, start: String? = nil, done: String? = nil) throws(KanbanError) -> ClaimResult {
        if let problem = CardClaim.holderProblem(holder) { throw KanbanError(.invalidArgument, problem) }
        let holder = holder.trimmingCharacters(in: .whitespaces)
        return try withLock { () throws(KanbanError) -> ClaimResult in
            let queue = try workQueue(start: start, done: done)
            let card: Card
            if let reference {
                card = try self.card(reference, in: .active)
                switch queue.readiness(of: card) {
                case .ready:
                    break
                case .claimed(let claim) where claim.holder == holder:
                    return ClaimResult(card: card, change: BoardChange(card: card, previous: card, writtenPaths: []), wasHeld: true)
                case .claimed(let claim):
                    throw KanbanError(.claimed, "\(card.slug) is held by \(claim.holder)\(claim.date.map { " since " + ISO8601.string(from: $0) } ?? "")")
                case .done:
                    throw KanbanError(.notReady, "\(card.slug) is done (in \(card.column))")
                case .started:
                    throw KanbanError(.notReady, "\(card.slug) is already started (in \(card.column)) and held by no one; move it back to claim it")
                case .waiting(let slugs):
                    let names = slugs.map { queue.exists($0) ? $0 : "\($0) (not on the board)" }
                    throw KanbanError(.notReady, "\(card.slug) waits for \(names.joined(separator: ", "))")
                }
            } else {
                guard let first = queue.ready.first else {
                    throw KanbanError(.notReady, "no card is ready: none before '\(queue.flow.startColumn)' is held by no one with every card it depends on done")
                }
                card = first
            }
            let date = ISO8601.string(from: clock().flooredToSeconds)
            let change = try moveCard(card.path, to: queue.flow.startColumn, placement: nil) { document in
                document.setValue(.string(holder), forKey: CardClaim.holderKey)
                document.setValue(.unquoted(date), forKey: CardClaim.dateKey)
                return true
            }
            return ClaimResult(card: change.card ?? card, change: change, wasHeld: false)
        }
    }

    /// Gives a card back: removes its claim and, when it is not finished, moves it to the top of the last column before
    /// the start column, where the next agent picks it up first.
    /// - Parameters:
    ///   - holder: When given, the card must be held by this name (a release never takes someone else's card by mistake).
    /// - Throws: ``KanbanError/Code/claimed`` when `holder` is given and someone else holds the card,
    ///   ``KanbanError/Code/notReady`` when no one holds it.
    @discardableResult
    public func releaseCard(_ reference: String, by holder: String? = nil, start: String? = nil, done: String? = nil) throws(KanbanError) -> ClaimResult {
        try withLock { () throws(KanbanError) -> ClaimResult in
            let flow = try WorkFlow(board: loadBoard(), start: start, done: done)
            let card = try self.card(reference, in: .active)
            guard let claim = card.claim else { throw KanbanError(.notReady, "\(card.slug) is held by no one") }
            if let holder, claim.holder != holder.trimmingCharacters(in: .whitespaces) {
                throw KanbanError(.claimed, "\(card.slug) is held by \(claim.holder), not \(holder)")
            }
            let finished = flow.isDoneColumn(card.column)
            let change = try moveCard(card.path, to: finished ? nil : flow.lastWaitingColumn, placement: finished ? nil : .top) { document in
                document.removeValue(forKey: CardClaim.holderKey)
                document.removeValue(forKey: CardClaim.dateKey)
                return true
            }
            return ClaimResult(card: change.card ?? card, change: change, wasHeld: false)
        }
    }

    /// Sets the cards a card waits for (`depends-on`): `added` joined to its list, `removed` taken out. A list that
    /// ends empty is written `depends-on: []` (a line gone whole is what `kanban doctor` reports as dropped). Slugs must name cards on the board (active or archived), not the card itself,
    /// and must not close a cycle.
    /// - Throws: ``KanbanError/Code/cardNotFound`` for an unknown slug, ``KanbanError/Code/invalidArgument`` for the
    ///   card itself or a cycle.
    @discardableResult
    public func setDependencies(of reference: String, adding added: [String], removing removed: [String] = []) throws(KanbanError) -> BoardChange {
        try withLock { () throws(KanbanError) -> BoardChange in
            let snapshot = try load(.all)
            let card = try self.card(reference, in: .active)
            let known = Set(snapshot.cards.map(\.slug))
            var resolved: [String] = []
            for name in added {
                let slug: String
                if known.contains(name) {
                    slug = name
                } else {
                    slug = try self.card(name, in: .all).slug
                }
                if slug == card.slug { throw KanbanError(.invalidArgument, "\(card.slug) cannot depend on itself") }
                resolved.append(slug)
            }
            let removedSet = Set(removed)
            var list = card.dependencies.filter { !removedSet.contains($0) }
            for slug in resolved where !list.contains(slug) { list.append(slug) }
            // A cycle is refused: the new list must not lead back to the card.
            var depending = snapshot.cards.filter { !$0.isArchived }
            if let index = depending.firstIndex(where: { $0.path == card.path }) {
                depending[index].fields.removeAll { $0.key == Card.dependenciesKey }
                depending[index].fields.append(YAMLMapEntry(key: Card.dependenciesKey, value: .list(list.map { .string($0) })))
            }
            let flow = WorkFlow(unchecked: snapshot.board)
            if let cycle = WorkQueue(flow: flow, cards: depending, archivedSlugs: []).cycles().first(where: { $0.contains(card.slug) }) {
                throw KanbanError(.invalidArgument, "that would make a cycle: \((cycle + [cycle[0]]).joined(separator: " → "))")
            }
            if list == card.dependencies { return BoardChange(card: card, previous: card, writtenPaths: []) }
            // A list emptied on purpose stays, as `[]`: a `depends-on` line gone whole is what SimpleKanban's rewrite
            // of a card leaves, and `kanban doctor` reports it as a list dropped.
            return try updateCard(card.path, CardUpdate(fields: [YAMLMapEntry(key: Card.dependenciesKey, value: .list(list.map { .string($0) }))]))
        }
    }
}
