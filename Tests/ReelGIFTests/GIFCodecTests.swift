// The GIF codec alone (no encoder, no reel binary): the clip palette's choice and order, and the join's refusal of a cut segment.
import Foundation
import Testing

@testable import ReelGIF

@Suite struct GIFPaletteTests {
    @Test func paletteBuilderIsDeterministicAndPerceptual() {
        // A smooth 2-D ramp of 4096 colours reduced to 16: the same palette every time, and a smaller
        // perceptual (Oklab) error than a 16-colour RGB grid (2 × 2 × 4 levels) chosen without looking.
        var px: [UInt8] = []
        for i in 0..<4096 { px += [UInt8(i % 256), UInt8(i / 16), UInt8(255 - i % 256), 255] }
        var b = GIFPaletteBuilder()
        b.add(rgba: px, width: 64, height: 64)
        let p1 = b.palette(count: 16), p2 = b.palette(count: 16)
        #expect(p1 == p2 && p1.count == 16)
        var grid: [UInt32] = []
        for r in [0, 255] {
            for g in [0, 255] { for bl in [0, 85, 170, 255] { grid.append(UInt32(r << 16 | g << 8 | bl)) } }
        }
        func error(_ palette: [UInt32]) -> Double {
            var total = 0.0
            for i in stride(from: 0, to: px.count, by: 4) {
                let lab = GIFPaletteBuilder.oklab(Int(px[i]), Int(px[i + 1]), Int(px[i + 2]))
                total += palette.map { c in
                    let d = GIFPaletteBuilder.oklab(Int(c >> 16), Int(c >> 8 & 255), Int(c & 255)) - lab
                    return Double((d * d).sum())
                }.min()!
            }
            return total / 4096
        }
        #expect(error(p1) < error(grid) / 2, "built \(error(p1)) vs grid \(error(grid))")
    }

    @Test func paletteOrderKeepsWhatMostFramesNeedLow() {
        // Four 2×2 frames: the first shows P (3 px) and Q (1 px); the second turns P's pixels R, the third
        // Q's pixel R, the fourth one pixel S. Hand-computed, greedy from the top: S (needed by one
        // frame, first shown last) takes index 3, and its frame stops counting; then Q (one frame, less
        // used than P), which frees the first frame's P; then P; R, which two frames need, takes index
        // 0. By first appearance it would be P Q R S.
        let p: [UInt8] = [10, 20, 30, 255], q: [UInt8] = [200, 40, 40, 255], r: [UInt8] = [40, 200, 40, 255],
            s: [UInt8] = [40, 40, 200, 255]
        let frames = [p + p + p + q, r + r + r + q, r + r + r + r, r + r + s + r]
        var b = GIFPaletteBuilder()
        var previous: [UInt8]?
        for f in frames {
            b.add(rgba: f, width: 2, height: 2, previous: previous)
            previous = f
        }
        func key(_ c: [UInt8]) -> UInt32 { UInt32(c[0]) << 16 | UInt32(c[1]) << 8 | UInt32(c[2]) }
        #expect(b.palette(count: 256) == [key(r), key(p), key(q), key(s)])
    }

    /// The rows and columns a frame may differ in, told to the builder, give the palette that comparing
    /// every pixel gives: a box of 300 shades moving over a still gradient of 300 more (a palette of
    /// 255 made from 600 colours, so every count matters), the box's old and new place told. Told a
    /// span that leaves the box out, the builder counts less, so the columns are used.
    @Test func changedRowsAndColumnsGiveTheWholeFramesPalette() {
        let width = 120, height = 60
        func frame(_ f: Int) -> [UInt8] {
            var px = [UInt8](repeating: 255, count: width * height * 4)
            for y in 0..<height {
                for x in 0..<width {
                    let p = (y * width + x) * 4
                    let inBox = (30 + 6 * f..<50 + 6 * f).contains(x) && (20..<35).contains(y)
                    let k = inBox ? (x - 6 * f) * 15 + (y - 20) : 300 + (x + y * width) % 300
                    (px[p], px[p + 1], px[p + 2]) = (UInt8(k % 256), UInt8(k / 256 * 90 + 20), UInt8(255 - k % 200))
                }
            }
            return px
        }
        let frames = (0..<4).map(frame)
        var whole = GIFPaletteBuilder(), told = GIFPaletteBuilder(), wrong = GIFPaletteBuilder()
        for (f, px) in frames.enumerated() {
            let previous = f == 0 ? nil : frames[f - 1]
            whole.add(rgba: px, width: width, height: height, previous: previous)
            // The box's columns before and after the move, every row it covers.
            let columns = f == 0 ? nil : (30 + 6 * (f - 1))..<(50 + 6 * f)
            told.add(rgba: px, width: width, height: height, previous: previous, rows: [20..<35], columns: columns)
            wrong.add(
                rgba: px, width: width, height: height, previous: previous, rows: [20..<35], columns: f == 0 ? nil : 0..<10)
        }
        #expect(told.palette(count: 255) == whole.palette(count: 255))
        #expect(wrong.palette(count: 255) != whole.palette(count: 255))
    }
}

@Suite struct GIFJoinTests {
    /// A two-frame 4×4 GIF written by the writer, in a fresh folder.
    static func written(in folder: URL, name: String) throws -> String {
        let path = folder.appendingPathComponent(name).path
        let writer = try GIFFileWriter(
            path: path, width: 4, height: 4, options: GIFOptions(), alpha: false, loop: 0, comment: nil,
            frameRate: (10, 1), firstFrame: 0)
        for colour: [UInt8] in [[255, 0, 0, 255], [0, 0, 255, 255]] {
            let rgba = [UInt8]((0..<16).flatMap { _ in colour })
            try rgba.withUnsafeBufferPointer { try writer.append(rgba: $0.baseAddress!, stride: 16) }
        }
        try writer.finish()
        return path
    }

    static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("reel-gif-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Two whole segments join into one file holding both segments' frames after one header: its size is
    /// twice a segment's less one header (with its loop extension) and one trailer.
    @Test func joinKeepsOneHeaderAndEveryFrame() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = try Self.written(in: dir, name: "a.gif")
        let out = dir.appendingPathComponent("joined.gif").path
        try GIFJoiner.join([a, a], to: out)
        let one = try Data(contentsOf: URL(fileURLWithPath: a)), joined = try Data(contentsOf: URL(fileURLWithPath: out))
        // Header: 13 bytes, a global table of 2^(bits+1) entries; NETSCAPE2.0: 19 bytes; trailer: 1.
        let table = 3 << (Int(one[10] & 7) + 1)
        #expect(joined.count == 2 * one.count - (13 + table + 19) - 1)
        #expect(joined.last == 0x3B)
    }

    /// A segment cut short (an interrupted copy) is refused with where it breaks off, naming the file.
    @Test func refusesACutSegment() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = try Self.written(in: dir, name: "a.gif")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: a))
        try bytes.dropLast().write(to: URL(fileURLWithPath: a))
        let out = dir.appendingPathComponent("joined.gif").path
        #expect(throws: GIFError.notWhole(path: a, reason: "it has no trailer (the file is incomplete)")) {
            try GIFJoiner.join([a], to: out)
        }
        #expect(!FileManager.default.fileExists(atPath: out))
    }
}
