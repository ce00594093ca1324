/// GIF's LZW coder (GIF89a appendix F) with pixels that may take one of several indices: an unchanged
/// pixel may be the transparent index or what is already shown, a lossy pixel any colour near enough
/// to the one intended; the coder picks, pixel by pixel, whichever continues the current string, or at
/// heavy loss searches the dictionary for the longest string the pixels allow, parsed flexibly.

/// A run of LZW codes that starts from a fresh dictionary: `bitCount` bits, packed from the first
/// byte's lowest bit, and the width of the code written after them (a clear or the end code: the
/// decoder's dictionary grows by one entry as it reads the last code, and its width with it).
struct GIFCodeSegment {
    var bytes: [UInt8]
    var bitCount: Int
    var nextWidth: Int
}

/// A code stream put together from codes and segments.
struct GIFCodeStream {
    private(set) var bytes: [UInt8] = []
    private var bits: UInt64 = 0
    private var held = 0

    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    var bitCount: Int { bytes.count * 8 + held }

    @inline(__always) mutating func write(_ code: Int, width: Int) {
        bits |= UInt64(code) << UInt64(held)
        held += width
        while held >= 8 {
            bytes.append(UInt8(truncatingIfNeeded: bits))
            bits >>= 8
            held -= 8
        }
    }

    /// The segment's bits after those written so far (at any bit position).
    mutating func append(_ segment: GIFCodeSegment) {
        let whole = segment.bitCount / 8, rest = segment.bitCount % 8
        segment.bytes.withUnsafeBufferPointer { from in
            if held == 0 {
                bytes.append(contentsOf: from[0..<whole])
            } else {
                // Grown once and shifted in place: appended a byte at a time, each append asked whether
                // the array was shared and had room (a 1080p frame that scrolled is 300 KB of segments).
                let start = bytes.count, shift = UInt64(held)
                bytes.append(contentsOf: repeatElement(0, count: whole))
                var b = bits
                bytes.withUnsafeMutableBufferPointer { out in
                    for k in 0..<whole {
                        b |= UInt64(from[k]) << shift
                        out[start + k] = UInt8(truncatingIfNeeded: b)
                        b >>= 8
                    }
                }
                bits = b
            }
            if rest > 0 { write(Int(from[whole]) & (1 << rest - 1), width: rest) }
        }
    }

    /// The bytes, the last one padded with zero bits.
    mutating func finish() -> [UInt8] {
        if held > 0 { bytes.append(UInt8(truncatingIfNeeded: bits)) }
        bits = 0
        held = 0
        return bytes
    }
}

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
    /// For the lossy search: each entry's string length and the code it extends (to read a string back
    /// from its last code), and the longest string that starts with each entry's (`deepest`).
    @exclusivity(unchecked) private var lengthOf = [Int16](repeating: 1, count: 4096)
    @exclusivity(unchecked) private var parentOf = [Int16](repeating: -1, count: 4096)
    @exclusivity(unchecked) private var deepest = [Int16](repeating: 1, count: 4096)
    /// The search's stack, per depth: the next entry to try and the one after it where the pixel takes
    /// one or two indices (-2: the next sibling), and the error so far; the best string's indices and
    /// codes, read back from its last code. Kept here, not in the search's closures, whose captured
    /// arrays Swift checks for exclusive access at every use (more than half of a heavy-loss render).
    @exclusivity(unchecked) private var stack = [Int](repeating: -1, count: 2 * 4097)
    @exclusivity(unchecked) private var error = [Float](repeating: 0, count: 4097)
    @exclusivity(unchecked) private var best = [UInt8](repeating: 0, count: 4097)
    @exclusivity(unchecked) private var bestNodes = [Int](repeating: 0, count: 4097)

    init() { slots = [UInt64](repeating: 0, count: Self.slotMask + 1) }

    private func wipe() { for i in slots.indices { slots[i] = 0 } }

    /// The first slot `key` (code << 8 | index) may be in; it is there or in the slots after.
    @inline(__always) private static func home(of key: UInt64) -> Int {
        Int(truncatingIfNeeded: (UInt32(truncatingIfNeeded: key) &* 0x9E37_79B1) >> 18)
    }

    /// The slot of `key` (code << 8 | index) in the dictionary, or the empty slot where it goes.
    @inline(__always) private static func slot(
        of key: UInt64, in slots: UnsafeMutableBufferPointer<UInt64>, epoch: UInt64
    ) -> Int {
        var h = home(of: key)
        while true {
            let e = slots[h]
            if e >> 32 != epoch || (e >> 12) & 0xF_FFFF == key { return h }
            h = (h &+ 1) & slotMask
        }
    }

    /// Adds the code of `key` unless the dictionary holds the key already; whether it added it.
    @discardableResult @inline(__always) private static func insert(
        _ key: UInt64, code: Int, in slots: UnsafeMutableBufferPointer<UInt64>, epoch: UInt64
    ) -> Bool {
        let h = slot(of: key, in: slots, epoch: epoch)
        guard slots[h] >> 32 != epoch else { return false }
        slots[h] = epoch << 32 | key << 12 | UInt64(code)
        return true
    }

    /// Codes `input` (pixels in order) with `minimumCodeSize` (2…8) bits per index; `transparent` is
    /// the frame's transparent index (or nil), `distance[w << 8 | b]` the Oklab distance between palette
    /// entries (a near pixel takes the nearest b within its allowance that continues the string, below
    /// 2^minimumCodeSize and not the transparent index). `searching`: heavy loss's search for the
    /// longest strings, parsed `flexibly` or greedily. Returns the code stream (not yet cut into
    /// sub-blocks) and, per pixel, the index coded.
    func encode(
        _ input: GIFCodingInput, minimumCodeSize m: Int, transparent: UInt8?, distance: [Float]?,
        searching: Bool = false, flexibly: Bool = true
    ) -> (bytes: [UInt8], coded: [UInt8]) {
        let run = code(
            input, minimumCodeSize: m, transparent: transparent, distance: distance, searching: searching,
            flexibly: flexibly, whole: true)
        return (run.bytes, run.coded)
    }

    /// Codes `input` as one segment of a longer stream: the codes from a fresh dictionary (the clear
    /// code before them is the caller's) through the last string, without the end code; lossless.
    /// A segment depends on its pixels and code size alone, so a caller may keep it and write it again
    /// wherever the same pixels recur (`GIFCodeStream.append`).
    func segment(_ input: GIFCodingInput, minimumCodeSize m: Int, transparent: UInt8?) -> (
        segment: GIFCodeSegment, coded: [UInt8]
    ) {
        let run = code(input, minimumCodeSize: m, transparent: transparent, distance: nil, whole: false)
        return (GIFCodeSegment(bytes: run.bytes, bitCount: run.bitCount, nextWidth: run.nextWidth), run.coded)
    }

    /// `segment` for pixels coded exactly, each its own index, and no transparent index: the same
    /// strings and codes, byte for byte, without the choices the general coder weighs at every pixel
    /// or the indices it hands back (a band of a 1080p frame that scrolled, coded whole, took 14 ns a
    /// pixel there).
    func segment(exact pixels: [UInt8], minimumCodeSize m: Int) -> GIFCodeSegment {
        var out = GIFCodeStream(capacity: pixels.count / 2 + 16)
        let clear = 1 << m
        var size = m + 1, nextCode = clear + 2
        // A fresh dictionary: entries of an earlier epoch count as empty.
        func fresh() {
            epoch += 1
            if epoch >= 1 << 31 {
                wipe()
                epoch = 1
            }
            size = m + 1
            nextCode = clear + 2
        }
        fresh()
        if let first = pixels.first {
            var current = Int(first)
            slots.withUnsafeMutableBufferPointer { slots in
                pixels.withUnsafeBufferPointer { px in
                    var epoch = self.epoch
                    for i in 1..<px.count {
                        let index = Int(px[i]), key = UInt64(current << 8 | index)
                        // The key's slot, or the empty one where it goes (`slot(of:in:epoch:)`).
                        var h = Self.home(of: key)
                        var found = -1
                        while true {
                            let e = slots[h]
                            if e >> 32 != epoch { break }
                            if (e >> 12) & 0xF_FFFF == key {
                                found = Int(e & 0xFFF)
                                break
                            }
                            h = (h &+ 1) & Self.slotMask
                        }
                        if found >= 0 {
                            current = found
                            continue
                        }
                        out.write(current, width: size)
                        let code = nextCode
                        slots[h] = epoch << 32 | key << 12 | UInt64(code)
                        nextCode += 1
                        if code >= 1 << size && size < 12 { size += 1 }
                        if code == 4095 {
                            out.write(clear, width: size)
                            fresh()
                            epoch = self.epoch
                        }
                        current = index
                    }
                }
            }
            out.write(current, width: size)
            if nextCode < 4095 && nextCode >= 1 << size && size < 12 { size += 1 }
        }
        let bitCount = out.bitCount
        return GIFCodeSegment(bytes: out.finish(), bitCount: bitCount, nextWidth: size)
    }

    /// `whole`: a complete stream (clear code first, end code last); else a segment. Returns, besides
    /// the bytes and the indices coded, the bits written and the width of the code that follows them.
    private func code(
        _ input: GIFCodingInput, minimumCodeSize m: Int, transparent: UInt8?, distance: [Float]?,
        searching: Bool = false, flexibly: Bool = true, whole: Bool
    ) -> (bytes: [UInt8], coded: [UInt8], bitCount: Int, nextWidth: Int) {
        let count = input.kind.count
        var coded = [UInt8](repeating: 0, count: count)
        var out = GIFCodeStream(capacity: count / 2 + 16)
        let clear = 1 << m, end = clear + 1
        var size = m + 1
        var nextCode = clear + 2
        @inline(__always) func emit(_ code: Int) { out.write(code, width: size) }
        func reset() {
            epoch += 1
            if epoch >= 1 << 31 {
                // Start the table afresh once in two billion clears.
                needsWipe = true
                epoch = 1
            }
            for i in 0..<4096 { firstChild[i] = -1 }
            for i in 0..<clear { deepest[i] = 1 }
            size = m + 1
            nextCode = clear + 2
        }
        var needsWipe = false
        reset()
        if needsWipe { wipe() }
        if whole { emit(clear) }
        guard count > 0 else {
            if whole { emit(end) }
            let bitCount = out.bitCount
            return (out.finish(), coded, bitCount, size)
        }
        let t = transparent.map(Int.init) ?? -1
        let limit = 1 << m
        var current = 0
        if searching, let distance {
            current = longestStrings(
                input, coded: &coded, limit: limit, transparent: t, distance: distance, flexibly: flexibly, emit: emit,
                add: { prefix, index in
                    let code = nextCode
                    // A string the dictionary holds already (a shorter string chosen, or a walk cut short):
                    // the decoder takes the code all the same, but the coder leaves it unused, so that
                    // the older entry, with its longer strings, stays the one found.
                    let fresh = self.slots.withUnsafeMutableBufferPointer {
                        Self.insert(UInt64(prefix << 8 | index), code: code, in: $0, epoch: self.epoch)
                    }
                    if fresh {
                        self.byteOf[code] = UInt8(index)
                        self.lengthOf[code] = self.lengthOf[prefix] + 1
                        self.parentOf[code] = Int16(prefix)
                        // A code is new to the dictionary (what it held before the last clear is gone),
                        // and its string the longest of its prefixes' that have none longer.
                        let length = self.lengthOf[code]
                        self.deepest[code] = length
                        var node = Int(self.parentOf[code])
                        while node >= 0 && self.deepest[node] < length {
                            self.deepest[node] = length
                            node = Int(self.parentOf[node])
                        }
                        self.nextSibling[code] = self.firstChild[prefix]
                        self.firstChild[prefix] = Int16(code)
                    }
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
        if whole { emit(end) }
        let bitCount = out.bitCount
        return (out.finish(), coded, bitCount, size)
    }

    /// Heavy loss: each string the longest the dictionary holds for the pixels from where it starts,
    /// found by a depth-first walk of the dictionary's tree that enters an entry when its index is one
    /// the pixel may take (of equal lengths, the least summed error). The pixel-by-pixel coder takes
    /// the nearest index that continues the string, and a nearer index can end a string that a farther
    /// one would have carried on (gifsicle's lossy mode searches so too). Carrying a share of each
    /// pixel's error on to the next (gifsicle's ¾) was measured and dropped: 0.02–0.08× more bytes
    /// than gifsicle's at equal SSIM on gradient-switch (`scripts/bench-gif.sh --rd`).
    ///
    /// Each string is then parsed flexibly (Matias, Rajpoot and Sahinalp's one-step look-ahead for
    /// LZW): it may stop at any of its prefixes, all of them in the dictionary, and stops at the one
    /// after which the next string reaches farthest. Greedy parsing takes the longest string now even
    /// where it leaves the next one short. Measured (`scripts/bench-gif.sh --rd`, Reel's bytes ÷
    /// gifsicle's at equal SSIM): ≤ 0.85 at 55 of 63 points, 52 greedy; spring-button at level 200
    /// 49,869 → 44,344 B. The writer tries its coding rules greedily and codes the winner flexibly
    /// (`GIFFileWriter.shortest`): heavy-loss renders take 1.1–1.35× the CPU time they took greedy.
    ///
    /// Calls `emit` for each code written and `add` for each new entry; returns the code of the last
    /// string, not yet emitted.
    private func longestStrings(
        _ input: GIFCodingInput, coded: inout [UInt8], limit: Int, transparent t: Int, distance: [Float],
        flexibly: Bool, emit: (Int) -> Void, add: (_ prefix: Int, _ index: Int) -> Void
    ) -> Int {
        let count = input.kind.count
        @inline(__always) func start(_ i: Int, after last: Int) -> Int {
            if input.kind[i] != GIFPixel.unchanged { return Int(input.want[i]) }
            // Runs of one choice make longer strings: keep the choice of the pixel before.
            if t >= 0 && last != Int(input.base[i]) { return t }
            return Int(input.base[i])
        }
        // The longest string from pixel i, whose first index is s, visiting at most `budget` entries:
        // its length past that pixel and the entries visited; with `path`, its indices and codes in
        // `best` and `bestNodes`.
        func search(_ i: Int, _ s: Int, budget: Int, path: Bool) -> (length: Int, visits: Int) {
            let (bestDepth, bestNode, visited) = slots.withUnsafeBufferPointer { slots in
                stack.withUnsafeMutableBufferPointer { stack in
                    error.withUnsafeMutableBufferPointer { error in
                        @inline(__always) func lookup(_ code: Int, _ index: Int) -> Int {
                            let key = UInt64(code << 8 | index)
                            var h = Self.home(of: key)
                            while true {
                                let e = slots[h]
                                if e >> 32 != epoch { return -1 }
                                if (e >> 12) & 0xF_FFFF == key { return Int(e & 0xFFF) }
                                h = (h &+ 1) & Self.slotMask
                            }
                        }
                        // A pixel that takes one or two indices only (exact, unchanged) has them looked up, not
                        // found along the string's children: walking up to 256 children at every such pixel was
                        // most of the search's time. Two are tried in the list's order (newest first), as the
                        // walk along it would.
                        @inline(__always) func open(_ depth: Int, _ c: Int, _ j: Int) {
                            stack[2 * depth + 1] = -1
                            guard j < count else {
                                stack[2 * depth] = -1
                                return
                            }
                            switch input.kind[j] {
                            case GIFPixel.near, GIFPixel.nearOrShown:
                                stack[2 * depth] = Int(firstChild[c])
                                stack[2 * depth + 1] = -2
                            case GIFPixel.unchanged:
                                let b = Int(input.base[j])
                                let x = lookup(c, b), y = t >= 0 && t != b ? lookup(c, t) : -1
                                stack[2 * depth] = max(x, y)
                                stack[2 * depth + 1] = min(x, y)
                            default:
                                stack[2 * depth] = lookup(c, Int(input.want[j]))
                            }
                        }
                        open(0, s, i + 1)
                        var depth = 0, bestDepth = 0, bestError: Float = 0, bestNode = s, visits = 0
                        while depth >= 0 {
                            let c = stack[2 * depth]
                            if c < 0 || visits >= budget {
                                depth -= 1
                                continue
                            }
                            if stack[2 * depth + 1] == -2 {
                                stack[2 * depth] = Int(nextSibling[c])
                            } else {
                                stack[2 * depth] = stack[2 * depth + 1]
                                stack[2 * depth + 1] = -1
                            }
                            visits += 1
                            let j = i + 1 + depth, b = Int(byteOf[c])
                            var e: Float = 0
                            switch input.kind[j] {
                            case GIFPixel.unchanged:
                                guard b == Int(input.base[j]) || b == t else { continue }
                            case GIFPixel.near, GIFPixel.nearOrShown:
                                let w = Int(input.want[j])
                                if b == t {
                                    // Transparent only where what is shown will do; counted as its largest error,
                                    // so that of equal strings the one that draws the intended colours wins
                                    // (counted as no error, as an unchanged pixel is, with strings started
                                    // transparent after a transparent pixel, it measured up to 0.02× worse:
                                    // BENCHMARKS.md).
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
                            error[depth] = error[depth - 1] + e
                            open(depth, c, j + 1)
                            if depth > bestDepth || (depth == bestDepth && error[depth] < bestError) {
                                bestDepth = depth
                                bestError = error[depth]
                                bestNode = c
                            }
                        }
                        return (bestDepth, bestNode, visits)
                    }
                }
            }
            if path {
                bestNodes[0] = s
                var node = bestNode
                for k in stride(from: bestDepth, to: 0, by: -1) {
                    best[k] = byteOf[node]
                    bestNodes[k] = node
                    node = Int(parentOf[node])
                }
            }
            return (bestDepth, visited)
        }
        var i = 0, current = 0
        var last = -1
        while true {
            let s = start(i, after: last)
            coded[i] = UInt8(s)
            var length = search(i, s, budget: Self.searchBudget, path: true).length
            if flexibly && length > 0 {
                // Flexible parsing: of the string's prefixes, the one after which the next string reaches
                // farthest (the longest, of equal reaches). A next string is no longer than the longest
                // that starts with its first index (`deepest`), which spares most look-aheads; together
                // they visit at most `searchBudget` entries, as one walk may.
                var choice = length, reach = -1, budget = Self.searchBudget
                for k in stride(from: length, through: 0, by: -1) where budget > 0 {
                    let j = i + k + 1
                    guard j < count else {
                        choice = k
                        break
                    }
                    let next = start(j, after: k == 0 ? s : Int(best[k]))
                    if k + Int(deepest[next]) <= reach { continue }
                    let found = search(j, next, budget: budget, path: false)
                    budget -= found.visits
                    let r = k + 1 + found.length
                    if r > reach {
                        reach = r
                        choice = k
                    }
                }
                length = choice
            }
            for k in 0..<length { coded[i + 1 + k] = best[k + 1] }
            i += length + 1
            current = bestNodes[length]
            guard i < count else { break }
            last = Int(coded[i - 1])
            emit(current)
            add(current, start(i, after: last))
        }
        return current
    }

    /// The most dictionary entries one string's walk visits, and its look-aheads together: a bound on
    /// the time a string can take
    /// where many entries are within a pixel's allowance (the walk is exponential in the worst case);
    /// a count, not a clock, so the output does not depend on the machine.
    static let searchBudget = 100_000
}
