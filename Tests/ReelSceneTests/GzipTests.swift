/// Gzip.inflate against the gzip tool's own files (an independent deflate): what goes in comes out, the
/// limit holds to the byte, and damage is refused rather than half-read.
import Foundation
import ReelDocument
import Testing

@Suite struct GzipTests {
    /// `bytes` compressed by /bin/gzip, with the file's name in the header (gzip's FNAME field).
    static func gzipped(_ bytes: [UInt8]) throws -> [UInt8] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("reel-gzip-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let plain = folder.appendingPathComponent("drawing.svg")
        try Data(bytes).write(to: plain)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/gzip")
        p.arguments = ["-9", plain.path]
        try p.run()
        p.waitUntilExit()
        return [UInt8](try Data(contentsOf: folder.appendingPathComponent("drawing.svg.gz")))
    }

    /// 3 MB of varied bytes (a linear congruential sequence, so deflate has something to do) come back
    /// byte for byte; a limit of exactly their size passes, one byte less is refused.
    @Test func roundTripAndTheLimitToTheByte() throws {
        var x: UInt32 = 12345
        let plain = (0..<3_000_000).map { i -> UInt8 in
            x = x &* 1_103_515_245 &+ 12345
            return i % 7 == 0 ? UInt8(x >> 24) : UInt8(i % 61)
        }
        let packed = try Self.gzipped(plain)
        #expect(Gzip.isCompressed(packed) && !Gzip.isCompressed(Array("<svg/>".utf8)))
        #expect(try Gzip.inflate(packed, file: "d.svgz", maximumBytes: plain.count, what: "a test") == plain)
        #expect(throws: DocumentError.self) {
            try Gzip.inflate(packed, file: "d.svgz", maximumBytes: plain.count - 1, what: "a test")
        }
    }

    /// Cut short, a flipped bit in the CRC, a flipped bit in the stream, not gzip at all: each refused.
    @Test func damageIsRefused() throws {
        let plain = Array(String(repeating: "<rect width='10' height='10'/>", count: 200).utf8)
        let packed = try Self.gzipped(plain)
        var crc = packed
        crc[crc.count - 6] ^= 1
        var stream = packed
        stream[stream.count / 2] ^= 0x55
        for damaged in [Array(packed.dropLast(5)), Array(packed.prefix(20)), crc, stream, [0x1F, 0x8B, 8, 0] + plain] {
            #expect(throws: DocumentError.self) {
                try Gzip.inflate(damaged, file: "d.svgz", maximumBytes: 1 << 20, what: "a test")
            }
        }
    }
}
