/// A place in a board file that a person can jump to.
public struct SourceLocation: Sendable, Hashable, Codable {
    /// The file's path relative to the board directory, such as `cards/todo/fix-login.md`.
    public var path: String
    /// The 1-based line, or `nil` when the problem concerns the whole file.
    public var line: Int?
    /// The 1-based column in UTF-8 bytes, or `nil` when only the line is known.
    public var column: Int?

    /// Creates a location.
    public init(path: String, line: Int? = nil, column: Int? = nil) {
        self.path = path
        self.line = line
        self.column = column
    }
}

extension SourceLocation: CustomStringConvertible {
    /// `path:line:column`, leaving out the parts that are not known.
    public var description: String {
        var text = path
        if let line {
            text += ":\(line)"
            if let column { text += ":\(column)" }
        }
        return text
    }
}
