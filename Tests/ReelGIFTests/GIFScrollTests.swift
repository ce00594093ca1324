// What the GIF writer and palette builder do with frames that scroll: rows hashed on two threads as on
// one, a scrolled frame's rectangle spanning the frame, and moved rows counted once for the palette.
import Foundation
import ReelTestSupport
import Testing

@testable import ReelGIF

@Suite struct GIFScrollTests {
    /// 1,200 rows of 1,920 pixels (9 MB, hashed on two threads): each row's hash is the one it has
    /// hashed alone, and rows that differ in one byte hash apart.
    @Test func rowsHashedOnTwoThreadsHashAsAlone() {
        let width = 1920 * 4, height = 1200
        var g = SeededGenerator(state: 7)
        var pixels = (0..<(width * height)).map { _ in UInt8.random(in: 0...255, using: &g) }
        // Rows 10 and 11 the same but for one byte.
        for x in 0..<width { pixels[11 * width + x] = pixels[10 * width + x] }
        pixels[11 * width + 4321] &+= 1
        var hashes = [UInt64](repeating: 0, count: height)
        pixels.withUnsafeBufferPointer {
            GIFRowHash.hash(rows: Array(0..<height), base: $0.baseAddress!, stride: width, count: width, into: &hashes)
        }
        pixels.withUnsafeBufferPointer { p in
            for y in [0, 1, 599, 600, 601, 1199] {
                #expect(hashes[y] == GIFRowHash.hash(p.baseAddress! + y * width, count: width), "row \(y)")
            }
        }
        #expect(hashes[10] != hashes[11])
    }

    /// A frame that scrolled is coded across the frame's width (so that its bands are found again
    /// whatever columns the next frame changes), in the rows that changed; a small one, or one that did
    /// not scroll, in its own rectangle.
    @Test func aScrolledFrameSpansTheFrame() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("reel-scroll-\(UUID().uuidString).gif").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try GIFFileWriter(
            path: path, width: 1000, height: 600, options: GIFOptions(), alpha: false, loop: 0, comment: nil,
            frameRate: (10, 1), firstFrame: 0)
        writer.scrolled = true
        let banded = writer.bandedRect((100, 20, 900, 590))
        #expect(banded?.left == 0 && banded?.top == 20 && banded?.right == 1000 && banded?.bottom == 590)
        // 800 × 200: under half the frame.
        #expect(writer.bandedRect((100, 20, 900, 220)) == nil)
        writer.scrolled = false
        #expect(writer.bandedRect((100, 20, 900, 590)) == nil)
    }

    /// Lines scrolling up a line a frame (GIFBandTests' frames, 640 × 480, every row sampled): a second
    /// frame that scrolled adds only its new line's pixels to the counts (its other rows show rows the
    /// first frame showed, counted once); frames that change as much without scrolling add every changed
    /// pixel, as before. Counts worked out here, pixel by pixel.
    @Test func rowsThatOnlyMovedAreCountedOnce() {
        let (width, height) = (GIFBandTests.width, GIFBandTests.height)
        func counts(_ frames: [[UInt8]], newFrom: Int) -> (builder: GIFPaletteBuilder, expected: [UInt32: Int]) {
            var builder = GIFPaletteBuilder()
            builder.add(rgba: frames[0], width: width, height: height)
            builder.add(rgba: frames[1], width: width, height: height, previous: frames[0])
            var expected: [UInt32: Int] = [:]
            for (f, frame) in frames.enumerated() {
                for y in (f == 0 ? 0 : newFrom)..<height {
                    for x in 0..<width {
                        let i = (y * width + x) * 4
                        if f == 1 && frame[i..<i + 4] == frames[0][i..<i + 4] { continue }
                        expected[UInt32(frame[i]) << 16 | UInt32(frame[i + 1]) << 8 | UInt32(frame[i + 2]), default: 0] += 1
                    }
                }
            }
            return (builder, expected)
        }
        let scrolled = counts(GIFBandTests.scrollingFrames(2), newFrom: height - GIFBandTests.line)
        let redrawn = counts(GIFBandTests.scrollingFrames(2, scrolling: false), newFrom: 0)
        for colour in GIFBandTests.palette {
            #expect(scrolled.builder.pixelCount(of: colour) == scrolled.expected[colour] ?? 0, "scrolled \(colour)")
            #expect(redrawn.builder.pixelCount(of: colour) == redrawn.expected[colour] ?? 0, "redrawn \(colour)")
        }
        // The moved rows are most of the frame: counted again, the text colours would have doubled.
        let text = GIFBandTests.palette[1]
        #expect(scrolled.expected[text, default: 0] * 3 < 2 * redrawn.expected[text, default: 0])
    }
}
