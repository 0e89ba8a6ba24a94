/// A combination of text attributes and colours, applied through a `Stylist`.
///
/// Combine styles with `+`; the right-hand side's colours win:
/// `stylist.apply(.bold + .red, to: "error:")`.
struct TextStyle: Hashable, Sendable {
    /// Heavier text (SGR 1).
    var isBold = false
    /// Fainter text (SGR 2).
    var isDim = false
    /// Underlined text (SGR 4).
    var isUnderlined = false
    /// Foreground and background swapped (SGR 7).
    var isInverse = false
    /// The text colour, if set.
    var foreground: TerminalColor?
    /// The background colour, if set.
    var background: TerminalColor?

    /// Creates a style; the default is plain text.
    init(
        isBold: Bool = false,
        isDim: Bool = false,
        isUnderlined: Bool = false,
        isInverse: Bool = false,
        foreground: TerminalColor? = nil,
        background: TerminalColor? = nil
    ) {
        self.isBold = isBold
        self.isDim = isDim
        self.isUnderlined = isUnderlined
        self.isInverse = isInverse
        self.foreground = foreground
        self.background = background
    }

    /// No styling.
    static let plain = TextStyle()
    /// Bold text.
    static let bold = TextStyle(isBold: true)
    /// Dim text.
    static let dim = TextStyle(isDim: true)
    /// Underlined text.
    static let underline = TextStyle(isUnderlined: true)
    /// Inverse video.
    static let inverse = TextStyle(isInverse: true)
    /// Red text.
    static let red = TextStyle(foreground: .red)
    /// Green text.
    static let green = TextStyle(foreground: .green)
    /// Yellow text.
    static let yellow = TextStyle(foreground: .yellow)
    /// Blue text.
    static let blue = TextStyle(foreground: .blue)
    /// Magenta text.
    static let magenta = TextStyle(foreground: .magenta)
    /// Cyan text.
    static let cyan = TextStyle(foreground: .cyan)

    /// Text in the colour written as `#rrggbb` or `#rgb`; plain when `hex` is not a colour.
    static func foreground(hex: String) -> TextStyle {
        TextStyle(foreground: TerminalColor(hex: hex))
    }

    /// A tag on a background of the colour written as `#rrggbb` or `#rgb`, with black or
    /// white text, whichever reads better; inverse video when `hex` is not a colour.
    static func tag(hex: String) -> TextStyle {
        guard let color = TerminalColor(hex: hex) else { return .inverse }
        return TextStyle(foreground: color.contrastingForeground, background: color)
    }

    /// Both styles together; colours set on the right replace those on the left.
    static func + (lhs: TextStyle, rhs: TextStyle) -> TextStyle {
        TextStyle(
            isBold: lhs.isBold || rhs.isBold,
            isDim: lhs.isDim || rhs.isDim,
            isUnderlined: lhs.isUnderlined || rhs.isUnderlined,
            isInverse: lhs.isInverse || rhs.isInverse,
            foreground: rhs.foreground ?? lhs.foreground,
            background: rhs.background ?? lhs.background)
    }

    /// Whether the style changes nothing.
    var isPlain: Bool { self == .plain }

    /// The SGR parameters for the style, such as `1;31`, or an empty string for plain text.
    func sgrParameters(depth: ColorDepth) -> String {
        var parameters: [String] = []
        if isBold { parameters.append("1") }
        if isDim { parameters.append("2") }
        if isUnderlined { parameters.append("4") }
        if isInverse { parameters.append("7") }
        if let foreground { parameters.append(foreground.sgrParameters(isBackground: false, depth: depth)) }
        if let background { parameters.append(background.sgrParameters(isBackground: true, depth: depth)) }
        return parameters.joined(separator: ";")
    }
}
