/// What everyone did, in the order they did it: the ground truth the final board is checked against.
///
/// Operations run one at a time, so an operation's number is also its place in real time. A card is known by the
/// identity the harness gave it (`hid: c2-17`, the clone and operation that added it), never by its slug, which two
/// clones may both use for different cards.
struct ConvergeLedger: Sendable {
    /// Something a clone did to a card, at an operation.
    struct Event: Sendable {
        var operation: Int
        var clone: Int
    }

    /// One card's story.
    struct CardRecord: Sendable {
        var identity: String
        var title: String
        var created: Event
        var deletes: [Event] = []
        /// Moves, reorders, titles, labels, body edits, archives and unarchives.
        var edits: [Event] = []

        /// The last delete, if the card was ever deleted.
        var lastDelete: Event? { deletes.last }

        /// Whether the card was deleted and nobody else touched it afterwards: it must stay deleted.
        var mustBeGone: Bool {
            guard let delete = lastDelete else { return false }
            return !edits.contains { $0.operation > delete.operation && $0.clone != delete.clone }
        }

        /// Whether the card must be on the final board: it was never deleted.
        var mustExist: Bool { deletes.isEmpty }
    }

    /// A body line someone wrote. Every line's text is unique (`L2-17`), so it can be looked for anywhere.
    struct LineRecord: Sendable {
        var text: String
        /// The card it was written into.
        var identity: String
        var written: Event
        /// The line that replaced it, written by someone who saw it: it may then be gone.
        var replacement: String?
        /// Written by a clone that deleted the card before it committed the line: the line never reached any
        /// history, so nobody else's change can keep it (see `noteDeleted`).
        var isWithdrawn = false
    }

    /// A label added to or removed from a card.
    struct LabelRecord: Sendable {
        var label: String
        var identity: String
        var isAdded: Bool
        var event: Event
        /// Made by a clone that deleted the card before it committed the change (see `noteDeleted`).
        var isWithdrawn = false
    }

    private(set) var cards: [String: CardRecord] = [:]
    /// In the order they were made.
    private(set) var labelChanges: [LabelRecord] = []
    /// In the order they were written.
    private(set) var lines: [LineRecord] = []
    private var lineIndex: [String: Int] = [:]
    /// The operation at which each clone last committed everything in its working tree (a sync, or a hand edit
    /// committed with plain git). What a clone did after that is still only in its working tree.
    private var lastCommit: [Int: Int] = [:]

    mutating func noteCreated(_ identity: String, title: String, at event: Event) {
        cards[identity] = CardRecord(identity: identity, title: title, created: event)
    }

    mutating func noteEdited(_ identity: String, at event: Event) {
        cards[identity]?.edits.append(event)
    }

    /// A clone's delete of a card. What that clone changed in the card since it last committed was only ever in
    /// its working tree: the delete takes it away before any history held it, so no later change of someone else can
    /// bring it back (a kept card is the merge of the versions in the clones' histories). Those lines and label
    /// changes are withdrawn; a line one of them replaced is owed again.
    mutating func noteDeleted(_ identity: String, at event: Event) {
        cards[identity]?.deletes.append(event)
        let committed = lastCommit[event.clone] ?? -1
        func isUncommitted(_ change: Event) -> Bool { change.clone == event.clone && change.operation > committed }
        for index in lines.indices where lines[index].identity == identity && isUncommitted(lines[index].written) {
            lines[index].isWithdrawn = true
            for other in lines.indices where lines[other].replacement == lines[index].text { lines[other].replacement = nil }
        }
        for index in labelChanges.indices where labelChanges[index].identity == identity && isUncommitted(labelChanges[index].event) {
            labelChanges[index].isWithdrawn = true
        }
    }

    /// `clone` committed its whole working tree at `operation`.
    mutating func noteCommitted(by clone: Int, at operation: Int) {
        lastCommit[clone] = max(lastCommit[clone] ?? -1, operation)
    }

    mutating func noteLabel(_ label: String, added: Bool, on identity: String, at event: Event) {
        labelChanges.append(LabelRecord(label: label, identity: identity, isAdded: added, event: event))
    }

    /// The labels added to the card `identity` that nobody removed from it afterwards: the final card must have them.
    func labelsToKeep(on identity: String) -> [LabelRecord] {
        let changes = labelChanges.filter { $0.identity == identity && !$0.isWithdrawn }
        return changes.filter { add in
            add.isAdded && !changes.contains { !$0.isAdded && $0.label == add.label && $0.event.operation > add.event.operation }
        }
    }

    mutating func noteLine(_ text: String, in identity: String, at event: Event, replacing old: String? = nil) {
        lineIndex[text] = lines.count
        lines.append(LineRecord(text: text, identity: identity, written: event))
        if let old, let index = lineIndex[old] { lines[index].replacement = text }
    }

    /// Whether `text` is a line the harness wrote (`L2-17`, `Li-3`).
    func isWrittenLine(_ text: String) -> Bool { lineIndex[text] != nil }
}
