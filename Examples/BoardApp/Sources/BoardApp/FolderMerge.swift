import Foundation
import KanbanCore

/// What an app that syncs a board its own way (a shared folder, iCloud Drive) does when two copies changed since the
/// copy it last saw in both: merge the three versions with the same rules `kanban sync` uses. Here the three versions
/// are made from one card of the board: one side labels it, the other adds a line to its body.
///
/// Returns the merged card's text, or nil when the board has no card with a body to show it on.
func mergeTwoCopies(ofCardIn board: String) -> String? {
    let store: BoardStore
    let card: Card
    do {
        store = try BoardStore(directory: board)
        guard let first = try store.load().cards.first else { return nil }
        card = first
    } catch {
        return nil
    }
    guard let base = FileManager.default.contents(atPath: board + "/" + card.path).map({ [UInt8]($0) }) else { return nil }
    let text = String(decoding: base, as: UTF8.self)
    // One copy: a label (the labels line as the store writes it). The other: a line at the end of the body.
    guard let labels = text.split(separator: "\n", omittingEmptySubsequences: false).first(where: { $0.hasPrefix("labels:") }) else {
        return nil
    }
    let labelled = text.replacingOccurrences(of: String(labels), with: card.labels.isEmpty ? "labels: [example]"
                                                : "labels: [" + (card.labels + ["example"]).joined(separator: ", ") + "]")
    let extended = text + (text.hasSuffix("\n") ? "" : "\n") + "A line added on the other copy.\n"

    // No history here, so no delete times: a card one copy deleted and the other changed is kept.
    let merge = BoardMerge { _, _ in nil }
    let result = merge.merge(base: [card.path: base], ours: [card.path: Array(labelled.utf8)], theirs: [card.path: Array(extended.utf8)])
    return result.files[card.path].map { String(decoding: $0, as: UTF8.self) }
}
