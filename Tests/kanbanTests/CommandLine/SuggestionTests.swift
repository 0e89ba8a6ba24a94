import Testing

@testable import kanban

@Suite struct SuggestionTests {
    @Test(arguments: [
        ("", "", 0),
        ("", "abc", 3),
        ("abc", "", 3),
        ("list", "list", 0),
        ("lsit", "list", 1),
        ("colum", "column", 1),
        ("kitten", "sitting", 3),
        ("ca", "abc", 2),
        ("ab", "ba", 1),
        ("board", "baord", 1),
        ("flaw", "lawn", 2),
    ])
    func measuresDamerauLevenshteinDistance(source: String, target: String, distance: Int) {
        #expect(Suggestion.editDistance(source, target) == distance)
        #expect(Suggestion.editDistance(target, source) == distance)
    }

    @Test(arguments: [
        ("colum", "column"),
        ("lsit", "list"),
        ("mvoe", "move"),
        ("LIST", "list"),
        ("arch", "archived"),
        ("archivd", "archived"),
        ("lable", "label"),
    ])
    func suggestsTheClosestName(input: String, suggestion: String) {
        let names = ["list", "move", "column", "label", "archived", "all"]
        #expect(Suggestion.closest(to: input, among: names) == suggestion)
    }

    @Test(arguments: ["xyz", "frobnicate", "", "z"])
    func suggestsNothingWhenNothingIsClose(input: String) {
        #expect(Suggestion.closest(to: input, among: ["list", "move", "column"]) == nil)
    }

    @Test func prefersTheEarlierNameOnATie() {
        #expect(Suggestion.closest(to: "ab", among: ["ac", "ad"]) == "ac")
    }

    @Test func prefersTheSmallerDistance() {
        #expect(Suggestion.closest(to: "colum", among: ["colour", "column"]) == "column")
    }
}
