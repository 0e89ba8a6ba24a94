/// Text from files made safe for a terminal: control characters are shown, never obeyed.
///
/// A card title holding `ESC ] 0 ; pwned BEL ESC [ 2 J` would retitle the window and clear the screen if it reached
/// the terminal as it is. Every byte of text written by ``BufferedOutput`` goes through ``escaped(_:keepingStyles:)``:
/// C0 controls other than line feed and tab, and DEL, are shown in caret notation (`^[`, `^G`, `^?`, as `cat -v`
/// does), and the C1 controls U+0080–U+009F as `\u009B`. When colour is on, the colour and style sequences `kanban`
/// itself writes (`ESC [ … m`, nothing else) are kept.
package enum VisibleControls {
    /// Whether `bytes` hold anything ``escaped(_:keepingStyles:)`` would change; a fast check, eight bytes at a time.
    package static func needsEscaping(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        var index = 0
        let count = bytes.count
        func isControl(at index: Int) -> Bool {
            let byte = base[index]
            if byte < 0x20 && byte != 0x0A && byte != 0x09 { return true }
            if byte == 0x7F { return true }
            return byte == 0xC2 && index + 1 < count && base[index + 1] >= 0x80 && base[index + 1] <= 0x9F
        }
        while index + 8 <= count {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            // A byte below 0x20 (a line feed, most often), 0x7F, or 0xC2 that may start a C1 control: look at these
            // eight bytes one by one, then go on eight at a time.
            let low = (word &- 0x2020_2020_2020_2020) & ~word & 0x8080_8080_8080_8080
            if low != 0 || hasByte(word, 0x7F) || hasByte(word, 0xC2) {
                for offset in index..<(index + 8) where isControl(at: offset) { return true }
            }
            index += 8
        }
        while index < count {
            if isControl(at: index) { return true }
            index += 1
        }
        return false
    }

    /// Whether one of the eight bytes of `word` is `byte`.
    private static func hasByte(_ word: UInt64, _ byte: UInt8) -> Bool {
        let pattern = word ^ (0x0101_0101_0101_0101 &* UInt64(byte))
        return (pattern &- 0x0101_0101_0101_0101) & ~pattern & 0x8080_8080_8080_8080 != 0
    }

    /// `bytes` with every control character but line feed and tab made visible; with `keepingStyles`, the SGR
    /// sequences (`ESC [` digits and `;` then `m`) are kept as they are.
    package static func escaped(_ bytes: UnsafeBufferPointer<UInt8>, keepingStyles: Bool) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count + 16)
        var index = 0
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            if byte == 0x1B, keepingStyles, let end = styleSequenceEnd(bytes, from: index) {
                result.append(contentsOf: bytes[index..<end])
                index = end
                continue
            }
            if (byte < 0x20 && byte != 0x0A && byte != 0x09) || byte == 0x7F {
                result.append(UInt8(ascii: "^"))
                result.append(byte == 0x7F ? UInt8(ascii: "?") : byte + 0x40)
                index += 1
                continue
            }
            if byte == 0xC2, index + 1 < count, bytes[index + 1] >= 0x80, bytes[index + 1] <= 0x9F {
                result.append(contentsOf: Array("\\u00".utf8))
                result.append(contentsOf: Array(String(bytes[index + 1], radix: 16, uppercase: true).utf8))
                index += 2
                continue
            }
            result.append(byte)
            index += 1
        }
        return result
    }

    /// The end of the SGR sequence starting at `start` (`ESC [`, digits and `;`, `m`), or nil when it is not one.
    private static func styleSequenceEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var index = start + 1
        guard index < bytes.count, bytes[index] == UInt8(ascii: "[") else { return nil }
        index += 1
        while index < bytes.count, (bytes[index] >= UInt8(ascii: "0") && bytes[index] <= UInt8(ascii: "9")) || bytes[index] == UInt8(ascii: ";") {
            index += 1
        }
        guard index < bytes.count, bytes[index] == UInt8(ascii: "m") else { return nil }
        return index + 1
    }

    /// `text` made safe to show, keeping no escape sequence at all: for values from files placed inside our own
    /// styling, where even a colour sequence of theirs must not pass.
    package static func visible(_ text: String) -> String {
        var text = text
        return text.withUTF8 { bytes in
            guard needsEscaping(bytes) || bytes.contains(0x1B) else { return String(decoding: bytes, as: UTF8.self) }
            return String(decoding: escaped(bytes, keepingStyles: false), as: UTF8.self)
        }
    }
}
