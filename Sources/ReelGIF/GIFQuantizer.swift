/// GIF colour: the options (colours, dithering, alpha threshold, lossy tolerance), the Oklab palette
/// quantizer and the per-frame mapping to palette indices.
import Foundation

/// How GIF frames are reduced to a palette.
public struct GIFOptions: Sendable, Hashable {
    public enum Dither: String, Sendable, CaseIterable {
        /// Ordered 8×8 Bayer dithering: the pattern is fixed to the pixel grid, so still areas dither the
        /// same way in every frame (nothing crawls) and stay unchanged for frame differencing.
        case bayer
        /// Nearest colour only: flat areas stay flat, gradients band.
        case none
    }

    /// Palette size, 2…255 (one entry is kept transparent for frame differencing and alpha).
    public var colors = 255
    /// Nearest colour by default: on the reference animations (flat UI with anti-aliased edges and a
    /// gradient) it scores the same or a higher SSIM than Bayer mixing, at the same or fewer bytes
    /// (BENCHMARKS.md). Bayer helps smooth gradients and photographs with few colours to spare.
    public var dither: Dither = .none
    /// With alpha: pixels with alpha at or above this (0…255) are drawn, the others transparent.
    public var alphaThreshold = 128
    /// With alpha: instead of one threshold, the ordered (Bayer) pattern decides, so a pixel at alpha a
    /// is drawn in a/255 of a tile: soft edges and translucent areas become a stable stipple.
    public var alphaDither = false
    /// Frame differencing: each frame after the first is cropped to the rectangle that changed and its
    /// unchanged pixels are transparent, so static regions cost nothing. Off only to compare.
    public var differencing = true
    /// Lossy differencing, in 8-bit levels (opaque clips): after the first frame, a pixel whose colour
    /// is within this of what the GIF already shows there (every channel) keeps its palette index, so
    /// the encoder's differencing skips it and slow fades cost little. 0 is exact.
    public var tolerance = 0
    /// Lossy LZW, 0 (off) … 200 (`lossyLevels`): a pixel may be coded as another palette colour within
    /// this many thousandths of Oklab's lightness range of the one intended (20 is about one
    /// just-noticeable difference) when that continues the compressor's string; a pixel whose shown
    /// colour is still that near is left as it is. From 11 up (heavier than the docs-gif preset's 10) the
    /// coder searches the dictionary for the longest string within the allowances, and a pixel in a
    /// gradient may also take a neighbouring band's colour (within one just-noticeable difference, at
    /// most the level).
    public var lossy = 0
    /// The lossy levels. The scale ran to 100 until that level still scored a better SSIM than
    /// gifsicle's heavier `--lossy` points (whose own scale runs to 200), so those could not be
    /// compared; past 100 the bound keeps growing (0.2 of Oklab at 200).
    public static let lossyLevels = 0...200
    /// Identical consecutive frames written as one frame with their delays summed. Off for segments,
    /// whose join counts their frames.
    public var mergeFrames = true
    /// The palette for the whole clip (0xRRGGBB), built by `GIFPaletteBuilder` from the clip's frames;
    /// nil falls back to a fixed 6×7×6 cube.
    public var palette: [UInt32]?

    public init() {}
}

/// Oklab (Björn Ottosson, 2020): a perceptual space in which Euclidean distance tracks visible
/// difference, so a palette chosen and matched there spends its colours where the eye sees them.
enum Oklab {
    /// sRGB 8-bit → linear, by table.
    static let linear: [Float] = (0..<256).map { i in
        let c = Float(i) / 255
        return c <= 0.04045 ? c / 12.92 : powf((c + 0.055) / 1.055, 2.4)
    }

    static func fromSRGB(_ r: Int, _ g: Int, _ b: Int) -> SIMD3<Float> {
        fromLinear(linear[r], linear[g], linear[b])
    }

    static func fromLinear(_ r: Float, _ g: Float, _ b: Float) -> SIMD3<Float> {
        let l = cbrtf(0.412_221_470_8 * r + 0.536_332_536_3 * g + 0.051_445_992_9 * b)
        let m = cbrtf(0.211_903_498_2 * r + 0.680_699_545_1 * g + 0.107_396_956_6 * b)
        let s = cbrtf(0.088_302_461_9 * r + 0.281_718_837_6 * g + 0.629_978_700_5 * b)
        return SIMD3(
            0.210_454_255_3 * l + 0.793_617_785_0 * m - 0.004_072_046_8 * s,
            1.977_998_495_1 * l - 2.428_592_205_0 * m + 0.450_593_709_9 * s,
            0.025_904_037_1 * l + 0.782_771_766_2 * m - 0.808_675_766_0 * s)
    }

    /// Oklab → 8-bit sRGB, rounded and clamped.
    static func toSRGB(_ c: SIMD3<Float>) -> (Int, Int, Int) {
        let l_ = c.x + 0.396_337_777_4 * c.y + 0.215_803_757_3 * c.z
        let m_ = c.x - 0.105_561_345_8 * c.y - 0.063_854_172_8 * c.z
        let s_ = c.x - 0.089_484_177_5 * c.y - 1.291_485_548_0 * c.z
        let l = l_ * l_ * l_, m = m_ * m_ * m_, s = s_ * s_ * s_
        let r = 4.076_741_662_1 * l - 3.307_711_591_3 * m + 0.230_969_929_2 * s
        let g = -1.268_438_004_6 * l + 2.609_757_401_1 * m - 0.341_319_396_5 * s
        let b = -0.004_196_086_3 * l - 0.703_418_614_7 * m + 1.707_614_701_0 * s
        func encode(_ v: Float) -> Int {
            let c = max(0, min(1, v))
            let e = c <= 0.003_130_8 ? 12.92 * c : 1.055 * powf(c, 1 / 2.4) - 0.055
            return Int((e * 255).rounded())
        }
        return (encode(r), encode(g), encode(b))
    }
}

/// Builds one palette for a whole clip from samples of its frames: median cut in Oklab (each cut
/// splits the box with the largest error along its widest axis, at the weighted median), refined by a
/// few rounds of k-means. Colours that occur exactly and often (flat UI fills, the background) are
/// kept exactly.
public struct GIFPaletteBuilder {
    /// What the samples show of one colour: its pixel count (opaque pixels only), the sample it first
    /// appeared in, and the last sample it was seen in (a sample lists each colour once).
    private struct Tally {
        var count: Int
        var first: Int
        var last: Int
    }
    /// Colour (0xRRGGBB) → its tally: one dictionary access a pixel.
    private var tallies: [UInt32: Tally] = [:]
    /// Per sample, the colours its changed pixels show (the palette's order needs each frame's colours):
    /// exactly up to 1,024 of them, else as a set of 15-bit colours (5 bits a channel, 512 words), so
    /// each sample holds at most 4 KiB whatever the frame shows.
    private var changed: [(exact: [UInt32], buckets: [UInt64])] = []
    private var samples = 0
    /// The hashes of the last frame added's rows (`GIFRowHash`), kept while frames come with the one
    /// before them: empty when not known.
    private var rowHashes: [UInt64] = []

    public init() {}

    /// The pixels counted of a colour (0xRRGGBB) so far, each weighted by the sampling grid's cell.
    func pixelCount(of colour: UInt32) -> Int { tallies[colour]?.count ?? 0 }

    /// A colour in Oklab (for measuring palettes).
    public static func oklab(_ r: Int, _ g: Int, _ b: Int) -> SIMD3<Float> { Oklab.fromSRGB(r, g, b) }

    /// Adds a frame: RGBA rows (opaque or premultiplied; pixels under the alpha threshold are skipped).
    /// Large frames are sampled on a grid of about 250 000 pixels. With the `previous` frame, only the
    /// pixels that changed count (ffmpeg's stats_mode=diff): the palette goes to what moves, while the
    /// still parts were counted with the first frame. `rows`, with `previous`, are the rows where the two
    /// may differ (nil: any): the rest are not compared at all, which gives the same counts (a frame of a
    /// docs GIF where one dot moves was compared whole, a quarter of such a render's time). `columns`,
    /// with `rows`, likewise: the columns where they may differ (nil: any); a 1080p GIF's moving dot had
    /// each of its rows compared across the frame (146 M instructions, 9 % of the GIF's).
    public mutating func add(
        rgba: [UInt8], width: Int, height: Int, alphaThreshold: Int = 128, previous: [UInt8]? = nil,
        rows: [Range<Int>]? = nil, columns: Range<Int>? = nil
    ) {
        let step = max(1, Int((Double(width * height) / 250_000).squareRoot().rounded(.down)))
        var exact: [UInt32] = [], buckets: [UInt64] = []
        let sample = samples, weight = step * step
        var sampledRows = Array(stride(from: 0, to: height, by: step))
        let gridRows = sampledRows.count
        if previous != nil, let rows { sampledRows.removeAll { y in !rows.contains { $0.contains(y) } } }
        if let previous {
            sampledRows = unmoved(
                sampledRows, rgba: rgba, previous: previous, width: width, height: height, rows: rows, gridRows: gridRows)
        } else {
            rowHashes = []
        }
        // The sampling grid's columns within `columns` (the same columns of the same grid).
        var sampledColumns = stride(from: 0, to: width, by: step)
        if previous != nil, rows != nil, let columns {
            let lo = max(0, columns.lowerBound), hi = min(width, max(lo, columns.upperBound))
            sampledColumns = stride(from: (lo + step - 1) / step * step, to: hi, by: step)
        }
        // The colour of the last pixel counted (never a 24-bit key when none) and its entry.
        var lastKey = UInt32.max, lastIndex = tallies.startIndex
        rgba.withUnsafeBufferPointer { px in
            for y in sampledRows {
                for x in sampledColumns {
                    let i = (y * width + x) * 4
                    if let previous, previous[i] == px[i], previous[i + 1] == px[i + 1], previous[i + 2] == px[i + 2],
                        previous[i + 3] == px[i + 3]
                    {
                        continue
                    }
                    let a = Int(px[i + 3])
                    guard a >= alphaThreshold else { continue }
                    var r = Int(px[i]), g = Int(px[i + 1]), b = Int(px[i + 2])
                    if a < 255 {
                        r = min(255, (r * 255 + a / 2) / a)
                        g = min(255, (g * 255 + a / 2) / a)
                        b = min(255, (b * 255 + a / 2) / a)
                    }
                    let key = UInt32(r << 16 | g << 8 | b)
                    // A flat fill repeats its colour pixel after pixel: counted without hashing it again.
                    if key == lastKey {
                        tallies.values[lastIndex].count += weight
                        continue
                    }
                    if let k = tallies.index(forKey: key) {
                        lastKey = key
                        lastIndex = k
                        tallies.values[k].count += weight
                        if tallies.values[k].last == sample { continue }
                        tallies.values[k].last = sample
                    } else {
                        tallies[key] = Tally(count: weight, first: sample, last: sample)
                        // Inserting may move every entry: the next pixel looks its colour up.
                        lastKey = UInt32.max
                    }
                    // The first time this sample shows the colour.
                    if buckets.isEmpty {
                        exact.append(key)
                        if exact.count > 1024 {
                            buckets = [UInt64](repeating: 0, count: 512)
                            for k in exact { Self.mark(k, in: &buckets) }
                            exact = []
                        }
                    } else {
                        Self.mark(key, in: &buckets)
                    }
                }
            }
        }
        changed.append((exact, buckets))
        samples += 1
    }

    /// Frames whose changed rows hold fewer pixels than this are counted changed pixel by changed pixel
    /// whatever moved (a few rows found again elsewhere in a small frame are not text that scrolls).
    static let scrolledArea = 1 << 16

    /// `sampled` (rows that may have changed since `previous`) without those that only moved, where
    /// the frame scrolled: most of the sampled rows changed (`scrolledArea` pixels at least), and most of
    /// those show a row `previous` showed elsewhere (text that scrolls). Such a row shows colours counted
    /// already; counted again in every sample as it moved up a screen of output, a log's lines outweighed
    /// all else, and counting them took a fifth of a 1080p terminal GIF's time on the thread every frame
    /// waits for. A frame where less moves (a shape going down) is counted as before, changed pixel
    /// by changed pixel. Keeps `rowHashes` up to date with `rgba`.
    private mutating func unmoved(
        _ sampled: [Int], rgba: [UInt8], previous: [UInt8], width: Int, height: Int, rows: [Range<Int>]?, gridRows: Int
    ) -> [Int] {
        let rowBytes = width * 4
        // Too few rows may have changed to pass the test below (most changes are small): nothing hashed
        // (the hashes, no longer the frame's, are forgotten and made again when needed).
        let gridArea = gridRows > 0 ? width * height / gridRows : 0
        guard rgba.count == rowBytes * height, previous.count == rgba.count, rowBytes > 0, 2 * sampled.count >= gridRows,
            sampled.count * gridArea >= Self.scrolledArea
        else {
            rowHashes = []
            return sampled
        }
        var before = rowHashes
        if before.count != height {
            before = [UInt64](repeating: 0, count: height)
            previous.withUnsafeBufferPointer {
                GIFRowHash.hash(rows: Array(0..<height), base: $0.baseAddress!, stride: rowBytes, count: rowBytes, into: &before)
            }
        }
        var now = before
        let changedRows =
            rows.map { $0.flatMap { max(0, $0.lowerBound)..<min(height, max(0, $0.upperBound)) } } ?? Array(0..<height)
        rgba.withUnsafeBufferPointer {
            GIFRowHash.hash(rows: changedRows, base: $0.baseAddress!, stride: rowBytes, count: rowBytes, into: &now)
        }
        rowHashes = now
        var firstOf: [UInt64: Int] = [:]
        firstOf.reserveCapacity(height)
        for (y, h) in before.enumerated() where firstOf[h] == nil { firstOf[h] = y }
        // By their hashes alone (not compared byte for byte, as the writer's rows are): a colour's count,
        // not any pixel, depends on it, and comparing the rows read 16 MB more a 1080p sample.
        var moved = Set<Int>(), changed = 0
        for y in sampled where now[y] != before[y] {
            changed += 1
            if let from = firstOf[now[y]], from != y { moved.insert(y) }
        }
        guard !moved.isEmpty, 2 * moved.count >= changed, 2 * changed >= gridRows, changed * gridArea >= Self.scrolledArea
        else { return sampled }
        return sampled.filter { !moved.contains($0) }
    }

    @inline(__always) private static func bucket(_ key: UInt32) -> Int {
        Int(key >> 19 & 31) << 10 | Int(key >> 11 & 31) << 5 | Int(key >> 3 & 31)
    }

    @inline(__always) private static func mark(_ key: UInt32, in buckets: inout [UInt64]) {
        let b = bucket(key)
        buckets[b >> 6] |= 1 << UInt64(b & 63)
    }

    /// At most `count` colours, 0xRRGGBB.
    public func palette(count: Int) -> [UInt32] {
        // Sorted: Dictionary order differs from process to process, and the output must not. Each
        // colour's Oklab worked out once for both steps (three cube roots a colour).
        let clip = tallies.sorted { $0.key < $1.key }
        let labs = clip.map { Oklab.fromSRGB(Int($0.key >> 16), Int($0.key >> 8 & 255), Int($0.key & 255)) }
        let colours = clip.count <= count ? clip.map(\.key) : reduced(to: count, clip: clip, labs: labs)
        return ordered(colours, clip: clip, labs: labs)
    }

    /// The clip's colours (`clip`, their Oklab `labs`) reduced to `count`.
    private func reduced(to count: Int, clip: [(key: UInt32, value: Tally)], labs: [SIMD3<Float>]) -> [UInt32] {
        struct Entry {
            var lab: SIMD3<Float>
            var weight: Float
        }
        let histogram = clip.map { (key: $0.key, n: $0.value.count) }
        var entries = zip(histogram, labs).map { h, lab in Entry(lab: lab, weight: Float(h.n)) }
        // Median cut: boxes are ranges of `entries`.
        struct Box {
            var range: Range<Int>
            var error: Float
            var axis: Int
        }
        func measure(_ r: Range<Int>) -> Box {
            var sum = SIMD3<Float>(repeating: 0), sq = SIMD3<Float>(repeating: 0), w: Float = 0
            for i in r {
                let e = entries[i]
                sum += e.lab * e.weight
                sq += e.lab * e.lab * e.weight
                w += e.weight
            }
            let mean = sum / max(w, 1e-9)
            let variance = sq / max(w, 1e-9) - mean * mean
            let axis = variance.x >= variance.y && variance.x >= variance.z ? 0 : (variance.y >= variance.z ? 1 : 2)
            return Box(range: r, error: r.count > 1 ? (variance.x + variance.y + variance.z) * w : -1, axis: axis)
        }
        var boxes = [measure(0..<entries.count)]
        while boxes.count < count {
            guard let k = boxes.indices.max(by: { boxes[$0].error < boxes[$1].error }), boxes[k].error > 0 else { break }
            let box = boxes[k]
            // One comparison for each axis: the lab subscript by a variable index cost a third of the
            // sort. Stable, as before, so equal colours keep their order.
            switch box.axis {
            case 0: entries[box.range].sort { ($0.lab.x, $0.lab.y, $0.lab.z) < ($1.lab.x, $1.lab.y, $1.lab.z) }
            case 1: entries[box.range].sort { ($0.lab.y, $0.lab.x, $0.lab.z) < ($1.lab.y, $1.lab.x, $1.lab.z) }
            default: entries[box.range].sort { ($0.lab.z, $0.lab.x, $0.lab.y) < ($1.lab.z, $1.lab.x, $1.lab.y) }
            }
            let total = entries[box.range].reduce(Float(0)) { $0 + $1.weight }
            var acc: Float = 0, cut = box.range.lowerBound + 1
            for i in box.range {
                acc += entries[i].weight
                if acc >= total / 2 {
                    cut = min(max(i + 1, box.range.lowerBound + 1), box.range.upperBound - 1)
                    break
                }
            }
            boxes[k] = measure(box.range.lowerBound..<cut)
            boxes.append(measure(cut..<box.range.upperBound))
        }
        var centres: [SIMD3<Float>] = boxes.map { b in
            var sum = SIMD3<Float>(repeating: 0), w: Float = 0
            for i in b.range {
                sum += entries[i].lab * entries[i].weight
                w += entries[i].weight
            }
            return sum / max(w, 1e-9)
        }
        // k-means refinement. Each entry's last centre (its box's, at first) starts its search: centres
        // move little from one round to the next.
        var assigned = [Int](repeating: 0, count: entries.count)
        for (k, b) in boxes.enumerated() { for i in b.range { assigned[i] = k } }
        for _ in 0..<4 {
            let nearest = OklabNearest(centres)
            var sums = [SIMD3<Float>](repeating: .zero, count: centres.count),
                weights = [Float](repeating: 0, count: centres.count)
            for (i, e) in entries.enumerated() {
                let best = nearest(e.lab, near: assigned[i])
                assigned[i] = best
                sums[best] += e.lab * e.weight
                weights[best] += e.weight
            }
            for j in centres.indices where weights[j] > 0 { centres[j] = sums[j] / weights[j] }
        }
        var out = Set<UInt32>()
        for c in centres {
            let (r, g, b) = Oklab.toSRGB(c)
            out.insert(UInt32(r << 16 | g << 8 | b))
        }
        // A colour that covers a large share of the samples (a flat fill) is kept exactly: it replaces the
        // palette entry nearest to it.
        var list = out.sorted()
        let total = histogram.reduce(0) { $0 + $1.n }
        for (key, n) in histogram where n * 200 >= total && !out.contains(key) {
            let lab = Oklab.fromSRGB(Int(key >> 16), Int(key >> 8 & 255), Int(key & 255))
            if let j = list.indices.min(by: {
                let a = Oklab.fromSRGB(Int(list[$0] >> 16), Int(list[$0] >> 8 & 255), Int(list[$0] & 255)) - lab
                let b = Oklab.fromSRGB(Int(list[$1] >> 16), Int(list[$1] >> 8 & 255), Int(list[$1] & 255)) - lab
                return (a * a).sum() < (b * b).sum()
            }) {
                list[j] = key
            }
        }
        return Array(Set(list)).sorted()
    }

    private func ordered(_ palette: [UInt32], clip: [(key: UInt32, value: Tally)], labs: [SIMD3<Float>]) -> [UInt32] {
        let nearest = OklabNearest(palette.map { Oklab.fromSRGB(Int($0 >> 16), Int($0 >> 8 & 255), Int($0 & 255)) })
        var use = [Int](repeating: 0, count: palette.count)
        var first = [Int](repeating: Int.max, count: palette.count)
        var entriesOf = [Set<Int>](repeating: [], count: 32768)
        var entryOf: [UInt32: Int] = [:]
        entryOf.reserveCapacity(clip.count)
        for ((key, tally), lab) in zip(clip, labs) {
            let best = nearest(lab)
            entryOf[key] = best
            entriesOf[Self.bucket(key)].insert(best)
            use[best] += tally.count
            first[best] = min(first[best], tally.first)
        }
        let frames: [[Int]] = changed.compactMap { sample in
            var entries = Set(sample.exact.compactMap { entryOf[$0] })
            for (w, word) in sample.buckets.enumerated() where word != 0 {
                for b in 0..<64 where word & 1 << UInt64(b) != 0 { entries.formUnion(entriesOf[w << 6 | b]) }
            }
            return entries.isEmpty ? nil : entries.sorted()
        }
        return Self.order(palette, frames: frames, use: use, first: first)
    }

    /// Orders the palette so that as many frames as possible use only low indices, and so take fewer
    /// bits per code (a frame whose indices are all below 64 starts at 7-bit codes instead of 9).
    /// Greedy from the top, as gifsicle orders its global palettes: the highest free index goes to the
    /// colour the fewest frames still need; a frame that needs it needs a high index anyway, so it stops
    /// counting for the colours left. Ties: the colour the clip shows later, then the less used.
    /// Measured against ordering by first appearance and against weighting frames by their changed
    /// pixels or by their runs (BENCHMARKS.md): one vote a frame was smallest in total, and on five of
    /// the seven benchmark clips.
    static func order(_ palette: [UInt32], frames: [[Int]], use: [Int], first: [Int]) -> [UInt32] {
        var penalty = [Int](repeating: 0, count: palette.count)
        var active = [Bool](repeating: true, count: frames.count)
        var framesOf = [[Int]](repeating: [], count: palette.count)
        for (f, entries) in frames.enumerated() {
            for e in entries {
                penalty[e] += 1
                framesOf[e].append(f)
            }
        }
        var left = Set(palette.indices)
        var position = [Int](repeating: 0, count: palette.count)
        for slot in stride(from: palette.count - 1, through: 0, by: -1) {
            let c = left.min {
                (penalty[$0], -first[$0], use[$0], palette[$0]) < (penalty[$1], -first[$1], use[$1], palette[$1])
            }!
            left.remove(c)
            position[c] = slot
            for f in framesOf[c] where active[f] {
                active[f] = false
                for e in frames[f] { penalty[e] -= 1 }
            }
        }
        var out = [UInt32](repeating: 0, count: palette.count)
        for (c, p) in position.enumerated() { out[p] = palette[c] }
        return out
    }
}

/// Maps RGBA frames to palette indices: nearest palette colour in Oklab, remembered per exact 24-bit
/// colour (anti-aliased edges hold many colours a level or two apart, and any coarser cache would merge
/// them; see `memo`), with optional ordered dithering. With alpha, index 255 marks a pixel under the threshold
/// (GIFFileWriter gives each frame its own transparent index).
final class GIFFrameEncoder {
    static let transparentIndex: UInt8 = 255
    let width: Int
    let height: Int
    let options: GIFOptions
    let argb: [UInt32]
    private let nearestColour: OklabNearest

    // Unchecked: only `encode`, on one thread, reaches these, and the runtime's check of each access
    // cost a colour not met before 230 instructions (11 M in a 1080p GIF of 2,000 shapes).
    /// Each colour met and its index, by open addressing: a slot holds the colour in its top 24 bits and
    /// the index in its low 8 (`emptySlot` where none: index 255 is never a palette colour's), grown to
    /// twice the slots whenever half are taken. A table of every 24-bit colour (16 MiB, and 2 MiB of bits
    /// saying which were filled) was zeroed for each encoder, and a frame of many colours missed a line of
    /// it at nearly every edge pixel: a 1080p GIF of 2,000 shapes spent 10 ms more in this loop than the
    /// same GIF's moving dot alone. Its 48,000 colours fill 512 KiB here.
    @exclusivity(unchecked) private var memo = [UInt32](repeating: GIFFrameEncoder.emptySlot, count: 4_096)
    @exclusivity(unchecked) private var memoShift: UInt32 = 32 - 12
    @exclusivity(unchecked) private var memoCount = 0
    private static let emptySlot: UInt32 = 0xFF
    /// The index the last colour not yet remembered took.
    @exclusivity(unchecked) private var lastFound = 0

    /// Whether the clip keeps its alpha (pixels under the threshold become index 255).
    let alpha: Bool
    /// The indices of the previous frame, for lossy differencing.
    private var previous: [UInt8] = []

    init(width: Int, height: Int, options: GIFOptions, alpha: Bool = true) {
        self.width = width
        self.height = height
        self.options = options
        self.alpha = alpha
        // The fallback cube is used whole (its indices are computed, not searched).
        var colours = options.palette ?? GIFPalette.cube
        if options.palette != nil && colours.count > options.colors { colours = Array(colours.prefix(options.colors)) }
        // Unused entries repeat the first colour, opaque.
        var table = [UInt32](repeating: 0xFF00_0000 | (colours.first ?? 0), count: 256)
        for (i, c) in colours.enumerated() { table[i] = 0xFF00_0000 | c }
        if alpha { table[Int(Self.transparentIndex)] = 0 }
        argb = table
        nearestColour = OklabNearest(colours.map { Oklab.fromSRGB(Int($0 >> 16 & 255), Int($0 >> 8 & 255), Int($0 & 255)) })
    }

    @inline(__always) private func nearest(_ r: Int, _ g: Int, _ b: Int) -> UInt8 {
        let key = UInt32(truncatingIfNeeded: r << 16 | g << 8 | b)
        let mask = memo.count &- 1
        var i = home(key)
        while true {
            let slot = memo[i]
            if slot == Self.emptySlot { return search(r, g, b, key: key, slot: i) }
            if slot >> 8 == key { return UInt8(truncatingIfNeeded: slot) }
            i = (i &+ 1) & mask
        }
    }

    /// A colour not met before (`slot` the empty one its probe reached), out of line: inlined, the
    /// search took registers from the loop over every pixel (34 M more instructions in a 1080p GIF's
    /// frames).
    @inline(never) private func search(_ r: Int, _ g: Int, _ b: Int, key: UInt32, slot: Int) -> UInt8 {
        // The colour met before this one (an edge's next shade, mostly) starts the search.
        let best = nearestColour(Oklab.fromSRGB(r, g, b), near: lastFound)
        lastFound = best
        guard best < 255 else { return UInt8(best) }
        memo[slot] = key << 8 | UInt32(best)
        memoCount += 1
        if memoCount * 2 > memo.count { growMemo() }
        return UInt8(best)
    }

    /// The slot a colour's probe starts at: its top bits once multiplied by 2³² ÷ φ.
    @inline(__always) private func home(_ key: UInt32) -> Int { Int(truncatingIfNeeded: (key &* 0x9E37_79B1) >> memoShift) }

    /// Twice the slots, every colour placed again.
    private func growMemo() {
        let old = memo
        memo = [UInt32](repeating: Self.emptySlot, count: old.count * 2)
        memoShift -= 1
        let mask = memo.count - 1
        for slot in old where slot != Self.emptySlot {
            var i = home(slot >> 8)
            while memo[i] != Self.emptySlot { i = (i &+ 1) & mask }
            memo[i] = slot
        }
    }

    /// Writes indices for straight-alpha (or opaque) RGBA rows and fills the 256-entry ARGB palette.
    ///
    /// Dithering with a built palette mixes the two palette colours around each pixel: c1 the nearest,
    /// c2 the nearest to the mirror image p + (p − c1); the Bayer threshold picks c2 with the probability
    /// t = the position of p along c1→c2, so the local mean follows p along that line, while colours that
    /// are in the palette (within 2 levels) are drawn flat and never dithered.
    ///
    /// `rows`: the rows to map (the others keep their indices, as their pixels have not changed: an
    /// unchanged pixel maps to the index it had, lossy or not). Nil: every row. `columns`, with `rows`:
    /// the columns to map in them (the same reason; a docs GIF's moving dot had every row it crossed
    /// mapped across the frame). Nil: every column.
    func encode(
        rgba: UnsafePointer<UInt8>, rgbaStride: Int, into indices: UnsafeMutablePointer<UInt8>, indexStride: Int,
        palette: UnsafeMutablePointer<UInt32>, rows: [Range<Int>]? = nil, columns: Range<Int>? = nil
    ) {
        for i in 0..<256 { palette[i] = argb[i] }
        let threshold = UInt8(options.alphaThreshold)
        let tolerance = alpha ? 0 : options.tolerance
        let lossy = tolerance > 0 && previous.count == width * height
        // The first lossy frame maps every row: its indices are the ones the next frames are held to.
        let everything = (tolerance > 0 && !lossy) || rows == nil
        let rows = everything ? [0..<height] : rows!
        let xs = everything ? 0..<width : (columns ?? 0..<width).clamped(to: 0..<width)
        defer {
            if tolerance > 0 {
                if previous.count != width * height { previous = [UInt8](repeating: 0, count: width * height) }
                for y in rows.joined() { for x in 0..<width { previous[y * width + x] = indices[y * indexStride + x] } }
            }
        }
        let cube = options.palette == nil
        let dither = options.dither != .none
        // Without dithering a pixel's index is its colour's alone: a run of one colour (a flat fill)
        // takes the index of its first pixel, instead of a look-up in the memo for each.
        var lastColour = -1, lastIndex: UInt8 = 0
        for y in rows.joined() {
            let src = rgba + y * rgbaStride
            let dst = indices + y * indexStride
            let row = (y & 7) * 8
            for x in xs {
                let cut = options.alphaDither ? UInt8(max(1, min(255, Int(GIFPalette.bayer[row + (x & 7)] * 255)))) : threshold
                if src[x * 4 + 3] < cut {
                    dst[x] = Self.transparentIndex
                    continue
                }
                let r = Int(src[x * 4]), g = Int(src[x * 4 + 1]), b = Int(src[x * 4 + 2])
                if lossy {
                    let shown = argb[Int(previous[y * width + x])]
                    if abs(r - Int(shown >> 16 & 255)) <= tolerance && abs(g - Int(shown >> 8 & 255)) <= tolerance
                        && abs(b - Int(shown & 255)) <= tolerance
                    {
                        dst[x] = previous[y * width + x]
                        continue
                    }
                }
                if dither {
                    dst[x] = index(r, g, b, row: row, x: x, cube: cube, dither: dither)
                    continue
                }
                let colour = r << 16 | g << 8 | b
                if colour != lastColour {
                    lastColour = colour
                    lastIndex = index(r, g, b, row: row, x: x, cube: cube, dither: false)
                }
                dst[x] = lastIndex
            }
        }
    }

    /// The palette index for an opaque pixel (see `encode`).
    @inline(__always) private func index(_ r: Int, _ g: Int, _ b: Int, row: Int, x: Int, cube: Bool, dither: Bool) -> UInt8 {
        let t = dither ? GIFPalette.bayer[row + (x & 7)] : 0.5
        if cube { return GIFPalette.cubeIndex(r, g, b, threshold: t) }
        let i1 = nearest(r, g, b)
        let c1 = argb[Int(i1)]
        let e0 = r - Int(c1 >> 16 & 255), e1 = g - Int(c1 >> 8 & 255), e2 = b - Int(c1 & 255)
        if !dither || e0 * e0 + e1 * e1 + e2 * e2 <= 12 { return i1 }
        let i2 = nearest(max(0, min(255, r + e0)), max(0, min(255, g + e1)), max(0, min(255, b + e2)))
        if i2 == i1 { return i1 }
        let c2 = argb[Int(i2)]
        let d0 = Int(c2 >> 16 & 255) - Int(c1 >> 16 & 255), d1 = Int(c2 >> 8 & 255) - Int(c1 >> 8 & 255),
            d2 = Int(c2 & 255) - Int(c1 & 255)
        let dd = d0 * d0 + d1 * d1 + d2 * d2
        let along = dd > 0 ? Float(e0 * d0 + e1 * d1 + e2 * d2) / Float(dd) : 0
        return t < along ? i2 : i1
    }
}
