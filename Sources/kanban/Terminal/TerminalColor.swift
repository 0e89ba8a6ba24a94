/// A colour for text or its background: one of the ANSI colours or a 24-bit colour.
enum TerminalColor: Hashable, Sendable {
    /// One of the eight ANSI colours (SGR 30–37, 40–47); the terminal's theme decides the shade.
    case black, red, green, yellow, blue, magenta, cyan, white
    /// One of the eight bright ANSI colours (SGR 90–97, 100–107).
    case brightBlack, brightRed, brightGreen, brightYellow, brightBlue, brightMagenta, brightCyan, brightWhite
    /// A 24-bit colour, sent as is, as the nearest of the 256 palette or the nearest ANSI
    /// colour, depending on `ColorDepth`.
    case rgb(red: UInt8, green: UInt8, blue: UInt8)

    /// Creates a colour from `#rrggbb` or `#rgb` (the `#` is optional, case is ignored),
    /// or returns `nil` when `hex` is not such a string.
    init?(hex: String) {
        var digits = Substring(hex).drop { $0 == " " }
        while digits.last == " " { digits = digits.dropLast() }
        if digits.hasPrefix("#") { digits = digits.dropFirst() }
        guard digits.allSatisfy(\.isHexDigit) else { return nil }
        if digits.count == 3 {
            digits = Substring(digits.flatMap { [$0, $0] })
        }
        guard digits.count == 6, let value = UInt32(digits, radix: 16) else { return nil }
        self = .rgb(
            red: UInt8((value >> 16) & 0xFF),
            green: UInt8((value >> 8) & 0xFF),
            blue: UInt8(value & 0xFF))
    }

    /// Black or white, whichever reads better on a background of this colour.
    var contrastingForeground: TerminalColor {
        let (red, green, blue) = components
        // Relative luminance with the sRGB weights, on 0...255.
        let luminance = 0.2126 * Double(red) + 0.7152 * Double(green) + 0.0722 * Double(blue)
        return luminance > 140 ? .black : .white
    }

    /// The SGR parameters that select the colour, for the foreground or the background.
    ///
    /// - Parameters:
    ///   - isBackground: Whether the colour is for the background.
    ///   - depth: What the terminal can show; a 24-bit colour is sent as the nearest it has.
    func sgrParameters(isBackground: Bool, depth: ColorDepth) -> String {
        let base = isBackground ? 40 : 30
        switch self {
        case .rgb(let red, let green, let blue):
            switch depth {
            case .trueColor:
                return "\(base + 8);2;\(red);\(green);\(blue)"
            case .ansi256:
                return "\(base + 8);5;\(TerminalColor.paletteIndex(red: red, green: green, blue: blue))"
            case .ansi16:
                return TerminalColor.nearestBasic(red: red, green: green, blue: blue)
                    .sgrParameters(isBackground: isBackground, depth: depth)
            }
        default:
            let index = TerminalColor.basic.firstIndex(of: self) ?? 7
            return index < 8 ? "\(base + index)" : "\(base + 60 + index - 8)"
        }
    }

    /// The sixteen ANSI colours in palette order.
    private static let basic: [TerminalColor] = [
        .black, .red, .green, .yellow, .blue, .magenta, .cyan, .white,
        .brightBlack, .brightRed, .brightGreen, .brightYellow,
        .brightBlue, .brightMagenta, .brightCyan, .brightWhite,
    ]

    /// Approximate RGB of the sixteen ANSI colours (xterm defaults).
    private static let basicComponents: [(UInt8, UInt8, UInt8)] = [
        (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0),
        (0, 0, 238), (205, 0, 205), (0, 205, 205), (229, 229, 229),
        (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0),
        (92, 92, 255), (255, 0, 255), (0, 255, 255), (255, 255, 255),
    ]

    private var components: (UInt8, UInt8, UInt8) {
        if case .rgb(let red, let green, let blue) = self { return (red, green, blue) }
        let index = TerminalColor.basic.firstIndex(of: self) ?? 7
        return TerminalColor.basicComponents[index]
    }

    private static func nearestBasic(red: UInt8, green: UInt8, blue: UInt8) -> TerminalColor {
        var best = 0
        var bestDistance = Int.max
        for (index, candidate) in basicComponents.enumerated() {
            let distance = squaredDistance((red, green, blue), candidate)
            if distance < bestDistance {
                best = index
                bestDistance = distance
            }
        }
        return basic[best]
    }

    /// The nearest entry of the xterm 256-colour palette: the 6×6×6 cube or the grey ramp.
    private static func paletteIndex(red: UInt8, green: UInt8, blue: UInt8) -> Int {
        let levels = [0, 95, 135, 175, 215, 255]
        func nearestLevel(_ value: UInt8) -> Int {
            var best = 0
            for index in levels.indices where abs(levels[index] - Int(value)) < abs(levels[best] - Int(value)) {
                best = index
            }
            return best
        }
        let (r, g, b) = (nearestLevel(red), nearestLevel(green), nearestLevel(blue))
        let cubeIndex = 16 + 36 * r + 6 * g + b
        let cubeColor = (UInt8(levels[r]), UInt8(levels[g]), UInt8(levels[b]))

        let average = (Int(red) + Int(green) + Int(blue)) / 3
        let greyStep = min(max((average - 8 + 5) / 10, 0), 23)
        let greyLevel = UInt8(8 + 10 * greyStep)
        let greyIndex = 232 + greyStep

        let target = (red, green, blue)
        return squaredDistance(target, (greyLevel, greyLevel, greyLevel)) < squaredDistance(target, cubeColor)
            ? greyIndex : cubeIndex
    }

    private static func squaredDistance(_ a: (UInt8, UInt8, UInt8), _ b: (UInt8, UInt8, UInt8)) -> Int {
        let red = Int(a.0) - Int(b.0)
        let green = Int(a.1) - Int(b.1)
        let blue = Int(a.2) - Int(b.2)
        return red * red + green * green + blue * blue
    }
}
