import KanbanCore

/// `CardFile.isCardFileName` on raw directory-entry bytes, for polling passes that look at every name on
/// the board without making a `String` of each (ASCII names are checked byte by byte; others are handed to
/// KanbanCore). Tests check that both agree.
enum CardFileName {
    private static let suffix: [UInt8] = Array(".md".utf8)
    private static let jetBrains: [UInt8] = Array("___jb_".utf8)

    /// Whether a directory entry named `name` is a card rather than editor litter: it ends in `.md`, is longer
    /// than that, does not start with `.` or `#`, and is not a JetBrains temporary (`___jb_`).
    static func isCard(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        // Outside ASCII, characters (combining marks) decide what a suffix is: ask KanbanCore itself.
        if name.contains(where: { $0 >= 0x80 }) {
            return CardFile.isCardFileName(String(decoding: name, as: UTF8.self))
        }
        let count = name.count
        guard count > 3, name[count - 3] == suffix[0], name[count - 2] == suffix[1], name[count - 1] == suffix[2] else {
            return false
        }
        guard name[0] != UInt8(ascii: "."), name[0] != UInt8(ascii: "#") else { return false }
        guard count >= jetBrains.count else { return true }
        for start in 0...(count - jetBrains.count) where name[start] == jetBrains[0] {
            var matches = true
            for offset in 1..<jetBrains.count where name[start + offset] != jetBrains[offset] {
                matches = false
                break
            }
            if matches { return false }
        }
        return true
    }

    static func isCard(_ name: String) -> Bool {
        var name = name
        return name.withUTF8 { isCard($0) }
    }
}
