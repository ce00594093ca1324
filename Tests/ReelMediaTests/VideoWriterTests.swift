// The MP4 and GIF writers read back: stream properties, BT.709 tags, atom order, PSNR, timestamps, GIF delays from the bytes.
import Foundation
import ReelMedia
import ReelTestSupport
import Testing

@Suite struct MP4Tests {
    func write(_ pattern: TestPattern, frames: Int, rate: (Int, Int), to path: String) throws {
        let settings = VideoSettings(
            width: pattern.width, height: pattern.height, frameRateNumerator: rate.0,
            frameRateDenominator: rate.1, container: .mp4)
        let writer = try VideoWriter(path: path, settings: settings)
        for i in 0..<frames { try writer.append(rgba: pattern.frame(i)) }
        try writer.finish()
    }

    /// Frames told where they changed (the renderer's damage: only those rows are converted) make the
    /// same file as frames converted whole, told exactly (rows starting at odd places, so a 4:2:0 row pair
    /// is half changed) or generously; a frame told nothing changed repeats the one before.
    @Test func rowsToldGiveTheSameFile() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (w, h) = (64, 48)
        let frames: [[UInt8]] = (0..<12).map { f in
            var px = [UInt8](repeating: 0, count: w * h * 4)
            for y in 0..<h {
                for x in 0..<w {
                    let p = (y * w + x) * 4
                    let inSquare = (3 * f..<3 * f + 7).contains(x) && (5 + f..<10 + f).contains(y) && f != 6
                    (px[p], px[p + 1], px[p + 2], px[p + 3]) =
                        inSquare ? (250, 40, 20, 255) : (UInt8(x * 4), UInt8(y * 5), UInt8((x + y) * 2), 255)
                }
            }
            return px
        }
        func changed(_ f: Int) -> [Range<Int>] {
            (0..<h).filter { y in frames[f][y * w * 4..<(y + 1) * w * 4] != frames[f - 1][y * w * 4..<(y + 1) * w * 4] }
                .map { $0..<$0 + 1 }
        }
        func written(_ name: String, _ rows: (Int) -> [Range<Int>]?) throws -> Data {
            let settings = VideoSettings(width: w, height: h, frameRateNumerator: 30, frameRateDenominator: 1, container: .mp4)
            let writer = try VideoWriter(path: dir + "/" + name, settings: settings)
            for f in frames.indices { try writer.append(rgba: frames[f], changedRows: f == 0 ? nil : rows(f)) }
            try writer.finish()
            return try Data(contentsOf: URL(fileURLWithPath: dir + "/" + name))
        }
        let whole = try written("whole.mp4") { _ in nil }
        #expect(try written("told.mp4") { changed($0) } == whole)
        #expect(try written("generous.mp4") { changed($0) + [40..<45] } == whole)
        #expect(try written("short.mp4") { Array(changed($0).prefix(1)) } != whole, "rows cut short must show")
    }

    @Test func streamPropertiesAndBT709Tags() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/clip.mp4"
        try write(TestPattern(width: 64, height: 48), frames: 30, rate: (30, 1), to: path)

        let reader = try VideoReader(path: path)
        let info = reader.info
        #expect(info.codecName == "h264")
        #expect(info.pixelFormat == "yuv420p")
        #expect(info.width == 64 && info.height == 48)
        #expect(info.averageFrameRate.numerator == 30 && info.averageFrameRate.denominator == 1)
        #expect(abs((info.duration ?? 0) - 1.0) < 1e-6, "duration \(String(describing: info.duration))")
        #expect(info.colorPrimaries == "bt709" && info.colorTransfer == "bt709" && info.colorMatrix == "bt709")
        #expect(info.colorRange == "tv")
        let frames = try reader.decodeAll()
        #expect(frames.count == 30)
        for (i, f) in frames.enumerated() {
            #expect(abs(f.time - Double(i) / 30) < 1e-6, "frame \(i) at \(f.time)")
        }
    }

    static func atomOrder(path: String) -> [String] {
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        let b = [UInt8](data)
        var i = 0
        var names: [String] = []
        while i + 8 <= b.count {
            let size = Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3])
            names.append(String(decoding: b[(i + 4)..<(i + 8)], as: UTF8.self))
            guard size >= 8 else { break }
            i += size
        }
        return names
    }

    /// The container's own colour box (`colr`, type `nclx`), read from the file's bytes: primaries 1,
    /// transfer 1, matrix 1 (BT.709) and the full-range bit clear (limited range), matching the bitstream.
    @Test func colrAtomSaysBT709LimitedRange() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try write(TestPattern(width: 32, height: 32), frames: 2, rate: (30, 1), to: dir + "/c.mp4")
        let bytes = [UInt8](FileManager.default.contents(atPath: dir + "/c.mp4")!)
        let tag = Array("colrnclx".utf8)
        let at = try #require((0..<(bytes.count - 15)).first { Array(bytes[$0..<($0 + 8)]) == tag })
        let fields = Array(bytes[(at + 8)..<(at + 15)])
        #expect(fields == [0, 1, 0, 1, 0, 1, 0], "colr nclx fields \(fields)")
    }

    /// +faststart: the index (moov) comes before the media data, so a browser can start playing at once.
    @Test func moovBeforeMdat() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try write(TestPattern(width: 32, height: 32), frames: 5, rate: (30, 1), to: dir + "/a.mp4")
        let atoms = Self.atomOrder(path: dir + "/a.mp4")
        let moov = try #require(atoms.firstIndex(of: "moov")), mdat = try #require(atoms.firstIndex(of: "mdat"))
        #expect(moov < mdat, "\(atoms)")
    }

    /// Thresholds: flat synthetic content at CRF 18 decodes at ≥ 40 dB PSNR; the centre of each flat
    /// patch comes back within ±2 levels per channel. A BT.601/BT.709 or full/limited-range mismatch
    /// anywhere between the writer's matrix, its tags and the reader moves these saturated colours by
    /// 5 to 30 levels, so this catches it. The pattern's colour edges fall on 2×2 chroma blocks and the
    /// reader repeats chroma instead of interpolating it, so the PSNR measures the encoder and the colour
    /// conversions; with a player's interpolated chroma, 4:2:0 alone limits hard saturated edges like
    /// these to about 28 dB, whatever the encoder.
    @Test func pixelsRoundTrip() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let pattern = TestPattern(width: 64, height: 48)
        try write(pattern, frames: 10, rate: (30, 1), to: dir + "/clip.mp4")
        let frames = try VideoReader(path: dir + "/clip.mp4").decodeAll(nearestChroma: true)
        #expect(frames.count == 10)
        for (i, decoded) in frames.enumerated() {
            let source = pattern.frame(i)
            let quality = psnr(decoded.rgba, source)
            #expect(quality >= Tolerance.encodedPSNR, "frame \(i): PSNR \(quality) dB")
            for (q, (x, y)) in [(24, 20), (48, 12), (16, 36), (48, 36)].enumerated() {
                let expected = pattern.colour(x: x, y: y, frame: i)
                let k = (y * 64 + x) * 4
                let got = (decoded.rgba[k], decoded.rgba[k + 1], decoded.rgba[k + 2])
                #expect(
                    abs(Int(got.0) - Int(expected.0)) <= Tolerance.encodedPatchLevels
                        && abs(Int(got.1) - Int(expected.1)) <= Tolerance.encodedPatchLevels
                        && abs(Int(got.2) - Int(expected.2)) <= Tolerance.encodedPatchLevels,
                    "frame \(i) patch \(q): \(got) vs \(expected)")
            }
        }
    }

    @Test func fractionalFrameRateHasExactTimestamps() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try write(TestPattern(width: 32, height: 32), frames: 12, rate: (30000, 1001), to: dir + "/ntsc.mp4")
        let reader = try VideoReader(path: dir + "/ntsc.mp4")
        #expect(reader.info.averageFrameRate.numerator == 30000 && reader.info.averageFrameRate.denominator == 1001)
        let frames = try reader.decodeAll()
        #expect(frames.count == 12)
        for (i, f) in frames.enumerated() {
            #expect(abs(f.time - Double(i) * 1001 / 30000) < 1e-6, "frame \(i) at \(f.time)")
        }
        #expect(abs((reader.info.duration ?? 0) - 12 * 1001 / 30000) < 1e-6)
    }

    @Test func oddSizeIsPaddedByRepeatingTheEdge() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let pattern = TestPattern(width: 63, height: 47)
        let settings = VideoSettings(width: 63, height: 47, frameRateNumerator: 25, frameRateDenominator: 1, container: .mp4)
        #expect(settings.encodedWidth == 64 && settings.encodedHeight == 48)
        try write(pattern, frames: 3, rate: (25, 1), to: dir + "/odd.mp4")
        let frames = try VideoReader(path: dir + "/odd.mp4").decodeAll()
        #expect(frames.count == 3 && frames[0].width == 64 && frames[0].height == 48)
        // The padding column repeats column 62 (a flat patch): the bottom-right corner keeps its colour.
        let k = (47 * 64 + 63) * 4
        let expected = pattern.colour(x: 62, y: 46, frame: 0)
        #expect(
            abs(Int(frames[0].rgba[k]) - Int(expected.0)) <= Tolerance.encodedPatchLevels
                && abs(Int(frames[0].rgba[k + 2]) - Int(expected.2)) <= Tolerance.encodedPatchLevels)
    }

    @Test func wrongFrameSizeIsAnError() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let writer = try VideoWriter(
            path: dir + "/x.mp4", settings: VideoSettings(width: 16, height: 16, frameRateNumerator: 30, container: .mp4))
        #expect(throws: MediaError.self) { try writer.append(rgba: [0, 0, 0, 255]) }
    }

    @Test func unreadableFileNamesTheCall() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        _ = FileManager.default.createFile(atPath: dir + "/junk.mp4", contents: Data("not a video".utf8))
        do {
            _ = try VideoReader(path: dir + "/junk.mp4")
            Issue.record("junk decoded")
        } catch {
            #expect(error.call.hasPrefix("avformat_open_input") || error.call.hasPrefix("avformat_find_stream_info"))
            #expect(error.code != nil && !error.message.isEmpty)
        }
    }
}

@Suite struct GIFTests {
    /// Without a clip palette the writer falls back to the fixed 6×7×6 cube; with ordered dithering.
    /// Unless `merge`, every frame is written (the test pattern repeats some), so each delay shows.
    func write(_ pattern: TestPattern, frames: Int, rate: (Int, Int), to path: String, merge: Bool = false) throws {
        var settings = VideoSettings(
            width: pattern.width, height: pattern.height,
            frameRateNumerator: rate.0, frameRateDenominator: rate.1, container: .gif)
        settings.gif.dither = .bayer
        settings.gif.mergeFrames = merge
        let writer = try VideoWriter(path: path, settings: settings)
        for i in 0..<frames { try writer.append(rgba: pattern.frame(i)) }
        try writer.finish()
    }

    @Test func loopsForeverWithExactAverageRate() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try write(TestPattern(width: 40, height: 30), frames: 30, rate: (30, 1), to: dir + "/a.gif")
        let bytes = [UInt8](FileManager.default.contents(atPath: dir + "/a.gif")!)
        let (loop, delays) = gifLoopAndDelays(bytes)
        #expect(loop == 0)  // NETSCAPE2.0 loop count 0 = forever
        #expect(delays.count == 30)
        // Frame i starts at round(100·i/30) cs: 0, 3, 7, 10, 13, 17, … so the delays run 3, 4, 3, 3, 4, 3 …
        // and add up to exactly 100 cs for 30 frames at 30 fps.
        #expect(Array(delays.prefix(6)) == [3, 4, 3, 3, 4, 3])
        #expect(delays.reduce(0, +) == 100)

        let reader = try VideoReader(path: dir + "/a.gif")
        #expect(reader.info.codecName == "gif")
        #expect(reader.info.width == 40 && reader.info.height == 30)
        #expect(try reader.decodeAll().count == 30)
    }

    /// Merged, a repeated frame lengthens the one before it: every frame still starts where a clip
    /// frame starts (round(100·i/30) cs), and the delays still add up to 100 cs.
    @Test func mergedFramesStartOnClipFrames() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try write(TestPattern(width: 40, height: 30), frames: 30, rate: (30, 1), to: dir + "/m.gif", merge: true)
        let delays = gifLoopAndDelays([UInt8](FileManager.default.contents(atPath: dir + "/m.gif")!)).delays
        let clipStarts = Set((0..<30).map { (2 * $0 * 100 + 30) / 60 })
        let starts = delays.indices.map { delays.prefix($0).reduce(0, +) }
        #expect(delays.count < 30 && delays.reduce(0, +) == 100)
        #expect(Set(starts).isSubset(of: clipStarts), "\(starts)")
    }

    @Test func delaysForOtherRates() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try write(TestPattern(width: 16, height: 16), frames: 10, rate: (25, 1), to: dir + "/25.gif")
        #expect(
            gifLoopAndDelays([UInt8](FileManager.default.contents(atPath: dir + "/25.gif")!)).delays
                == Array(repeating: 4, count: 10))
        try write(TestPattern(width: 16, height: 16), frames: 30, rate: (30000, 1001), to: dir + "/ntsc.gif")
        let d = gifLoopAndDelays([UInt8](FileManager.default.contents(atPath: dir + "/ntsc.gif")!)).delays
        // 30 frames at 29.97 fps last 30·1001/300 = 100.1 cs → rounded to 100.
        #expect(d.count == 30 && d.reduce(0, +) == 100)
    }

    @Test func gifRateDivisor() {
        #expect(VideoContainer.gif.frameRateDivisor(numerator: 30, denominator: 1) == 1)
        #expect(VideoContainer.gif.frameRateDivisor(numerator: 50, denominator: 1) == 1)
        #expect(VideoContainer.gif.frameRateDivisor(numerator: 60, denominator: 1) == 2)
        #expect(VideoContainer.gif.frameRateDivisor(numerator: 120, denominator: 1) == 3)
        #expect(VideoContainer.gif.frameRateDivisor(numerator: 60000, denominator: 1001) == 2)
        #expect(VideoContainer.mp4.frameRateDivisor(numerator: 120, denominator: 1) == 1)
    }

    /// With a fixed 252-colour palette the GIF cannot keep every colour, but the ordered dither keeps the
    /// local average: over each 8×8 Bayer tile of a flat patch the mean is within ±3 levels of the source
    /// (the 64 thresholds resolve 1/64 of a palette step, 51/64 ≈ 0.8 level, plus rounding of the levels).
    @Test func flatPatchesKeepTheirAverageColour() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let pattern = TestPattern(width: 64, height: 48)
        try write(pattern, frames: 2, rate: (30, 1), to: dir + "/p.gif")
        let frames = try VideoReader(path: dir + "/p.gif").decodeAll()
        #expect(frames.count == 2)
        for (f, decoded) in frames.enumerated() {
            for (tx, ty) in [(16, 32), (40, 0), (8, 32), (40, 32)] {
                var sum = (0, 0, 0)
                for y in ty..<(ty + 8) {
                    for x in tx..<(tx + 8) {
                        let k = (y * 64 + x) * 4
                        sum.0 += Int(decoded.rgba[k])
                        sum.1 += Int(decoded.rgba[k + 1])
                        sum.2 += Int(decoded.rgba[k + 2])
                    }
                }
                let expected = pattern.colour(x: tx, y: ty, frame: f)
                let mean = (Double(sum.0) / 64, Double(sum.1) / 64, Double(sum.2) / 64)
                #expect(
                    abs(mean.0 - Double(expected.0)) <= 3 && abs(mean.1 - Double(expected.1)) <= 3
                        && abs(mean.2 - Double(expected.2)) <= 3,
                    "frame \(f) tile (\(tx), \(ty)): \(mean) vs \(expected)")
            }
        }
    }
}
