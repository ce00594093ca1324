/// The band painters' memory kept from one drawing to the next (`PainterPool`): a drawing made after others
/// gives the bytes a fresh rasterizer gives, and what is kept stays one painter's memory per band thread.
import ReelGeometry
import Testing

@testable import ReelRaster

@Suite struct PainterMemoryTests {
    /// Shapes, a shadowed group (σ ≥ 8 takes the coarse grid), a masked group holding a group of its own
    /// (three offscreen canvases deep) and a gradient: every kind of memory a painter keeps. `shift` moves
    /// everything, so that one drawing's cells and canvases are not where the next one's are.
    static func list(sigma: Double, shift: Double) -> DisplayList {
        var list = DisplayList(background: .white)
        let s = shift
        list.commands = [
            .fill(path: rect(3 + s, 4, 30, 20), color: Color(red: 0.2, green: 0.4, blue: 0.9, alpha: 0.8)),
            .beginGroup(Group(shadow: Shadow(color: .black, offset: Point(x: 3, y: 5), sigma: sigma))),
            .fill(path: Path(ovalIn: Rect(x: 20 + s, y: 18, width: 40, height: 30)), color: .white),
            .endGroup,
            .beginGroup(Group(opacity: 0.7, hasMask: true)),
            .beginGroup(Group(opacity: 0.5, shadow: Shadow(color: .black, offset: Point(x: 1, y: 1), sigma: 2))),
            .fill(path: rect(40 + s, 40, 30, 25), color: Color(red: 1, green: 0, blue: 0, alpha: 1)),
            .endGroup,
            .beginMask,
            .fill(path: Path(ovalIn: Rect(x: 38 + s, y: 36, width: 36, height: 32)), color: .black),
            .endGroup,
            .fill(
                path: rect(60 - s, 8, 30, 60),
                paint: .gradient(
                    Gradient(kind: .axial(start: Point(x: 60, y: 8), end: Point(x: 90, y: 68)), colors: [.white, .black])),
                opacity: 0.9, rule: .nonZero),
        ]
        return list
    }

    /// Drawings one after another on one rasterizer, each against the same list drawn by a fresh one:
    /// cells left non-zero, or a kept canvas not cleared, would show in the later drawings. The shadows'
    /// σ changes the painters' reach, so memory too small for the next drawing is replaced.
    @Test func aDrawingAfterOthersGivesAFreshRasterizersBytes() throws {
        for threads in [1, 2] {
            let kept = Rasterizer(threads: threads, bandHeight: 16)
            for (sigma, shift) in [(2.0, 0.0), (20, 3), (2, 7), (40, 1), (12, 5), (12, 2)] {
                let list = Self.list(sigma: sigma, shift: shift)
                let again = try kept.render(list, width: 96, height: 80)
                let fresh = try Rasterizer(threads: threads, bandHeight: 16).render(list, width: 96, height: 80)
                // Compared whole, not printed: a difference names the drawing.
                let same = again.pixels == fresh.pixels
                #expect(same, "\(threads) threads, σ \(sigma), shift \(shift)")
            }
            // Kept: one painter's memory for each band thread at most.
            #expect(kept.painters.keptCount >= 1 && kept.painters.keptCount <= threads)
        }
    }

    /// The same drawing again keeps the same memory: nothing grows from one frame to the next.
    @Test func theSameDrawingKeepsTheSameMemory() throws {
        let kept = Rasterizer(threads: 2, bandHeight: 16)
        let list = Self.list(sigma: 20, shift: 0)
        _ = try kept.render(list, width: 96, height: 80)
        _ = try kept.render(list, width: 96, height: 80)
        let bytes = kept.painters.keptBytes
        #expect(bytes > 0)
        for _ in 0..<4 { _ = try kept.render(list, width: 96, height: 80) }
        #expect(kept.painters.keptBytes == bytes)
    }
}
