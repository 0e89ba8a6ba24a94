/// The arguments of a benchmark subcommand (`watch`, `tui`), read one at a time, with the values of its options
/// checked and named in the error.
struct SubcommandArguments {
    private var remaining: ArraySlice<String>

    init(_ arguments: [String]) { remaining = arguments[...] }

    /// The next argument; nil at the end.
    mutating func next() -> String? { remaining.popFirst() }

    /// The value of the option `name`, shown as `name placeholder` when it is missing.
    mutating func value(of name: String, placeholder: String) throws(BenchmarkError) -> String {
        guard let text = remaining.popFirst() else { throw BenchmarkError("Error: missing value for '\(name) \(placeholder)'") }
        return text
    }

    /// The whole number the option `name` takes, within `range` (`_` may group digits).
    mutating func number(of name: String, in range: ClosedRange<Int>) throws(BenchmarkError) -> Int {
        let text = try value(of: name, placeholder: "<n>")
        guard let value = Int(text.filter { $0 != "_" }), range.contains(value) else {
            throw BenchmarkError("Error: '\(name)' needs a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
        }
        return value
    }
}
