/// Turns the bytes read from a terminal in raw mode into ``Key``s.
///
/// Bytes come in whatever pieces `read(2)` gives, so a sequence may be cut anywhere: what is incomplete is kept for
/// the next call. A lone `ESC` is ambiguous (the Escape key, or the start of an arrow's sequence whose rest is still
/// on its way); the caller waits a moment for more and, when nothing comes, calls ``flush()``.
///
/// ```swift
/// var decoder = KeyDecoder()
/// decoder.keys(from: [0x1B, 0x5B])      // [] — maybe an arrow
/// decoder.keys(from: [0x41])            // [.arrow(.up, isShifted: false)]
/// decoder.keys(from: [0x1B])            // []
/// decoder.flush()                       // [.escape]
/// ```
///
/// Understood: UTF-8 text; Enter (`CR` or `LF`), Tab, Backspace (`DEL` or `BS`), Ctrl-letter; CSI arrows with or
/// without modifiers (`ESC [ A`, `ESC [ 1 ; 2 A` with Shift), rxvt's shifted arrows (`ESC [ a`), SS3 arrows
/// (`ESC O A`, sent in application cursor mode), Home, End, Page Up, Page Down and Delete in their common
/// spellings. Other sequences are read whole and ignored, so they never turn into stray letters.
struct KeyDecoder: Sendable {
    private var pending: [UInt8] = []

    /// The longest sequence waited for; anything longer is garbage and dropped.
    private static let longestSequence = 32

    /// Whether bytes are held back waiting for the rest of a sequence (or to tell a lone Escape from one).
    var isWaitingForMore: Bool { !pending.isEmpty }

    /// The keys `bytes` complete, together with what was held back before.
    mutating func keys(from bytes: some Sequence<UInt8>) -> [Key] {
        pending.append(contentsOf: bytes)
        var keys: [Key] = []
        let consumed = decode(pending, into: &keys, isFinal: false)
        pending.removeFirst(consumed)
        return keys
    }

    /// The keys held back, taken as complete: a lone `ESC` is the Escape key. Call it when no more bytes came.
    mutating func flush() -> [Key] {
        var keys: [Key] = []
        _ = decode(pending, into: &keys, isFinal: true)
        pending.removeAll()
        return keys
    }

    /// Decodes `bytes` from the start; returns how many were used. Unless `isFinal`, an incomplete tail is left.
    private func decode(_ bytes: [UInt8], into keys: inout [Key], isFinal: Bool) -> Int {
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case 0x1B:
                guard index + 1 < bytes.count else {
                    if isFinal {
                        keys.append(.escape)
                        return bytes.count
                    }
                    return index
                }
                switch bytes[index + 1] {
                case UInt8(ascii: "["):
                    guard let end = Self.controlSequenceEnd(bytes, from: index + 2) else {
                        if isFinal || bytes.count - index > Self.longestSequence {
                            // Not a sequence after all: Escape, then the rest as typed.
                            keys.append(.escape)
                            index += 1
                            continue
                        }
                        return index
                    }
                    if let key = Self.controlSequenceKey(parameters: Array(bytes[(index + 2)..<end]), final: bytes[end]) {
                        keys.append(key)
                    }
                    index = end + 1
                case UInt8(ascii: "O"):
                    guard index + 2 < bytes.count else {
                        if isFinal {
                            keys.append(.escape)
                            index += 1
                            continue
                        }
                        return index
                    }
                    if let key = Self.singleShiftKey(bytes[index + 2]) { keys.append(key) }
                    index += 3
                default:
                    // Escape, then the next byte on its own (Alt+key, or Escape typed quickly before a key).
                    keys.append(.escape)
                    index += 1
                }
            case 0x0D, 0x0A:
                keys.append(.enter)
                index += 1
            case 0x09:
                keys.append(.tab)
                index += 1
            case 0x7F, 0x08:
                keys.append(.backspace)
                index += 1
            case 0x01...0x1A:
                keys.append(.control(Character(Unicode.Scalar(byte + 0x60))))
                index += 1
            case 0x20...0x7E:
                keys.append(.character(Character(Unicode.Scalar(byte))))
                index += 1
            case 0xC2...0xF4:
                let length = byte < 0xE0 ? 2 : byte < 0xF0 ? 3 : 4
                guard index + length <= bytes.count else {
                    // An incomplete character: wait for its rest, unless a byte already shows it is not one.
                    let continuesSoFar = bytes[(index + 1)...].allSatisfy { $0 & 0xC0 == 0x80 }
                    if isFinal || !continuesSoFar {
                        index += 1
                        continue
                    }
                    return index
                }
                let encoded = bytes[index..<(index + length)]
                if let scalar = Self.scalar(decoding: encoded) {
                    keys.append(.character(Character(scalar)))
                    index += length
                } else {
                    index += 1
                }
            default:
                // NUL, the other C0 controls, stray continuation bytes and bytes never valid in UTF-8.
                index += 1
            }
        }
        return index
    }

    /// The index of the final byte of a control sequence whose parameters start at `start`, or nil when the bytes
    /// end first. A byte outside the sequence's ranges ends it there (taken as its final byte, and ignored).
    private static func controlSequenceEnd(_ bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        while index < bytes.count {
            if !(0x20...0x3F).contains(bytes[index]) { return index }
            index += 1
        }
        return nil
    }

    /// The key for `ESC [ parameters final`, or nil for a sequence that is not a key we use.
    private static func controlSequenceKey(parameters: [UInt8], final: UInt8) -> Key? {
        // `ESC [ ?`, `<`, `=`, `>`: a terminal's reports and answers, never keys.
        if let first = parameters.first, (0x3C...0x3F).contains(first) { return nil }
        let numbers = String(decoding: parameters, as: UTF8.self).split(separator: ";", omittingEmptySubsequences: false)
            .map { Int($0) }
        // xterm's modifier parameter is 1 + a bit set: 1 Shift, 2 Alt, 4 Ctrl.
        let modifier = numbers.count > 1 ? (numbers[1] ?? 1) : 1
        let isShifted = modifier > 1 && (modifier - 1) & 1 != 0
        switch final {
        case UInt8(ascii: "A"): return .arrow(.up, isShifted: isShifted)
        case UInt8(ascii: "B"): return .arrow(.down, isShifted: isShifted)
        case UInt8(ascii: "C"): return .arrow(.right, isShifted: isShifted)
        case UInt8(ascii: "D"): return .arrow(.left, isShifted: isShifted)
        case UInt8(ascii: "a") where parameters.isEmpty: return .arrow(.up, isShifted: true)
        case UInt8(ascii: "b") where parameters.isEmpty: return .arrow(.down, isShifted: true)
        case UInt8(ascii: "c") where parameters.isEmpty: return .arrow(.right, isShifted: true)
        case UInt8(ascii: "d") where parameters.isEmpty: return .arrow(.left, isShifted: true)
        case UInt8(ascii: "H"): return .home
        case UInt8(ascii: "F"): return .end
        case UInt8(ascii: "~"):
            switch numbers.first ?? nil {
            case 1, 7: return .home
            case 4, 8: return .end
            case 3: return .delete
            case 5: return .pageUp
            case 6: return .pageDown
            default: return nil
            }
        default:
            return nil
        }
    }

    /// The key for `ESC O final`.
    private static func singleShiftKey(_ final: UInt8) -> Key? {
        switch final {
        case UInt8(ascii: "A"): return .arrow(.up, isShifted: false)
        case UInt8(ascii: "B"): return .arrow(.down, isShifted: false)
        case UInt8(ascii: "C"): return .arrow(.right, isShifted: false)
        case UInt8(ascii: "D"): return .arrow(.left, isShifted: false)
        case UInt8(ascii: "H"): return .home
        case UInt8(ascii: "F"): return .end
        default: return nil
        }
    }

    /// The scalar a complete, valid UTF-8 sequence encodes, or nil.
    private static func scalar(decoding bytes: ArraySlice<UInt8>) -> Unicode.Scalar? {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        if case .scalarValue(let scalar) = decoder.decode(&iterator), iterator.next() == nil { return scalar }
        return nil
    }
}
