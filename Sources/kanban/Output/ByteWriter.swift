/// UTF-8 bytes gathered for output a small piece at a time, as `list --json` writes a hundred thousand cards of twenty
/// pieces each: an append copies in place, without the uniqueness and capacity checks, the reference counting and the
/// call to `memmove` that appending to an array costs for each piece.
struct ByteWriter: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int) {
        self.capacity = max(capacity, 64)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// The bytes written so far, valid until the next append.
    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    @inline(__always)
    private mutating func reserve(_ extra: Int) {
        if count + extra > capacity { grow(to: count + extra) }
    }

    private mutating func grow(to needed: Int) {
        var grown = capacity * 2
        while grown < needed { grown *= 2 }
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
        moved.update(from: base, count: count)
        base.deallocate()
        base = moved
        capacity = grown
    }

    mutating func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        let destination = UnsafeMutableRawPointer(base + count)
        if bytes.count <= 64 {
            // Most pieces are a few dozen bytes: copied here, eight at a time, rather than by a call.
            var offset = 0
            while offset + 8 <= bytes.count {
                destination.storeBytes(of: source.loadUnaligned(fromByteOffset: offset, as: UInt64.self), toByteOffset: offset, as: UInt64.self)
                offset += 8
            }
            while offset < bytes.count {
                destination.storeBytes(of: source.load(fromByteOffset: offset, as: UInt8.self), toByteOffset: offset, as: UInt8.self)
                offset += 1
            }
        } else {
            destination.copyMemory(from: source, byteCount: bytes.count)
        }
        count += bytes.count
    }

    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        append(UnsafeRawBufferPointer(bytes))
    }

    mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { append(UnsafeRawBufferPointer($0)) }
    }

    mutating func append(_ piece: OutputPieces.Piece) {
        append(piece.bytes)
    }

    /// Lets `body` write up to `maximum` bytes in place; it returns how many it wrote.
    mutating func write(upTo maximum: Int, _ body: (UnsafeMutableBufferPointer<UInt8>) -> Int) {
        reserve(maximum)
        count += body(UnsafeMutableBufferPointer(start: base + count, count: maximum))
    }

    /// Drops what was written from `offset` on.
    mutating func truncate(to offset: Int) {
        count = min(count, offset)
    }

    /// The bytes, handed over without a copy.
    consuming func finish() -> WrittenBytes {
        let written = WrittenBytes(base: base, count: count)
        discard self
        return written
    }
}

/// Bytes a ``ByteWriter`` gathered, freed with it; handed whole from the thread that made them to the one that
/// writes them (``ChunkedText``), never changed after.
final class WrittenBytes: @unchecked Sendable {
    private let base: UnsafeMutablePointer<UInt8>
    let count: Int

    fileprivate init(base: UnsafeMutablePointer<UInt8>, count: Int) {
        self.base = base
        self.count = count
    }

    deinit { base.deallocate() }

    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }
}

/// Fixed pieces of text kept together in one block, each reached without reference counting: the keys and
/// punctuation a card's JSON is made of.
final class OutputPieces: @unchecked Sendable {  // never changed after it is made
    /// One piece; valid while the ``OutputPieces`` it came from is.
    struct Piece: @unchecked Sendable {
        let bytes: UnsafeRawBufferPointer
    }

    private let block: UnsafeMutableRawBufferPointer

    /// The pieces of `texts`, in order, as ``pieces``.
    let pieces: [Piece]

    init(_ texts: [String]) {
        let total = texts.reduce(0) { $0 + $1.utf8.count }
        block = .allocate(byteCount: max(total, 1), alignment: 8)
        var offset = 0
        var pieces: [Piece] = []
        for text in texts {
            let count = text.utf8.count
            UnsafeMutableRawBufferPointer(rebasing: block[offset..<(offset + count)]).copyBytes(from: text.utf8)
            pieces.append(Piece(bytes: UnsafeRawBufferPointer(rebasing: block[offset..<(offset + count)])))
            offset += count
        }
        self.pieces = pieces
    }

    deinit { block.deallocate() }
}
