import Foundation

/// The board as `kanban watch --json` describes it: each card file's path with its title, built by applying the
/// watcher's events one after another, the way a program that follows the watcher would keep its own copy.
///
/// Cards are kept by path, not slug: two files may hold one slug for a while (a card in a column and its archived
/// copy), and each event names the file it is about. The JSON leaves out the old path of a move, so it is worked
/// out from what the event does give:
///
/// | event | the file it takes away | the file it sets |
/// | --- | --- | --- |
/// | `created`, `modified`, `invalid` | | `path` |
/// | `moved`, `archived` | `cards/<from>/<slug>.md` | `path` |
/// | `unarchived` | the file in `archive/` holding `slug` | `path` |
/// | `renamed` | `from` beside `path` (`from` is the file name when the slug stayed, else the old slug) | `path` |
/// | `deleted` | `path` | |
///
/// An event that takes a title keeps the file's title from before when it has none.
struct WatchReplay {
    /// What the events say one card file holds.
    struct Card: Equatable {
        var title: String?
        /// Whether the last event about it was `invalid`: the file does not parse.
        var isInvalid: Bool
    }

    /// The card files by path relative to the board (`cards/todo/a.md`).
    private(set) var cards: [String: Card] = [:]
    /// Events that do not fit the board the events before them describe (a card deleted that was never
    /// reported, a move from a file that is not there), each with its line.
    private(set) var inconsistencies: [String] = []
    /// Each card's events, by slug, for reports: `line 12: moved todo → done`.
    private(set) var history: [String: [String]] = [:]
    /// How many events of each kind were applied.
    private(set) var counts: [String: Int] = [:]

    /// Applies every line of the watcher's output in order; lines that are not JSON events are skipped (another
    /// check reports them).
    init(output: String) {
        for (number, line) in output.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where !line.isEmpty {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let kind = object["event"] as? String else { continue }
            apply(kind, object, line: number + 1)
        }
    }

    private mutating func apply(_ kind: String, _ event: [String: Any], line: Int) {
        counts[kind, default: 0] += 1
        let slug = event["slug"] as? String
        let title = event["title"] as? String
        let from = event["from"] as? String
        let to = event["to"] as? String
        guard let path = event["path"] as? String, BoardFiles.isCardPath(path) else {
            // board, column-added, column-removed and root-lost are about no card file; a card whose files go
            // with a column is reported deleted (or moved) on its own.
            return
        }
        let summary = "line \(line): \(kind) \(path)" + (from != nil || to != nil ? " (\(from ?? "") → \(to ?? ""))" : "")
            + (title.map { " \"\($0)\"" } ?? "")
        history[StressRunner.slug(ofCardPath: path), default: []].append(summary)

        func inconsistent(_ what: String) {
            inconsistencies.append("line \(line): \(kind) \(path): \(what)")
        }
        /// Takes the file a move, archiving or renaming left, and sets `path` with the title it had.
        func transfer(from old: String?, describedAs description: String) {
            var previous: Card?
            if let old, let card = cards[old] {
                previous = card
                cards[old] = nil
            } else {
                inconsistent("the file it came from (\(description)) is not one the earlier events left on the board")
            }
            if cards[path] != nil, path != old { inconsistent("the file it went to is already on the board") }
            cards[path] = Card(title: title ?? previous?.title, isInvalid: false)
        }

        switch kind {
        case "created":
            if let card = cards[path], !card.isInvalid { inconsistent("the earlier events already hold this file") }
            cards[path] = Card(title: title, isInvalid: false)
        case "modified":
            if cards[path] == nil { inconsistent("the earlier events do not hold this file") }
            cards[path] = Card(title: title ?? cards[path]?.title, isInvalid: false)
        case "invalid":
            cards[path] = Card(title: title ?? cards[path]?.title, isInvalid: true)
        case "deleted":
            if cards.removeValue(forKey: path) == nil { inconsistent("the earlier events do not hold this file") }
        case "moved", "archived":
            guard let from, let slug else { return inconsistent("no 'from' column or no slug") }
            let old = "cards/\(from)/\(slug).md"
            transfer(from: old, describedAs: old)
        case "unarchived":
            guard let slug else { return inconsistent("no slug") }
            let archived = cards.keys.filter { $0.hasPrefix("archive/") && StressRunner.slug(ofCardPath: $0) == slug }.sorted()
            if archived.count > 1 { inconsistent("it could have come from any of \(archived.joined(separator: ", "))") }
            transfer(from: archived.first, describedAs: "archive/*-\(slug).md")
        case "renamed":
            guard let from else { return inconsistent("no 'from'") }
            let directory = (path as NSString).deletingLastPathComponent
            if from.hasSuffix(".md") {
                transfer(from: directory + "/" + from, describedAs: directory + "/" + from)
            } else if directory == "archive" {
                let archived = cards.keys.filter { $0.hasPrefix("archive/") && $0 != path && StressRunner.slug(ofCardPath: $0) == from }.sorted()
                if archived.count > 1 { inconsistent("it could have come from any of \(archived.joined(separator: ", "))") }
                transfer(from: archived.first, describedAs: "archive/*-\(from).md")
            } else {
                transfer(from: directory + "/" + from + ".md", describedAs: directory + "/" + from + ".md")
            }
        default:
            inconsistent("an event kind the harness does not know")
        }
    }

    /// The title a card file's `title:` line holds, read the way the app reads it: surrounding double quotes
    /// stripped and `\"` unescaped. Nil when the file has no frontmatter or no `title:` line (it is invalid).
    static func title(ofCardFile bytes: [UInt8]) -> String? {
        let frontmatter = BoardFiles.frontmatterLines(of: bytes)
        guard let line = frontmatter.first(where: { $0.hasPrefix("title:") }) else { return nil }
        var value = line.dropFirst("title:".count).trimmingCharacters(in: .whitespaces)
        if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
            value = String(value.dropFirst().dropLast()).replacingOccurrences(of: "\\\"", with: "\"")
        }
        return value
    }
}
