/// How many colours the terminal can show, which decides how a 24-bit colour is sent.
enum ColorDepth: Int, Comparable, Hashable, Sendable {
    /// The eight ANSI colours and their bright variants.
    case ansi16 = 16
    /// The xterm 256-colour palette.
    case ansi256 = 256
    /// 24-bit colour.
    case trueColor = 16_777_216

    /// The depth the environment advertises: `COLORTERM=truecolor` or `24bit` gives
    /// `.trueColor`; a `TERM` containing `256color` or `direct` gives `.ansi256` or
    /// `.trueColor`; anything else `.ansi16`.
    ///
    /// - Parameter environment: The process environment.
    init(environment: [String: String]) {
        let colorTerm = environment["COLORTERM"]?.lowercased() ?? ""
        let term = environment["TERM"]?.lowercased() ?? ""
        if colorTerm == "truecolor" || colorTerm == "24bit" || term.hasSuffix("-direct") {
            self = .trueColor
        } else if term.contains("256color") {
            self = .ansi256
        } else {
            self = .ansi16
        }
    }

    /// Whether `lhs` shows fewer colours than `rhs`.
    static func < (lhs: ColorDepth, rhs: ColorDepth) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}
