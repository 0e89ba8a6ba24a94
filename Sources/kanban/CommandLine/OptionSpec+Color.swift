extension OptionSpec {
    /// The global `--color <when>` option read by `ColorMode(arguments:)`.
    static let color = OptionSpec.option(
        "color", valueName: "when", help: "Colour output: auto, always or never.",
        defaultValue: "auto", isGlobal: true)

    /// The global `--no-color` flag read by `ColorMode(arguments:)`; the same as `--color never`.
    static let noColor = OptionSpec.flag("no-color", help: "Do not colour output.", isGlobal: true)
}
