import Foundation

/// Card slugs: the file name without `.md`, which is the card's identity on the board.
public enum Slug {
    /// The longest slug generated from a title, in bytes (a `-N` suffix may add a few).
    public static let maximumLength = 80

    /// The slug for a new card titled `title`, made as SimpleKanban makes it: other scripts transliterated to Latin
    /// (`Привет мир` → `privet-mir`, `中文标题` → `zhong-wen-biao-ti`, `Ελληνικά` → `ellenika`), then lowercase ASCII
    /// letters and digits, diacritics folded (`Ünïcödé` → `unicode`), `&` spelled `and`, every run of other
    /// characters one `-`, no `-` at either end, at most ``maximumLength`` bytes, and `untitled` when nothing is left
    /// (a title of emoji alone).
    ///
    /// - Complexity: O(n) in the length of the title.
    public static func make(from title: String) -> String {
        // The app transliterates with Foundation's `toLatin` transform, as here; a title in ASCII needs none.
        let title = title.utf8.allSatisfy { $0 < 0x80 } ? title : title.applyingTransform(.toLatin, reverse: false) ?? title
        var slug = ""
        var pendingHyphen = false
        func append(_ text: String) {
            if pendingHyphen && !slug.isEmpty { slug.append("-") }
            pendingHyphen = false
            slug.append(text)
        }
        for scalar in title.decomposedStringWithCompatibilityMapping.unicodeScalars {
            if scalar.properties.generalCategory == .nonspacingMark { continue }
            switch scalar {
            case "a"..."z", "0"..."9":
                append(String(scalar))
            case "A"..."Z":
                append(String(scalar).lowercased())
            case "&":
                pendingHyphen = true
                append("and")
                pendingHyphen = true
            case "'", "\u{2019}":
                continue  // "don't" → "dont", as SimpleKanban does
            default:
                if let folded = foldedLetters[scalar] {
                    append(folded)
                } else {
                    pendingHyphen = true
                }
            }
        }
        if slug.utf8.count > maximumLength {
            var cut = String(slug.utf8.prefix(maximumLength)) ?? slug
            if let lastHyphen = cut.lastIndex(of: "-"), cut.distance(from: cut.startIndex, to: lastHyphen) > maximumLength / 2 {
                cut = String(cut[..<lastHyphen])
            }
            slug = cut
        }
        while slug.hasSuffix("-") { slug.removeLast() }
        return slug.isEmpty ? "untitled" : slug
    }

    /// The first of `base`, `base-2`, `base-3`, ... for which `isTaken` is false.
    public static func unique(_ base: String, isTaken: (String) -> Bool) -> String {
        if !isTaken(base) { return base }
        var number = 2
        while isTaken("\(base)-\(number)") { number += 1 }
        return "\(base)-\(number)"
    }

    /// What two slugs are compared by when deciding whether one is taken: the slug lowercased, in Unicode's composed
    /// form (NFC). Two slugs with the same key cannot both exist on a case-insensitive, normalisation-insensitive disk
    /// (macOS's default), so a new slug must not share its key with an existing one.
    public static func collisionKey(_ slug: String) -> String {
        slug.precomposedStringWithCanonicalMapping.lowercased()
    }

    /// Whether `slug` is safe as a file name inside a column directory: not empty, no `/`, NUL or
    /// control characters, not `.` or `..`, and not hidden (a leading `.` is editor litter).
    public static func isValid(_ slug: String) -> Bool {
        guard !slug.isEmpty, !slug.hasPrefix("."), slug.utf8.count <= 255 - 3 else { return false }
        return !slug.unicodeScalars.contains { $0 == "/" || $0 == "\\" || $0.value < 0x20 || $0.value == 0x7F }
    }

    private static let foldedLetters: [Unicode.Scalar: String] = [
        "ß": "ss", "ẞ": "ss", "æ": "ae", "Æ": "ae", "œ": "oe", "Œ": "oe", "ø": "o", "Ø": "o",
        "đ": "d", "Đ": "d", "ð": "d", "Ð": "d", "ł": "l", "Ł": "l", "þ": "th", "Þ": "th", "ı": "i",
    ]
}
