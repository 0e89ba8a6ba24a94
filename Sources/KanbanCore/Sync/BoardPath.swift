/// What a path inside the board directory is to the board.
package enum BoardPath: Sendable, Hashable {
    /// `board.md`.
    case boardFile
    /// A card file, active or archived.
    case card(CardFile)

    /// The board path `path` (relative to the board) names, or nil for files that are not part of the board
    /// (a README, `.gitattributes`, editor litter, a file nested too deep).
    package init?(_ path: String) {
        if path == BoardFile.path {
            self = .boardFile
            return
        }
        let components = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        if components.count == 3, components[0] == "cards", Column.isValidID(components[1]),
           CardFile.isCardFileName(components[2]) {
            self = .card(.active(name: components[2], column: components[1]))
        } else if components.count == 2, components[0] == "archive", CardFile.isCardFileName(components[1]) {
            self = .card(.archived(name: components[1]))
        } else {
            return nil
        }
    }

    /// The card file, when the path is a card.
    package var card: CardFile? {
        if case .card(let file) = self { return file }
        return nil
    }
}
