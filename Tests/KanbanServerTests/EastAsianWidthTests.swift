import Testing

@testable import KanbanServer

@Suite struct EastAsianWidthTests {
    @Test func keepsTheTableSortedAndDisjoint() {
        let ranges = EastAsianWidth.wideRanges
        for (lower, upper) in zip(ranges, ranges.dropFirst()) {
            #expect(lower.upperBound < upper.lowerBound)
        }
    }

    @Test(
        arguments: [
            (0x10FF, false), (0x1100, true), (0x115F, true), (0x1160, false),
            (0x303E, true), (0x303F, false), (0x4E00, true), (0xAC00, true), (0xD7A3, true), (0xD7A4, false),
            (0xFF01, true), (0xFF61, false), (0x3FFFD, true), (0x41, false),
        ] as [(UInt32, Bool)])
    func findsRangeEdges(value: UInt32, isWide: Bool) throws {
        let scalar = try #require(Unicode.Scalar(value))
        #expect(EastAsianWidth.isWide(scalar) == isWide)
    }
}
