import Foundation

/// Merges two people's versions of one card against the version they both started from: what `kanban merge-driver`
/// does when git merges or rebases a card both sides changed.
///
/// The frontmatter is merged key by key. A key one side changed takes that side's value. A key both sides changed to
/// different values takes the value of the later version (see ``prefersOurs(_:_:)``), except:
/// - `labels` merge as sets: a label added on either side is kept, one removed on either side is removed;
/// - `modified` takes the later time;
/// - `column` and `position` go together: when both sides placed the card, both keys come from the side that changed
///   the column (or, when both or neither did, from the later version), so a card never gets one side's column and
///   the other side's position.
///
/// The bodies are merged with `git merge-file`; conflict markers are left only where both sides changed the same
/// lines. A file that is not a card with frontmatter on every side is merged as text by `git merge-file`.
package enum CardMerge {
    /// A merged card file.
    package struct Outcome: Sendable, Hashable {
        /// The merged file.
        package var bytes: [UInt8]
        /// Whether the file holds conflict markers (both sides changed the same body lines).
        package var hasConflicts: Bool
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
    ///   - configuration: How to run `git merge-file`.
    /// - Throws: ``SyncError`` when `git merge-file` cannot run.
    package static func merge(base: [UInt8], ours: [UInt8], theirs: [UInt8], columnOrder: [String],
                              configuration: GitConfiguration) throws(SyncError) -> Outcome {
        guard let baseDocument = try? FrontmatterDocument(bytes: base, dialect: .card),
              var result = try? FrontmatterDocument(bytes: ours, dialect: .card), result.hasFrontmatter,
              let theirsDocument = try? FrontmatterDocument(bytes: theirs, dialect: .card), theirsDocument.hasFrontmatter else {
            let merged = try mergeText(base: base, ours: ours, theirs: theirs, configuration: configuration)
            return Outcome(bytes: merged.bytes, hasConflicts: merged.hasConflicts)
        }
        // Both sides made a card with this name from nothing: two different cards, unless they were made together.
        if !baseDocument.hasFrontmatter && createdTime(result) != createdTime(theirsDocument) {
            let merged = try mergeText(base: base, ours: ours, theirs: theirs, configuration: configuration)
            return Outcome(bytes: merged.bytes, hasConflicts: true)
        }
        let oursWins = prefersOurs(version(of: result, bytes: ours, columnOrder: columnOrder),
                                   version(of: theirsDocument, bytes: theirs, columnOrder: columnOrder))
        mergeFrontmatter(base: baseDocument, into: &result, theirs: theirsDocument, oursWins: oursWins)

        let baseBody = baseDocument.body
        let oursBody = result.body
        let theirsBody = theirsDocument.body
        var hasConflicts = false
        if oursBody != theirsBody && theirsBody != baseBody {
            if oursBody == baseBody {
                result.setBody(theirsBody)
            } else {
                let merged = try mergeText(base: Array(baseBody.utf8), ours: Array(oursBody.utf8), theirs: Array(theirsBody.utf8),
                                           configuration: configuration)
                result.setBody(String(decoding: merged.bytes, as: UTF8.self))
                hasConflicts = merged.hasConflicts
            }
        }
        return Outcome(bytes: result.bytes(), hasConflicts: hasConflicts)
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

    private static func createdTime(_ document: FrontmatterDocument) -> Date? {
        document.value(forKey: "created")?.string.flatMap(ISO8601.date(from:))
    }

    /// The ranking data of a parsed card, its column taken from the `column:` field.
    static func version(of document: FrontmatterDocument, bytes: [UInt8], columnOrder: [String]) -> Version {
        let modified = document.value(forKey: "modified")?.string.flatMap(ISO8601.date(from:))
        let column = document.value(forKey: "column")?.string
        return Version(modified: modified, columnRank: column.flatMap { columnOrder.firstIndex(of: $0) } ?? -1, bytes: bytes)
    }

    /// Merges `theirs`' frontmatter changes into `result` (ours), key by key; see the type's description.
    static func mergeFrontmatter(base: FrontmatterDocument, into result: inout FrontmatterDocument, theirs: FrontmatterDocument,
                                 oursWins: Bool) {
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
            if sameValue(mine, other) || sameValue(other, old) { continue }
            if sameValue(mine, old) {
                take(other, key)
                continue
            }
            // Both sides changed the key, differently.
            if placement.contains(key), let placementFromOurs {
                if !placementFromOurs { take(other, key) }
                continue
            }
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

    /// `git merge-file` of three texts: the merge, and whether it left conflict markers.
    static func mergeText(base: [UInt8], ours: [UInt8], theirs: [UInt8],
                          configuration: GitConfiguration) throws(SyncError) -> (bytes: [UInt8], hasConflicts: Bool) {
        let temporary = configuration.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        let directory = try Subprocess.makeTemporaryDirectory(in: temporary)
        let names = ["ours", "base", "theirs"]
        defer {
            for name in names { try? FileSystem.remove(directory + "/" + name) }
            FileSystem.removeDirectoryIfEmpty(directory)
        }
        do {
            for (name, bytes) in zip(names, [ours, base, theirs]) {
                try FileSystem.writeAtomically(bytes, to: directory + "/" + name)
            }
        } catch {
            throw SyncError(.gitFailed, "cannot write the versions to merge: \(error.message)")
        }
        let git = Git(configuration: configuration, directory: directory)
        let output = try git.run(["merge-file", "--stdout", "-L", "ours", "-L", "base", "-L", "theirs"] + names)
        guard output.status >= 0 && output.status < 128 else { throw git.failure(["merge-file"], output) }
        return (output.output, output.status > 0)
    }
}
