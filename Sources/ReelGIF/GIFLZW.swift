/// GIF's LZW coder (GIF89a appendix F) with pixels that may take one of several indices: an unchanged
/// pixel may be the transparent index or what is already shown, a lossy pixel any colour near enough
/// to the one intended; the coder picks, pixel by pixel, whichever continues the current string.

/// How one pixel of a frame's rectangle may be coded.
enum GIFPixel {
    /// Exactly this index.
    static let exact: UInt8 = 0
    /// The transparent index or the index already shown there (`base`): either leaves it as it is.
    static let unchanged: UInt8 = 1
    /// The intended index or any other the palette's `near` table allows for it.
    static let near: UInt8 = 2
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

/// The LZW coder. One instance is reused for every frame of a file (its tables are 4 MiB).
final class GIFLZWEncoder {
    /// child[(code << 8) | index] = epoch << 12 | code of the string extended by index; an entry of an
    /// older epoch (before the last clear) is absent, so a clear costs nothing.
    private var child: [UInt32]
    private var epoch: UInt32 = 1
    /// Children of each code as a list, for the lossy search (which byte may extend a string).
    private var firstChild = [Int16](repeating: -1, count: 4096)
    private var nextSibling = [Int16](repeating: -1, count: 4096)
    private var byteOf = [UInt8](repeating: 0, count: 4096)

    init() { child = [UInt32](repeating: 0, count: 4096 * 256) }

    private func wipe() { for i in child.indices { child[i] = 0 } }

    /// Codes `input` (pixels in order) with `minimumCodeSize` (2…8) bits per index; `transparent` is
    /// the frame's transparent index (or nil), `distance[w << 8 | b]` the Oklab distance between palette
    /// entries (a near pixel takes the nearest b within its allowance that continues the string, below
    /// 2^minimumCodeSize and not the transparent index). Returns the code stream (not yet cut into
    /// sub-blocks) and, per pixel, the index coded.
    func encode(
        _ input: GIFCodingInput, minimumCodeSize m: Int, transparent: UInt8?, distance: [Float]?
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
            if epoch >= 1 << 20 {
                // The epoch field is 20 bits: start the table afresh once in a million clears.
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
        let stamp = { (e: UInt32) in e << 12 }
        input.kind.withUnsafeBufferPointer { kind in
            input.want.withUnsafeBufferPointer { want in
                input.base.withUnsafeBufferPointer { base in
                    child.withUnsafeMutableBufferPointer { child in
                        // The index a pixel starts a string with.
                        @inline(__always) func start(_ i: Int, after last: Int) -> Int {
                            if kind[i] != GIFPixel.unchanged { return Int(want[i]) }
                            // Runs of one choice make longer strings: keep the choice of the pixel before.
                            if t >= 0 && last != Int(base[i]) { return t }
                            return Int(base[i])
                        }
                        @inline(__always) func lookup(_ code: Int, _ index: Int) -> Int {
                            let e = child[code << 8 | index]
                            return e >> 12 == epoch ? Int(e & 0xFFF) : -1
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
                            child[current << 8 | s] = stamp(epoch) | UInt32(code)
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
                                for j in 0..<child.count { child[j] = 0 }
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
        emit(current)
        // The decoder adds an entry for the last code too (one behind the coder): its code size may grow
        // with it, and the end code is read at that size.
        if nextCode < 4095 && nextCode >= 1 << size && size < 12 { size += 1 }
        emit(end)
        if held > 0 { out.append(UInt8(truncatingIfNeeded: bits)) }
        return (out, coded)
    }
}
