/// The line diff ``LineMerge`` merges with: the difference of two texts as groups of changed lines, found the way
/// git's xdiff finds them (Myers' O(ND) algorithm after trimming the common ends and setting aside lines the other
/// text lacks, then change groups slid to line up), so that a merge here agrees with `git merge-file` line for line.
struct LineDiff {
    /// One group of changed lines: `count1` lines from `start1` in the first text became `count2` lines from `start2`
    /// in the second (0-based indices).
    struct Change: Equatable {
        var start1: Int
        var start2: Int
        var count1: Int
        var count2: Int
    }

    /// The changes, in order.
    private(set) var changes: [Change]

    /// Diffs two texts given as lines, each line compared whole with its line end.
    init(_ lines1: [ArraySlice<UInt8>], _ lines2: [ArraySlice<UInt8>]) {
        var classes: [ArraySlice<UInt8>: Int] = [:]
        func classify(_ lines: [ArraySlice<UInt8>]) -> [Int] {
            lines.map { line in
                if let known = classes[line] { return known }
                classes[line] = classes.count
                return classes.count - 1
            }
        }
        var file1 = File(classes: classify(lines1))
        var file2 = File(classes: classify(lines2))
        Self.prepare(&file1, &file2)
        Self.compare(&file1, &file2)
        Self.compact(&file1, other: file2)
        Self.compact(&file2, other: file1)
        changes = Self.script(file1, file2)
    }

    /// One side of a diff: each line's class (equal lines share one), which lines changed, and the lines left to
    /// compare after the preparation.
    struct File {
        var classes: [Int]
        /// Whether each line changed, with a `false` before the first and after the last, so `changed[line + 1]`.
        var changed: [Bool]
        /// The lines the comparison looks at, and their classes.
        var index: [Int] = []
        var indexClasses: [Int] = []
        var start = 0
        var end = 0

        init(classes: [Int]) {
            self.classes = classes
            changed = Array(repeating: false, count: classes.count + 2)
            end = classes.count - 1
        }

        var count: Int { classes.count }

        func isChanged(_ line: Int) -> Bool { line >= -1 && line <= classes.count && changed[line + 1] }

        mutating func setChanged(_ line: Int, _ value: Bool) { changed[line + 1] = value }
    }

    /// An integer square root approximation by shifts (xdiff's): the limits of its heuristics.
    private static func roughSquareRoot(_ value: Int) -> Int {
        var root = 1
        var rest = value
        while rest > 0 {
            root <<= 1
            rest >>= 2
        }
        return root
    }

    // MARK: Preparation

    /// Trims the common first and last lines, then sets aside as changed the lines the other file does not have
    /// (and lines it has many times, when they sit among such lines).
    private static func prepare(_ file1: inout File, _ file2: inout File) {
        let limit = min(file1.count, file2.count)
        var prefix = 0
        while prefix < limit, file1.classes[prefix] == file2.classes[prefix] { prefix += 1 }
        file1.start = prefix
        file2.start = prefix
        var suffix = 0
        while suffix < limit - prefix, file1.classes[file1.count - 1 - suffix] == file2.classes[file2.count - 1 - suffix] { suffix += 1 }
        file1.end = file1.count - suffix - 1
        file2.end = file2.count - suffix - 1

        var occurrences1: [Int: Int] = [:]
        var occurrences2: [Int: Int] = [:]
        for value in file1.classes { occurrences1[value, default: 0] += 1 }
        for value in file2.classes { occurrences2[value, default: 0] += 1 }
        select(&file1, matches: occurrences2)
        select(&file2, matches: occurrences1)
    }

    /// Marks `file`'s lines between its trimmed ends as to compare or as changed, by how often the other file has them.
    private static func select(_ file: inout File, matches: [Int: Int]) {
        guard file.start <= file.end else { return }
        let limit = min(roughSquareRoot(file.count), 1024)
        // 0: the other file lacks the line; 1: it has it; 2: it has it many times.
        var kinds = Array(repeating: 0, count: file.count)
        for line in file.start...file.end {
            let count = matches[file.classes[line]] ?? 0
            kinds[line] = count == 0 ? 0 : count >= limit ? 2 : 1
        }
        for line in file.start...file.end {
            if kinds[line] == 1 || (kinds[line] == 2 && !isSetAside(kinds, line, file.start, file.end)) {
                file.index.append(line)
                file.indexClasses.append(file.classes[line])
            } else {
                file.setChanged(line, true)
            }
        }
    }

    /// Whether a line the other file has many times is set aside: when it sits in a run of lines the other file lacks
    /// or has many times, mostly the former.
    private static func isSetAside(_ kinds: [Int], _ line: Int, _ start: Int, _ end: Int) -> Bool {
        let start = max(start, line - 100)
        let end = min(end, line + 100)
        var lacking = 0
        var many = 1
        var offset = 1
        while line - offset >= start {
            let kind = kinds[line - offset]
            if kind == 0 { lacking += 1 } else if kind == 2 { many += 1 } else { break }
            offset += 1
        }
        if lacking == 0 { return false }
        var lackingAfter = 0
        var manyAfter = 1
        offset = 1
        while line + offset <= end {
            let kind = kinds[line + offset]
            if kind == 0 { lackingAfter += 1 } else if kind == 2 { manyAfter += 1 } else { break }
            offset += 1
        }
        if lackingAfter == 0 { return false }
        let allLacking = lacking + lackingAfter
        let allMany = many + manyAfter
        return allMany * 4 < allMany + allLacking
    }

    // MARK: Comparison

    /// The search state of the Myers comparison: forward and backward furthest reaches by diagonal.
    private struct Search {
        var forward: [Int]
        var backward: [Int]
        /// The array index of diagonal 0.
        var origin: Int
        var maximumCost: Int
    }

    private static let heuristicMinimumCost = 256
    private static let snakeLength = 20
    private static let lineMaximum = Int.max

    /// Marks the changed lines of both files by comparing the lines the preparation left.
    private static func compare(_ file1: inout File, _ file2: inout File) {
        let diagonals = file1.index.count + file2.index.count + 3
        var search = Search(forward: Array(repeating: 0, count: diagonals + 1), backward: Array(repeating: 0, count: diagonals + 1),
                            origin: file2.index.count + 1, maximumCost: max(roughSquareRoot(diagonals), 256))
        compare(&file1, 0, file1.index.count, &file2, 0, file2.index.count, &search, needsMinimal: false)
    }

    /// Divide and conquer: splits the box at a point of a shortest path and compares the two halves.
    private static func compare(_ file1: inout File, _ start1: Int, _ limit1: Int, _ file2: inout File, _ start2: Int, _ limit2: Int,
                                _ search: inout Search, needsMinimal: Bool) {
        var (off1, lim1, off2, lim2) = (start1, limit1, start2, limit2)
        while off1 < lim1 && off2 < lim2 && file1.indexClasses[off1] == file2.indexClasses[off2] {
            off1 += 1
            off2 += 1
        }
        while off1 < lim1 && off2 < lim2 && file1.indexClasses[lim1 - 1] == file2.indexClasses[lim2 - 1] {
            lim1 -= 1
            lim2 -= 1
        }
        if off1 == lim1 {
            for line in off2..<max(off2, lim2) { file2.setChanged(file2.index[line], true) }
        } else if off2 == lim2 {
            for line in off1..<lim1 { file1.setChanged(file1.index[line], true) }
        } else {
            let split = self.split(file1.indexClasses, off1, lim1, file2.indexClasses, off2, lim2, &search, needsMinimal: needsMinimal)
            compare(&file1, off1, split.i1, &file2, off2, split.i2, &search, needsMinimal: split.minimalBelow)
            compare(&file1, split.i1, lim1, &file2, split.i2, lim2, &search, needsMinimal: split.minimalAbove)
        }
    }

    /// A point where a shortest edit path crosses the middle diagonal (xdiff's `xdl_split`, heuristics included, so
    /// that long texts split where git splits them).
    private static func split(_ a: [Int], _ off1: Int, _ lim1: Int, _ b: [Int], _ off2: Int, _ lim2: Int, _ search: inout Search,
                              needsMinimal: Bool) -> (i1: Int, i2: Int, minimalBelow: Bool, minimalAbove: Bool) {
        let o = search.origin
        let dmin = off1 - lim2, dmax = lim1 - off2
        let fmid = off1 - off2, bmid = lim1 - lim2
        let odd = (fmid - bmid) & 1 != 0
        var fmin = fmid, fmax = fmid
        var bmin = bmid, bmax = bmid
        search.forward[o + fmid] = off1
        search.backward[o + bmid] = lim1
        var cost = 1
        while true {
            var gotSnake = false
            if fmin > dmin {
                fmin -= 1
                search.forward[o + fmin - 1] = -1
            } else {
                fmin += 1
            }
            if fmax < dmax {
                fmax += 1
                search.forward[o + fmax + 1] = -1
            } else {
                fmax -= 1
            }
            var d = fmax
            while d >= fmin {
                var i1 = search.forward[o + d - 1] >= search.forward[o + d + 1] ? search.forward[o + d - 1] + 1 : search.forward[o + d + 1]
                let previous = i1
                var i2 = i1 - d
                while i1 < lim1 && i2 < lim2 && a[i1] == b[i2] {
                    i1 += 1
                    i2 += 1
                }
                if i1 - previous > snakeLength { gotSnake = true }
                search.forward[o + d] = i1
                if odd && bmin <= d && d <= bmax && search.backward[o + d] <= i1 {
                    return (i1, i2, true, true)
                }
                d -= 2
            }

            if bmin > dmin {
                bmin -= 1
                search.backward[o + bmin - 1] = lineMaximum
            } else {
                bmin += 1
            }
            if bmax < dmax {
                bmax += 1
                search.backward[o + bmax + 1] = lineMaximum
            } else {
                bmax -= 1
            }
            d = bmax
            while d >= bmin {
                var i1 = search.backward[o + d - 1] < search.backward[o + d + 1] ? search.backward[o + d - 1] : search.backward[o + d + 1] - 1
                let previous = i1
                var i2 = i1 - d
                while i1 > off1 && i2 > off2 && a[i1 - 1] == b[i2 - 1] {
                    i1 -= 1
                    i2 -= 1
                }
                if previous - i1 > snakeLength { gotSnake = true }
                search.backward[o + d] = i1
                if !odd && fmin <= d && d <= fmax && i1 <= search.forward[o + d] {
                    return (i1, i2, true, true)
                }
                d -= 2
            }

            if needsMinimal {
                cost += 1
                continue
            }

            if gotSnake && cost > heuristicMinimumCost {
                var best = 0
                var found: (Int, Int) = (0, 0)
                d = fmax
                while d >= fmin {
                    let distance = d > fmid ? d - fmid : fmid - d
                    let i1 = search.forward[o + d]
                    let i2 = i1 - d
                    let value = (i1 - off1) + (i2 - off2) - distance
                    if value > 4 * cost && value > best && off1 + snakeLength <= i1 && i1 < lim1 && off2 + snakeLength <= i2 && i2 < lim2 {
                        var k = 1
                        while a[i1 - k] == b[i2 - k] {
                            if k == snakeLength {
                                best = value
                                found = (i1, i2)
                                break
                            }
                            k += 1
                        }
                    }
                    d -= 2
                }
                if best > 0 { return (found.0, found.1, true, false) }

                best = 0
                d = bmax
                while d >= bmin {
                    let distance = d > bmid ? d - bmid : bmid - d
                    let i1 = search.backward[o + d]
                    let i2 = i1 - d
                    let value = (lim1 - i1) + (lim2 - i2) - distance
                    if value > 4 * cost && value > best && off1 < i1 && i1 <= lim1 - snakeLength && off2 < i2 && i2 <= lim2 - snakeLength {
                        var k = 0
                        while a[i1 + k] == b[i2 + k] {
                            if k == snakeLength - 1 {
                                best = value
                                found = (i1, i2)
                                break
                            }
                            k += 1
                        }
                    }
                    d -= 2
                }
                if best > 0 { return (found.0, found.1, false, true) }
            }

            if cost >= search.maximumCost {
                var fbest = -1, fbest1 = -1
                d = fmax
                while d >= fmin {
                    var i1 = min(search.forward[o + d], lim1)
                    var i2 = i1 - d
                    if lim2 < i2 {
                        i1 = lim2 + d
                        i2 = lim2
                    }
                    if fbest < i1 + i2 {
                        fbest = i1 + i2
                        fbest1 = i1
                    }
                    d -= 2
                }
                var bbest = lineMaximum, bbest1 = lineMaximum
                d = bmax
                while d >= bmin {
                    var i1 = max(off1, search.backward[o + d])
                    var i2 = i1 - d
                    if i2 < off2 {
                        i1 = off2 + d
                        i2 = off2
                    }
                    if i1 + i2 < bbest {
                        bbest = i1 + i2
                        bbest1 = i1
                    }
                    d -= 2
                }
                if (lim1 + lim2) - bbest < fbest - (off1 + off2) {
                    return (fbest1, fbest - fbest1, true, false)
                }
                return (bbest1, bbest - bbest1, false, true)
            }
            cost += 1
        }
    }

    // MARK: Compaction

    /// A group of changed lines, or the empty group above an unchanged line.
    private struct Group {
        var start: Int
        var end: Int
    }

    private static func firstGroup(_ file: File) -> Group {
        var group = Group(start: 0, end: 0)
        while file.isChanged(group.end) { group.end += 1 }
        return group
    }

    private static func next(_ file: File, _ group: inout Group) -> Bool {
        guard group.end != file.count else { return false }
        group.start = group.end + 1
        group.end = group.start
        while file.isChanged(group.end) { group.end += 1 }
        return true
    }

    private static func previous(_ file: File, _ group: inout Group) -> Bool {
        guard group.start != 0 else { return false }
        group.end = group.start - 1
        group.start = group.end
        while file.isChanged(group.start - 1) { group.start -= 1 }
        return true
    }

    private static func slideDown(_ file: inout File, _ group: inout Group) -> Bool {
        guard group.end < file.count, file.classes[group.start] == file.classes[group.end] else { return false }
        file.setChanged(group.start, false)
        group.start += 1
        file.setChanged(group.end, true)
        group.end += 1
        while file.isChanged(group.end) { group.end += 1 }
        return true
    }

    private static func slideUp(_ file: inout File, _ group: inout Group) -> Bool {
        guard group.start > 0, file.classes[group.start - 1] == file.classes[group.end - 1] else { return false }
        group.start -= 1
        file.setChanged(group.start, true)
        group.end -= 1
        file.setChanged(group.end, false)
        while file.isChanged(group.start - 1) { group.start -= 1 }
        return true
    }

    /// Slides each group of changed lines as far down as it goes, then back up to line up with a group of changes in
    /// the other file where it can (xdiff's `xdl_change_compact`, without the indent heuristic `git merge-file`
    /// does not use).
    private static func compact(_ file: inout File, other: File) {
        var group = firstGroup(file)
        var otherGroup = firstGroup(other)
        while true {
            if group.end != group.start {
                var size: Int
                var earliestEnd: Int
                var endMatchingOther: Int
                repeat {
                    size = group.end - group.start
                    endMatchingOther = -1
                    while slideUp(&file, &group) {
                        let moved = previous(other, &otherGroup)
                        precondition(moved, "change groups out of step sliding up")
                    }
                    earliestEnd = group.end
                    if otherGroup.end > otherGroup.start { endMatchingOther = group.end }
                    while slideDown(&file, &group) {
                        let moved = next(other, &otherGroup)
                        precondition(moved, "change groups out of step sliding down")
                        if otherGroup.end > otherGroup.start { endMatchingOther = group.end }
                    }
                } while size != group.end - group.start
                if group.end != earliestEnd && endMatchingOther != -1 {
                    while otherGroup.end == otherGroup.start {
                        let slid = slideUp(&file, &group)
                        let moved = previous(other, &otherGroup)
                        precondition(slid && moved, "change groups out of step lining up")
                    }
                }
            }
            guard next(file, &group) else { break }
            let moved = next(other, &otherGroup)
            precondition(moved, "change groups out of step")
        }
    }

    /// The changes as groups, in order.
    private static func script(_ file1: File, _ file2: File) -> [Change] {
        var changes: [Change] = []
        var i1 = file1.count
        var i2 = file2.count
        while i1 >= 0 || i2 >= 0 {
            if file1.isChanged(i1 - 1) || file2.isChanged(i2 - 1) {
                let end1 = i1
                let end2 = i2
                while file1.isChanged(i1 - 1) { i1 -= 1 }
                while file2.isChanged(i2 - 1) { i2 -= 1 }
                changes.append(Change(start1: i1, start2: i2, count1: end1 - i1, count2: end2 - i2))
            }
            i1 -= 1
            i2 -= 1
        }
        return changes.reversed()
    }
}
