/// Background filters drawn: what lies below a group painted again around its clip, filtered, and shown
/// within the clip in place of what was there (frosted glass).
import Foundation

extension BandPainter {
    /// Replaces the canvas's pixels within the backdrop's clip (by its coverage × `opacity`) with what
    /// the backdrop's nodes draw there over its background, filtered. The nodes are painted again
    /// `margin` around the part of the clip this canvas holds, so every band filters the same pixels.
    func drawBackdrop(_ backdrop: DrawTree.Backdrop, opacity: Float, into canvas: Canvas) {
        let clip = backdrop.clip
        guard let (ca, cb) = columns(clip, canvas) else { return }
        let clipRows = rows(clip, canvas)
        guard !clipRows.isEmpty else { return }
        let target = canvas.view(
            x0: canvas.x0 + ca, y0: clipRows.lowerBound, x1: canvas.x0 + cb + 1, y1: clipRows.upperBound)
        let m = backdrop.margin
        offscreen.with(x0: target.x0 - m, y0: target.y0 - m, width: target.width + 2 * m, rows: target.rows + 2 * m) {
            below in
            if let word = backdrop.background {
                for y in below.y0..<below.y1 {
                    UnsafeMutableRawPointer(below.row(y)).bindMemory(to: UInt32.self, capacity: below.width)
                        .update(repeating: word, count: below.width)
                }
            }
            paint(backdrop.nodes, into: below)
            applyFilters(
                backdrop.filters, to: below, within: (below.x0, below.y0, below.x1, below.y1),
                needed: (target.x0, target.y0, target.x1, target.y1))
            scratch.accumulate(clip, x0: target.x0, y0: target.y0, width: target.width, rows: target.rows)
            for y in target.y0..<target.y1 {
                let src = below.row(y) + (target.x0 - below.x0) * 4
                let dst = target.row(y)
                // Every accumulated row is swept here, so no cell is left for the next shape.
                scratch.spans(row: y - target.y0, c0: 0, c1: target.width - 1, rule: clip.rule, minimum: 0) {
                    start, end, c in
                    let f = c * opacity
                    guard f > 0 else { return }
                    for x in start..<end {
                        let s = src + x * 4, d = dst + x * 4
                        if f >= 1 {
                            UnsafeMutableRawPointer(d).copyMemory(from: s, byteCount: 4)
                            continue
                        }
                        let a = Self.load(d)
                        Self.store(a + (Self.load(s) - a) * f, d)
                    }
                }
            }
        }
    }
}
