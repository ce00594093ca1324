/// Frames that scroll (most of their changed rows show rows of the frame before, moved up or down) and
/// change almost everywhere, coded in bands of rows, each an LZW segment of its own after a clear code,
/// cut where the content says: bands that recur in a later frame are written from the segment kept
/// instead of coded again.
import Foundation

/// The segments of bands coded whole (every pixel its own index), by their pixels' hash; those of the
/// last two banded frames are kept (a scroll finds its bands in the frame before).
struct GIFBandCache {
    struct Entry {
        var pixels: [UInt8]
        var columns: Int
        var codeSize: Int
        var segment: GIFCodeSegment
        var frame: Int
    }

    var entries: [UInt64: Entry] = [:]
    var frame = 0
    /// Off, every band is coded afresh (tests compare the bytes); and how many were written from a
    /// segment kept.
    var keeps = true
    var reused = 0
}

/// The writer's coders handed to the threads coding bands: each thread uses its own only.
private struct GIFSharedCoders: @unchecked Sendable {
    let coders: [GIFLZWEncoder]
}

/// The bands' segments as the threads code them, each slot written by one thread only.
private final class GIFBandResults: @unchecked Sendable {
    private var slots: [(pixels: [UInt8], segment: GIFCodeSegment)?]
    private let lock = NSLock()

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func set(_ i: Int, _ value: (pixels: [UInt8], segment: GIFCodeSegment)) { lock.withLock { slots[i] = value } }

    var all: [(pixels: [UInt8], segment: GIFCodeSegment)] { lock.withLock { slots.map { $0! } } }
}

extension GIFFileWriter {
    /// A frame is coded in bands when it scrolled (`scrolled`) and its rectangle holds at least this
    /// many pixels and half the frame: below that, the writer's five codings of each frame (`shortest`)
    /// cost little, and a band's clear code and fresh dictionary cost more of a small frame's bytes.
    /// Frames that change everywhere without scrolling (a video, a fade) keep the five codings: in
    /// bands, with nothing found again, they were 1–6 % larger (`demo-video` 6.4 %, `titles` 1 %) for
    /// a fifth less time.
    static let bandedArea = 1 << 18

    /// A band's rows are cut before a row whose hash has these bits clear (and which differs from the
    /// row above: a flat area is not cut at every row): 1 row in 32 of varied content, so a band is
    /// about 32 different rows, some 60,000 pixels of a 1080p frame, a few LZW dictionaries' worth.
    /// The cut depends on the row's own pixels only, so rows that scroll keep their cuts.
    static let bandCutMask: UInt64 = 31

    /// A band is coded whole (and kept) unless its unchanged pixels change colour more often than once
    /// in this many pixels: then the rest of what is shown would cost much more coded again than left
    /// transparent, and the band is coded as the writer codes other frames' pixels (unchanged pixels
    /// transparent or as shown), for this frame only.
    static let busyBandRatio = 64

    /// The rectangle a frame that changed in `rect` is coded in, in bands: the same rows, every column;
    /// nil when it is not one to code so (not scrolled, lossy, with alpha, or its rectangle small).
    func bandedRect(_ rect: (Int, Int, Int, Int)) -> (left: Int, top: Int, right: Int, bottom: Int)? {
        let (left, top, right, bottom) = rect
        let n = (right - left) * (bottom - top)
        // A clip with alpha clears what turns transparent with the frame before (disposal), which leaves
        // those pixels unchanged: a whole band would code them in the clip's transparent index instead.
        guard scrolled, distance == nil, !alpha, n >= Self.bandedArea, 2 * n >= width * height else { return nil }
        return (0, top, width, bottom)
    }

    /// `want` over `base` inside `rect` in bands (see the file's comment), or nil when the frame is not
    /// one to code so (`bandedRect`). `shown` becomes what it shows.
    func codeInBands(_ want: [UInt8], over base: [UInt8], rect: (Int, Int, Int, Int)) -> (
        code: [UInt8], transparent: UInt8, codeSize: Int, local: [UInt8]?
    )? {
        // Its rectangle is the banded one already (`code` widened it).
        guard let (left, top, right, bottom) = bandedRect(rect), left == rect.0, right == rect.2 else { return nil }
        let columns = right - left, rows = bottom - top, n = columns * rows
        if indexRowSets.count != height { summarizeRows(of: want, rows: nil, moved: []) }
        var used = SIMD4<UInt64>(repeating: 0)
        for y in top..<bottom { used |= indexRowSets[y] }
        let hashes = Array(indexRowHashes[top..<bottom])
        // Every index in the rectangle may be coded (a whole band codes them all); the transparent
        // index is one none of them uses.
        func isUsed(_ i: Int) -> Bool { used[i >> 6] >> UInt64(i & 63) & 1 != 0 }
        let highest = (0..<256).last(where: isUsed) ?? 0
        let t = (0..<256).first { !isUsed($0) } ?? Int(transparent)
        let bits = Self.codeSize(holding: max(highest, t))
        var starts = [0]
        for r in 1..<rows where hashes[r] != hashes[r - 1] && hashes[r] & Self.bandCutMask == 0 { starts.append(r) }
        starts.append(rows)

        bands.frame += 1
        // Each band: written again from the segment kept for its pixels (found first: a band that
        // scrolled costs nothing to code, whatever is below it), coded whole afresh, or coded for this
        // frame alone.
        enum Way {
            case kept(GIFCodeSegment)
            case fresh(Int)
            case part
        }
        var ways: [Way] = [], fresh: [(rows: Range<Int>, key: UInt64)] = []
        for k in 0..<(starts.count - 1) {
            let y0 = top + starts[k], y1 = top + starts[k + 1]
            let key = bandKey(hashes[(y0 - top)..<(y1 - top)], columns: columns, codeSize: bits)
            if let segment = keptBand(want, rows: y0..<y1, columns: left..<right, key: key, codeSize: bits) {
                ways.append(.kept(segment))
            } else if isBusy(want, over: base, rows: y0..<y1, columns: left..<right) {
                ways.append(.fresh(fresh.count))
                fresh.append((y0..<y1, key))
            } else {
                ways.append(.part)
            }
        }
        let coded = freshBands(want, fresh.map(\.rows), columns: left..<right, codeSize: bits)
        for (band, segment) in zip(fresh, coded) where bands.keeps {
            bands.entries[band.key] = .init(
                pixels: segment.pixels, columns: columns, codeSize: bits, segment: segment.segment, frame: bands.frame)
        }
        var stream = GIFCodeStream(capacity: n / 4)
        var next = bits + 1
        let clear = 1 << bits
        // Every band coded whole: the frame then shows `want` itself (outside its rows, which span the
        // frame, it is what was shown), taken as it is rather than copied band by band over a copy of
        // what was shown (4 MB of copies a 1080p frame).
        let whole = !ways.contains { if case .part = $0 { true } else { false } }
        var showing = whole ? [] : buffer(showing: base)
        for k in 0..<(starts.count - 1) {
            let y0 = top + starts[k], y1 = top + starts[k + 1]
            stream.write(clear, width: next)
            let segment: GIFCodeSegment
            switch ways[k] {
            case .kept(let kept): segment = kept
            case .fresh(let j): segment = coded[j].segment
            case .part:
                segment = partBand(
                    want, over: base, rows: y0..<y1, columns: left..<right, codeSize: bits, transparent: t, showing: &showing)
            }
            if case .part = ways[k] {
            } else if !whole {
                showing.withUnsafeMutableBufferPointer { showing in
                    want.withUnsafeBufferPointer { want in
                        for y in y0..<y1 {
                            (showing.baseAddress! + y * width + left).update(
                                from: want.baseAddress! + y * width + left, count: columns)
                        }
                    }
                }
            }
            stream.append(segment)
            next = segment.nextWidth
        }
        stream.write(clear + 1, width: next)
        bands.entries = bands.entries.filter { $0.value.frame >= bands.frame - 1 }
        shown = whole ? want : showing
        return (stream.finish(), UInt8(t), bits, nil)
    }

    /// Brings `indexRowSets` and `indexRowHashes` up to date with `want`: in `rows` (nil: all), a row in
    /// `moved` takes the sets and hash of the row of the frame before it repeats (the same indices:
    /// `append` copied them), the others are worked out; the rest are as they were. A frame that scrolled
    /// is most of a screen of rows moved: its rows' indices were gone through twice (their set, to find
    /// the code size and a free index, and their hash) on the thread every frame waits for.
    func summarizeRows(of want: [UInt8], rows: [Range<Int>]?, moved: [(Int, Int)]) {
        let kept = indexRowSets.count == height && indexRowHashes.count == height
        // A hold (no row may differ): nothing to bring up to date, in every such frame.
        if kept, rows?.isEmpty == true { return }
        let before = (sets: indexRowSets, hashes: indexRowHashes)
        var sets = kept ? indexRowSets : [SIMD4<UInt64>](repeating: .zero, count: height)
        var hashes = kept ? indexRowHashes : [UInt64](repeating: 0, count: height)
        var from = [Int](repeating: -1, count: kept ? height : 0)
        for (y, f) in moved where kept && y >= 0 && y < height && f >= 0 && f < height { from[y] = f }
        var todo: [Int] = []
        for y in (kept ? rows ?? [0..<height] : [0..<height]).joined() where y >= 0 && y < height {
            if kept, from[y] >= 0 {
                sets[y] = before.sets[from[y]]
                hashes[y] = before.hashes[from[y]]
            } else {
                todo.append(y)
            }
        }
        let width = width
        want.withUnsafeBufferPointer { want in
            GIFRowHash.hash(rows: todo, base: want.baseAddress!, stride: width, count: width, into: &hashes)
            for y in todo {
                let row = want.baseAddress! + y * width
                var set = SIMD4<UInt64>(repeating: 0)
                // Eight indices at a time, passed over where they repeat the eight before (runs of the
                // background: most of a frame of text).
                var x = 0, last = UInt64.max
                while x + 8 <= width {
                    let word = UnsafeRawPointer(row + x).loadUnaligned(as: UInt64.self)
                    if word != last {
                        for k in 0..<8 {
                            let i = Int(row[x + k])
                            set[i >> 6] |= 1 << UInt64(i & 63)
                        }
                        last = word
                    }
                    x += 8
                }
                while x < width {
                    let i = Int(row[x])
                    set[i >> 6] |= 1 << UInt64(i & 63)
                    x += 1
                }
                sets[y] = set
            }
        }
        indexRowSets = sets
        indexRowHashes = hashes
    }

    /// Whether the band's unchanged pixels are few enough or flat enough to be coded again as they are.
    private func isBusy(_ want: [UInt8], over base: [UInt8], rows: Range<Int>, columns: Range<Int>) -> Bool {
        var steps = 0
        want.withUnsafeBufferPointer { want in
            base.withUnsafeBufferPointer { base in
                for y in rows {
                    let row = y * width
                    var i = row + columns.lowerBound + 1
                    let end = row + columns.upperBound
                    while i < end {
                        // Eight pixels at a time where they are one index (a run of the background): no
                        // step but maybe at the first of them.
                        if i + 8 <= end {
                            let w = UnsafeRawPointer(want.baseAddress! + i).loadUnaligned(as: UInt64.self)
                            if w == UInt64(want[i]) &* 0x0101_0101_0101_0101 {
                                if want[i] == base[i] && want[i - 1] == base[i - 1] && want[i] != want[i - 1] { steps += 1 }
                                i += 8
                                continue
                            }
                        }
                        if want[i] == base[i] && want[i - 1] == base[i - 1] && want[i] != want[i - 1] { steps += 1 }
                        i += 1
                    }
                }
            }
        }
        return steps * Self.busyBandRatio <= rows.count * columns.count
    }

    /// The key a band coded whole is kept under: its rows' hashes, width and code size.
    private func bandKey(_ hashes: ArraySlice<UInt64>, columns: Int, codeSize bits: Int) -> UInt64 {
        var key = UInt64(truncatingIfNeeded: columns) &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(bits)
        for h in hashes { key = GIFRowHash.mix(key ^ h) }
        return key
    }

    /// The segment kept for the band's pixels at this code size (compared byte for byte), or nil.
    private func keptBand(_ want: [UInt8], rows: Range<Int>, columns: Range<Int>, key: UInt64, codeSize bits: Int)
        -> GIFCodeSegment?
    {
        let width = width, n = rows.count * columns.count
        guard bands.keeps, let entry = bands.entries[key], entry.columns == columns.count, entry.codeSize == bits,
            entry.pixels.count == n
        else { return nil }
        let same = want.withUnsafeBufferPointer { want in
            entry.pixels.withUnsafeBufferPointer { kept in
                rows.enumerated().allSatisfy { r, y in
                    memcmp(
                        want.baseAddress! + y * width + columns.lowerBound, kept.baseAddress! + r * columns.count,
                        columns.count) == 0
                }
            }
        }
        guard same else { return nil }
        bands.reused += 1
        bands.entries[key]!.frame = bands.frame
        return entry.segment
    }

    /// The bands `rows` coded whole (every pixel its own index), each a segment of its own, with their
    /// pixels: on two threads where there are two bands or more (a band's segment depends on its pixels
    /// alone, so the bytes do not depend on which thread coded it). The coding of a 1080p frame that
    /// scrolled was the writer's largest part, on the thread every frame waits for.
    private func freshBands(_ want: [UInt8], _ rows: [Range<Int>], columns: Range<Int>, codeSize bits: Int) -> [(
        pixels: [UInt8], segment: GIFCodeSegment
    )] {
        guard !rows.isEmpty else { return [] }
        let width = width
        let shared = GIFSharedCoders(coders: rows.count > 1 ? [coder, helperCoder] : [coder])
        let threads = shared.coders.count
        let results = GIFBandResults(count: rows.count)
        DispatchQueue.concurrentPerform(iterations: threads) { worker in
            var j = worker
            while j < rows.count {
                let r = rows[j], n = r.count * columns.count
                var pixels = [UInt8](repeating: 0, count: n)
                pixels.withUnsafeMutableBufferPointer { pixels in
                    want.withUnsafeBufferPointer { want in
                        for (k, y) in r.enumerated() {
                            (pixels.baseAddress! + k * columns.count).update(
                                from: want.baseAddress! + y * width + columns.lowerBound, count: columns.count)
                        }
                    }
                }
                let segment = shared.coders[worker].segment(exact: pixels, minimumCodeSize: bits)
                results.set(j, (pixels, segment))
                j += threads
            }
        }
        return results.all
    }

    /// The segment of a band coded for this frame alone: unchanged pixels transparent or as shown,
    /// whichever continues the string. `showing` becomes what it shows.
    private func partBand(
        _ want: [UInt8], over base: [UInt8], rows: Range<Int>, columns: Range<Int>, codeSize bits: Int, transparent t: Int,
        showing: inout [UInt8]
    ) -> GIFCodeSegment {
        let n = rows.count * columns.count, width = width, transparent = Int(transparent)
        var kinds = [UInt8](repeating: GIFPixel.exact, count: n), wants = [UInt8](repeating: 0, count: n)
        var bases = [UInt8](repeating: 0, count: n)
        want.withUnsafeBufferPointer { want in
            base.withUnsafeBufferPointer { base in
                kinds.withUnsafeMutableBufferPointer { kinds in
                    wants.withUnsafeMutableBufferPointer { wants in
                        bases.withUnsafeMutableBufferPointer { bases in
                            var k = 0
                            for y in rows {
                                for i in (y * width + columns.lowerBound)..<(y * width + columns.upperBound) {
                                    let w = want[i], b = base[i]
                                    wants[k] = w
                                    if w == b {
                                        kinds[k] = GIFPixel.unchanged
                                        // Shown in an index past the code size, or showing nothing: coded
                                        // transparent.
                                        bases[k] = Int(b) == transparent || Int(b) >= 1 << bits ? UInt8(t) : b
                                    }
                                    k += 1
                                }
                            }
                        }
                    }
                }
            }
        }
        let (segment, coded) = coder.segment(
            GIFCodingInput(kind: kinds, want: wants, base: bases, allowed: []), minimumCodeSize: bits,
            transparent: UInt8(t))
        showing.withUnsafeMutableBufferPointer { showing in
            var k = 0
            for y in rows {
                for i in (y * width + columns.lowerBound)..<(y * width + columns.upperBound) {
                    // Transparent leaves what was there.
                    if !(Int(coded[k]) == t && kinds[k] == GIFPixel.unchanged) { showing[i] = coded[k] }
                    k += 1
                }
            }
        }
        return segment
    }
}
