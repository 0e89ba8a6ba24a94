import Foundation

extension CardMerge {
    /// Whether git handed the merge driver versions of two different cards as one card's versions: the `created`
    /// times of two of them differ.
    ///
    /// Git pairs files across renames by similarity of content, and cards are small files that are mostly
    /// frontmatter, so when one side deletes or moves card A and adds card B, git can take B for A renamed and ask
    /// the driver to apply the other side's change of A to B. Merged, the change would land on the wrong card and be
    /// lost from the right one, with nothing said. `created` is set once, when a card is made, and never changes, so
    /// versions that disagree on it are not versions of one card. Versions without `created` (or not cards, or
    /// empty: the base of two adds) never count as different: there is nothing to tell them apart by. Two cards
    /// both sides added under one name (no base) are ``areTwoCards(base:ours:theirs:)``, which the driver keeps.
    package static func pairsDifferentCards(base: [UInt8], ours: [UInt8], theirs: [UInt8]) -> Bool {
        let created = Set([base, ours, theirs].compactMap(createdValue(of:)))
        return created.count > 1
    }

    /// The `created` time of a card file (its text when it is not a time we read); nil for an empty file, a file
    /// without frontmatter, or a card without `created`.
    private static func createdValue(of bytes: [UInt8]) -> String? {
        guard !bytes.isEmpty, let document = try? FrontmatterDocument(bytes: bytes, dialect: .card), document.hasFrontmatter,
              let text = document.value(forKey: "created")?.string else {
            return nil
        }
        return ISO8601.date(from: text).map { "\($0.timeIntervalSince1970)" } ?? text
    }

    /// Whether two paths of card files (`…/cards/<column>/<slug>.md`, `…/archive/<YYYY-MM-DD>-<slug>.md`, relative
    /// to the repository's top) can be one card's at two times. A card's slug never changes with its title; it
    /// changes only as kanban renames files: archiving puts a date before it, unarchiving takes the date off, and a
    /// slug two cards share sends one of them to the slug with a suffix (`-t5ewzk`, `-2`). So one slug must be the
    /// other, or the other with a suffix after a `-`. Git's rename pairing follows none of this: when the file
    /// git hands the merge driver was another card's, their slugs tell it, even for cards made in the same second.
    package static func mayBeOneCard(path first: String, path second: String) -> Bool {
        let a = slug(ofCardPath: first), b = slug(ofCardPath: second)
        return a == b || a.hasPrefix(b + "-") || b.hasPrefix(a + "-")
    }

    /// The slug of a card file's path: its name without `.md`, and without the date of an archived card.
    private static func slug(ofCardPath path: String) -> Substring {
        let components = path.split(separator: "/", omittingEmptySubsequences: true)
        guard var name = components.last else { return "" }
        if name.hasSuffix(".md") { name = name.dropLast(3) }
        if components.count >= 2, components[components.count - 2] == "archive", name.utf8.count > 11 {
            let date = name.prefix(11)
            if date.utf8.enumerated().allSatisfy({ index, byte in
                index == 4 || index == 7 || index == 10 ? byte == UInt8(ascii: "-") : (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            }) {
                name = name.dropFirst(11)
            }
        }
        return name
    }
}
