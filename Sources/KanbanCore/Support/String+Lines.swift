extension String {
    /// The text's lines, split at every `\n`, each keeping the `\r` of a `\r\n` that ended it.
    ///
    /// `split(separator: "\n")` on a String does not split CRLF text at all: `"\r\n"` is one Character, which is
    /// not `"\n"`. Cards and boards written on Windows use CRLF, so every line-by-line look at a text goes through
    /// here (or through ``lines``, which drops the `\r`).
    package func lineSlices(omittingEmpty: Bool = false) -> [Substring] {
        unicodeScalars.split(separator: "\n", omittingEmptySubsequences: omittingEmpty).map { Substring($0) }
    }

    /// The text's lines without their line ends (`\n` or `\r\n`).
    package func lines(omittingEmpty: Bool = false) -> [Substring] {
        lineSlices(omittingEmpty: omittingEmpty).map { $0.droppingCarriageReturn }
    }

    /// Whether the text ends with a line break, `\n` or `\r\n` (`hasSuffix("\n")` is false for `\r\n`).
    package var endsWithLineBreak: Bool { unicodeScalars.last == "\n" }
}

extension Substring {
    /// The line without the `\r` of a CRLF line end.
    package var droppingCarriageReturn: Substring {
        unicodeScalars.last == "\r" ? Substring(unicodeScalars.dropLast()) : self
    }
}
