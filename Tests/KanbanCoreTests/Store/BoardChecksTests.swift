import Foundation
import Testing
@testable import KanbanCore

/// What ``BoardStore/check()`` reports.
@Suite struct BoardChecksTests {
    /// A diagnostic reduced to what a test compares: code, severity, path and line.
    private struct Finding: Hashable, CustomStringConvertible {
        var code: Diagnostic.Code
        var severity: Diagnostic.Severity
        var path: String
        var line: Int?

        init(_ code: Diagnostic.Code, _ severity: Diagnostic.Severity, _ path: String, line: Int? = nil) {
            self.code = code
            self.severity = severity
            self.path = path
            self.line = line
        }

        init(_ diagnostic: Diagnostic) {
            self.init(diagnostic.code, diagnostic.severity, diagnostic.location.path, line: diagnostic.location.line)
        }

        var description: String { "\(path):\(line.map(String.init) ?? "-") \(severity.rawValue) \(code.rawValue)" }
    }

    @Test func theMessyBoardReportsEachProblemOnce() throws {
        try withTemporaryBoard(.fixture("messy")) { board in
            let diagnostics = try board.store().check()
            let byCode = Dictionary(grouping: diagnostics, by: \.code)
            #expect(diagnostics.count == 7, "\(diagnostics.map(\.description))")
            #expect(Set(byCode.keys) == [.invalidFile, .missingFrontmatter, .undeclaredLabel, .staleColumn, .undeclaredColumn,
                                         .duplicateSlug, .duplicatePosition])

            let unclosed = try #require(byCode[.invalidFile]?.first)
            #expect(Finding(unclosed) == Finding(.invalidFile, .error, "cards/doing/unclosed.md", line: 1))
            #expect(unclosed.location.column == 1)

            let stale = try #require(byCode[.staleColumn]?.first)
            #expect(Finding(stale) == Finding(.staleColumn, .warning, "cards/done/moved-by-hand.md", line: 3))
            #expect(stale.message.contains("todo") && stale.message.contains("done"))

            let label = try #require(byCode[.undeclaredLabel]?.first)
            #expect(label.severity == .warning)
            #expect(label.location.path == "cards/doing/undeclared-label.md")
            #expect(label.message.contains("urgent"))

            let column = try #require(byCode[.undeclaredColumn]?.first)
            #expect(column.severity == .warning)
            #expect(column.location.path.hasPrefix("cards/someday"))

            let slug = try #require(byCode[.duplicateSlug]?.first)
            #expect(slug.location.path == "cards/done/dup.md")
            #expect(slug.message.contains("cards/todo/dup.md"))

            let position = try #require(byCode[.duplicatePosition]?.first)
            #expect(Finding(position) == Finding(.duplicatePosition, .warning, "cards/done/write-changelog.md", line: 1))

            let plumber = try #require(byCode[.missingFrontmatter]?.first)
            #expect(plumber.location.path == "cards/doing/call-the-plumber.md")
            #expect(plumber.severity != .error, "a card without frontmatter is fine")
        }
    }

    @Test func theMessyBoardsErrorsAreTheUnclosedCardAndTheDuplicateSlug() throws {
        // An unreadable card and two active cards sharing a slug (an ambiguous identity) are errors; the rest warnings.
        try withTemporaryBoard(.fixture("messy")) { board in
            let diagnostics = try board.store().check()
            let errors = diagnostics.filter { $0.severity == .error }
            #expect(Set(errors.map(\.code)) == [.invalidFile, .duplicateSlug])
            #expect(errors.filter { $0.code == .invalidFile }.map(\.location.path) == ["cards/doing/unclosed.md"])
        }
    }

    @Test func anUndeclaredLabelIsReportedWhereTheLabelsValueStands() throws {
        // The messy board's `labels: [urgent]` is on line 7; the location points at the value.
        try withTemporaryBoard(.fixture("messy")) { board in
            let label = try #require(try board.store().check().first { $0.code == .undeclaredLabel })
            #expect(label.location.line == 7)
            #expect(label.location.column == 9)
        }
    }

    @Test func checkIsSortedByPathThenLine() throws {
        try withTemporaryBoard(.fixture("messy")) { board in
            let diagnostics = try board.store().check()
            let keys = diagnostics.map { ($0.location.path, $0.location.line ?? 0) }
            #expect(zip(keys, keys.dropFirst()).allSatisfy { lhs, rhs in
                lhs.0 == rhs.0 ? lhs.1 <= rhs.1 : lhs.0.utf8Precedes(rhs.0)
            })
        }
    }

    @Test func theSimpleKanbanBoardOnlyHasSharedPositions() throws {
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            let findings = Set(try board.store().check().map(Finding.init))
            #expect(findings == [
                Finding(.duplicatePosition, .warning, "cards/todo/update-pricing-page.md", line: 1),
                Finding(.duplicatePosition, .warning, "cards/done/compress-hero-images.md", line: 1),
                Finding(.duplicatePosition, .warning, "cards/done/set-up-staging-site.md", line: 1),
            ])
        }
    }

    @Test func theSampleBoardOnlyHasSharedPositions() throws {
        try withTemporaryBoard(.sample) { board in
            let diagnostics = try board.store().check()
            #expect(diagnostics.allSatisfy { $0.code == .duplicatePosition && $0.severity == .warning })
            // backlog n×3, todo n×2, in-progress n×2, done n×3.
            #expect(diagnostics.count == 6)
        }
    }

    private func check(adding files: [(path: String, text: String)]) throws -> [Diagnostic] {
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            for file in files { try board.write(file.text, to: file.path) }
            return try board.store().check().filter { $0.code != .duplicatePosition }
        }
    }

    private func fixture(_ name: String, as path: String) throws -> (path: String, text: String) {
        (path, String(decoding: try Fixtures.cardBytes(name), as: UTF8.self))
    }

    @Test func reportsConflictMarkersInTheBodyOnTheirLine() throws {
        let diagnostics = try check(adding: [try fixture("conflict-in-body.md", as: "cards/todo/conflict-in-body.md")])
        let conflict = try #require(diagnostics.first { $0.code == .conflictMarkers })
        #expect(conflict.location.path == "cards/todo/conflict-in-body.md")
        #expect(conflict.location.line == 12)
        #expect(conflict.location.column == 1)
    }

    @Test func reportsAnOverLongKeyOnThePositionLine() throws {
        let diagnostics = try check(adding: [try fixture("long-key.md", as: "cards/todo/long-key.md")])
        let long = try #require(diagnostics.first { $0.code == .overLongKey })
        #expect(long.severity == .warning)
        #expect(long.location.path == "cards/todo/long-key.md")
        #expect(long.location.line == 4)
    }

    @Test func reportsACardWithoutAPosition() throws {
        let diagnostics = try check(adding: [("cards/todo/unplaced.md", "---\ntitle: Unplaced\ncolumn: todo\n---\n")])
        #expect(diagnostics.map(Finding.init) == [Finding(.missingPosition, .warning, "cards/todo/unplaced.md", line: 1)])
    }

    @Test func reportsAStaleColumnField() throws {
        let diagnostics = try check(adding: [("cards/done/moved.md", "---\ntitle: Moved\n\ncolumn: todo\nposition: z\n---\n")])
        #expect(diagnostics.map(Finding.init) == [Finding(.staleColumn, .warning, "cards/done/moved.md", line: 4)])
    }

    @Test func reportsAnUndeclaredColumnDirectory() throws {
        let diagnostics = try check(adding: [("cards/later/idea.md", "---\ntitle: Idea\ncolumn: later\nposition: n\n---\n")])
        #expect(diagnostics.map(\.code) == [.undeclaredColumn])
        #expect(diagnostics.first?.location.path.hasPrefix("cards/later") == true)
    }

    @Test func reportsAnUndeclaredLabel() throws {
        let diagnostics = try check(adding: [("cards/todo/tagged.md", "---\ntitle: T\ncolumn: todo\nposition: z\nlabels: [bug, wontfix]\n---\n")])
        #expect(diagnostics.map(\.code) == [.undeclaredLabel])
        #expect(diagnostics.first?.message.contains("wontfix") == true)
    }

    @Test func reportsASlugUsedInTwoColumns() throws {
        let copy = try fixture("simplekanban.md", as: "cards/todo/twice.md")
        let diagnostics = try check(adding: [copy, ("cards/done/twice.md", copy.text.replacingOccurrences(of: "position: n", with: "position: z"))])
        let duplicate = diagnostics.filter { $0.code == .duplicateSlug }
        #expect(duplicate.count == 1)
        #expect(duplicate.first?.message.contains("twice") == true)
    }

    @Test func anArchivedCardSharingAnActiveSlugIsOnlyAWarning() throws {
        let diagnostics = try check(adding: [("cards/todo/audit-old-blog-posts.md", "---\ntitle: Audit again\ncolumn: todo\nposition: z\n---\n")])
        let duplicate = try #require(diagnostics.first { $0.code == .duplicateSlug })
        #expect(duplicate.severity == .warning)
    }

    @Test func archivedCardsSharingASlugAreNotAProblem() throws {
        // The same card archived on two days, or two cards of one name archived over time.
        let card = "---\ntitle: Weekly report\ncolumn: done\nposition: n\n---\n"
        let diagnostics = try check(adding: [("archive/2026-01-02-weekly-report.md", card), ("archive/2026-01-09-weekly-report.md", card)])
        #expect(diagnostics.isEmpty)
    }

    @Test func reportsAnUnparseableCardAndTheCheckStillRuns() throws {
        let diagnostics = try check(adding: [try fixture("bad-labels.md", as: "cards/todo/bad-labels.md"),
                                             ("cards/todo/tagged.md", "---\ntitle: T\nposition: z\nlabels: [nope]\n---\n")])
        #expect(Set(diagnostics.map(\.code)) == [.invalidFile, .undeclaredLabel])
    }

    @Test func emptyFrontmatterIsReportedAsMissingATitle() throws {
        // Tests/Fixtures/cards/README.md: `check` should warn that the title is missing.
        let diagnostics = try check(adding: [try fixture("empty-frontmatter.md", as: "cards/todo/empty-frontmatter.md")])
        do {
            #expect(diagnostics.contains { $0.location.path == "cards/todo/empty-frontmatter.md" && $0.message.contains("title") })
        }
    }

    @Test func checkingNeverChangesAFile() throws {
        try withTemporaryBoard(.fixture("messy")) { board in
            let before = try board.snapshot()
            _ = try board.store().check()
            #expect(try board.snapshot() == before)
        }
    }
}
