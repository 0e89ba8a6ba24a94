#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Matching on a card file's bytes, for searching many cards: a look at the raw bytes rules most non-matches out
/// before parsing, and cards whose text is ASCII are matched on their bytes without decoding or folding the body.
/// Both give exactly what ``CardQuery/match(_:body:)`` gives; tests compare them.
extension CardQuery {
    /// Whether the card file with `bytes` might match; false only when it certainly cannot.
    ///
    /// Judged only for files that are ASCII without a backslash (no escapes could hide a word) and only from terms
    /// that are a single word of letters and digits, which no YAML quoting or folding can split: such a word must
    /// occur in the bytes, or in the file name (a card without a title takes it from there).
    func mightMatch(_ file: CardFile, bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { mightMatch(file, bytes: $0) }
    }

    func mightMatch(_ file: CardFile, bytes buffer: UnsafeBufferPointer<UInt8>) -> Bool {
        guard pattern == nil else { return true }
        for term in terms where !term.isNegated {
            if term.field == .column, let column = file.directoryColumn {
                if FoldedText(column).bytes != term.folded { return false }
            }
        }
        let judged = byteLevel.quickLookTerms
        guard !judged.isEmpty else { return true }
        guard ASCIIText.isASCII(buffer, without: UInt8(ascii: "\\")) else { return true }
        for term in judged where !ASCIIText.contains(buffer, term.folded) {
            guard term.field != .label, ASCIIText.contains(file.slug, term.folded) else { return false }
        }
        return true
    }

    /// Whether a card whose title (``Card/title``, as the board's index keeps it) has the bytes `title` might match;
    /// false only when a `title:` word the query needs is not in it. Judged only for an ASCII title, which folding
    /// leaves as it is but for case.
    func mightMatch(title: UnsafeBufferPointer<UInt8>) -> Bool {
        guard pattern == nil, byteLevel.quickLookTerms.contains(where: { $0.field == .title }),
              ASCIIText.isASCII(title, without: 0) else { return true }
        return byteLevel.quickLookTerms.allSatisfy { $0.field != .title || ASCIIText.contains(title, $0.folded) }
    }

    /// Whether the card matches, and where, with its body taken from `bytes` (the file) from `bodyOffset`.
    func match(_ card: Card, bytes: [UInt8], bodyOffset: Int) -> SearchMatch? {
        bytes.withUnsafeBufferPointer { match(card, bytes: $0, bodyOffset: bodyOffset) }
    }

    func match(_ card: Card, bytes buffer: UnsafeBufferPointer<UInt8>, bodyOffset: Int) -> SearchMatch? {
        let body = UnsafeBufferPointer(rebasing: buffer[min(bodyOffset, buffer.count)...])
        if pattern == nil, let answer = asciiMatch(card, body: body) { return answer }
        return match(card, body: card.body ?? FrontmatterDocument.body(body, usesCRLF: FrontmatterDocument.usesCRLF(buffer)))
    }

    /// The match worked out on bytes, when the card and the query are ASCII and the body has no carriage
    /// return; nil when that cannot be done (the answer itself is a `SearchMatch?`).
    func asciiMatch(_ card: Card, body: UnsafeBufferPointer<UInt8>) -> SearchMatch?? {
        func isASCII(_ text: String) -> Bool { text.utf8.withContiguousStorageIfAvailable { $0.allSatisfy { $0 < 0x80 } } ?? false }
        guard byteLevel.isASCII, ASCIIText.isASCII(body, without: 0x0D), isASCII(card.title), isASCII(card.column),
              card.labels.allSatisfy(isASCII) else { return nil }
        func equal(_ text: String, _ needle: [UInt8]) -> Bool {
            text.utf8.count == needle.count && zip(text.utf8, needle).allSatisfy { ASCIIText.lower($0) == $1 }
        }
        // The earliest occurrence in the body of a word to show, noted while the terms are checked: the body line is
        // needed only when no such word is in the title, and then each was looked for in the body here.
        var first = body.count
        for term in terms {
            let holds: Bool
            switch term.field {
            case .label: holds = card.labels.contains { equal($0, term.folded) }
            case .column: holds = equal(card.column, term.folded)
            case .title: holds = ASCIIText.contains(card.title, term.folded)
            case .any:
                if ASCIIText.contains(card.title, term.folded) {
                    holds = true
                } else if let found = ASCIIText.firstRange(of: term.folded, in: body, from: 0) {
                    holds = true
                    if !term.isNegated && !term.folded.isEmpty { first = min(first, found.lowerBound) }
                } else {
                    holds = card.labels.contains { ASCIIText.contains($0, term.folded) }
                }
            }
            if holds == term.isNegated { return .some(nil) }
        }
        let needles = byteLevel.needles
        /// The line's matches as ranges of its string, in order and merged where they overlap.
        func matches(in line: UnsafeBufferPointer<UInt8>) -> (String, [Range<String.Index>])? {
            var offsets: [Range<Int>] = []
            for needle in needles {
                var start = 0
                while let found = ASCIIText.firstRange(of: needle, in: line, from: start) {
                    offsets.append(found)
                    start = found.upperBound
                }
            }
            guard !offsets.isEmpty else { return nil }
            offsets = CardQuery.merged(offsets)
            let text = String(decoding: line, as: UTF8.self)
            let utf8 = text.utf8
            return (text, offsets.map { utf8.index(utf8.startIndex, offsetBy: $0.lowerBound)..<utf8.index(utf8.startIndex, offsetBy: $0.upperBound) })
        }
        var title = card.title
        if let (line, ranges) = title.withUTF8({ matches(in: $0) }) {
            return .some(SearchMatch(line: line, lineNumber: nil, ranges: ranges))
        }
        // The first body line holding a word is the line of the earliest occurrence of any of them.
        guard first < body.count else {
            return .some(SearchMatch(line: card.title, lineNumber: nil, ranges: []))
        }
        let lineStart = ASCIIText.lineStart(in: body, before: first)
        let lineEnd = ASCIIText.lineEnd(in: body, from: first)
        let lineNumber = 1 + ASCIIText.count(0x0A, in: UnsafeBufferPointer(rebasing: body[0..<lineStart]))
        guard let (line, ranges) = matches(in: UnsafeBufferPointer(rebasing: body[lineStart..<lineEnd])) else {
            return .some(SearchMatch(line: card.title, lineNumber: nil, ranges: []))  // not reached: the line holds a word
        }
        return .some(SearchMatch(line: line, lineNumber: lineNumber, ranges: ranges))
    }
}

/// What matching on bytes needs from a query's terms.
struct ByteLevelTerms: Sendable {
    /// The terms the quick look judges by: positive, not `column:`, one word of ASCII letters and digits.
    let quickLookTerms: [CardQuery.Term]
    /// The words whose matches a result line shows: positive terms on any part or the title, not empty.
    let needles: [[UInt8]]
    /// Whether every term is ASCII without line breaks, so that matching can work on bytes.
    let isASCII: Bool

    init(_ terms: [CardQuery.Term]) {
        quickLookTerms = terms.filter { !$0.isNegated && $0.field != .column && Self.isWord($0.folded) }
        needles = terms.filter { !$0.isNegated && ($0.field == .any || $0.field == .title) }.map(\.folded).filter { !$0.isEmpty }
        isASCII = terms.allSatisfy { $0.folded.allSatisfy { $0 < 0x80 && $0 != 0x0A && $0 != 0x0D } }
    }

    /// Whether `folded` is one word of ASCII letters and digits.
    private static func isWord(_ folded: [UInt8]) -> Bool {
        !folded.isEmpty && folded.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) }
    }
}

/// Case-insensitive search in ASCII bytes for a needle already folded (lowercase).
enum ASCIIText {
    static func lower(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte
    }

    static func contains(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: [UInt8]) -> Bool {
        firstRange(of: needle, in: haystack, from: 0) != nil
    }

    static func contains(_ haystack: String, _ needle: [UInt8]) -> Bool {
        var text = haystack
        return text.withUTF8 { contains($0, needle) }
    }

    /// Where the line holding `offset` starts: just past the line feed before it, or 0.
    static func lineStart(in bytes: UnsafeBufferPointer<UInt8>, before offset: Int) -> Int {
        var start = offset
        while start > 0, bytes[start - 1] != 0x0A { start -= 1 }
        return start
    }

    /// Where the line holding `offset` ends: at the next line feed, or the end.
    static func lineEnd(in bytes: UnsafeBufferPointer<UInt8>, from offset: Int) -> Int {
        guard let base = bytes.baseAddress, offset < bytes.count, let found = memchr(base + offset, 0x0A, bytes.count - offset) else {
            return bytes.count
        }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }

    /// How many times `byte` occurs.
    static func count(_ byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        var count = 0
        var index = 0
        while index < bytes.count, let found = memchr(base + index, Int32(byte), bytes.count - index) {
            count += 1
            index = base.distance(to: found.assumingMemoryBound(to: UInt8.self)) + 1
        }
        return count
    }

    /// Whether every byte is ASCII and none is `excluded`, checked eight bytes at a time.
    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>, without excluded: UInt8) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let pattern = ones &* UInt64(excluded)
        var index = 0
        while index + 8 <= bytes.count {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            let matched = word ^ pattern
            // A byte of `matched` is zero where `word` holds `excluded`.
            if word & highs != 0 || (matched &- ones) & ~matched & highs != 0 { return false }
            index += 8
        }
        while index < bytes.count {
            if bytes[index] >= 0x80 || bytes[index] == excluded { return false }
            index += 1
        }
        return true
    }

    /// The first occurrence of `needle` at or after `start`, ignoring ASCII case in the haystack.
    ///
    /// Candidates for the needle's first byte are found eight bytes at a time: OR-ing 0x20 into a byte folds an
    /// uppercase letter onto its lowercase one and nothing else onto it, so a letter is one comparison per word.
    static func firstRange(of needle: [UInt8], in haystack: UnsafeBufferPointer<UInt8>, from start: Int) -> Range<Int>? {
        guard !needle.isEmpty else { return start..<start }
        guard let base = haystack.baseAddress, haystack.count - start >= needle.count else { return nil }
        let first = needle[0]
        let isLetter = first >= 0x61 && first <= 0x7A
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let fold = isLetter ? ones &* 0x20 : 0
        let pattern = ones &* UInt64(first)
        let last = haystack.count - needle.count
        var index = start
        /// Whether the needle is at `candidate`.
        func isMatch(at candidate: Int) -> Bool {
            var offset = 1
            while offset < needle.count && lower(base[candidate + offset]) == needle[offset] { offset += 1 }
            return offset == needle.count
        }
        while index + 8 <= last + 1 {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            let matched = (word | fold) ^ pattern
            // The lowest flagged byte is a zero byte of `matched` (flags above it may be false): check it, go on after it.
            let flags = (matched &- ones) & ~matched & highs
            if flags == 0 {
                index += 8
                continue
            }
            let candidate = index + flags.trailingZeroBitCount / 8
            if isMatch(at: candidate) { return candidate..<(candidate + needle.count) }
            index = candidate + 1
        }
        while index <= last {
            if (isLetter ? base[index] | 0x20 : base[index]) == first, isMatch(at: index) { return index..<(index + needle.count) }
            index += 1
        }
        return nil
    }
}
