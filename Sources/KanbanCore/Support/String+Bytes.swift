#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension String {
    /// Whether `self` sorts before `other` comparing UTF-8 bytes, the order positions and slugs use.
    ///
    /// Swift's `<` compares Unicode scalars after normalisation, which is not what `ls`, git or
    /// another implementation of the format would do.
    package func utf8Precedes(_ other: String) -> Bool {
        utf8Compare(other) < 0
    }

    /// The order of `self` and `other` by their UTF-8 bytes: negative, zero or positive, as `memcmp` says.
    package func utf8Compare(_ other: String) -> Int {
        var left = self
        var right = other
        return left.withUTF8 { lhs in
            right.withUTF8 { rhs in
                let shared = min(lhs.count, rhs.count)
                if shared > 0, let a = lhs.baseAddress, let b = rhs.baseAddress {
                    let order = memcmp(a, b, shared)
                    if order != 0 { return Int(order) }
                }
                return lhs.count - rhs.count
            }
        }
    }
}
