/// Where the columns of a board go on a terminal of a given width: which columns stand side by side in each band
/// (a row of columns; bands stand one under the other) and how wide each column is.
///
/// Expanded columns all get the same width, a fair share of what the fixed-width (collapsed) columns and the
/// separators leave, but no more than `maximumWidth`. When that share would be narrower than `minimumWidth`, the
/// columns are split, in board order, into the fewest bands of near-equal column counts in which every band fits
/// at the minimum. A lone column narrower than the minimum gets the whole width.
struct BoardLayout: Hashable, Sendable {
    /// The columns of each band, as indices into the column list, in board order.
    var bands: [[Int]]

    /// The width of each column, by index: at least 1 and never more than the total width.
    var columnWidths: [Int]

    /// Lays out columns.
    ///
    /// - Parameters:
    ///   - fixedWidths: For each column in board order, its fixed width when it is collapsed, or `nil` when it
    ///     takes a share of the room.
    ///   - width: The total width, in terminal columns; less than 1 counts as 1.
    ///   - separatorWidth: The columns taken by the separator between two columns of a band.
    ///   - minimumWidth: The narrowest an expanded column may be while others share its band.
    ///   - maximumWidth: The widest an expanded column may be.
    init(fixedWidths: [Int?], width: Int, separatorWidth: Int, minimumWidth: Int, maximumWidth: Int) {
        let total = max(1, width)
        let count = fixedWidths.count
        guard count > 0 else {
            bands = []
            columnWidths = []
            return
        }

        func fixed(_ index: Int) -> Int? {
            fixedWidths[index].map { min(max(1, $0), total) }
        }
        func smallestWidth(of band: [Int]) -> Int {
            band.reduce(separatorWidth * (band.count - 1)) { $0 + (fixed($1) ?? minimumWidth) }
        }

        var chosen = BoardLayout.split(count, into: count)
        for bandCount in 1..<count {
            let candidate = BoardLayout.split(count, into: bandCount)
            if candidate.allSatisfy({ smallestWidth(of: $0) <= total }) {
                chosen = candidate
                break
            }
        }

        // The share of the tightest band decides the width of every expanded column, so cards read alike
        // whichever band they are in.
        var expandedWidth = max(1, min(maximumWidth, total))
        for band in chosen {
            let expanded = band.filter { fixed($0) == nil }
            guard !expanded.isEmpty else { continue }
            let taken = band.reduce(separatorWidth * (band.count - 1)) { $0 + (fixed($1) ?? 0) }
            expandedWidth = min(expandedWidth, max(1, (total - taken) / expanded.count))
        }

        bands = chosen
        columnWidths = (0..<count).map { fixed($0) ?? expandedWidth }
    }

    /// The indices `0..<count` cut into `bandCount` runs whose lengths differ by at most one, longer runs first.
    private static func split(_ count: Int, into bandCount: Int) -> [[Int]] {
        let base = count / bandCount
        let longer = count % bandCount
        var bands: [[Int]] = []
        var start = 0
        for band in 0..<bandCount {
            let length = base + (band < longer ? 1 : 0)
            bands.append(Array(start..<(start + length)))
            start += length
        }
        return bands
    }
}
