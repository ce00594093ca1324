/// Painters' memory kept from one drawing to the next: coverage cells, a row of shades and offscreen canvases.
import Foundation

/// What one band painter works in. A drawing made each painter's afresh (a 1080p frame of a button with
/// a σ 48 shadow: 5.8 MB of cells and 7 MB of offscreen canvas a band), and with the H.264 writer's
/// zero-filling allocator (`MediaMemory.zeroFillAllocations`) each was filled three times: on
/// allocation, by its own zeroing and on release. Kept, the cells need no zeroing (the walks leave them
/// zero) and a canvas is zeroed once, where it is used.
final class PainterMemory {
    let width: Int
    let rows: Int
    let scratch: CoverageScratch
    /// One row of shaded colours (gradients, images).
    let shadeRow: UnsafeMutablePointer<SIMD4<Float>>
    let offscreen = OffscreenStack()

    init(width: Int, rows: Int) {
        self.width = width
        self.rows = rows
        scratch = CoverageScratch(width: width, rows: rows)
        shadeRow = .allocate(capacity: width + 2)
    }

    deinit {
        scratch.deallocate()
        shadeRow.deallocate()
    }

    /// Whether this memory serves a painter of `width` columns and `rows` rows of cells.
    func fits(width: Int, rows: Int) -> Bool { width <= self.width && rows <= self.rows }

    /// Bytes held.
    var bytes: Int { scratch.bytes + (width + 2) * MemoryLayout<SIMD4<Float>>.stride + offscreen.capacity }
}

/// Offscreen canvases, innermost last, taken from one block: a group's canvas and, inside it, its
/// shadow's or its mask's and those of nested groups live and die in order. A canvas that does not fit
/// is allocated on its own, and the block grows to the most the drawing asked for when it is next empty,
/// so it is as large as the deepest nesting of the largest band drawn: what `MemoryEstimate.raster`
/// counts for each band thread.
final class OffscreenStack {
    private var block: UnsafeMutablePointer<UInt8>?
    private(set) var capacity = 0
    private var top = 0
    private var wanted = 0

    deinit { block?.deallocate() }

    /// A transparent canvas alive for `body` only.
    func with<R>(x0: Int, y0: Int, width: Int, rows: Int, _ body: (Canvas) -> R) -> R {
        let count = width * rows * 4
        // Each canvas on a 64-byte line, as an allocation of its own would be.
        let taken = (count + 63) & ~63
        wanted = max(wanted, top + taken)
        if top == 0 { grow() }
        guard let block, top + taken <= capacity else {
            return withOffscreen(x0: x0, y0: y0, width: width, rows: rows, body)
        }
        let p = block + top
        top += taken
        defer { top -= taken }
        p.initialize(repeating: 0, count: count)
        return body(Canvas(pixels: p, x0: x0, y0: y0, width: width, rows: rows))
    }

    /// The block made as large as the most asked for (while no canvas is in it, so at the outermost).
    private func grow() {
        guard wanted > capacity else { return }
        block?.deallocate()
        block = .allocate(capacity: wanted)
        capacity = wanted
    }
}

/// The painters' memory between drawings, shared by a rasterizer's copies: a drawing's band workers each
/// take one and give it back. It holds at most as many as were in use at once (the band threads of the
/// frames drawn at once), each the size of the largest band asked of it.
final class PainterPool: @unchecked Sendable {
    private let lock = NSLock()
    private var spare: [PainterMemory] = []

    /// Memory for a painter of `width` columns and `rows` rows of cells: one kept that fits, or new.
    func take(width: Int, rows: Int) -> PainterMemory {
        lock.lock()
        defer { lock.unlock() }
        if let i = spare.firstIndex(where: { $0.fits(width: width, rows: rows) }) { return spare.remove(at: i) }
        // None fits: one kept (too small) goes, so that what is kept stays one per painter.
        if !spare.isEmpty { spare.removeLast() }
        return PainterMemory(width: width, rows: rows)
    }

    func give(_ memory: PainterMemory) {
        lock.lock()
        spare.append(memory)
        lock.unlock()
    }

    /// Memory kept now (for tests).
    var keptBytes: Int {
        lock.lock()
        defer { lock.unlock() }
        return spare.reduce(0) { $0 + $1.bytes }
    }

    var keptCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return spare.count
    }
}
