import KanbanServer
/// Applies `TextStyle`s to text as ANSI escape sequences, or leaves text alone when colour is off.
///
/// Make one per output stream at start-up and pass it to whatever renders:
/// ```swift
/// let stylist = Stylist(descriptor: STDOUT_FILENO, mode: colorMode, environment: environment)
/// output.writeLine(stylist.apply(.bold, to: column.name))
/// ```
struct Stylist: Hashable, Sendable {
    /// Whether escape sequences are written at all.
    var isEnabled: Bool

    /// How 24-bit colours are sent.
    var depth: ColorDepth

    /// Creates a stylist with a fixed decision.
    init(isEnabled: Bool, depth: ColorDepth = .trueColor) {
        self.isEnabled = isEnabled
        self.depth = depth
    }

    /// Creates a stylist for the stream `descriptor`, deciding as `ColorMode.isColorEnabled`
    /// does and taking the colour depth from the environment.
    ///
    /// - Parameters:
    ///   - descriptor: The file descriptor written to, such as `STDOUT_FILENO`.
    ///   - mode: The user's choice from `--color` / `--no-color`.
    ///   - environment: The process environment.
    init(descriptor: Int32, mode: ColorMode, environment: [String: String]) {
        self.isEnabled = mode.isColorEnabled(
            isTerminal: Terminal.isTerminal(descriptor), environment: environment)
        self.depth = ColorDepth(environment: environment)
    }

    /// A stylist that never styles.
    static let plain = Stylist(isEnabled: false)

    /// The reset sequence, SGR 0.
    static let reset = "\u{1B}[0m"

    /// `text` wrapped in the escape sequences for `style` when colour is on, else `text` itself.
    ///
    /// Empty text stays empty. Styles do not nest: a reset inside `text` ends `style` early.
    func apply(_ style: TextStyle, to text: String) -> String {
        guard isEnabled, !text.isEmpty else { return text }
        let parameters = style.sgrParameters(depth: depth)
        guard !parameters.isEmpty else { return text }
        return "\u{1B}[\(parameters)m\(text)\(Stylist.reset)"
    }

    /// Appends `text` in `style`, padded with spaces to `width` columns (the padding inside the style), to
    /// `output`; without colour the pieces are appended as they are, with no string built for them.
    func append(_ style: TextStyle, _ text: String, paddedTo width: Int = 0, to output: inout String) {
        let missing = max(0, width - text.terminalWidth)
        if isEnabled {
            output += apply(style, to: missing == 0 ? text : text + String(repeating: " ", count: missing))
        } else {
            output += text
            Self.appendSpaces(missing, to: &output)
        }
    }

    private static let spaces = String(repeating: " ", count: 64)

    /// Appends `count` spaces without building a string of them.
    private static func appendSpaces(_ count: Int, to output: inout String) {
        var left = count
        while left > 0 {
            let run = min(left, 64)
            output += spaces[..<spaces.utf8.index(spaces.startIndex, offsetBy: run)]
            left -= run
        }
    }
}
