import Testing

@testable import kanban

@Suite struct BoardLayoutTests {
    private func layout(_ fixedWidths: [Int?], width: Int) -> BoardLayout {
        BoardLayout(fixedWidths: fixedWidths, width: width, separatorWidth: 3, minimumWidth: 16, maximumWidth: 48)
    }

    @Test func columnsThatFitShareTheWidthEqually() {
        let result = layout([7, nil, nil, nil, nil], width: 120)
        #expect(result.bands == [[0, 1, 2, 3, 4]])
        // 120 - 7 - 4 × 3 = 101 for four columns: 25 each, the odd column left over.
        #expect(result.columnWidths == [7, 25, 25, 25, 25])
    }

    @Test func columnsNeverGrowPastTheMaximum() {
        let result = layout([nil, nil], width: 300)
        #expect(result.bands == [[0, 1]])
        #expect(result.columnWidths == [48, 48])
    }

    @Test func columnsThatDoNotFitAreSplitIntoEvenBands() {
        // Five columns of 16 need 92: at 80 they take two bands, three and two, not four and one.
        let result = layout([nil, nil, nil, nil, nil], width: 80)
        #expect(result.bands == [[0, 1, 2], [3, 4]])
        // The tighter band decides: (80 - 6) / 3 = 24 for every expanded column.
        #expect(result.columnWidths == [24, 24, 24, 24, 24])
    }

    @Test func theMinimumWidthIsKeptWhileColumnsShareABand() {
        for width in 1...300 {
            let result = layout([7, nil, nil, nil, nil, nil], width: width)
            #expect(result.bands.flatMap { $0 } == Array(0..<6))
            for band in result.bands where band.count > 1 {
                let used = band.reduce(3 * (band.count - 1)) { $0 + result.columnWidths[$1] }
                #expect(used <= width, "width \(width)")
                #expect(band.allSatisfy { $0 == 0 || result.columnWidths[$0] >= 16 }, "width \(width)")
            }
            #expect(result.columnWidths.allSatisfy { $0 >= 1 && $0 <= max(1, width) }, "width \(width)")
        }
    }

    @Test func aLoneColumnNarrowerThanTheMinimumTakesTheWholeWidth() {
        let result = layout([nil, 8, nil], width: 12)
        #expect(result.bands == [[0], [1], [2]])
        #expect(result.columnWidths == [12, 8, 12])
    }

    @Test func aCollapsedColumnIsNeverWiderThanTheWidth() {
        let result = layout([10], width: 4)
        #expect(result.columnWidths == [4])
        #expect(layout([10], width: 0).columnWidths == [1])
    }

    @Test func noColumnsMakeNoBands() {
        let result = layout([], width: 80)
        #expect(result.bands.isEmpty)
        #expect(result.columnWidths.isEmpty)
    }
}
