/// Where padding puts text within a wider field.
package enum TextAlignment: Hashable, Sendable {
    /// Text first, spaces after.
    case leading
    /// Spaces first, text after.
    case trailing
    /// Spaces split around the text; the odd one goes after.
    case center
}
