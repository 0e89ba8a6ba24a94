extension String {
    /// Whether `self` sorts before `other` comparing UTF-8 bytes, the order positions and slugs use.
    ///
    /// Swift's `<` compares Unicode scalars after normalisation, which is not what `ls`, git or
    /// another implementation of the format would do.
    package func utf8Precedes(_ other: String) -> Bool {
        utf8.lexicographicallyPrecedes(other.utf8)
    }
}
