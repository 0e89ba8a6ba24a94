/// A three-way merge of two texts changed from one they both started from, line by line: what `git merge-file`
/// does, written in Swift so that any sync provider (and an app that cannot run git) merges card bodies the same way.
///
/// Each side's changes are found by a line diff against the base. A change only one side made is taken; a change both
/// sides made alike is taken once; where both sides changed the same or touching lines differently, the merge has a
/// ``Conflict`` holding both sides' lines, narrowed to the lines that really differ (and widened over up to three
/// lines, or lines without a letter or digit, between two conflicts), as git's default merge level does.
///
/// For the texts it is given, the merge has the lines and conflicts of `git merge-file --stdout` with
/// `merge.conflictStyle=merge` (``markedText(markerSize:)`` writes them as git does); lines are compared whole,
/// line ends included, so a line that went from LF to CRLF is a changed line. Unlike git, it also merges texts with
/// NUL bytes (git refuses them as binary); whether to is the caller's choice.
public struct LineMerge: Sendable, Hashable {
    /// A stretch of the merged text.
    public enum Region: Sendable, Hashable {
        /// Lines the merge settled: unchanged, changed on one side, or changed alike on both.
        case merged([UInt8])
        /// Lines both sides changed differently.
        case conflict(Conflict)
    }

    /// Lines both sides changed differently: each side's lines, each side ending with a line break when it has lines
    /// (one is added, as git adds it, when the last line of a text is in a conflict and has none).
    public struct Conflict: Sendable, Hashable {
        /// The lines of the first changed text (`ours`).
        public var ours: [UInt8]
        /// The lines of the second changed text (`theirs`).
        public var theirs: [UInt8]
        /// Whether the texts end their lines with CRLF here: the line break added to a side, and the markers'.
        var usesCRLF: Bool
    }

    /// The merged text, region by region, in order.
    public private(set) var regions: [Region]

    /// Whether both sides changed some lines differently.
    public var hasConflicts: Bool {
        regions.contains { if case .conflict = $0 { true } else { false } }
    }

    /// Merges `ours` and `theirs`, both changed from `base`.
    /// - Parameters:
    ///   - base: The text both started from (empty when both sides added it).
    ///   - ours: One side's text.
    ///   - theirs: The other side's text.
    /// - Complexity: O((N + D²)) for texts of N lines that differ in D lines, as Myers' diff.
    public init(base: [UInt8], ours: [UInt8], theirs: [UInt8]) {
        let baseLines = Self.lines(of: base)
        let oursLines = Self.lines(of: ours)
        let theirsLines = Self.lines(of: theirs)
        let oursChanges = LineDiff(baseLines, oursLines).changes
        let theirsChanges = LineDiff(baseLines, theirsLines).changes
        if oursChanges.isEmpty {
            regions = theirs.isEmpty ? [] : [.merged(theirs)]
            return
        }
        if theirsChanges.isEmpty {
            regions = ours.isEmpty ? [] : [.merged(ours)]
            return
        }
        var hunks = Self.hunks(oursChanges, theirsChanges, baseCount: baseLines.count, oursCount: oursLines.count,
                               theirsCount: theirsLines.count, ours: oursLines, theirs: theirsLines)
        Self.narrow(&hunks, ours: oursLines, theirs: theirsLines)
        Self.joinCloseConflicts(&hunks, ours: oursLines)
        regions = Self.regions(hunks, base: baseLines, ours: oursLines, theirs: theirsLines)
    }

    /// Merges three texts given as strings; see ``init(base:ours:theirs:)``.
    public init(base: String, ours: String, theirs: String) {
        self.init(base: Array(base.utf8), ours: Array(ours.utf8), theirs: Array(theirs.utf8))
    }

    /// The merge with each conflict between markers, byte for byte as `git merge-file --stdout -L ours -L base -L
    /// theirs` writes it with `merge.conflictStyle=merge`.
    /// - Parameter markerSize: How many `<`, `=` and `>` make a marker.
    public func markedText(markerSize: Int = 7) -> [UInt8] {
        var text: [UInt8] = []
        for region in regions {
            switch region {
            case .merged(let bytes):
                text += bytes
            case .conflict(let conflict):
                let lineBreak: [UInt8] = conflict.usesCRLF ? [13, 10] : [10]
                text += Array(repeating: UInt8(ascii: "<"), count: markerSize) + Array(" ours".utf8) + lineBreak
                text += conflict.ours
                text += Array(repeating: UInt8(ascii: "="), count: markerSize) + lineBreak
                text += conflict.theirs
                text += Array(repeating: UInt8(ascii: ">"), count: markerSize) + Array(" theirs".utf8) + lineBreak
            }
        }
        return text
    }

    // MARK: Merging

    /// The text's lines, each with its `\n` (the last without one when the text does not end with one).
    static func lines(of text: [UInt8]) -> [ArraySlice<UInt8>] {
        var lines: [ArraySlice<UInt8>] = []
        var start = text.startIndex
        for index in text.indices where text[index] == 10 {
            lines.append(text[start...index])
            start = index + 1
        }
        if start < text.endIndex { lines.append(text[start...]) }
        return lines
    }

    /// A stretch of the merge, as positions in the two changed texts.
    struct Hunk {
        enum Kind { case conflict, ours, theirs, alike }
        var kind: Kind
        /// Where the stretch is in `ours` (`start1`, `count1`) and in `theirs`.
        var start1: Int
        var count1: Int
        var start2: Int
        var count2: Int
    }

    /// The two sides' changes walked together: a change that overlaps or touches one of the other side's is a conflict
    /// unless both made it alike; what overlaps the previous stretch joins it.
    private static func hunks(_ oursChanges: [LineDiff.Change], _ theirsChanges: [LineDiff.Change], baseCount: Int, oursCount: Int,
                              theirsCount: Int, ours: [ArraySlice<UInt8>], theirs: [ArraySlice<UInt8>]) -> [Hunk] {
        var hunks: [Hunk] = []
        func append(_ kind: Hunk.Kind, _ start1: Int, _ count1: Int, _ start2: Int, _ count2: Int) {
            if let last = hunks.last, start1 <= last.start1 + last.count1 || start2 <= last.start2 + last.count2 {
                if kind != last.kind { hunks[hunks.count - 1].kind = .conflict }
                hunks[hunks.count - 1].count1 = start1 + count1 - last.start1
                hunks[hunks.count - 1].count2 = start2 + count2 - last.start2
            } else {
                hunks.append(Hunk(kind: kind, start1: start1, count1: count1, start2: start2, count2: count2))
            }
        }
        var a = 0
        var b = 0
        while a < oursChanges.count && b < theirsChanges.count {
            let x = oursChanges[a]
            let y = theirsChanges[b]
            if x.start1 + x.count1 < y.start1 {
                append(.ours, x.start2, x.count2, y.start2 - y.start1 + x.start1, x.count1)
                a += 1
                continue
            }
            if y.start1 + y.count1 < x.start1 {
                append(.theirs, x.start2 - x.start1 + y.start1, y.count1, y.start2, y.count2)
                b += 1
                continue
            }
            if x.start1 != y.start1 || x.count1 != y.count1 || x.count2 != y.count2
                || !ours[x.start2..<x.start2 + x.count2].elementsEqual(theirs[y.start2..<y.start2 + y.count2]) {
                let offset = x.start1 - y.start1
                let endOffset = offset + x.count1 - y.count1
                var start1 = x.start2
                var start2 = y.start2
                if offset > 0 { start1 -= offset } else { start2 += offset }
                var count1 = x.start2 + x.count2 - start1
                var count2 = y.start2 + y.count2 - start2
                if endOffset < 0 { count1 -= endOffset } else { count2 += endOffset }
                append(.conflict, start1, count1, start2, count2)
            }
            let end1 = x.start1 + x.count1
            let end2 = y.start1 + y.count1
            if end1 >= end2 { b += 1 }
            if end2 >= end1 { a += 1 }
        }
        for x in oursChanges[a...] {
            append(.ours, x.start2, x.count2, x.start1 + theirsCount - baseCount, x.count1)
        }
        for y in theirsChanges[b...] {
            append(.theirs, y.start1 + oursCount - baseCount, y.count1, y.start2, y.count2)
        }
        return hunks
    }

    /// Each conflict narrowed to the lines where the two sides differ (a diff of one side's lines against the
    /// other's): lines both have at its ends or inside leave it, and a conflict whose sides are equal is no conflict.
    private static func narrow(_ hunks: inout [Hunk], ours: [ArraySlice<UInt8>], theirs: [ArraySlice<UInt8>]) {
        var index = 0
        while index < hunks.count {
            let hunk = hunks[index]
            guard hunk.kind == .conflict, hunk.count1 > 0, hunk.count2 > 0 else {
                index += 1
                continue
            }
            let changes = LineDiff(Array(ours[hunk.start1..<hunk.start1 + hunk.count1]),
                                   Array(theirs[hunk.start2..<hunk.start2 + hunk.count2])).changes
            if changes.isEmpty {
                hunks[index].kind = .alike
                index += 1
                continue
            }
            let narrowed = changes.map {
                Hunk(kind: .conflict, start1: hunk.start1 + $0.start1, count1: $0.count1, start2: hunk.start2 + $0.start2, count2: $0.count2)
            }
            hunks.replaceSubrange(index...index, with: narrowed)
            index += narrowed.count
        }
    }

    /// Two conflicts with at most three lines between them, or only lines without an ASCII letter or digit, made one:
    /// that reads more simply than two.
    private static func joinCloseConflicts(_ hunks: inout [Hunk], ours: [ArraySlice<UInt8>]) {
        var index = 0
        while index + 1 < hunks.count {
            let hunk = hunks[index]
            let next = hunks[index + 1]
            let begin = hunk.start1 + hunk.count1
            let end = next.start1
            let between = ours[begin..<max(begin, end)]
            let hasWords = between.contains { line in line.contains { byte in
                (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte)
            } }
            if hunk.kind != .conflict || next.kind != .conflict || (end - begin > 3 && hasWords) {
                index += 1
            } else {
                hunks[index].count1 = next.start1 + next.count1 - hunk.start1
                hunks[index].count2 = next.start2 + next.count2 - hunk.start2
                hunks.remove(at: index + 1)
            }
        }
    }

    /// The merged text's regions: `ours`' lines outside the stretches, each stretch's chosen lines, the conflicts.
    private static func regions(_ hunks: [Hunk], base: [ArraySlice<UInt8>], ours: [ArraySlice<UInt8>],
                                theirs: [ArraySlice<UInt8>]) -> [Region] {
        var regions: [Region] = []
        var merged: [UInt8] = []
        func copy(_ lines: ArraySlice<ArraySlice<UInt8>>, to text: inout [UInt8]) {
            for line in lines { text += line }
        }
        var next = 0
        for hunk in hunks {
            switch hunk.kind {
            case .alike:
                continue  // both changed alike: `ours`' lines, copied with what follows
            case .ours:
                copy(ours[next..<hunk.start1 + hunk.count1], to: &merged)
            case .theirs:
                copy(ours[next..<hunk.start1], to: &merged)
                copy(theirs[hunk.start2..<hunk.start2 + hunk.count2], to: &merged)
            case .conflict:
                copy(ours[next..<hunk.start1], to: &merged)
                if !merged.isEmpty { regions.append(.merged(merged)) }
                merged = []
                let usesCRLF = Self.usesCRLF(at: hunk, base: base, ours: ours, theirs: theirs)
                func side(_ lines: ArraySlice<ArraySlice<UInt8>>) -> [UInt8] {
                    var text: [UInt8] = []
                    copy(lines, to: &text)
                    if let last = lines.last, last.last != 10 { text += usesCRLF ? [13, 10] : [10] }
                    return text
                }
                regions.append(.conflict(Conflict(ours: side(ours[hunk.start1..<hunk.start1 + hunk.count1]),
                                                  theirs: side(theirs[hunk.start2..<hunk.start2 + hunk.count2]), usesCRLF: usesCRLF)))
            }
            next = hunk.start1 + hunk.count1
        }
        copy(ours[next...], to: &merged)
        if !merged.isEmpty { regions.append(.merged(merged)) }
        return regions
    }

    /// Whether a conflict's added line breaks and markers are CRLF: when the lines before it on both sides (or their
    /// first lines) and the base's first line end with CRLF, as git decides.
    private static func usesCRLF(at hunk: Hunk, base: [ArraySlice<UInt8>], ours: [ArraySlice<UInt8>], theirs: [ArraySlice<UInt8>]) -> Bool {
        /// 1 for CRLF, 0 for LF, -1 when the text cannot tell.
        func lineEnd(_ lines: [ArraySlice<UInt8>], _ index: Int) -> Int {
            func endsWithCRLF(_ line: ArraySlice<UInt8>) -> Int {
                line.count > 1 && line[line.endIndex - 2] == 13 ? 1 : 0
            }
            if index < lines.count - 1 { return endsWithCRLF(lines[index]) }
            if lines.isEmpty { return -1 }
            if lines[index].last == 10 { return endsWithCRLF(lines[index]) }
            if index == 0 { return -1 }
            return endsWithCRLF(lines[index - 1])
        }
        var result = lineEnd(ours, hunk.start1 > 0 ? hunk.start1 - 1 : 0)
        if result != 0 { result = lineEnd(theirs, hunk.start2 > 0 ? hunk.start2 - 1 : 0) }
        if result != 0 { result = lineEnd(base, 0) }
        return result == 1
    }
}
