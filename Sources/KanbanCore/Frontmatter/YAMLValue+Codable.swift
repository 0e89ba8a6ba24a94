/// A value is encoded as an object with one key, `scalar`, `list` or `map`, so that a map keeps its keys in file
/// order: `{"map": [{"key": "due", "value": {"scalar": {"value": "2026-03-01", "style": "plain"}}}]}`.
extension YAMLValue: Codable {
    private enum CodingKeys: String, CodingKey {
        case scalar, list, map
    }

    /// Reads a value written by ``encode(to:)``.
    /// - Throws: `DecodingError` when the object has none of `scalar`, `list` and `map`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let scalar = try container.decodeIfPresent(YAMLScalar.self, forKey: .scalar) {
            self = .scalar(scalar)
        } else if let items = try container.decodeIfPresent([YAMLValue].self, forKey: .list) {
            self = .list(items)
        } else if let entries = try container.decodeIfPresent([YAMLMapEntry].self, forKey: .map) {
            self = .map(entries)
        } else {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: decoder.codingPath, debugDescription: "a YAML value has one of the keys 'scalar', 'list' and 'map'"))
        }
    }

    /// Writes the value as an object with one key, `scalar`, `list` or `map`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .scalar(let scalar): try container.encode(scalar, forKey: .scalar)
        case .list(let items): try container.encode(items, forKey: .list)
        case .map(let entries): try container.encode(entries, forKey: .map)
        }
    }
}

/// A scalar is encoded as its text, its style and, when set, `prefersUnquoted`; how a dialect would write it is
/// decided again when it is written.
extension YAMLScalar: Codable {
    private enum CodingKeys: String, CodingKey {
        case value, style, prefersUnquoted
    }

    /// Reads a scalar written by ``encode(to:)``; a missing style is plain.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(try container.decode(String.self, forKey: .value),
                  style: try container.decodeIfPresent(Style.self, forKey: .style) ?? .plain)
        prefersUnquoted = try container.decodeIfPresent(Bool.self, forKey: .prefersUnquoted) ?? false
    }

    /// Writes the scalar's text and style.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(value, forKey: .value)
        try container.encode(style, forKey: .style)
        if prefersUnquoted { try container.encode(true, forKey: .prefersUnquoted) }
    }
}
