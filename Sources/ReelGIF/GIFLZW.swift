/// GIF's LZW coder (GIF89a appendix F) with pixels that may take one of several indices: an unchanged
/// pixel may be the transparent index or what is already shown, a lossy pixel any colour near enough
/// to the one intended; the coder picks, pixel by pixel, whichever continues the current string, or at
/// heavy loss searches the dictionary for the longest string the pixels allow.

/// How one pixel of a frame's rectangle may be coded.
enum GIFPixel {
    /// Exactly this index.
    static let exact: UInt8 = 0
    /// The transparent index or the index already shown there (`base`): either leaves it as it is.
    static let unchanged: UInt8 = 1
    /// The intended index or any other the palette's `near` table allows for it.
    static let near: UInt8 = 2
    /// A `near` pixel whose shown colour is near enough too: it may also be transparent (the lossy
    /// search only).
    static let nearOrShown: UInt8 = 3
}

/// One frame's pixels as the coder sees them: per pixel its kind, the intended index and the index
/// already shown (for `unchanged`).
struct GIFCodingInput {
    var kind: [UInt8]
    var want: [UInt8]
    var base: [UInt8]
    /// For `near` pixels: the largest Oklab distance from the intended colour allowed.
    var allowed: [Float]
}

/// The LZW coder. One instance is reused for every frame of a file.
final class GIFLZWEncoder {
    /// The dictionary: the code of the string `code` extended by `index`, in 16,384 slots (128 KiB, held
    /// in the processor's cache) of open addressing, each `epoch << 32 | key << 12 | code` with
    /// key = code << 8 | index; a slot of an older epoch (before the last clear) is empty, so a clear
    /// costs nothing. It was a table of every code and index (4 MiB), where a busy frame's strings
    /// missed the cache at almost every pixel: the coder was a third of the time a 2,000-shape frame
    /// added to a GIF. Live entries are at most 4,094, a quarter of the slots.
    ///
    /// The tables skip Swift's run-time exclusivity checks: one coder serves one writer on one thread,
    /// and no access to them overlaps another; the checks were 8 % of a heavy-loss render's time (the
    /// search reads the lists once per dictionary entry it visits; `perf record`).
    @exclusivity(unchecked) private var slots: [UInt64]
    private var epoch: UInt64 = 1
    private static let slotMask = 16_383
    /// Children of each code as a list, for the lossy search (which byte may extend a string).
    @exclusivity(unchecked) private var firstChild = [Int16](repeating: -1, count: 4096)
    @exclusivity(unchecked) private var nextSibling = [Int16](repeating: -1, count: 4096)
    @exclusivity(unchecked) private var byteOf = [UInt8](repeating: 0, count: 4096)

    init() { slots = [UInt64](repeating: 0, count: Self.slotMask + 1) }

    private func wipe() { for i in slots.indices { slots[i] = 0 } }

    /// The slot of `key` (code << 8 | index) in the dictionary, or the empty slot where it goes.
    @inline(__always) private static func slot(
        of key: UInt64, in slots: UnsafeMutableBufferPointer<UInt64>, epoch: UInt64
    ) -> Int {
        var h = Int(truncatingIfNeeded: (UInt32(truncatingIfNeeded: key) &* 0x9E37_79B1) >> 18)
        while true {
            let e = slots[h]
            if e >> 32 != epoch || (e >> 12) & 0xF_FFFF == key { return h }
            h = (h &+ 1) & slotMask
        }
    }

    /// Adds (or, where a walk cut short by its budget left it, replaces) the code of `key`.
    @inline(__always) private static func insert(
        _ key: UInt64, code: Int, in slots: UnsafeMutableBufferPointer<UInt64>, epoch: UInt64
    ) {
        slots[slot(of: key, in: slots, epoch: epoch)] = epoch << 32 | key << 12 | UInt64(code)
    }

    /// Codes `input` (pixels in order) with `minimumCodeSize` (2…8) bits per index; `transparent` is
    /// the frame's transparent index (or nil), `distance[w << 8 | b]` the Oklab distance between palette
    /// entries (a near pixel takes the nearest b within its allowance that continues the string, below
    /// 2^minimumCodeSize and not the transparent index). Returns the code stream (not yet cut into
    /// sub-blocks) and, per pixel, the index coded.
    func encode(
        _ input: GIFCodingInput, minimumCodeSize m: Int, transparent: UInt8?, distance: [Float]?,
        searching: Bool = false
    ) -> (bytes: [UInt8], coded: [UInt8]) {
        let count = input.kind.count
        var coded = [UInt8](repeating: 0, count: count)
        var out: [UInt8] = []
        out.reserveCapacity(count / 2 + 16)
        var bits: UInt64 = 0, held = 0
        let clear = 1 << m, end = clear + 1
        var size = m + 1
        var nextCode = clear + 2
        @inline(__always) func emit(_ code: Int) {
            bits |= UInt64(code) << UInt64(held)
            held += size
            while held >= 8 {
                out.append(UInt8(truncatingIfNeeded: bits))
                bits >>= 8
                held -= 8
            }
        }
        func reset() {
            epoch += 1
            if epoch >= 1 << 31 {
                // Start the table afresh once in two billion clears.
                needsWipe = true
                epoch = 1
            }
            for i in 0..<4096 { firstChild[i] = -1 }
            size = m + 1
            nextCode = clear + 2
        }
        var needsWipe = false
        reset()
        if needsWipe { wipe() }
        emit(clear)
        guard count > 0 else {
            emit(end)
            if held > 0 { out.append(UInt8(truncatingIfNeeded: bits)) }
            return (out, coded)
        }
        let t = transparent.map(Int.init) ?? -1
        let limit = 1 << m
        var current = 0
        if searching, let distance {
            current = longestStrings(
                input, coded: &coded, limit: limit, transparent: t, distance: distance, emit: emit,
                add: { prefix, index in
                    let code = nextCode
                    self.slots.withUnsafeMutableBufferPointer {
                        Self.insert(UInt64(prefix << 8 | index), code: code, in: $0, epoch: self.epoch)
                    }
                    self.byteOf[code] = UInt8(index)
                    self.nextSibling[code] = self.firstChild[prefix]
                    self.firstChild[prefix] = Int16(code)
                    nextCode += 1
                    if code >= 1 << size && size < 12 { size += 1 }
                    if code == 4095 {
                        emit(clear)
                        reset()
                    }
                    if needsWipe {
                        self.wipe()
                        needsWipe = false
                    }
                })
        } else {
            input.kind.withUnsafeBufferPointer { kind in
                input.want.withUnsafeBufferPointer { want in
                    input.base.withUnsafeBufferPointer { base in
                        slots.withUnsafeMutableBufferPointer { slots in
                            // The index a pixel starts a string with.
                            @inline(__always) func start(_ i: Int, after last: Int) -> Int {
                                if kind[i] != GIFPixel.unchanged { return Int(want[i]) }
                                // Runs of one choice make longer strings: keep the choice of the pixel before.
                                if t >= 0 && last != Int(base[i]) { return t }
                                return Int(base[i])
                            }
                            @inline(__always) func lookup(_ code: Int, _ index: Int) -> Int {
                                let e = slots[Self.slot(of: UInt64(code << 8 | index), in: slots, epoch: epoch)]
                                return e >> 32 == epoch ? Int(e & 0xFFF) : -1
                            }
                            current = start(0, after: -1)
                            coded[0] = UInt8(current)
                            var last = current
                            for i in 1..<count {
                                var next = -1, index = -1
                                switch kind[i] {
                                case GIFPixel.unchanged:
                                    let b = Int(base[i])
                                    let first = last == b || t < 0 ? b : t, second = first == b ? t : b
                                    next = lookup(current, first)
                                    index = first
                                    if next < 0 && second >= 0 {
                                        next = lookup(current, second)
                                        index = second
                                    }
                                case GIFPixel.near:
                                    let w = Int(want[i])
                                    next = lookup(current, w)
                                    index = w
                                    if next < 0, let distance {
                                        var c = Int(firstChild[current])
                                        var closest = input.allowed[i]
                                        while c >= 0 {
                                            let b = Int(byteOf[c])
                                            let d = distance[w << 8 | b]
                                            if d <= closest && b != t && b < limit {
                                                next = c
                                                index = b
                                                closest = d
                                            }
                                            c = Int(nextSibling[c])
                                        }
                                    }
                                default:
                                    index = Int(want[i])
                                    next = lookup(current, index)
                                }
                                if next >= 0 {
                                    current = next
                                    coded[i] = UInt8(index)
                                    last = index
                                    continue
                                }
                                emit(current)
                                let s = start(i, after: last)
                                // The new string: the one just written and this pixel's index.
                                let code = nextCode
                                Self.insert(UInt64(current << 8 | s), code: code, in: slots, epoch: epoch)
                                byteOf[code] = UInt8(s)
                                nextSibling[code] = firstChild[current]
                                firstChild[current] = Int16(code)
                                nextCode += 1
                                if code >= 1 << size && size < 12 { size += 1 }
                                if code == 4095 {
                                    // A full table starts again (measured against keeping it, and against
                                    // keeping it while its strings stay long: BENCHMARKS.md).
                                    emit(clear)
                                    reset()
                                }
                                if needsWipe {
                                    for j in 0..<slots.count { slots[j] = 0 }
                                    needsWipe = false
                                }
                                current = s
                                coded[i] = UInt8(s)
                                last = s
                            }
                        }
                    }
                }
            }
        }
        emit(current)
        // The decoder adds an entry for the last code too (one behind the coder): its code size may grow
        // with it, and the end code is read at that size.
        if nextCode < 4095 && nextCode >= 1 << size && size < 12 { size += 1 }
        emit(end)
        if held > 0 { out.append(UInt8(truncatingIfNeeded: bits)) }
        return (out, coded)
    }

    /// Heavy loss: each string the longest the dictionary holds for the pixels from where it starts,
    /// found by a depth-first walk of the dictionary's tree that enters an entry when its index is one
    /// the pixel may take (of equal lengths, the least summed error). The pixel-by-pixel coder takes
    /// the nearest index that continues the string, and a nearer index can end a string that a farther
    /// one would have carried on (gifsicle's lossy mode searches so too). Carrying a share of each
    /// pixel's error on to the next (gifsicle's ¾) was measured and dropped: 0.02–0.08× more bytes
    /// than gifsicle's at equal SSIM on gradient-switch (`scripts/bench-gif.sh --rd`).
    ///
    /// Calls `emit` for each code written and `add` for each new entry; returns the code of the last
    /// string, not yet emitted.
    private func longestStrings(
        _ input: GIFCodingInput, coded: inout [UInt8], limit: Int, transparent t: Int, distance: [Float],
        emit: (Int) -> Void, add: (_ prefix: Int, _ index: Int) -> Void
    ) -> Int {
        let count = input.kind.count
        // The walk's stack, per depth: the next sibling to try and the error so far; the index taken at
        // each depth, and the best string's.
        var next = [Int](repeating: -1, count: 4097), error = [Float](repeating: 0, count: 4097)
        var path = [UInt8](repeating: 0, count: 4097), best = [UInt8](repeating: 0, count: 4097)
        @inline(__always) func start(_ i: Int, after last: Int) -> Int {
            if input.kind[i] != GIFPixel.unchanged { return Int(input.want[i]) }
            // Runs of one choice make longer strings: keep the choice of the pixel before.
            if t >= 0 && last != Int(input.base[i]) { return t }
            return Int(input.base[i])
        }
        var i = 0, current = 0
        var last = -1
        while true {
            let s = start(i, after: last)
            coded[i] = UInt8(s)
            next[0] = i + 1 < count ? Int(firstChild[s]) : -1
            var depth = 0, bestDepth = 0, bestError: Float = 0, bestNode = s, visits = 0
            while depth >= 0 {
                let c = next[depth]
                if c < 0 || visits >= Self.searchBudget {
                    depth -= 1
                    continue
                }
                next[depth] = Int(nextSibling[c])
                visits += 1
                let j = i + 1 + depth, b = Int(byteOf[c])
                var e: Float = 0
                switch input.kind[j] {
                case GIFPixel.unchanged:
                    guard b == Int(input.base[j]) || b == t else { continue }
                case GIFPixel.near, GIFPixel.nearOrShown:
                    let w = Int(input.want[j])
                    if b == t {
                        // Transparent only where what is shown will do; counted as its largest error, so that
                        // of equal strings the one that draws the intended colours wins (counted as no
                        // error, as an unchanged pixel is, with strings started transparent after a
                        // transparent pixel, it measured up to 0.02× worse: BENCHMARKS.md).
                        guard input.kind[j] == GIFPixel.nearOrShown else { continue }
                        e = input.allowed[j]
                    } else if b != w {
                        guard b < limit else { continue }
                        e = distance[w << 8 | b]
                        guard e <= input.allowed[j] else { continue }
                    }
                default:
                    guard b == Int(input.want[j]) else { continue }
                }
                depth += 1
                path[depth] = UInt8(b)
                error[depth] = error[depth - 1] + e
                next[depth] = j + 1 < count ? Int(firstChild[c]) : -1
                if depth > bestDepth || (depth == bestDepth && error[depth] < bestError) {
                    bestDepth = depth
                    bestError = error[depth]
                    bestNode = c
                    for k in 1...depth { best[k] = path[k] }
                }
            }
            for k in 0..<bestDepth { coded[i + 1 + k] = best[k + 1] }
            i += bestDepth + 1
            current = bestNode
            guard i < count else { break }
            last = Int(coded[i - 1])
            emit(current)
            add(current, start(i, after: last))
        }
        return current
    }

    /// The most dictionary entries one string's walk visits: a bound on the time a string can take
    /// where many entries are within a pixel's allowance (the walk is exponential in the worst case);
    /// a count, not a clock, so the output does not depend on the machine.
    static let searchBudget = 100_000
}
