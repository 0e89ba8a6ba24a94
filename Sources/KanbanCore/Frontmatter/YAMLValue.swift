/// A value read from, or to be written to, the YAML frontmatter of a card or board file.
///
/// Scalars stay text: `priority: 2` is the scalar `"2"` in plain style, and deciding whether
/// that is a number is left to the reader of the value. Maps keep their keys in file order.
public enum YAMLValue: Sendable, Hashable {
    /// A single scalar, such as `todo`, `"Ann"` or a `|` block.
    case scalar(YAMLScalar)
    /// A sequence, written `[a, b]` or as `- item` lines.
    case list([YAMLValue])
    /// A mapping, in the order its keys appear in the file.
    case map([YAMLMapEntry])
}

/// A YAML scalar: its decoded text and the style it was (or is to be) written in.
public struct YAMLScalar: Sendable, Hashable {
    /// How a scalar is written in the file.
    public enum Style: String, Sendable, Hashable, Codable {
        /// Unquoted, such as `title: Fix login`.
        case plain
        /// Single-quoted, such as `'it''s'`.
        case singleQuoted
        /// Double-quoted with escapes, such as `"line\nbreak"`.
        case doubleQuoted
        /// A literal block scalar introduced by `|`.
        case literal
        /// A folded block scalar introduced by `>`.
        case folded
    }

    /// The decoded text: escapes resolved, block scalars folded and chomped as YAML specifies.
    public var value: String
    /// The style the scalar was read in, or the style to prefer when it is written.
    public var style: Style
    /// Whether a plain scalar stays unquoted even where YAML readers resolve it to a boolean,
    /// number, null or timestamp (`collapsed: true`); it is still quoted where plain syntax cannot
    /// hold it. A writing request only: parsing never sets it. See `YAMLValue.unquoted(_:)`.
    public var prefersUnquoted = false
    /// The exact text to write for this scalar, when its file's dialect decides it (see `AppDialect`): a writing
    /// request only, which parsing never sets.
    var writtenAs: String?

    /// Creates a scalar.
    ///
    /// - Parameters:
    ///   - value: The decoded text.
    ///   - style: The style to prefer when writing; `.plain` means "plain if that reads back
    ///     as the same text, else quoted".
    public init(_ value: String, style: Style = .plain) {
        self.value = value
        self.style = style
    }
}

/// One `key: value` pair of a YAML map.
public struct YAMLMapEntry: Sendable, Hashable, Codable {
    /// The key, decoded.
    public var key: String
    /// The value.
    public var value: YAMLValue

    /// Creates a map entry.
    public init(key: String, value: YAMLValue) {
        self.key = key
        self.value = value
    }
}

extension YAMLValue {
    /// The scalar's text, or `nil` for a list or map.
    public var string: String? {
        if case .scalar(let scalar) = self { return scalar.value }
        return nil
    }

    /// The items of a list, or `nil` for a scalar or map.
    public var list: [YAMLValue]? {
        if case .list(let items) = self { return items }
        return nil
    }

    /// The entries of a map in file order, or `nil` for a scalar or list.
    public var map: [YAMLMapEntry]? {
        if case .map(let entries) = self { return entries }
        return nil
    }

    /// The value of `key` when this is a map that has it; otherwise `nil`.
    public subscript(key: String) -> YAMLValue? {
        guard case .map(let entries) = self else { return nil }
        for entry in entries where entry.key == key {
            return entry.value
        }
        return nil
    }

    /// Whether this is YAML's null: a plain scalar that is empty, `~`, `null`, `Null` or `NULL`.
    ///
    /// A quoted `"null"` is a string, not null.
    public var isNull: Bool {
        guard case .scalar(let scalar) = self, scalar.style == .plain else { return false }
        switch scalar.value {
        case "", "~", "null", "Null", "NULL": return true
        default: return false
        }
    }

    /// A plain-style scalar holding `s`, which the writer quotes when plain would not read back as `s`.
    ///
    /// Written on its own, `"null"`, `"~"` and `"yes"` come out quoted, so that they read back as
    /// text; they stay plain only where they replace a plain value of the same kind (`~` over
    /// `null`). The empty string is written as `key:`, which reads back as `""`, and `isNull`.
    public static func string(_ s: String) -> YAMLValue {
        .scalar(YAMLScalar(s))
    }

    /// A plain scalar that is written unquoted wherever plain syntax allows, for values meant to be
    /// read with their YAML type: `collapsed: true`, `wip: 5`, `created: 2026-01-05T10:00:00Z`.
    ///
    /// Text that plain syntax cannot hold (`a: b`, a leading `-`) is still double-quoted.
    public static func unquoted(_ s: String) -> YAMLValue {
        var scalar = YAMLScalar(s)
        scalar.prefersUnquoted = true
        return .scalar(scalar)
    }
}
