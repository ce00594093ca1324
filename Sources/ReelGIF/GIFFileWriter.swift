/// Reel's GIF89a writer: one global palette (a frame's own table where that is shorter), each frame cut
/// to the rectangle that changed, unchanged pixels coded as transparent or as themselves (whichever
/// continues the LZW string), identical frames merged into one longer frame, and an optional lossy
/// mode; replaces libavcodec's GIF encoder and muxer.
import Foundation
import Synchronization

/// Writes a GIF file frame by frame. A frame is held until the next one arrives: only then is its
/// delay known (an unchanged next frame lengthens it) and its disposal (a next frame that turns shown
/// pixels transparent needs them cleared).
public final class GIFFileWriter {
    public let width: Int
    public let height: Int
    private let quantizer: GIFFrameEncoder
    let coder = GIFLZWEncoder()
    /// A second coder, for bands coded on a second thread (GIFBands.swift).
    let helperCoder = GIFLZWEncoder()
    /// Segments of frames coded in bands, kept for the next frames (`codeInBands`).
    var bands = GIFBandCache()
    private let options: GIFOptions
    private let rate: (numerator: Int, denominator: Int)
    /// The transparent index: the quantizer's for clips with alpha, else the first unused entry (frames
    /// after the first leave unchanged pixels transparent).
    let transparent: UInt8
    let alpha: Bool
    /// The global colour table holds 2^tableBits entries.
    private let tableBits: Int
    /// Lossy mode: the Oklab distance between palette entries w and b (`distance[w << 8 | b]`), infinite
    /// to and from the transparent index; nil when lossless.
    let distance: [Float]?
    private let bound: Float
    /// How much of a pixel's contrast with its neighbours its error may take (see `allowance`).
    private let masking: Float = 1
    /// Heavy loss (`heavyFrom` and above): strings searched along the dictionary, allowances widened in
    /// gradients, and pixels that may stay as shown free to take a near colour too.
    private let heavy: Bool
    /// The levels up to the docs-gif preset's (10) code pixel by pixel, as they did when that preset's
    /// files were measured and chosen (BENCHMARKS.md), so the preset's files stay byte-identical
    /// (`scripts/example-hashes.sh`); the heavy-loss changes were measured from level 11 up only.
    static let heavyFrom = 11
    /// Heavy loss: a pixel's allowance also reaches to colours this near (one just-noticeable
    /// difference in Oklab) within `gradientRadius` pixels. In a banded gradient, a band's inner pixels
    /// have no contrast with their four neighbours, so they could never change; with the band next door
    /// in reach, bands merge into longer LZW strings. Colours farther away (an edge) do not count, so
    /// flat areas beside edges keep their colour. Measured (`scripts/bench-gif.sh --rd`, Reel's bytes ÷
    /// gifsicle's at equal SSIM): gradient-switch 0.92–1.10× → 0.80–0.95×; star-button 0.87–0.95× →
    /// 0.87–0.96×; with every colour within 3 px counted (no step), star-button 0.97–1.06×.
    static let gradientStep: Float = 0.02
    static let gradientRadius = 3
    private let output: FileHandle
    private var buffer: [UInt8] = []
    /// Bytes written to the file so far (read while frames are coded, on another thread).
    public var bytesWritten: Int { written.load(ordering: .relaxed) }
    private let written = Atomic<Int>(0)
    private var frameNumber: Int
    public private(set) var framesAppended = 0

    /// What the viewer shows after the held frame is drawn (the transparent index where nothing is).
    var shown: [UInt8]
    /// The buffer of a frame written out (what was shown before it), kept to hold what the next frame
    /// coded shows: it differs from what is shown now only inside `spareStale` (that frame's rectangle).
    /// With a fresh copy of what was shown for each frame instead, a 1080p GIF copied 2 MB a frame and
    /// faulted its pages in (a moving dot's GIF: the copies 13 % of its instructions).
    private var spareShown: [UInt8] = []
    private var spareStale: (left: Int, top: Int, right: Int, bottom: Int)?
    private var indices: [UInt8]
    /// An earlier frame's indices, and the rows where they may differ from `indices` (nil: anywhere): the
    /// next frame is mapped into this buffer, brought up to date in those rows, rather than into a copy
    /// of `indices`, which the held frame and `lastWant` still read (a 1080p frame's indices, 2 MB, were
    /// copied whole at every frame: 9 % of a docs GIF's instructions).
    private var spare: [UInt8] = []
    private var spareBehind: [Range<Int>]?
    /// The last frame appended (RGBA rows), to see a repeat, and its rows' hashes (`rowsFound`).
    private var lastRGBA: [UInt8]
    private var rowKeys: [UInt64]
    /// Whether the frame being coded moved rows of the one before (`rowsFound`): only such frames are
    /// coded in bands (`codeInBands`).
    var scrolled = false
    /// The coding stage (`codeFrame`): the frames' indices made on the caller's thread are coded here, a
    /// frame behind; the two halves of a 1080p frame that scrolled took about as long each.
    private let coding = DispatchQueue(label: "reel.gif.coding")
    private let codingSlots = DispatchSemaphore(value: 2)
    private let codingError = Mutex<GIFError?>(nil)
    /// Per row of the frame being coded, the indices it holds and its hash (`summarizeRows`), kept up to
    /// date from the first frame coded in bands on (empty before).
    var indexRowSets: [SIMD4<UInt64>] = []
    var indexRowHashes: [UInt64] = []
    private var held: Held?
    /// The previous frame's palette indices (lossy mode: what did not change there stays as shown).
    private var lastWant: [UInt8] = []

    private struct Held {
        var left = 0, top = 0, right = 0, bottom = 0  // right and bottom exclusive
        var delay = 0
        /// 1: left in place; 2: cleared to transparent before the next frame.
        var disposal = 1
        var code: [UInt8] = []
        var transparent: UInt8 = 0
        var codeSize = 8
        /// A local colour table (palette indices), or nil for the global one.
        var local: [UInt8]?
        /// What was shown before it and what it means to show, to code it again over a larger rectangle.
        var base: [UInt8]
        var want: [UInt8]
        /// Its pixels' lossy allowances (empty when lossless).
        var allowed: [Float]
    }

    public init(
        path: String, width: Int, height: Int, options: GIFOptions, alpha: Bool, loop: Int, comment: String?,
        frameRate: (numerator: Int, denominator: Int), firstFrame: Int
    ) throws(GIFError) {
        self.width = width
        self.height = height
        self.options = options
        rate = frameRate
        frameNumber = firstFrame
        let quantizer = GIFFrameEncoder(width: width, height: height, options: options, alpha: alpha)
        self.quantizer = quantizer
        let colours = options.palette.map { min($0.count, options.colors) } ?? GIFPalette.cube.count
        let transparent = alpha ? GIFFrameEncoder.transparentIndex : UInt8(min(colours, 255))
        self.transparent = transparent
        self.alpha = alpha
        var bits = 1
        while 1 << bits < Int(transparent) + 1 { bits += 1 }
        tableBits = max(2, bits)
        if options.lossy > 0 {
            // Oklab distances between entries: b stands for w when within the bound (the quantizer's
            // measure), and never for the transparent index or in place of it.
            let labs = (0..<256).map { i -> SIMD3<Float> in
                let c = quantizer.argb[i]
                return Oklab.fromSRGB(Int(c >> 16 & 255), Int(c >> 8 & 255), Int(c & 255))
            }
            var table = [Float](repeating: .infinity, count: 65_536)
            for w in 0..<256 where w != Int(transparent) {
                for b in 0..<256 where b != Int(transparent) {
                    let d = labs[w] - labs[b]
                    table[w << 8 | b] = (d * d).sum().squareRoot()
                }
            }
            distance = table
        } else {
            distance = nil
        }
        heavy = options.lossy >= Self.heavyFrom
        bound = Float(options.lossy) / 1000
        shown = [UInt8](repeating: transparent, count: width * height)
        indices = [UInt8](repeating: 0, count: width * height)
        lastRGBA = [UInt8](repeating: 0, count: width * height * 4)
        rowKeys = [UInt64](repeating: 0, count: height)
        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
            throw .cannotCreate(path: path, reason: String(cString: strerror(errno)))
        }
        output = handle
        writeHeader(bits: tableBits, loop: loop, comment: comment)
    }

    private func writeHeader(bits: Int, loop: Int, comment: String?) {
        buffer += Array("GIF89a".utf8)
        append16(width)
        append16(height)
        // A global table of 2^bits entries, 8 bits per primary.
        buffer += [0xF0 | UInt8(bits - 1), transparent, 0]
        for i in 0..<(1 << bits) {
            let c = i == Int(transparent) ? 0 : quantizer.argb[i]
            buffer += [UInt8(c >> 16 & 255), UInt8(c >> 8 & 255), UInt8(c & 255)]
        }
        if loop >= 0 {
            buffer += [0x21, 0xFF, 0x0B] + Array("NETSCAPE2.0".utf8) + [0x03, 0x01]
            append16(loop)
            buffer.append(0)
        }
        if let comment {
            buffer += [0x21, 0xFE]
            subBlocks(Array(comment.utf8))
        }
    }

    private func append16(_ v: Int) { buffer += [UInt8(v & 255), UInt8(v >> 8 & 255)] }

    private func subBlocks(_ data: [UInt8]) {
        var i = 0
        while i < data.count {
            let n = min(255, data.count - i)
            buffer.append(UInt8(n))
            buffer += data[i..<(i + n)]
            i += n
        }
        buffer.append(0)
    }

    /// Appends a frame of straight-alpha (or opaque) RGBA rows `stride` bytes apart. `changedRows`: the
    /// rows where it differs from the frame appended before, when the caller knows them (a renderer's
    /// damage); only those are mapped to the palette again. Nil: found here, by comparing the frames.
    /// `changedColumns`, with `changedRows`: the columns outside which those rows are the same as the
    /// frame before's (nil: anywhere in them), so that only those pixels are mapped to the palette again.
    /// `frame`: the same pixels as an array, rows `width × 4` bytes apart, which the writer keeps as the
    /// frame before (a reference, not a copy) where most rows changed: the caller's buffer, drawn into
    /// again, is then copied by whoever draws into it, not here on the thread that codes every frame.
    public func append(
        rgba: UnsafePointer<UInt8>, stride: Int, changedRows: [Range<Int>]? = nil, changedColumns: Range<Int>? = nil,
        frame: [UInt8]? = nil
    ) throws(GIFError) {
        // Rows that repeat the frame before map to the same indices: they are kept, not computed again
        // (mapping is per pixel and position only, so the result is the same).
        let rowBytes = width * 4
        var rows: [Range<Int>] = []
        // Columns hold only for rows the caller told (not for those found by comparing).
        let columns = changedRows != nil && framesAppended > 0 ? changedColumns : nil
        lastRGBA.withUnsafeBufferPointer { last in
            if let changedRows, framesAppended > 0 {
                rows = changedRows.map { max(0, $0.lowerBound)..<min(height, max(0, $0.upperBound)) }.filter { !$0.isEmpty }
                return
            }
            guard framesAppended > 0 else {
                rows = [0..<height]
                return
            }
            // From the first row that differs on: the rest are not compared.
            if let y = (0..<height).first(where: { memcmp(rgba + $0 * stride, last.baseAddress! + $0 * rowBytes, rowBytes) != 0 })
            {
                rows = [y..<height]
            }
        }
        let (moved, mapped, scrolledNow) = rowsFound(rgba: rgba, stride: stride, rows: rows)
        if let frame, frame.count == lastRGBA.count, stride == rowBytes, 2 * rows.reduce(0, { $0 + $1.count }) >= height {
            lastRGBA = frame
        } else if !rows.isEmpty {
            lastRGBA.withUnsafeMutableBufferPointer { last in
                for y in rows.joined() { (last.baseAddress! + y * rowBytes).update(from: rgba + y * stride, count: rowBytes) }
            }
        }
        if !rows.isEmpty {
            var next = indices
            if spare.count == indices.count, let behind = spareBehind {
                next = spare
                spare = []
                next.withUnsafeMutableBufferPointer { next in
                    indices.withUnsafeBufferPointer { current in
                        for y in behind.joined() {
                            (next.baseAddress! + y * width).update(from: current.baseAddress! + y * width, count: width)
                        }
                    }
                }
            }
            var scratch = [UInt32](repeating: 0, count: 256)
            next.withUnsafeMutableBufferPointer { out in
                indices.withUnsafeBufferPointer { current in
                    for (y, from) in moved {
                        (out.baseAddress! + y * width).update(from: current.baseAddress! + from * width, count: width)
                    }
                }
                guard !mapped.isEmpty else { return }
                scratch.withUnsafeMutableBufferPointer { palette in
                    quantizer.encode(
                        rgba: rgba, rgbaStride: stride, into: out.baseAddress!, indexStride: width,
                        palette: palette.baseAddress!, rows: mapped, columns: columns)
                }
            }
            // The frame before's indices differ from these only where this frame was mapped.
            spare = indices
            spareBehind = rows
            indices = next
        }
        // Where this frame's indices may differ from the frame before's (the rest repeat it index for
        // index); nil: anywhere. Outside them every pixel is what is shown already (lossless: the frame
        // before was coded exactly; lossy: a repeated index keeps what is shown), so the passes below
        // look at these rows only: each was a pass over the whole frame for every frame.
        let scan: [Range<Int>]? = framesAppended == 0 ? nil : rows
        // And in those rows the columns where they may (nil: any), when the caller told them: outside
        // them too each index is the frame before's. A 1080p GIF's moving dot had each pass go across
        // the frame in each of its rows.
        let scanColumns = scan == nil ? nil : columns
        let delay =
            GIFTiming.centiseconds(ofFrame: frameNumber + 1, numerator: rate.numerator, denominator: rate.denominator)
            - GIFTiming.centiseconds(ofFrame: frameNumber, numerator: rate.numerator, denominator: rate.denominator)
        frameNumber += 1
        framesAppended += 1
        try failure()
        let frame = Coding(
            want: indices, scan: scan, scanColumns: scanColumns, delay: delay, scrolled: scrolledNow, moved: moved)
        // At most two frames wait to be coded: each holds its indices (2 MB at 1080p).
        codingSlots.wait()
        let reference = GIFWriterReference(writer: self)
        coding.async {
            defer { reference.writer.codingSlots.signal() }
            reference.writer.codeFrame(frame)
        }
    }

    /// What the coding stage takes of a frame appended: its indices, the rows (and columns) where they
    /// may differ from the frame before's (nil: anywhere), its delay, and whether it scrolled.
    private struct Coding: Sendable {
        var want: [UInt8]
        var scan: [Range<Int>]?
        var scanColumns: Range<Int>?
        var delay: Int
        var scrolled: Bool
        /// Rows whose indices are those of a row of the frame before: (row, the row it repeats).
        var moved: [(Int, Int)]
    }

    /// Throws the error that stopped the coding stage, if one did.
    private func failure() throws(GIFError) {
        if let error = codingError.withLock({ $0 }) { throw error }
    }

    /// The coding stage of `append`, on `coding`: frames in order, one at a time, while the caller's
    /// thread makes the next frame's indices. Once a frame fails (the file cannot be written), the rest
    /// are not coded and `append` or `finish` throws.
    private func codeFrame(_ frame: Coding) {
        guard codingError.withLock({ $0 == nil }) else { return }
        do throws(GIFError) {
            try code(frame)
        } catch {
            codingError.withLock { $0 = error }
        }
    }

    private func code(_ frame: Coding) throws(GIFError) {
        scrolled = frame.scrolled
        if !indexRowSets.isEmpty { summarizeRows(of: frame.want, rows: frame.scan, moved: frame.moved) }
        let want = frame.want, scan = frame.scan, scanColumns = frame.scanColumns, delay = frame.delay
        let allowed = allowance(of: want, after: lastWant, rows: scan, columns: scanColumns)
        lastWant = want
        settle(next: want)
        guard var previous = held else {
            hold(want, over: shown, allowed: allowed, delay: delay)
            return
        }
        if options.mergeFrames && isShown(want, allowed, rows: scan, columns: scanColumns) && previous.delay + delay <= 65_535 {
            previous.delay += delay
            held = previous
            return
        }
        // Pixels that turn transparent are cleared with the held frame (disposal to background), its
        // rectangle grown to cover them. Without differencing (to compare), every frame is whole.
        var base = shown
        if !options.differencing {
            // Cleared whole, and so coded again over the whole screen (a transparent clip's frame was
            // cut to what it shows).
            clearing(&previous, over: (0, 0, width, height))
            try flush(previous)
            hold(want, over: [UInt8](repeating: transparent, count: width * height), allowed: allowed, delay: delay)
            return
        }
        var changes = scan, changedColumns = scanColumns
        // An opaque clip's frames never show the transparent index (no palette colour is it).
        if alpha,
            let clear = bounds(
                where: { want[$0] == transparent && shown[$0] != transparent }, rows: scan, columns: scanColumns)
        {
            clearing(&previous, over: clear)
            base = shown
            for y in previous.top..<previous.bottom {
                for x in previous.left..<previous.right { base[y * width + x] = transparent }
            }
            // The cleared rectangle differs from what was shown too.
            changes = nil
            changedColumns = nil
        }
        try flush(previous)
        // The frame written keeps nothing: its buffer becomes the spare (held no more, so not shared).
        held = nil
        spareShown = previous.base
        previous.base = []
        spareStale = (previous.left, previous.top, previous.right, previous.bottom)
        hold(want, over: base, allowed: allowed, delay: delay, rows: changes, columns: changedColumns)
    }

    /// The rows to map of `rows` (RGBA, `stride` bytes apart): those that repeat a row of the frame
    /// before (its pixels byte for byte, wherever it was: text that scrolls) take that row's indices
    /// (`moved`: row and the row it repeats), the rest are mapped to the palette (`mapped`). A pixel's
    /// index depends on its colour alone unless the clip dithers or is lossy (then each row is mapped).
    /// `rowKeys` becomes the rows' hashes, and `scrolled` says whether most rows that changed show a row
    /// the frame before showed elsewhere (content that moved up or down).
    private func rowsFound(rgba: UnsafePointer<UInt8>, stride: Int, rows: [Range<Int>]) -> (
        moved: [(Int, Int)], mapped: [Range<Int>], scrolled: Bool
    ) {
        let options = quantizer.options
        guard options.dither == .none && !options.alphaDither && (alpha || options.tolerance == 0) else {
            return ([], rows, false)
        }
        let rowBytes = width * 4
        var moved: [(Int, Int)] = [], mapped: [Range<Int>] = []
        // Of rows alike, the first: each row found once.
        var before: [UInt64: Int] = [:]
        if framesAppended > 0 {
            before.reserveCapacity(height)
            for (y, key) in rowKeys.enumerated() where before[key] == nil { before[key] = y }
        }
        var keys = rowKeys
        GIFRowHash.hash(rows: Array(rows.joined()), base: rgba, stride: stride, count: rowBytes, into: &keys)
        // Rows whose pixels changed, and those of them that show a row the frame before showed elsewhere.
        var changed = 0, elsewhere = 0
        lastRGBA.withUnsafeBufferPointer { last in
            for y in rows.joined() {
                let row = rgba + y * stride, key = keys[y]
                let new =
                    framesAppended > 0 && (key != rowKeys[y] || memcmp(row, last.baseAddress! + y * rowBytes, rowBytes) != 0)
                if new { changed += 1 }
                if let from = before[key], memcmp(row, last.baseAddress! + from * rowBytes, rowBytes) == 0 {
                    moved.append((y, from))
                    if new { elsewhere += 1 }
                } else if let open = mapped.last, open.upperBound == y {
                    mapped[mapped.count - 1] = open.lowerBound..<(y + 1)
                } else {
                    mapped.append(y..<(y + 1))
                }
            }
        }
        rowKeys = keys
        return (moved, mapped, changed > 0 && 2 * elsewhere >= changed)
    }

    /// Heavy loss: the share of its allowance a pixel that keeps its index in the next frame may take,
    /// at level `heavyFrom`; it grows linearly to 1 at the heaviest level (200), so only that level
    /// lets such a pixel take all of its contrast (see `settle`).
    static let lastingShare: Float = 0.3

    /// The lasting share at `level` (`heavyFrom` … 200).
    static func lastingShare(atLevel level: Int) -> Float {
        let top = GIFOptions.lossyLevels.upperBound
        return lastingShare + (1 - lastingShare) * Float(level - heavyFrom) / Float(top - heavyFrom)
    }

    /// Heavy loss: the held frame, not yet coded, waits for the next frame (`settle`); these are the
    /// rows where it may differ from what it is coded over (nil: anywhere). Nil when it is coded.
    private var unsettled: (rows: [Range<Int>]?, columns: Range<Int>?)?

    /// Holds the frame that shows `want` over `base`: coded now, or at heavy loss when the next frame
    /// is known.
    private func hold(
        _ want: [UInt8], over base: [UInt8], allowed: [Float], delay: Int, rows: [Range<Int>]? = nil,
        columns: Range<Int>? = nil
    ) {
        guard heavy else {
            held = code(want, over: base, allowed: allowed, delay: delay, rows: rows, columns: columns)
            return
        }
        var frame = Held(base: base, want: want, allowed: allowed)
        frame.delay = delay
        held = frame
        unsettled = (rows, columns)
    }

    /// Heavy loss: codes the held frame now that the next frame is known (`next`, its indices; nil at
    /// the end of the clip). A pixel drawn now that keeps its index in the next frame stays as drawn
    /// there (and on, while it keeps it): its error is seen again, so it is allowed no more than its
    /// contrast with its four neighbours in the next frame (an edge beside it that moves away leaves it
    /// in a flat area, where an error shows), and only `lastingShare` of that at the lighter heavy
    /// levels (a pixel seen for longer counts for more, to the eye as to SSIM; the share grows with the
    /// level, to 1 at 200). Allowances only
    /// shrink, so every pixel stays within the bound, and pixels that keep their index still keep what
    /// is shown. The next frame's contrast is worked out here, from its indices alone, so the file does
    /// not depend on which rows a caller says changed.
    ///
    /// Measured (`scripts/bench-gif.sh --rd`, Reel's bytes ÷ gifsicle's at equal SSIM; BENCHMARKS.md):
    /// ≤ 0.85 at 44 of 62 points (18 before); from 0.5, 43; from 0, 44; to 2 at level 100 (up to twice
    /// the contrast, still within the pixel's own allowance), 32. With a first form that took the next
    /// frame's contrast in its changed rows only: the contrast alone (share 1), 29; the share alone (no
    /// contrast), 23; a flat share of 0.6, 41, the heaviest points worse (level 100 reaches less far).
    /// With the levels run on to 200: the share reaching 1 at 100 and held there, 49 of 63; reaching 1
    /// at 200 (kept), 52; at 150, 52; at 300, 52; at 400 from 0.1, 53, but gradient-switch's heaviest
    /// points upper bounds again (level 200 no longer reaches them).
    private func settle(next: [UInt8]?) {
        guard let (rows, columns) = unsettled, var frame = held, let distance else { return }
        unsettled = nil
        var allowed = frame.allowed
        if let next {
            let share = Self.lastingShare(atLevel: options.lossy)
            for i in allowed.indices where allowed[i] < .infinity && next[i] == frame.want[i] {
                let x = i % width, y = i / width, w = Int(next[i]) << 8
                var contrast: Float = 0
                if x > 0 { contrast = max(contrast, distance[w | Int(next[i - 1])]) }
                if x + 1 < width { contrast = max(contrast, distance[w | Int(next[i + 1])]) }
                if y > 0 { contrast = max(contrast, distance[w | Int(next[i - width])]) }
                if y + 1 < height { contrast = max(contrast, distance[w | Int(next[i + width])]) }
                allowed[i] = min(allowed[i], contrast * masking) * share
            }
        }
        let delay = frame.delay
        frame = code(frame.want, over: frame.base, allowed: allowed, delay: delay, rows: rows, columns: columns)
        held = frame
    }

    /// Makes `frame` clear its rectangle after it is shown (disposal to background), the rectangle
    /// grown to hold `area`, and codes it again over that rectangle.
    private func clearing(_ frame: inout Held, over area: (left: Int, top: Int, right: Int, bottom: Int)) {
        frame.disposal = 2
        frame.left = min(frame.left, area.left)
        frame.top = min(frame.top, area.top)
        frame.right = max(frame.right, area.right)
        frame.bottom = max(frame.bottom, area.bottom)
        (frame.code, frame.transparent, frame.codeSize, frame.local) = code(
            frame.want, over: frame.base, allowed: frame.allowed, rect: (frame.left, frame.top, frame.right, frame.bottom))
    }

    /// Whether `want` looks like what is shown (exactly, or within the lossy bound); only `rows` are
    /// looked at (nil: all).
    private func isShown(_ want: [UInt8], _ allowed: [Float], rows: [Range<Int>]?, columns: Range<Int>? = nil) -> Bool {
        if distance == nil { return differences(want, shown, rows: rows, columns: columns) == nil }
        let xs = clamped(columns)
        for y in (rows ?? [0..<height]).joined() {
            for i in y * width + xs.lowerBound..<y * width + xs.upperBound where !isFree(i, want[i], shown[i], allowed) {
                return false
            }
        }
        return true
    }

    /// `columns` within the frame (nil: all of them).
    private func clamped(_ columns: Range<Int>?) -> Range<Int> {
        guard let columns else { return 0..<width }
        let lo = min(max(0, columns.lowerBound), width)
        return lo..<max(lo, min(width, columns.upperBound))
    }

    /// Whether showing `b` where `w` is meant will do: the same index, or within the pixel's allowance.
    @inline(__always) private func isFree(_ i: Int, _ w: UInt8, _ b: UInt8, _ allowed: [Float]) -> Bool {
        if w == b { return true }
        guard distance != nil else { return false }
        return isFree(w, b, allowed: allowed[i])
    }

    /// The same with the pixel's allowance given (read only where there is a distance table).
    @inline(__always) private func isFree(_ w: UInt8, _ b: UInt8, allowed: Float) -> Bool {
        if w == b { return true }
        guard let distance, w != transparent, b != transparent else { return false }
        return distance[Int(w) << 8 | Int(b)] <= allowed
    }

    /// Each pixel's lossy allowance: the bound, but no more than the largest difference to its four
    /// neighbours (contrast masking: an error hides at an edge or in texture, and shows as a pattern in
    /// a flat area or a smooth gradient, which the eye and SSIM both see). Empty when lossless.
    ///
    /// A pixel whose index is the previous frame's keeps what is shown, whatever its allowance now
    /// (an infinite one): a still part of the clip never changes in the GIF.
    ///
    /// `rows`: where `want` may differ from `previous` (nil: anywhere); every other pixel repeats its
    /// index, so its allowance is infinite without working it out.
    private func allowance(
        of want: [UInt8], after previous: [UInt8], rows: [Range<Int>]?, columns: Range<Int>? = nil
    ) -> [Float] {
        guard let distance else { return [] }
        // A repeated frame: every index is the previous frame's.
        let repeated = want.withUnsafeBytes { a in
            previous.withUnsafeBytes { b in
                a.count == b.count && (a.isEmpty || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0)
            }
        }
        if repeated { return [Float](repeating: .infinity, count: want.count) }
        let still = previous.count == want.count
        let rows = still ? rows ?? [0..<height] : [0..<height]
        // And in those rows the columns where `want` may differ (`columns`, nil: any): outside them too
        // each index repeats, so its allowance is infinite without working it out (a docs GIF's frames
        // had each of their changed rows worked out across the frame: 10 % of its time).
        let xs = still ? clamped(columns) : 0..<width
        var out = [Float](repeating: still ? .infinity : 0, count: want.count)
        // Heavy loss: how far each pixel's run of one index reaches along its row, so that a window of
        // one index (most of a flat area) is passed over without its 49 look-ups (they were 61 % of a
        // heavy render's time, `perf record`).
        var runLeft: [Int32] = [], runRight: [Int32] = []
        if heavy {
            runLeft = [Int32](repeating: 0, count: want.count)
            runRight = [Int32](repeating: 0, count: want.count)
            // Read in the windows of the rows worked out: those rows and `gradientRadius` more each side.
            let r = Self.gradientRadius
            for y in Set(rows.flatMap { max(0, $0.lowerBound - r)..<min(height, $0.upperBound + r) }).sorted() {
                let row = y * width
                for x in 0..<width {
                    runLeft[row + x] = x > 0 && want[row + x - 1] == want[row + x] ? runLeft[row + x - 1] : Int32(x)
                }
                for x in stride(from: width - 1, through: 0, by: -1) {
                    runRight[row + x] =
                        x + 1 < width && want[row + x + 1] == want[row + x] ? runRight[row + x + 1] : Int32(x)
                }
            }
        }
        let reach = min(bound, Self.gradientStep), r = Self.gradientRadius
        want.withUnsafeBufferPointer { want in
            distance.withUnsafeBufferPointer { distance in
                for y in rows.joined() {
                    for x in xs {
                        let i = y * width + x, w = Int(want[i]) << 8
                        var contrast: Float = 0
                        if x > 0 { contrast = max(contrast, distance[w | Int(want[i - 1])]) }
                        if x + 1 < width { contrast = max(contrast, distance[w | Int(want[i + 1])]) }
                        if y > 0 { contrast = max(contrast, distance[w | Int(want[i - width])]) }
                        if y + 1 < height { contrast = max(contrast, distance[w | Int(want[i + width])]) }
                        // The window can only raise the contrast to `reach`, and a still pixel's allowance
                        // is infinite anyway (below): both pass it over, as a window of one index does.
                        if heavy && contrast < reach && !(still && want[i] == previous[i]) {
                            let top = max(0, y - r), bottom = min(height - 1, y + r)
                            let left = max(0, x - r), right = min(width - 1, x + r)
                            var uniform = true
                            for v in top...bottom {
                                let j = v * width + x
                                if want[j] != want[i] || runLeft[j] > left || runRight[j] < right {
                                    uniform = false
                                    break
                                }
                            }
                            if !uniform {
                                for v in top...bottom {
                                    for u in left...right {
                                        let d = distance[w | Int(want[v * width + u])]
                                        if d <= Self.gradientStep { contrast = max(contrast, d) }
                                    }
                                }
                            }
                        }
                        // Next to transparency (an infinite distance) the bound holds.
                        out[i] = min(bound, contrast * masking)
                    }
                }
            }
        }
        // Elsewhere the allowance is infinite already.
        if still {
            for y in rows.joined() {
                for i in y * width + xs.lowerBound..<y * width + xs.upperBound where want[i] == previous[i] { out[i] = .infinity }
            }
        }
        return out
    }

    /// The smallest rectangle holding every pixel where `a` and `b` differ in `rows` (nil: all) and
    /// `columns` (nil: all), or nil: `bounds(where:)` for lossless frames, rows compared whole first
    /// (a pass with a closure a pixel was a tenth of a scrolling 1080p GIF's time).
    private func differences(_ a: [UInt8], _ b: [UInt8], rows: [Range<Int>]?, columns: Range<Int>?) -> (
        left: Int, top: Int, right: Int, bottom: Int
    )? {
        var left = width, top = height, right = 0, bottom = 0
        let xs = clamped(columns)
        guard !xs.isEmpty else { return nil }
        a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                for y in (rows ?? [0..<height]).joined() {
                    let row = y * width
                    guard memcmp(a.baseAddress! + row + xs.lowerBound, b.baseAddress! + row + xs.lowerBound, xs.count) != 0 else {
                        continue
                    }
                    // Only the ends are looked for, and only past what the rectangle holds already.
                    var first = xs.lowerBound
                    while first < min(left, xs.upperBound) && a[row + first] == b[row + first] { first += 1 }
                    var last = xs.upperBound - 1
                    while last >= max(right, xs.lowerBound) && a[row + last] == b[row + last] { last -= 1 }
                    left = min(left, first)
                    right = max(right, last + 1)
                    top = min(top, y)
                    bottom = max(bottom, y + 1)
                }
            }
        }
        return right > left ? (left, top, right, bottom) : nil
    }

    /// The smallest rectangle holding every pixel `test` picks in `rows` (nil: all) and `columns` (nil:
    /// all), or nil.
    private func bounds(where test: (Int) -> Bool, rows: [Range<Int>]? = nil, columns: Range<Int>? = nil) -> (
        left: Int, top: Int, right: Int, bottom: Int
    )? {
        var left = width, top = height, right = 0, bottom = 0
        let xs = clamped(columns)
        for y in (rows ?? [0..<height]).joined() {
            let row = y * width
            var first = -1, last = -1
            for x in xs where test(row + x) {
                if first < 0 { first = x }
                last = x
            }
            if first >= 0 {
                left = min(left, first)
                right = max(right, last + 1)
                top = min(top, y)
                bottom = max(bottom, y + 1)
            }
        }
        return right > left ? (left, top, right, bottom) : nil
    }

    /// The frame that shows `want` over `base`: the rectangle of what changed (one pixel when nothing
    /// did, a frame that only waits), coded; `shown` becomes what it shows.
    /// `rows`: where `want` may differ from `base` (nil: anywhere); `columns`, in those rows (nil: any).
    private func code(
        _ want: [UInt8], over base: [UInt8], allowed: [Float], delay: Int, rows: [Range<Int>]? = nil,
        columns: Range<Int>? = nil
    ) -> Held {
        let changed =
            distance == nil
            ? differences(want, base, rows: rows, columns: columns)
            : bounds(where: { !isFree($0, want[$0], base[$0], allowed) }, rows: rows, columns: columns)
        // A frame coded in bands spans the frame's width, so that its bands are found again in the
        // next frame whatever columns that one changes.
        let rect = changed.flatMap(bandedRect) ?? changed ?? (0, 0, 1, 1)
        var frame = Held(base: base, want: want, allowed: allowed)
        frame.left = rect.left
        frame.top = rect.top
        frame.right = rect.right
        frame.bottom = rect.bottom
        frame.delay = delay
        (frame.code, frame.transparent, frame.codeSize, frame.local) = code(want, over: base, allowed: allowed, rect: rect)
        return frame
    }

    /// Codes `want` over `base` inside `rect`, and records what the viewer then shows in `shown`. The
    /// frame's transparent index is the lowest index its changed pixels do not use, and its code size
    /// the fewest bits that hold every index it uses (a frame of a palette's first 64 colours starts
    /// at 7-bit codes instead of 9): the palette is ordered by use, so most frames stay low. A frame
    /// whose few colours sit high in the palette is also coded with a local table of just those colours
    /// (fewer bits a code), and keeps it where that is shorter, the table's bytes counted.
    private func code(_ want: [UInt8], over base: [UInt8], allowed: [Float], rect: (Int, Int, Int, Int)) -> (
        code: [UInt8], transparent: UInt8, codeSize: Int, local: [UInt8]?
    ) {
        if let banded = codeInBands(want, over: base, rect: rect) { return banded }
        let (left, top, right, bottom) = rect
        let n = (right - left) * (bottom - top)
        var kinds = [UInt8](repeating: 0, count: n), wants = [UInt8](repeating: 0, count: n)
        var bases = [UInt8](repeating: 0, count: n), allows = [Float](repeating: 0, count: distance == nil ? 0 : n)
        var used = [Bool](repeating: false, count: 256)
        var highest = 0
        // Through buffers: written element by element into the coding input's arrays, each write asked
        // the runtime whether the array was shared (9.5 million times in a 1080p GIF of a moving dot,
        // 120 frames), and the loop took 240 instructions a pixel.
        let distance = distance, bound = bound, heavy = heavy
        want.withUnsafeBufferPointer { want in
            base.withUnsafeBufferPointer { base in
                allowed.withUnsafeBufferPointer { allowed in
                    kinds.withUnsafeMutableBufferPointer { kinds in
                        wants.withUnsafeMutableBufferPointer { wants in
                            bases.withUnsafeMutableBufferPointer { bases in
                                allows.withUnsafeMutableBufferPointer { allows in
                                    var k = 0
                                    for y in top..<bottom {
                                        for x in left..<right {
                                            let i = y * width + x
                                            let w = want[i], b = base[i]
                                            wants[k] = w
                                            bases[k] = b
                                            var allowance: Float = 0
                                            if distance != nil {
                                                allowance = min(allowed[i], bound)
                                                allows[k] = allowance
                                            }
                                            let free = isFree(w, b, allowed: distance == nil ? 0 : allowed[i])
                                            if free && !(heavy && w != b && allowed[i] < .infinity && allowance > 0) {
                                                kinds[k] = GIFPixel.unchanged
                                            } else if free {
                                                // Changed, but near what is shown: transparent, as shown or
                                                // another near colour, whichever continues the string.
                                                // Measured (heavy loss, against the search alone; Reel's
                                                // bytes ÷ gifsicle's at equal SSIM): gradient-switch
                                                // 0.99–1.20× → 0.92–1.10×, star-button 0.88–0.94× →
                                                // 0.87–0.95×; docs-ui loses, 0.83–0.87× → 0.87–0.90×.
                                                kinds[k] = GIFPixel.nearOrShown
                                                used[Int(w)] = true
                                                highest = max(highest, Int(w))
                                            } else {
                                                kinds[k] = distance != nil && allowance > 0 ? GIFPixel.near : GIFPixel.exact
                                                used[Int(w)] = true
                                                highest = max(highest, Int(w))
                                            }
                                            k += 1
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        let input = GIFCodingInput(kind: kinds, want: wants, base: bases, allowed: allows)
        let t = used.firstIndex(of: false) ?? Int(transparent)
        let bits = Self.codeSize(holding: max(highest, t))
        var global = input
        // An unchanged pixel shown in an index past the code size, or showing nothing, is coded transparent.
        for j in 0..<n where input.kind[j] == GIFPixel.unchanged {
            let b = Int(input.base[j])
            if b == Int(transparent) || b >= 1 << bits { global.base[j] = UInt8(t) }
        }
        var best = shortest(global, codeSize: bits, transparent: UInt8(t), distance: distance)
        var chosen = (transparent: UInt8(t), codeSize: bits, local: [UInt8]?.none)
        // A local table: the frame's colours in palette order, then the transparent index.
        let colours = (0..<256).filter { used[$0] }.map(UInt8.init)
        let localBits = Self.codeSize(holding: colours.count)
        if localBits < bits && !used[Int(transparent)] && 3 << localBits < best.bytes.count {
            var localOf = [Int](repeating: -1, count: 256)
            for (l, g) in colours.enumerated() { localOf[Int(g)] = l }
            let lt = colours.count
            var local = input
            for j in 0..<n {
                if input.kind[j] == GIFPixel.unchanged {
                    // Shown in a colour the table lacks: coded transparent.
                    let l = localOf[Int(input.base[j])]
                    local.base[j] = UInt8(l >= 0 && input.base[j] != transparent ? l : lt)
                } else {
                    local.want[j] = UInt8(localOf[Int(input.want[j])])
                }
            }
            var localDistance: [Float]?
            if let distance {
                var table = [Float](repeating: .infinity, count: 65_536)
                for (lw, gw) in colours.enumerated() {
                    for (lb, gb) in colours.enumerated() { table[lw << 8 | lb] = distance[Int(gw) << 8 | Int(gb)] }
                }
                localDistance = table
            }
            // Coded by the rule that won with the global table only: the strings are the same but for
            // the transparent pixels, so another rule rarely wins, and five more codings would double
            // the writer's time.
            let other = shortest(
                local, codeSize: localBits, transparent: UInt8(lt), distance: localDistance, only: best.rule)
            if other.bytes.count + 3 << localBits < best.bytes.count {
                // Back to palette indices, for what is shown.
                best = (other.bytes, other.coded.map { Int($0) == lt ? UInt8(t) : colours[Int($0)] }, other.rule)
                chosen = (UInt8(lt), localBits, colours)
            }
        }
        let (bytes, coded, _) = best
        shown = buffer(showing: base)
        shown.withUnsafeMutableBufferPointer { shown in
            coded.withUnsafeBufferPointer { coded in
                input.kind.withUnsafeBufferPointer { kinds in
                    var k = 0
                    for y in top..<bottom {
                        for x in left..<right {
                            // Transparent leaves what was there.
                            if !(Int(coded[k]) == t && (kinds[k] == GIFPixel.unchanged || kinds[k] == GIFPixel.nearOrShown)) {
                                shown[y * width + x] = coded[k]
                            }
                            k += 1
                        }
                    }
                }
            }
        }
        return (bytes, chosen.transparent, chosen.codeSize, chosen.local)
    }

    /// A buffer equal to `base` that nothing else holds, for the frame being coded to be written into:
    /// the spare, brought up to date inside `spareStale`, where every frame's `base` is what was shown
    /// after the frame written last, maybe cleared inside its rectangle; or else `base` itself, copied
    /// as it is written. The spare is taken once: a frame coded again (`clearing`) copies.
    func buffer(showing base: [UInt8]) -> [UInt8] {
        guard let stale = spareStale, spareShown.count == base.count else { return base }
        var buffer = spareShown
        spareShown = []
        spareStale = nil
        buffer.withUnsafeMutableBufferPointer { out in
            base.withUnsafeBufferPointer { from in
                for y in stale.top..<stale.bottom {
                    let start = y * width + stale.left
                    (out.baseAddress! + start).update(from: from.baseAddress! + start, count: stale.right - stale.left)
                }
            }
        }
        return buffer
    }

    /// The fewest bits (2…8) a code needs to hold index `highest`.
    static func codeSize(holding highest: Int) -> Int {
        var bits = 2
        while 1 << bits <= highest { bits += 1 }
        return bits
    }

    /// Unchanged pixels free to be transparent or themselves, all transparent, all themselves, or each
    /// stretch of them whole (two rules): a choice that suits one string can split the dictionary's
    /// others, so the shortest of the five is kept (the stretch rules won 0–31 frames a clip, up to
    /// 0.6 % of its bytes; BENCHMARKS.md). With `only`, just that rule.
    private func shortest(
        _ input: GIFCodingInput, codeSize bits: Int, transparent t: UInt8, distance: [Float]?, only: Int? = nil
    ) -> (bytes: [UInt8], coded: [UInt8], rule: Int) {
        var best: (bytes: [UInt8], coded: [UInt8], rule: Int)?, winner: GIFCodingInput?
        // Without unchanged pixels the rules are all the same coding.
        let rules = input.kind.contains(GIFPixel.unchanged) ? Array(0..<5) : [0]
        // Heavy loss: the rules are tried with greedy parsing and the winner coded again flexibly (the
        // look-aheads took each frame's five codings from 0.24 to 0.51 s on spring-button at level 30;
        // this way 0.28 s, its file 0.5 % larger, gradient-switch's 0.3 % smaller, and 55 of 63
        // rate–distortion points ≤ 0.85 either way).
        let quick = heavy && only == nil && rules.count > 1
        for rule in only.map({ [$0] }) ?? rules {
            let variant = Self.rule(rule, input, transparent: t)
            let (bytes, coded) = coder.encode(
                variant, minimumCodeSize: bits, transparent: t, distance: distance, searching: heavy, flexibly: !quick)
            if best == nil || bytes.count < best!.bytes.count {
                best = (bytes, coded, rule)
                winner = variant
            }
        }
        if quick, let chosen = best, let winner {
            let (bytes, coded) = coder.encode(
                winner, minimumCodeSize: bits, transparent: t, distance: distance, searching: true)
            if bytes.count <= chosen.bytes.count { best = (bytes, coded, chosen.rule) }
        }
        return best!
    }

    /// The unchanged pixels of `input` as coding rule `rule` (0…4) has them: free (the coder picks), all
    /// transparent, all as shown, each stretch whole by either stretch rule.
    static func rule(_ rule: Int, _ input: GIFCodingInput, transparent t: UInt8) -> GIFCodingInput {
        switch rule {
        case 1, 2:
            var out = input
            for j in 0..<input.kind.count where input.kind[j] == GIFPixel.unchanged {
                if rule == 1 {
                    out.base[j] = t
                } else if input.base[j] != t {
                    out.kind[j] = GIFPixel.exact
                    out.want[j] = input.base[j]
                }
            }
            return out
        case 3, 4: return byStretch(input, transparent: t, singleColour: rule == 4)
        default: return input
        }
    }

    /// Each stretch of unchanged pixels (in scan order) coded whole: transparent where it shows two or
    /// more colours (or, with `singleColour`, one colour that neither neighbour continues), else as shown,
    /// so it extends the run of that colour.
    static func byStretch(_ input: GIFCodingInput, transparent t: UInt8, singleColour: Bool) -> GIFCodingInput {
        var out = input
        let n = input.kind.count
        var j = 0
        while j < n {
            guard input.kind[j] == GIFPixel.unchanged else {
                j += 1
                continue
            }
            let c = input.base[j]
            var end = j, mixed = false
            while end < n && input.kind[end] == GIFPixel.unchanged {
                mixed = mixed || input.base[end] != c
                end += 1
            }
            var hide = mixed || c == t
            if !hide && singleColour {
                let before = j > 0 ? out.want[j - 1] : nil, after = end < n ? input.want[end] : nil
                hide = before != c && after != c
            }
            for k in j..<end {
                if hide {
                    out.base[k] = t
                } else {
                    out.kind[k] = GIFPixel.exact
                    out.want[k] = input.base[k]
                }
            }
            j = end
        }
        return out
    }

    private func flush(_ frame: Held) throws(GIFError) {
        // Graphic control: disposal, no user input, the transparent index; the delay in centiseconds.
        buffer += [0x21, 0xF9, 0x04, UInt8(frame.disposal << 2) | 1]
        append16(frame.delay)
        buffer += [frame.transparent, 0]
        buffer.append(0x2C)
        append16(frame.left)
        append16(frame.top)
        append16(frame.right - frame.left)
        append16(frame.bottom - frame.top)
        if let local = frame.local {
            // A local table of 2^codeSize entries: the frame's colours, then unused (black) entries.
            buffer.append(0x80 | UInt8(frame.codeSize - 1))
            for j in 0..<(1 << frame.codeSize) {
                let c = j < local.count ? quantizer.argb[Int(local[j])] : 0
                buffer += [UInt8(c >> 16 & 255), UInt8(c >> 8 & 255), UInt8(c & 255)]
            }
        } else {
            buffer.append(0)
        }
        buffer.append(UInt8(frame.codeSize))
        subBlocks(frame.code)
        if buffer.count >= 1 << 20 { try drain() }
    }

    private func drain() throws(GIFError) {
        do {
            try output.write(contentsOf: buffer)
        } catch {
            throw .cannotWrite(reason: error.localizedDescription)
        }
        written.add(buffer.count, ordering: .relaxed)
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes the held frame and the trailer, and closes the file.
    public func finish() throws(GIFError) {
        coding.sync {}
        try failure()
        settle(next: nil)
        if var last = held, alpha, let all = bounds(where: { shown[$0] != transparent }) {
            // A transparent clip's last frame clears everything shown, so a loop (or the next segment
            // of a join) starts on an empty screen.
            clearing(&last, over: all)
            held = last
        }
        if let held { try flush(held) }
        held = nil
        buffer.append(0x3B)
        try drain()
        do {
            try output.close()
        } catch {
            throw .cannotClose(reason: error.localizedDescription)
        }
    }
}

/// The writer handed to its coding stage: `append` and the stage use separate state (indices, the RGBA
/// before and its hashes on the caller's side; what is shown, the held frame and the file on the stage's),
/// the frame's indices handed over by value.
private struct GIFWriterReference: @unchecked Sendable {
    let writer: GIFFileWriter
}
