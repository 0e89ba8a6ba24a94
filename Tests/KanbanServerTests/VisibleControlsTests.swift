import KanbanTestSupport
import Testing
@testable import KanbanServer

/// The fast check of ``VisibleControls/needsEscaping(_:)`` (eight bytes at a time) says yes exactly when escaping
/// changes the bytes.
@Suite struct VisibleControlsTests {
    /// Text of plain bytes with line feeds, tabs and UTF-8 in it, and now and then a control character, DEL or a C1
    /// control (`C2 80`–`C2 9F`), at every offset a word of eight can put it.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func theQuickCheckAgreesWithEscaping(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let plain: [[UInt8]] = [Array("abc".utf8), [0x0A], [0x09], Array("é".utf8), Array(" \"x\": ".utf8), [0xC2, 0xA0], [0xC3, 0x82]]
        let controls: [[UInt8]] = [[0x1B], [0x07], [0x00], [0x7F], [0xC2, 0x9B], [0xC2, 0x80], [0x0D]]
        for _ in 0..<2_000 {
            var bytes: [UInt8] = []
            let length = Int(random.next() % 40)
            for _ in 0..<length { bytes += plain[Int(random.next() % UInt64(plain.count))] }
            if random.next() % 2 == 0 {
                let at = Int(random.next() % UInt64(bytes.count + 1))
                bytes.insert(contentsOf: controls[Int(random.next() % UInt64(controls.count))], at: at)
            }
            bytes.withUnsafeBufferPointer { buffer in
                let changes = VisibleControls.escaped(buffer, keepingStyles: false) != bytes
                #expect(VisibleControls.needsEscaping(buffer) == changes, "\(bytes)")
            }
        }
    }
}
