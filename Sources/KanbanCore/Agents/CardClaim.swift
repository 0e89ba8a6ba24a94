import Foundation

/// Who holds a card and since when: the card's `claimed-by` and `claimed-at` keys.
///
/// A claim is made by ``BoardStore/claimCard(_:as:flow:)`` and given back by ``BoardStore/releaseCard(_:flow:)``.
/// When two clones claim one card before they sync, the merge keeps the claim that ``wins(over:)``: the earlier one,
/// and between two made in the same second, the holder whose name sorts first. SimpleKanban does not know these keys
/// and drops them when it rewrites a card (see FORMAT.md, "Dependencies and claims").
public struct CardClaim: Sendable, Hashable, Codable {
    /// The holder's name: an agent's (`KANBAN_AGENT`) or a person's (git's `user.name`).
    public var holder: String
    /// When the card was claimed; nil when the file has no readable `claimed-at`.
    public var date: Date?

    /// Creates a claim.
    public init(holder: String, date: Date?) {
        self.holder = holder
        self.date = date
    }

    /// The key holding the holder's name.
    public static let holderKey = "claimed-by"
    /// The key holding the time of the claim.
    public static let dateKey = "claimed-at"

    /// Whether this claim is kept over `other` when two sides claimed one card: the earlier claim (a claim with a time
    /// beats one without), and on a tie the holder whose name sorts first byte by byte. The rule is symmetric, so
    /// every clone keeps the same claim whichever side it merges from.
    public func wins(over other: CardClaim) -> Bool {
        switch (date, other.date) {
        case let (mine?, theirs?) where mine != theirs:
            return mine < theirs
        case (.some, nil):
            return true
        case (nil, .some):
            return false
        default:
            return holder == other.holder || holder.utf8.lexicographicallyPrecedes(other.holder.utf8)
        }
    }

    /// The claim the values of `claimed-by` and `claimed-at` record; nil when `claimed-by` names no one.
    init?(holder: YAMLValue?, date: YAMLValue?) {
        guard let name = holder?.string?.trimmingCharacters(in: .whitespaces), !name.isEmpty else { return nil }
        self.init(holder: name, date: date?.string.flatMap(ISO8601.date(from:)))
    }

    /// A claim's holder name as written: one line, not blank, at most 100 characters; nil when it is fine.
    public static func holderProblem(_ name: String) -> String? {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty { return "a claim needs a name: give --as NAME, or set KANBAN_AGENT or git's user.name" }
        if trimmed.count > 100 { return "a claim's name is at most 100 characters" }
        if trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return "a claim's name is one line without control characters"
        }
        return nil
    }
}

extension Card {
    /// The key listing the cards this one waits for: a flow list of slugs, `depends-on: [set-up-ci, fix-login]`.
    public static let dependenciesKey = "depends-on"

    /// The slugs of the cards this card waits for (`depends-on`), in file order, without repeats.
    /// A single slug written as a plain value (`depends-on: fix-login`) counts as a list of one.
    public var dependencies: [String] {
        guard let value = field(Card.dependenciesKey), !value.isNull else { return [] }
        let items: [String]
        if let list = value.list {
            items = list.compactMap(\.string)
        } else if let single = value.string {
            items = single.split(separator: ",").map(String.init)
        } else {
            items = []
        }
        var seen: Set<String> = []
        return items.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && seen.insert($0).inserted }
    }

    /// Who holds the card, when `claimed-by` names someone.
    public var claim: CardClaim? {
        CardClaim(holder: field(CardClaim.holderKey), date: field(CardClaim.dateKey))
    }
}
