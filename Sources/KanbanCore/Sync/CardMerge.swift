import Foundation

/// Merges two people's versions of one card against the version they both started from: what `kanban merge-driver`
/// does when git merges or rebases a card both sides changed, and what `kanban sync` does for every such card.
///
/// The frontmatter is merged key by key. A key one side changed takes that side's value. A key both sides changed to
/// different values takes the value of the later version (see ``prefersOurs(_:_:)``), except:
/// - `labels` merge as sets: a label added on either side is kept, one removed on either side is removed;
/// - `modified` takes the later time;
/// - `claimed-by` and `claimed-at` go together, from the claim that wins: the side whose card is further along the
///   board (its holder finished it, say), else the earlier claim, ties by name (``CardClaim/wins(over:)``); a claim
///   over a release. After a sync no card is held by two names;
/// - `column` and `position` go together: when both sides placed the card, both keys come from the side that changed
///   the column (or, when both or neither did, from the later version), so a card never gets one side's column and
///   the other side's position.
///
/// The bodies are merged line by line (``LineMerge``, as `git merge-file` merges them). Where both sides changed the same lines, the later
/// version's lines stay in place and the other side's are kept in a marked section at the end of the body
/// (``KeptText``): the merge always gives a card, never conflict markers, and no text is lost. Files that are not
/// cards with frontmatter on both sides are merged as text the same way.
///
/// The rules are pure: they read no files and run no programs, so any sync provider can use them.
public enum CardMerge {
    /// A merged card file.
    public struct Outcome: Sendable, Hashable {
        /// The merged file.
        public var bytes: [UInt8]
        /// Whether text of the losing side was kept in a section (both sides changed the same lines).
        public var keepsText: Bool
    }

    /// What decides which of two versions of a card is the later one.
    struct Version: Sendable {
        /// The `modified` time.
        var modified: Date?
        /// The card's column as an index in the board's column order (higher is further along); -1 when unknown.
        var columnRank: Int
        /// The file's bytes, the last tie-breaker.
        var bytes: [UInt8]
    }

    /// Merges `ours` and `theirs`, both changed from `base`.
    /// - Parameters:
    ///   - base: The common ancestor (empty when both sides added the file).
    ///   - ours: The current branch's version.
    ///   - theirs: The other branch's version.
    ///   - columnOrder: The board's column ids in order, to break a tie between equally recent versions.
    /// - Returns: The merged file, never with conflict markers.
    public static func merge(base: [UInt8], ours: [UInt8], theirs: [UInt8], columnOrder: [String]) -> Outcome {
        guard let baseDocument = try? FrontmatterDocument(bytes: base, dialect: .card),
              var result = try? FrontmatterDocument(bytes: ours, dialect: .card), result.hasFrontmatter,
              let theirsDocument = try? FrontmatterDocument(bytes: theirs, dialect: .card), theirsDocument.hasFrontmatter else {
            // Not cards on both sides: merged as text, the later bytes winning where both changed the same lines.
            let oursWins = !ours.lexicographicallyPrecedes(theirs)
            let merged = mergeLines(base: String(decoding: base, as: UTF8.self), ours: String(decoding: ours, as: UTF8.self),
                                    theirs: String(decoding: theirs, as: UTF8.self), oursWins: oursWins)
            guard let kept = merged.kept else { return Outcome(bytes: Array(merged.text.utf8), keepsText: false) }
            return Outcome(bytes: Array(KeptText.appending(kept, as: .conflict, to: merged.text).utf8), keepsText: true)
        }
        let oursWins = prefersOurs(version(of: result, bytes: ours, columnOrder: columnOrder),
                                   version(of: theirsDocument, bytes: theirs, columnOrder: columnOrder))
        mergeFrontmatter(base: baseDocument, into: &result, theirs: theirsDocument, oursWins: oursWins, columnOrder: columnOrder)

        let baseBody = baseDocument.body
        let oursBody = result.body
        let theirsBody = theirsDocument.body
        var keepsText = false
        if oursBody != theirsBody && theirsBody != baseBody {
            if oursBody == baseBody {
                result.setBody(theirsBody)
            } else {
                let merged = mergeLines(base: baseBody, ours: oursBody, theirs: theirsBody, oursWins: oursWins)
                if let kept = merged.kept {
                    result.setBody(KeptText.appending(kept, as: .conflict, to: merged.text))
                    keepsText = true
                } else {
                    result.setBody(merged.text)
                }
            }
        }
        return Outcome(bytes: result.bytes(), keepsText: keepsText)
    }

    /// Whether `ours` and `theirs` are two different cards that both sides added under one name (there is no common
    /// version): what git's merge driver cannot merge, and keeps as ``KeptText/Kind/otherCard``.
    public static func areTwoCards(base: [UInt8], ours: [UInt8], theirs: [UInt8]) -> Bool {
        base.isEmpty && ours != theirs && !ours.isEmpty && !theirs.isEmpty
    }

    /// `host` with `other`, a whole card file, kept in a section at the end of its body, for `kanban sync` or
    /// `kanban doctor --fix` to move to a card of its own.
    public static func keeping(_ other: [UInt8], in host: [UInt8]) -> [UInt8] {
        let text = String(decoding: other, as: UTF8.self)
        guard var document = try? FrontmatterDocument(bytes: host, dialect: .card) else {
            return Array(KeptText.appending(text, as: .otherCard, to: String(decoding: host, as: UTF8.self)).utf8)
        }
        document.setBody(KeptText.appending(text, as: .otherCard, to: document.body))
        return document.bytes()
    }

    /// Whether `ours` is the version that wins over `theirs`: the later `modified` (a version with one beats a version
    /// without); on a tie the one whose column is further along the board; then the one whose bytes sort last.
    /// The rule is symmetric, so every machine picks the same version whichever side it merges from.
    static func prefersOurs(_ ours: Version, _ theirs: Version) -> Bool {
        switch (ours.modified, theirs.modified) {
        case let (left?, right?) where left != right:
            return left > right
        case (.some, nil):
            return true
        case (nil, .some):
            return false
        default:
            break
        }
        if ours.columnRank != theirs.columnRank { return ours.columnRank > theirs.columnRank }
        return !ours.bytes.lexicographicallyPrecedes(theirs.bytes)
    }

    /// The ranking data of a parsed card, its column taken from the `column:` field.
    static func version(of document: FrontmatterDocument, bytes: [UInt8], columnOrder: [String]) -> Version {
        let modified = document.value(forKey: "modified")?.string.flatMap(ISO8601.date(from:))
        let column = document.value(forKey: "column")?.string
        return Version(modified: modified, columnRank: column.flatMap { columnOrder.firstIndex(of: $0) } ?? -1, bytes: bytes)
    }

    /// Merges `theirs`' frontmatter changes into `result` (ours), key by key; see the type's description.
    static func mergeFrontmatter(base: FrontmatterDocument, into result: inout FrontmatterDocument, theirs: FrontmatterDocument,
                                 oursWins: Bool, columnOrder: [String] = []) {
        let ours = result
        var keys = ours.entries.map(\.key)
        for entry in theirs.entries + base.entries where !keys.contains(entry.key) { keys.append(entry.key) }

        let placement = ["column", "position"]
        func changed(_ document: FrontmatterDocument, _ key: String) -> Bool {
            !sameValue(document.value(forKey: key), base.value(forKey: key))
        }
        var placementFromOurs: Bool?
        if placement.contains(where: { changed(ours, $0) }), placement.contains(where: { changed(theirs, $0) }),
           !placement.allSatisfy({ sameValue(ours.value(forKey: $0), theirs.value(forKey: $0)) }) {
            let oursMoved = changed(ours, "column")
            let theirsMoved = changed(theirs, "column")
            placementFromOurs = oursMoved != theirsMoved ? oursMoved : oursWins
        }

        // The two sides hold the card under different claims: both claim keys come from one side, so that after a sync
        // no card is held by two names (see ``claimFromOurs``).
        let claimFromOurs = Self.claimFromOurs(base: base, ours: ours, theirs: theirs, oursWins: oursWins, columnOrder: columnOrder)
        let claimKeys = [CardClaim.holderKey, CardClaim.dateKey]

        func take(_ value: YAMLValue?, _ key: String) {
            if let value {
                result.setValue(keepingPlainStyle(value), forKey: key)
            } else {
                result.removeValue(forKey: key)
            }
        }
        for key in keys {
            let old = base.value(forKey: key)
            let mine = ours.value(forKey: key)
            let other = theirs.value(forKey: key)
            // Both sides placed the card: both keys from the side chosen, even one only the other side changed.
            if placement.contains(key), let placementFromOurs {
                if !placementFromOurs { take(other, key) }
                continue
            }
            if claimKeys.contains(key), let claimFromOurs {
                if !claimFromOurs { take(other, key) }
                continue
            }
            if sameValue(mine, other) || sameValue(other, old) { continue }
            if sameValue(mine, old) {
                take(other, key)
                continue
            }
            // Both sides changed the key, differently.
            switch key {
            case "labels":
                take(.list(mergedLabels(base: labels(old), ours: labels(mine), theirs: labels(other)).map { .string($0) }), key)
            case "modified":
                let mineDate = mine?.string.flatMap(ISO8601.date(from:))
                let otherDate = other?.string.flatMap(ISO8601.date(from:))
                if let mineDate, let otherDate {
                    if otherDate > mineDate { take(other, key) }
                } else if !oursWins {
                    take(other, key)
                }
            default:
                if !oursWins { take(other, key) }
            }
        }
    }

    /// Which side's claim keys a merge keeps, or nil when the usual key-by-key rule does (the sides agree, or one
    /// side changed nothing of the claim and took the card no further).
    ///
    /// - Both sides claimed the card differently: the side whose card is further along the board (its holder went
    ///   on and finished it, say) keeps its claim; equally far along, the earlier claim (``CardClaim/wins(over:)``).
    ///   A claim wins over a release.
    /// - One side changed the claim (a claim, or another merge's choice of claim) while the other kept the claim they
    ///   started from: the change stands, unless the side that kept the claim took the card further (its holder
    ///   finished it): finished work keeps the holder who did it.
    static func claimFromOurs(base: FrontmatterDocument, ours: FrontmatterDocument, theirs: FrontmatterDocument, oursWins: Bool,
                              columnOrder: [String]) -> Bool? {
        let keys = [CardClaim.holderKey, CardClaim.dateKey]
        guard !keys.allSatisfy({ sameValue(ours.value(forKey: $0), theirs.value(forKey: $0)) }) else { return nil }
        let oursChanged = keys.contains { !sameValue(ours.value(forKey: $0), base.value(forKey: $0)) }
        let theirsChanged = keys.contains { !sameValue(theirs.value(forKey: $0), base.value(forKey: $0)) }
        let mine = claim(in: ours)
        let other = claim(in: theirs)
        let mineRank = version(of: ours, bytes: [], columnOrder: columnOrder).columnRank
        let otherRank = version(of: theirs, bytes: [], columnOrder: columnOrder).columnRank
        switch (oursChanged, theirsChanged) {
        case (true, true):
            switch (mine, other) {
            case let (mine?, other?): return mineRank != otherRank ? mineRank > otherRank : mine.wins(over: other)
            case (.some, nil): return true
            case (nil, .some): return false
            case (nil, nil): return oursWins
            }
        case (true, false):
            // Theirs kept the claim it started from: it keeps it when its holder took the card further.
            guard mine != nil, other != nil, otherRank > mineRank else { return nil }
            return false
        case (false, true):
            guard mine != nil, other != nil, mineRank > otherRank else { return nil }
            return true
        case (false, false):
            return nil
        }
    }

    /// The claim a card's frontmatter records, if any.
    static func claim(in document: FrontmatterDocument) -> CardClaim? {
        CardClaim(holder: document.value(forKey: CardClaim.holderKey), date: document.value(forKey: CardClaim.dateKey))
    }

    /// `value` with its plain scalars marked to stay unquoted, so that a value taken from the other side is written as
    /// that side wrote it (`due: 2026-12-01`, not `due: "2026-12-01"`).
    static func keepingPlainStyle(_ value: YAMLValue) -> YAMLValue {
        switch value {
        case .scalar(var scalar):
            if scalar.style == .plain { scalar.prefersUnquoted = true }
            return .scalar(scalar)
        case .list(let items):
            return .list(items.map(keepingPlainStyle))
        case .map(let entries):
            return .map(entries.map { YAMLMapEntry(key: $0.key, value: keepingPlainStyle($0.value)) })
        }
    }

    /// Labels merged as sets: every label either side has, minus every label either side removed; ours in their
    /// order first, then theirs.
    static func mergedLabels(base: [String], ours: [String], theirs: [String]) -> [String] {
        let original = Set(base)
        let removed = original.subtracting(ours).union(original.subtracting(theirs))
        var result: [String] = []
        var kept: Set<String> = []
        for label in ours + theirs where !removed.contains(label) && kept.insert(label).inserted { result.append(label) }
        return result
    }

    /// The label ids a `labels:` value holds.
    static func labels(_ value: YAMLValue?) -> [String] {
        guard let value, !value.isNull else { return [] }
        if let items = value.list { return items.compactMap(\.string).filter { !$0.isEmpty } }
        if let single = value.string, !single.isEmpty { return [single] }
        return []
    }

    /// Merges three texts line by line (``LineMerge``). Where both sides changed the same lines, the winner's lines
    /// stay in place and the loser's are returned as `kept`, the conflicts one after another. Texts with a NUL byte
    /// in their first 8000 bytes, which git calls binary and will not merge, give the winner's text, and the loser's
    /// whole as `kept`, as they did when `git merge-file` merged them.
    /// - Parameter oursWins: Which side's lines stay where both changed the same ones.
    static func mergeLines(base: String, ours: String, theirs: String, oursWins: Bool) -> (text: String, kept: String?) {
        if ours == theirs || theirs == base { return (ours, nil) }
        if ours == base { return (theirs, nil) }
        let texts = [Array(base.utf8), Array(ours.utf8), Array(theirs.utf8)]
        if texts.contains(where: { $0.prefix(8000).contains(0) }) { return oursWins ? (ours, theirs) : (theirs, ours) }
        var text: [UInt8] = []
        var kept: [Substring] = []
        for region in LineMerge(base: texts[0], ours: texts[1], theirs: texts[2]).regions {
            switch region {
            case .merged(let bytes):
                text += bytes
            case .conflict(let conflict):
                text += oursWins ? conflict.ours : conflict.theirs
                // Each side ends with a line break: its lines are the text before the last.
                let loser = String(decoding: oursWins ? conflict.theirs : conflict.ours, as: UTF8.self)
                if !kept.isEmpty { kept.append("") }
                kept += loser.lineSlices().dropLast()
            }
        }
        let keptText = kept.joined(separator: "\n")
        return (String(decoding: text, as: UTF8.self), keptText.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : keptText + "\n")
    }
}
