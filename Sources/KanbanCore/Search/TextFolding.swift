import Foundation

/// Case- and diacritic-insensitive text for matching: `Ünïcödé` and `unicode` fold to the same bytes.
///
/// ASCII folds byte by byte; other characters are decomposed and stripped of combining marks, then lowercased.
/// The folded text keeps, for each folded byte, the offset of the original UTF-8 byte it came from, so that a match
/// can be highlighted in the original text.
struct FoldedText {
    /// The folded UTF-8 bytes.
    var bytes: [UInt8]
    /// For each folded byte, the offset in the original UTF-8 of the character it came from (when asked for).
    var origins: [Int]

    init(_ text: String, keepOrigins: Bool = false) {
        var bytes: [UInt8] = []
        var origins: [Int] = []
        bytes.reserveCapacity(text.utf8.count)
        var offset = 0
        var asciiOnly = true
        for byte in text.utf8 where byte >= 0x80 {
            asciiOnly = false
            break
        }
        if asciiOnly {
            for byte in text.utf8 {
                bytes.append(byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte)
            }
            if keepOrigins { origins = Array(0..<bytes.count) }
        } else {
            for scalar in text.unicodeScalars {
                let width = UTF8.width(scalar)
                if scalar.isASCII {
                    let byte = UInt8(scalar.value)
                    bytes.append(byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte)
                    if keepOrigins { origins.append(offset) }
                } else {
                    for folded in FoldedText.fold(scalar).utf8 {
                        bytes.append(folded)
                        if keepOrigins { origins.append(offset) }
                    }
                }
                offset += width
            }
        }
        self.bytes = bytes
        self.origins = origins
    }

    /// Whether `needle` (already folded) occurs in the text.
    func contains(_ needle: [UInt8]) -> Bool {
        firstRange(of: needle) != nil
    }

    /// The first occurrence of `needle` as a range of folded byte offsets.
    func firstRange(of needle: [UInt8], from start: Int = 0) -> Range<Int>? {
        guard !needle.isEmpty else { return start..<start }
        guard bytes.count - start >= needle.count else { return nil }
        return bytes.withUnsafeBufferPointer { haystack -> Range<Int>? in
            needle.withUnsafeBufferPointer { pattern -> Range<Int>? in
                let first = pattern[0]
                var index = start
                let last = haystack.count - pattern.count
                while index <= last {
                    if haystack[index] == first {
                        var offset = 1
                        while offset < pattern.count && haystack[index + offset] == pattern[offset] { offset += 1 }
                        if offset == pattern.count { return index..<(index + pattern.count) }
                    }
                    index += 1
                }
                return nil
            }
        }
    }

    private static func fold(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "ß", "ẞ": return "ss"
        case "æ", "Æ": return "ae"
        case "œ", "Œ": return "oe"
        case "ø", "Ø": return "o"
        case "ł", "Ł": return "l"
        case "đ", "Đ", "ð", "Ð": return "d"
        case "ı": return "i"
        default: break
        }
        var result = ""
        for part in String(scalar).decomposedStringWithCanonicalMapping.unicodeScalars
        where part.properties.generalCategory != .nonspacingMark {
            result.unicodeScalars.append(part)
        }
        return result.lowercased()
    }
}
