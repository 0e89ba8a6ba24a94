import Testing
@testable import KanbanCore

@Suite struct SlugTests {
    @Test(arguments: [
        ("Fix Login Bug", "fix-login-bug"),
        ("Émojis & Ünïcödé", "emojis-and-unicode"),
        ("Add OAuth 2.0 Support", "add-oauth-2-0-support"),
        ("Handle \"special\" chars", "handle-special-chars"),
        ("Mobile menu: close on tap outside", "mobile-menu-close-on-tap-outside"),
        ("Crash on launch: corrupted thumbnail cache", "crash-on-launch-corrupted-thumbnail-cache"),
        ("Localise for Français & Español", "localise-for-francais-and-espanol"),
        ("Write release notes for 2.0", "write-release-notes-for-2-0"),
        ("Investigate GPU-accelerated thumbnail decoding", "investigate-gpu-accelerated-thumbnail-decoding"),
        ("Fix EXIF orientation for rotated iPhone photos", "fix-exif-orientation-for-rotated-iphone-photos"),
        ("RAW import for Fujifilm and Sony files", "raw-import-for-fujifilm-and-sony-files"),
        ("Windows ARM64 installer", "windows-arm64-installer"),
    ])
    func makesTheSlugsSimpleKanbanMakes(title: String, slug: String) {
        #expect(Slug.make(from: title) == slug)
    }

    @Test(arguments: [
        ("  Leading and trailing  ", "leading-and-trailing"),
        ("--dashes--everywhere--", "dashes-everywhere"),
        ("many     spaces\t\tand\ttabs", "many-spaces-and-tabs"),
        ("a/b\\c", "a-b-c"),
        ("a&b", "a-and-b"),
        ("&", "and"),
        ("Tom & Jerry & Co", "tom-and-jerry-and-co"),
        ("100%", "100"),
        ("C++ & C#", "c-and-c"),
        ("Version 1.10.0", "version-1-10-0"),
        ("ALL CAPS TITLE", "all-caps-title"),
        ("camelCaseTitle", "camelcasetitle"),
        ("line\nbreak", "line-break"),
        ("🚀 Launch day 🎉", "launch-day"),
    ])
    func everyRunOfOtherCharactersBecomesOneHyphen(title: String, slug: String) {
        #expect(Slug.make(from: title) == slug)
    }

    @Test(arguments: [
        ("Привет мир", "privet-mir"),
        ("中文标题", "zhong-wen-biao-ti"),
        ("Ελληνικά", "ellenika"),
        ("日本語 notes", "ri-ben-yu-notes"),
        ("ひらがな カタカナ", "hiragana-katakana"),
        ("한국어 제목", "hangug-eo-jemog"),
        ("हिन्दी", "hindi"),
        ("Москва & Київ", "moskva-and-kiiv"),
    ])
    func transliteratesOtherScriptsToLatinAsSimpleKanbanDoes(title: String, slug: String) {
        // Foundation's `toLatin` transform, then diacritics stripped: what the app does, and Foundation on Linux too.
        #expect(Slug.make(from: title) == slug)
    }

    @Test(arguments: ["🚀🎉", "😀", "🇫🇷 ✈️", "★☆"])
    func aTitleWithNothingToTransliterateIsUntitled(title: String) {
        #expect(Slug.make(from: title) == "untitled")
    }

    @Test(arguments: [
        ("Don't stop", "dont-stop"),
        ("It\u{2019}s done", "its-done"),
        ("rock 'n' roll", "rock-n-roll"),
    ])
    func apostrophesDisappearWithoutAHyphen(title: String, slug: String) {
        #expect(Slug.make(from: title) == slug)
    }

    @Test(arguments: [
        ("Straße", "strasse"),
        ("GROSSE STRASSE ẞ", "grosse-strasse-ss"),
        ("Æsir and æther", "aesir-and-aether"),
        ("Œuvre", "oeuvre"),
        ("Ørsted smørrebrød", "orsted-smorrebrod"),
        ("Łódź", "lodz"),
        ("Þór", "thor"),
        ("Đorđe", "dorde"),
        ("Crème brûlée", "creme-brulee"),
        ("Ångström", "angstrom"),
        ("naïve café", "naive-cafe"),
        ("ÉCOLE", "ecole"),
        // Decomposed input (as macOS file names often are) gives the same slug as precomposed input.
        ("Cafe\u{301}", "cafe"),
    ])
    func foldsLettersToASCII(title: String, slug: String) {
        #expect(Slug.make(from: title) == slug)
    }

    @Test(arguments: [
        ("Ｆｉｘ ｌｏｇｉｎ", "fix-login"),
        ("ﬁle upload", "file-upload"),
        ("Ĳsselmeer", "ijsselmeer"),
    ])
    func foldsCompatibilityForms(title: String, slug: String) {
        // Full-width Latin letters come from Japanese and Chinese input methods; ligatures from copied PDF text.
        do {
            #expect(Slug.make(from: title) == slug)
        }
    }

    @Test(arguments: ["", " ", "!!!", "???", "---", "…", "🎉🎉", "'", "\u{301}"])
    func nothingLeftBecomesUntitled(title: String) {
        #expect(Slug.make(from: title) == "untitled")
    }

    @Test(arguments: [
        String(repeating: "a", count: 200),
        String(repeating: "word ", count: 40),
        String(repeating: "abcdefghij ", count: 20),
        String(repeating: "ß", count: 120),
        String(repeating: "x", count: 79) + " " + String(repeating: "y", count: 120),
        String(repeating: "Ünïcödé & ", count: 30),
        String(repeating: "a-", count: 100),
    ])
    func longTitlesAreCutToEightyBytesWithoutATrailingHyphen(title: String) {
        let slug = Slug.make(from: title)
        #expect(slug.utf8.count <= Slug.maximumLength)
        #expect(slug.utf8.count >= Slug.maximumLength / 2)
        #expect(!slug.hasSuffix("-"))
        #expect(!slug.hasPrefix("-"))
        #expect(slug.utf8.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D })
        #expect(!slug.contains("--"))
    }

    @Test func aLongTitleIsCutAtAWordBoundary() {
        let slug = Slug.make(from: String(repeating: "abcdefghij ", count: 20))
        let words = slug.split(separator: "-")
        #expect(words.allSatisfy { $0 == "abcdefghij" })
        #expect(words.count == 7)
    }

    @Test func aLongWordIsCutMidWordRatherThanLosingMostOfTheSlug() {
        #expect(Slug.make(from: String(repeating: "a", count: 200)) == String(repeating: "a", count: 80))
    }

    @Test func slugsAreStable() {
        let title = "Émojis & Ünïcödé: a \"quoted\" title — with 2.0 dashes"
        #expect(Slug.make(from: title) == Slug.make(from: title))
        #expect(Slug.make(from: Slug.make(from: title)) == Slug.make(from: title))
    }

    @Test func uniqueKeepsAFreeSlug() {
        #expect(Slug.unique("fix-login", isTaken: { _ in false }) == "fix-login")
    }

    @Test func uniqueAppendsTwoThenThree() {
        #expect(Slug.unique("fix-login", isTaken: { $0 == "fix-login" }) == "fix-login-2")
        let taken: Set = ["fix-login", "fix-login-2"]
        #expect(Slug.unique("fix-login", isTaken: taken.contains) == "fix-login-3")
        let many = Set(["fix-login"] + (2...9).map { "fix-login-\($0)" })
        #expect(Slug.unique("fix-login", isTaken: many.contains) == "fix-login-10")
    }

    @Test func uniqueDoesNotSkipAGap() {
        let taken: Set = ["fix-login", "fix-login-3"]
        #expect(Slug.unique("fix-login", isTaken: taken.contains) == "fix-login-2")
    }

    @Test(arguments: ["fix-login", "a", "Ünïcödé", "2026-01-05-archived", String(repeating: "x", count: 252)])
    func validSlugs(slug: String) {
        #expect(Slug.isValid(slug))
    }

    @Test(arguments: ["", ".", "..", ".hidden", "a/b", "../etc", "a\\b", "tab\there", "nul\u{0}", "del\u{7F}",
                      String(repeating: "x", count: 253)])
    func invalidSlugs(slug: String) {
        #expect(!Slug.isValid(slug))
    }
}
