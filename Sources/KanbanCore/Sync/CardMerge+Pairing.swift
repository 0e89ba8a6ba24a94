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
}
