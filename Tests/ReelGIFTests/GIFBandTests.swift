// Frames coded in bands: segments put together are the coder's own stream, a band stream decodes to its
// pixels, and a scrolling clip's bands are written from the segments kept with the same bytes as coded afresh.
import Foundation
import ReelTestSupport
import Testing

@testable import ReelGIF

@Suite struct GIFBandTests {
    /// `count` indices below `colours` from a fixed seed, in runs of 1–8 (an image's runs, so that the
    /// dictionary fills and is cleared within the data).
    static func pixels(_ count: Int, colours: Int, seed: UInt64) -> [UInt8] {
        var g = SeededGenerator(state: seed)
        var out: [UInt8] = []
        while out.count < count {
            let c = UInt8(Int.random(in: 0..<colours, using: &g)), run = Int.random(in: 1...8, using: &g)
            out += [UInt8](repeating: c, count: min(run, count - out.count))
        }
        return out
    }

    static func exact(_ p: [UInt8]) -> GIFCodingInput {
        GIFCodingInput(kind: [UInt8](repeating: GIFPixel.exact, count: p.count), want: p, base: [], allowed: [])
    }

    /// A clear code, a segment and the end code, put together by `GIFCodeStream`, are the bytes the coder
    /// writes for the same pixels in one go (30,000 pixels: the dictionary is cleared inside).
    @Test func aSegmentBetweenClearAndEndIsTheWholeStream() {
        let p = Self.pixels(30_000, colours: 16, seed: 7)
        let whole = GIFLZWEncoder().encode(Self.exact(p), minimumCodeSize: 4, transparent: nil, distance: nil).bytes
        let (segment, coded) = GIFLZWEncoder().segment(Self.exact(p), minimumCodeSize: 4, transparent: nil)
        var stream = GIFCodeStream(capacity: 0)
        stream.write(16, width: 5)
        stream.append(segment)
        stream.write(17, width: segment.nextWidth)
        #expect(stream.finish() == whole)
        #expect(coded == p)
    }

    /// The exact coder (`segment(exact:)`, what bands coded whole use) writes the general coder's segment
    /// bit for bit: flat runs, 2 and 256 colours, lengths that fill the dictionary many times over, one
    /// coder used again and again (its dictionary's epochs).
    @Test func theExactCoderWritesTheGeneralCodersSegments() {
        let exact = GIFLZWEncoder(), general = GIFLZWEncoder()
        let cases: [(pixels: [UInt8], bits: Int)] = [
            ([3], 2), ([UInt8](repeating: 0, count: 50_000), 2), (Self.pixels(30_000, colours: 2, seed: 1), 2),
            (Self.pixels(70_000, colours: 16, seed: 2), 4), (Self.pixels(90_000, colours: 256, seed: 3), 8),
            ((0..<40_000).map { UInt8($0 / 97 % 64) }, 6),
        ]
        for (k, c) in cases.enumerated() {
            let a = exact.segment(exact: c.pixels, minimumCodeSize: c.bits)
            let b = general.segment(Self.exact(c.pixels), minimumCodeSize: c.bits, transparent: nil).segment
            #expect(a.bytes == b.bytes && a.bitCount == b.bitCount && a.nextWidth == b.nextWidth, "case \(k)")
        }
    }

    /// Three segments (of different lengths, so each starts at another bit of a byte), each after a clear
    /// code at the width the one before ends with, decode to the three runs of pixels one after another.
    @Test func segmentsAfterClearCodesDecodeToTheirPixels() throws {
        let parts = [
            Self.pixels(9_001, colours: 12, seed: 1), Self.pixels(333, colours: 12, seed: 2),
            Self.pixels(20_000, colours: 12, seed: 3),
        ]
        let coder = GIFLZWEncoder()
        var stream = GIFCodeStream(capacity: 0)
        var width = 5
        for part in parts {
            stream.write(16, width: width)
            let segment = coder.segment(Self.exact(part), minimumCodeSize: 4, transparent: nil).segment
            #expect(segment.bitCount > 0 && segment.bytes.count == (segment.bitCount + 7) / 8)
            stream.append(segment)
            width = segment.nextWidth
        }
        stream.write(17, width: width)
        let all = parts.flatMap { $0 }
        #expect(try decodeLZW(stream.finish(), codeSize: 4, count: all.count) == all)
    }

    /// Lines of "text" (blocks of colour on a background), 20 rows each, on a 640 × 480 canvas that
    /// scrolls up by one line a frame: every frame changes nearly everywhere, so it is coded in bands.
    static let width = 640, height = 480, line = 20
    static let palette: [UInt32] = [0x10_1418, 0xE0_E0E0, 0x5F_D75F, 0xFF_AF00, 0x5F_AFFF, 0xD7_5F5F]

    /// `count` frames of lines scrolling up a line a frame; `scrolling` false: each frame's lines drawn
    /// anew (as many changes, nothing moved).
    static func scrollingFrames(_ count: Int, scrolling: Bool = true) -> [[UInt8]] {
        var g = SeededGenerator(state: 42)
        let lines = (height / line) * (scrolling ? 1 : count) + count
        // Each line: up to 60 "glyphs" of 6–10 px, 12 rows high in the line's middle, each row of a glyph
        // 0–2 px shorter than its widest at random (so that a line's rows differ, as text's do).
        var content = [UInt8](repeating: 0, count: width * lines * line)
        for l in 0..<lines {
            var x = 8
            while x < width - 16 {
                let w = Int.random(in: 6...10, using: &g), c = UInt8(Int.random(in: 0..<palette.count, using: &g))
                for y in (l * line + 4)..<(l * line + 16) {
                    for u in x..<(x + w - Int.random(in: 0...2, using: &g)) { content[y * width + u] = c }
                }
                x += w + Int.random(in: 1...4, using: &g)
            }
        }
        return (0..<count).map { f in
            let shift = scrolling ? f * line : f * height
            var rgba = [UInt8](repeating: 0, count: width * height * 4)
            for y in 0..<height {
                for x in 0..<width {
                    let c = palette[Int(content[(y + shift) * width + x])], i = (y * width + x) * 4
                    rgba[i] = UInt8(c >> 16 & 255)
                    rgba[i + 1] = UInt8(c >> 8 & 255)
                    rgba[i + 2] = UInt8(c & 255)
                    rgba[i + 3] = 255
                }
            }
            return rgba
        }
    }

    static func write(_ frames: [[UInt8]], keepingBands: Bool) throws -> (bytes: [UInt8], reused: Int, banded: Int) {
        var options = GIFOptions()
        options.palette = palette
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("reel-bands-\(UUID().uuidString).gif").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try GIFFileWriter(
            path: path, width: width, height: height, options: options, alpha: false, loop: 0, comment: nil,
            frameRate: (10, 1), firstFrame: 0)
        writer.bands.keeps = keepingBands
        for frame in frames { try frame.withUnsafeBufferPointer { try writer.append(rgba: $0.baseAddress!, stride: width * 4) } }
        try writer.finish()
        return ([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), writer.bands.reused, writer.bands.frame)
    }

    /// Six frames scrolling by a line: the decoded GIF shows every frame exactly; bands of frames 2–6
    /// are written from the frame before's (a line's 13 different rows are cut before with a chance of
    /// 1 − (31/32)^13 ≈ 1/3, so a frame's 24 lines make about 8 bands, all but the first and the last
    /// found a frame before: at least 4 a frame); and the file is byte for byte the one written with every
    /// band coded afresh.
    @Test func scrollingBandsAreWrittenFromTheFrameBefore() throws {
        let frames = Self.scrollingFrames(6)
        let kept = try Self.write(frames, keepingBands: true)
        let fresh = try Self.write(frames, keepingBands: false)
        #expect(kept.reused >= 4 * 5, "\(kept.reused) bands reused")
        #expect(fresh.reused == 0)
        #expect(kept.bytes == fresh.bytes)
        // Frames 2–6 scrolled (the first has nothing before it).
        #expect(kept.banded == 5)
        let decoded = try decodeGIF(kept.bytes)
        #expect(decoded.frames.count == frames.count)
        for (f, frame) in decoded.frames.enumerated() where f < frames.count {
            #expect(frame == frames[f], "frame \(f)")
        }
    }

    /// Frames that change as much without scrolling (each frame's lines new) are coded whole, as every
    /// other frame is: none in bands, and they decode exactly.
    @Test func framesThatDoNotScrollAreCodedWhole() throws {
        let frames = Self.scrollingFrames(4, scrolling: false)
        let written = try Self.write(frames, keepingBands: true)
        #expect(written.banded == 0)
        let decoded = try decodeGIF(written.bytes)
        #expect(decoded.frames == frames)
    }
}
