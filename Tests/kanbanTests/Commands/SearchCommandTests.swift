import Foundation
import Testing

/// `kanban search` on the sample board.
@Suite struct SearchCommandTests {
    /// The slugs of `search --json` with `arguments`, after checking its exit status and standard error.
    private func slugs(_ arguments: [String], on board: TemporaryBoard, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String] {
        let result = try board.run(["search", "--json"] + arguments)
        #expect(result.stderr.isEmpty, "\(result)", sourceLocation: sourceLocation)
        let found = try decodeJSON([CardJSON].self, from: result.stdout).map(\.slug)
        // 0 when a card matched, 1 when none did.
        #expect(result.status == (found.isEmpty ? 1 : 0), "\(result)", sourceLocation: sourceLocation)
        return found
    }

    @Test func everyWordMustMatch() throws {
        try withTemporaryBoard(.sample) { board throws in
            #expect(try slugs(["crash", "beta"], on: board)
                == ["crash-on-launch-corrupted-thumbnail-cache", "set-up-crash-reporting-for-beta-builds"])
            // One argument with spaces is the same as several.
            #expect(try slugs(["crash beta"], on: board)
                == ["crash-on-launch-corrupted-thumbnail-cache", "set-up-crash-reporting-for-beta-builds"])
            #expect(try slugs(["crash", "reporting", "beta"], on: board) == ["set-up-crash-reporting-for-beta-builds"])
        }
    }

    @Test func ignoresCaseAndDiacritics() throws {
        try withTemporaryBoard(.sample) { board throws in
            for query in ["francais", "FRANÇAIS", "Français", "espanol", "ESPAÑOL"] {
                #expect(try slugs([query], on: board) == ["localise-for-francais-and-espanol"], "\(query)")
            }
            let text = try board.run(["search", "francais"])
            #expect(text.status == 0, "\(text)")
            #expect(text.stdout == "todo  localise-for-francais-and-espanol  Localise for Français & Español\n")
            #expect(text.stderr.isEmpty)
        }
    }

    @Test func matchesQuotedPhrasesAsAWhole() throws {
        try withTemporaryBoard(.sample) { board throws in
            #expect(try slugs(["the", "release"], on: board) == [
                "notarize-and-sign-the-macos-build", "write-release-notes-for-2-0", "press-kit-and-screenshots",
                "set-up-crash-reporting-for-beta-builds", "windows-arm64-installer", "accessibility-audit-of-the-main-window",
                "beta-1-release-to-testers",
            ])
            #expect(try slugs(["\"the release\""], on: board) == [
                "notarize-and-sign-the-macos-build", "set-up-crash-reporting-for-beta-builds", "windows-arm64-installer",
            ])
        }
    }

    @Test func restrictsTermsToLabelColumnOrTitle() throws {
        try withTemporaryBoard(.sample) { board throws in
            #expect(try slugs(["label:bug"], on: board) == [
                "crash-on-launch-corrupted-thumbnail-cache", "memory-leak-when-scrolling-large-libraries",
                "accessibility-audit-of-the-main-window", "fix-exif-orientation-for-rotated-iphone-photos",
            ])
            #expect(try slugs(["column:todo"], on: board) == [
                "notarize-and-sign-the-macos-build", "localise-for-francais-and-espanol", "write-release-notes-for-2-0",
                "update-website-download-page", "press-kit-and-screenshots",
            ])
            #expect(try slugs(["thumbnail"], on: board) == [
                "investigate-gpu-accelerated-thumbnail-decoding", "crash-on-launch-corrupted-thumbnail-cache",
                "raw-import-for-fujifilm-and-sony-files", "memory-leak-when-scrolling-large-libraries",
                "fix-exif-orientation-for-rotated-iphone-photos",
            ])
            #expect(try slugs(["title:thumbnail"], on: board)
                == ["investigate-gpu-accelerated-thumbnail-decoding", "crash-on-launch-corrupted-thumbnail-cache"])
            #expect(try slugs(["thumbnail", "label:bug", "column:done"], on: board) == ["fix-exif-orientation-for-rotated-iphone-photos"])
        }
    }

    @Test func negatesTerms() throws {
        try withTemporaryBoard(.sample) { board throws in
            #expect(try slugs(["thumbnail", "-column:in-progress"], on: board) == [
                "investigate-gpu-accelerated-thumbnail-decoding", "memory-leak-when-scrolling-large-libraries",
                "fix-exif-orientation-for-rotated-iphone-photos",
            ])
            #expect(try slugs(["thumbnail", "-label:bug"], on: board)
                == ["investigate-gpu-accelerated-thumbnail-decoding", "raw-import-for-fujifilm-and-sony-files"])
            #expect(try slugs(["thumbnail", "-\"GPU-accelerated\"", "-label:bug", "-title:raw"], on: board).isEmpty)
            #expect(try slugs(["thumbnail", "-\"gpu-accelerated thumbnail\""], on: board) == [
                "crash-on-launch-corrupted-thumbnail-cache", "raw-import-for-fujifilm-and-sony-files",
                "memory-leak-when-scrolling-large-libraries", "fix-exif-orientation-for-rotated-iphone-photos",
            ])
        }
    }

    @Test(arguments: [["label:nosuch"], ["thumbnail", "-label:nosuch"]])
    func anUnknownLabelIsNamedWithTheBoardsLabels(query: [String]) throws {
        // Issue 20: as `kanban list --label` does, rather than match nothing (or, negated, everything) silently.
        try withTemporaryBoard(.sample) { board throws in
            let result = try board.run(["search"] + query)
            #expect(result.status == 1, "\(result)")
            #expect(result.stdout.isEmpty, "\(result)")
            #expect(result.stderr.lines == [
                "error: no label 'nosuch' on this board",
                "  The board has: feature, bug, design, docs, infra, marketing",
            ], "\(result)")
        }
    }

    @Test func matchesARegularExpression() throws {
        try withTemporaryBoard(.sample) { board throws in
            #expect(try slugs(["--regex", "Fuji(film)?"], on: board) == ["raw-import-for-fujifilm-and-sony-files"])
            let text = try board.run(["search", "-e", "X-T[0-9]"])
            #expect(text.status == 0, "\(text)")
            let line = try #require(text.stdout.lines.first)
            #expect(text.stdout.lines.count == 1)
            #expect(line.hasPrefix("in-progress  raw-import-for-fujifilm-and-sony-files  RAW import for Fujifilm and Sony files  "), "\(line)")
            #expect(line.hasSuffix(": - [ ] Test set: X-T5, X100VI, A7 IV, A6700"), "\(line)")

            let both = try board.run(["search", "words", "--regex", "x"])
            #expect(both.status == 64, "\(both)")
        }
    }

    @Test func showsTheMatchingBodyLineWithItsNumber() throws {
        try withTemporaryBoard(.sample) { board throws in
            let result = try board.run(["search", "LibRaw"])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.lines.count == 2, "\(result)")
            let other = try #require(result.stdout.lines.last)
            #expect(other.hasPrefix("review ") && other.contains("  windows-arm64-installer "), "\(other)")
            #expect(other.hasSuffix("  Windows ARM64 installer  6: - [x] LibRaw and SQLite built for ARM64"), "\(other)")
            let line = try #require(result.stdout.lines.first)
            // The body line, trimmed, after its 1-based number in the body.
            let body = try board.showJSON("raw-import-for-fujifilm-and-sony-files").body ?? ""
            let bodyLines = body.split(separator: "\n", omittingEmptySubsequences: false)
            let number = try #require(bodyLines.firstIndex { $0.contains("LibRaw") }) + 1
            #expect(line == "in-progress  raw-import-for-fujifilm-and-sony-files  RAW import for Fujifilm and Sony files  \(number): \(bodyLines[number - 1])",
                    "\(line)")
        }
    }

    @Test func searchesTheArchiveOnlyWhenAsked() throws {
        try withTemporaryBoard(.sample) { board throws in
            let active = try board.run(["search", "flickr"])
            #expect(active.status == 1, "\(active)")
            #expect(active.stdout.isEmpty)

            let result = try board.run(["search", "--archived", "flickr"])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.hasPrefix("archive  remove-legacy-flickr-uploader  Remove legacy Flickr uploader"), "\(result)")
            let json = try decodeJSON([CardJSON].self, from: try board.run(["search", "--archived", "--json", "\"the release\""]).stdout)
            #expect(json.map(\.slug) == [
                "notarize-and-sign-the-macos-build", "set-up-crash-reporting-for-beta-builds", "windows-arm64-installer",
                "remove-legacy-flickr-uploader",
            ])
            #expect(json.last?.archived == true)
        }
    }

    @Test func printsJSONWithTheDocumentedKeys() throws {
        try withTemporaryBoard(.sample) { board throws in
            let result = try board.run(["search", "--json", "francais"])
            #expect(result.status == 0, "\(result)")
            let array = try #require(try decodeJSON(JSONValue.self, from: result.stdout).arrayValue)
            #expect(array.count == 1)
            #expect(array.first?.keys == ["archived", "column", "created", "fields", "labels", "modified", "path", "position", "slug", "title"])
        }
    }

    @Test func noMatchExitsOneWithNothingOnStandardOutput() throws {
        try withTemporaryBoard(.sample) { board throws in
            let result = try board.run(["search", "xylophone"])
            #expect(result.status == 1, "\(result)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.isEmpty)

            let words = try board.run(["search", "crash", "xylophone"])
            #expect(words.status == 1, "\(words)")
            #expect(words.stdout.isEmpty)

            let json = try board.run(["search", "--json", "xylophone"])
            #expect(json.status == 1, "\(json)")
            #expect(json.stdout == "[]\n")
        }
    }

    @Test(arguments: [["\"unclosed phrase"], ["label:"], ["-"], ["   "], []])
    func aMalformedQueryIsAUsageError(arguments: [String]) throws {
        try withTemporaryBoard(.sample) { board throws in
            let result = try board.run(["search"] + arguments)
            #expect(result.status == 64, "\(result)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.hasPrefix("Error: "), "\(result)")
            #expect(result.stderr.contains("Usage: kanban search"), "\(result)")
        }
    }

    @Test func anInvalidRegularExpressionIsAUsageError() throws {
        try withTemporaryBoard(.sample) { board throws in
            let result = try board.run(["search", "--regex", "(unclosed"])
            #expect(result.status == 64, "\(result)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.hasPrefix("Error: invalid regular expression '(unclosed'"), "\(result)")
            #expect(result.stderr.contains("Usage: kanban search"), "\(result)")
        }
    }

    @Test func highlightsMatchesOnlyWhenColourIsOn() throws {
        try withTemporaryBoard(.sample) { board throws in
            let piped = try board.run(["search", "LibRaw"])
            #expect(piped.status == 0, "\(piped)")
            #expect(!containsEscape(piped.stdout))

            let always = try board.run(["search", "LibRaw", "--color", "always"])
            #expect(always.status == 0, "\(always)")
            #expect(always.stdout.contains("\u{1B}[1;31mLibRaw\u{1B}[0m"), "\(always.stdout.debugDescription)")

            let never = try board.run(["search", "LibRaw", "--color", "always", "--no-color"])
            #expect(!containsEscape(never.stdout))

            let noColor = try board.run(["search", "LibRaw"], environment: ["NO_COLOR": "1"])
            #expect(!containsEscape(noColor.stdout))
        }
    }

    @Test func highlightsATitleMatch() throws {
        try withTemporaryBoard(.sample) { board throws in
            let result = try board.run(["search", "francais", "--color", "always"])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.contains("\u{1B}[1;31mFrançais\u{1B}[0m"), "\(result.stdout.debugDescription)")
        }
    }

    @Test func warnsAboutUnreadableCardsThatMightMatch() throws {
        try withTemporaryBoard(.fixture("messy")) { board throws in
            // unclosed.md holds the word 'missing' but cannot be parsed.
            let result = try board.run(["search", "missing"])
            #expect(result.status == 1, "\(result)")
            #expect(result.stdout.isEmpty, "\(result)")
            #expect(result.stderr.lines.count == 1, "\(result)")
            #expect(result.stderr.hasPrefix("cards/doing/unclosed.md:1:1: error: "), "\(result)")
        }
    }

    @Test func saysNothingAboutUnreadableCardsThatCannotMatch() throws {
        try withTemporaryBoard(.fixture("messy")) { board throws in
            let result = try board.run(["search", "login"])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.hasPrefix("todo  fix-login  Fix login"), "\(result)")
            #expect(result.stderr.isEmpty, "\(result)")
        }
    }
}
