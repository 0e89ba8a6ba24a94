/// How a value was laid out in the file: what the editor needs, beyond the value itself, to
/// rewrite it in the same shape.
///
/// Scalar styles and flow-versus-block live in the `YAMLValue`; this records indentation and
/// the source bytes of block items so that unchanged items can be copied byte for byte.
indirect enum YAMLLayout: Sendable, Equatable {
    /// A scalar or flow collection written on the line that holds its key or dash.
    case inline
    /// A `|` or `>` block scalar whose content lines are indented by `contentIndent` spaces.
    case blockScalar(contentIndent: Int)
    /// A block list (`- item` lines).
    case blockList(YAMLBlockLayout)
    /// A block map (`key: value` lines).
    case blockMap(YAMLBlockLayout)
}

/// The shape of a block list or block map.
struct YAMLBlockLayout: Sendable, Equatable {
    /// Column (0-based) of the dashes of a list, or of the keys of a map.
    var indent: Int
    /// Spaces between a list's `-` and the item (1 in `- a`); unused for maps.
    var gap: Int
    /// One record per item or entry, in file order.
    var items: [YAMLBlockItemLayout]
}

/// Where one block item (from its `-`) or block-map entry (from its key) sits in the file.
struct YAMLBlockItemLayout: Sendable, Equatable {
    /// The layout of the item's value.
    var layout: YAMLLayout
    /// Column (0-based) of the item's `-` or the entry's key.
    var column: Int
    /// Bytes from the `-` or key to the end of the item's last line, line break included.
    var source: Range<Int>
    /// For a map entry, the end of `key:` (just past the colon); equal to `source.lowerBound` for list items.
    var keyEnd: Int
    /// When the item starts its line: the start of the comment and blank lines just above it (or
    /// of its own line). `nil` for an item after `- ` on its parent's line.
    var leadingStart: Int?

    /// The start of the item's own line, when it starts its line.
    var lineStart: Int? {
        leadingStart == nil ? nil : source.lowerBound - column
    }
}

/// A value as it was in the file, used as a style hint when writing its replacement.
struct YAMLOriginal: Sendable {
    var value: YAMLValue
    var layout: YAMLLayout
}
