/// A key a person pressed, decoded from the bytes a terminal sends (see ``KeyDecoder``).
enum Key: Hashable, Sendable {
    /// Printable text: a letter, a digit, punctuation, a space or any other character.
    case character(Character)
    /// An arrow key; `isShifted` when Shift was held (`ESC [1;2A`).
    case arrow(Direction, isShifted: Bool)
    case home, end, pageUp, pageDown, delete
    case enter, escape, backspace, tab
    /// Ctrl with a letter, given as the lowercase letter: `.control("c")` is Ctrl-C.
    case control(Character)

    /// The four arrow directions.
    enum Direction: Hashable, Sendable {
        case up, down, left, right
    }
}
