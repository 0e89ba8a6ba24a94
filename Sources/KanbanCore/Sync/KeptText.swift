/// Text a merge could not place and keeps in a card rather than lose: a marked section at the end of the body.
///
/// Two kinds of section exist:
/// - **conflict**: both sides changed the same lines of a card's body; the card holds the merge with the winning
///   side's lines (the later `modified`), and the section holds the other side's lines, for a person to tidy;
/// - **other card**: `git merge` met two different cards added under one name (with the merge driver, which can only
///   write one file); the section holds the whole other card, and `kanban sync` or `kanban doctor --fix` moves it to
///   a card of its own.
///
/// ```markdown
/// <!-- kanban: conflict start -->
/// > kanban kept the other side's text of an edit made at the same time: merge it into the card, then delete this section.
///
/// Their version of the line.
/// <!-- kanban: conflict end -->
/// ```
package enum KeptText {
    /// What a section holds.
    package enum Kind: String, Sendable, CaseIterable {
        case conflict
        case otherCard = "other card"

        /// The line that opens a section of this kind.
        package var startLine: String { "<!-- kanban: \(rawValue) start -->" }
        /// The line that closes it.
        package var endLine: String { "<!-- kanban: \(rawValue) end -->" }

        fileprivate var explanation: String {
            switch self {
            case .conflict:
                return "> kanban kept the other side's text of an edit made at the same time: merge it into the card, then delete this section."
            case .otherCard:
                return "> kanban kept another card that was added under this card's name: 'kanban sync' or 'kanban doctor --fix' makes it a card of its own."
            }
        }
    }

    /// `body` with a section of `kind` holding `text` added at its end.
    package static func appending(_ text: String, as kind: Kind, to body: String) -> String {
        var result = body
        if !result.isEmpty && !result.endsWithLineBreak { result += "\n" }
        if !result.isEmpty { result += "\n" }
        var kept = text
        if !kept.endsWithLineBreak { kept += "\n" }
        return result + kind.startLine + "\n" + kind.explanation + "\n\n" + kept + kind.endLine + "\n"
    }

    /// The 1-based line (counted in `bytes`, a whole file) where the first section of `kind` starts, if there is one.
    package static func firstSection(of kind: Kind, in bytes: [UInt8]) -> Int? {
        let marker = Array(kind.startLine.utf8)
        var line = 1
        var start = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count && bytes[end] != 0x0A { end += 1 }
            var content = bytes[start..<end]
            if content.last == 0x0D { content = content.dropLast() }
            if content.elementsEqual(marker) { return line }
            line += 1
            start = end + 1
        }
        return nil
    }

    /// The sections of `kind` in `body`: each one's text (without its marker and explanation lines), and the body
    /// without them. Nil when `body` holds none, or a section that is not closed.
    package static func sections(of kind: Kind, in body: String) -> (texts: [String], rest: String)? {
        let lines = body.lineSlices()
        var texts: [String] = []
        var rest: [Substring] = []
        var index = 0
        while index < lines.count {
            guard lines[index].droppingCarriageReturn == kind.startLine else {
                rest.append(lines[index])
                index += 1
                continue
            }
            guard let end = lines[index...].firstIndex(where: { $0.droppingCarriageReturn == kind.endLine }) else { return nil }
            var inside = lines[(index + 1)..<end]
            if inside.first?.droppingCarriageReturn == Substring(kind.explanation) { inside = inside.dropFirst() }
            if inside.first?.droppingCarriageReturn == "" { inside = inside.dropFirst() }
            texts.append(inside.joined(separator: "\n") + (inside.isEmpty ? "" : "\n"))
            // The blank line the section was added after goes with it.
            if rest.last?.droppingCarriageReturn == "" { rest.removeLast() }
            index = end + 1
        }
        guard !texts.isEmpty else { return nil }
        var remaining = rest.joined(separator: "\n")
        if body.endsWithLineBreak && !remaining.endsWithLineBreak && !remaining.isEmpty { remaining += "\n" }
        return (texts, remaining)
    }

    /// The cards kept inside the card `bytes` at `file` (``Kind/otherCard`` sections), made cards of their own: the
    /// host's new bytes, and each kept card's new slug (from `newSlug`, given the host's slug), path and bytes.
    /// Nil when the card holds no such section (or one that is not closed).
    package static func splittingCards(_ bytes: [UInt8], at file: CardFile, newSlug: (String, [UInt8]) -> String)
        -> (host: [UInt8], cards: [(slug: String, path: String, bytes: [UInt8])])? {
        guard var host = try? FrontmatterDocument(bytes: bytes, dialect: .card), host.hasFrontmatter,
              let (texts, rest) = sections(of: .otherCard, in: host.body) else { return nil }
        host.setBody(rest)
        // The body of a CRLF card reads with "\n"; the cards kept in it were CRLF too.
        let kept = texts.map { host.usesCRLF ? Array($0.replacingOccurrences(of: "\n", with: "\r\n").utf8) : Array($0.utf8) }
        let hostBytes = host.bytes()
        // Which of two keeps the slug follows the rule every merge follows (the first created), not which side
        // git's merge happened to keep in the file.
        if kept.count == 1, BoardMerge.keepsSlug(kept[0], over: hostBytes), kept[0] != hostBytes {
            let slug = newSlug(file.slug, hostBytes)
            return (kept[0], [(slug: slug, path: BoardMerge.path(of: file, renamedTo: slug), bytes: hostBytes)])
        }
        let cards = kept.map { bytes in
            let slug = newSlug(file.slug, bytes)
            return (slug: slug, path: BoardMerge.path(of: file, renamedTo: slug), bytes: bytes)
        }
        return (hostBytes, cards)
    }
}
