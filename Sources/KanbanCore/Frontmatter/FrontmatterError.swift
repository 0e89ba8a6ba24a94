/// A problem in a file's frontmatter, with the place it was found.
///
/// Lines count from the first line of the file; columns count UTF-8 bytes from the start of
/// the line. A leading byte order mark is not counted.
struct FrontmatterError: Error, Sendable, Equatable, CustomStringConvertible {
    /// 1-based line in the file.
    var line: Int
    /// 1-based column, in UTF-8 bytes from the start of the line.
    var column: Int
    /// What is wrong: starts lowercase, no trailing period.
    var message: String

    /// `line:column: error: message`; the caller puts the path in front.
    var description: String {
        "\(line):\(column): error: \(message)"
    }
}
