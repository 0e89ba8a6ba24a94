import Testing
@testable import KanbanCore

@Suite struct StringBytesTests {
    @Test(arguments: [
        ("Zz", "a"),
        ("A", "a"),
        ("a", "a0"),
        ("a0", "a1"),
        ("9", "A"),
        ("n", "nm"),
        ("nm", "t"),
        ("z", "é"),
        ("e\u{301}", "é"),
    ])
    func comparesUTF8Bytes(lower: String, upper: String) {
        #expect(lower.utf8Precedes(upper))
        #expect(!upper.utf8Precedes(lower))
    }

    @Test func equalStringsDoNotPrecedeEachOther() {
        #expect(!"n".utf8Precedes("n"))
    }

    @Test func canonicallyEquivalentSpellingsAreDifferentKeys() {
        // Swift's `==` calls these equal; byte order must not, or two files could tie unpredictably.
        #expect("e\u{301}" == "é")
        #expect("e\u{301}".utf8Precedes("é") != "é".utf8Precedes("e\u{301}"))
    }
}

@Suite struct StringCompareTests {
    @Test(arguments: [
        ("", "", 0), ("", "a", -1), ("a", "", 1), ("abc", "abd", -1), ("abcdefghij", "abcdefghi", 1),
        ("é", "z", 1), ("a longer string than fifteen bytes", "a longer string than fifteen bytez", -1),
    ])
    func comparesBytesLikeMemcmp(lhs: String, rhs: String, sign: Int) {
        #expect(lhs.utf8Compare(rhs).signum() == sign)
        #expect(rhs.utf8Compare(lhs).signum() == -sign)
        #expect(lhs.utf8Compare(rhs).signum() == (lhs.utf8.lexicographicallyPrecedes(rhs.utf8) ? -1 : lhs == rhs ? 0 : 1))
    }
}
