/// A frame's fills and strokes prepared by workers, run by run, into slots, then assembled into its
/// tree.
import Foundation
import ReelGeometry

extension DrawTree {
    /// Flattening every fill's path (and outlining every stroke) is most of a frame's preparation, so it
    /// is shared out: workers prepare runs of fills (`prepare`), then one of them assembles the tree
    /// (`tree`). Paths are checked there too (a walk over every element); the first bad one in drawing
    /// order is reported.
    final class Preparation: @unchecked Sendable {
        let commands: [DisplayList.Command]
        let tolerance: Double
        let ramps: RampCache?
        /// The command index of each fill and stroke, in order.
        let fills: [Int]
        let slots: SendableShapes
        /// The colour bands are cleared to (RGBA bytes in a word), or nil when drawn over a frame's
        /// pixels: what a top-level backdrop starts from.
        let background: UInt32?

        init(_ commands: [DisplayList.Command], tolerance: Double, ramps: RampCache?, background: UInt32? = nil) {
            self.commands = commands
            self.background = background
            self.tolerance = tolerance
            self.ramps = ramps
            var fills: [Int] = []
            for (i, c) in commands.enumerated() {
                switch c {
                case .fill, .stroke: fills.append(i)
                default: break
                }
            }
            self.fills = fills
            let prepared = UnsafeMutablePointer<Unmanaged<PreparedShape>?>.allocate(capacity: fills.count)
            prepared.initialize(repeating: nil, count: fills.count)
            let finite = UnsafeMutablePointer<Bool>.allocate(capacity: fills.count)
            finite.initialize(repeating: true, count: fills.count)
            slots = SendableShapes(base: prepared, finite: finite)
        }

        deinit {
            for k in 0..<fills.count { slots.base[k]?.release() }
            slots.base.deallocate()
            slots.finite.deallocate()
        }

        /// The last stroke outline a worker made, for the next stroke it prepares.
        typealias Outline = (path: Path, style: StrokeStyle, tolerance: Double, outline: StrokeOutline)

        /// Prepares fills `range` (indices into `fills`) into their slots. `last`: the worker's last
        /// outline, kept from one range to its next.
        func prepare(_ range: Range<Int>, last: inout Outline?) {
            let commands = self.commands, fills = self.fills, slots = self.slots, tolerance = self.tolerance
            let ramps = self.ramps
            // Strokes of the same path and style one after the other in a worker's runs (a replicator's
            // instances, repeated icons) share one outline: only its transform to the device differs.
            // Exact: the outline is a function of these three values alone, the path compared bit for bit
            // (`identical`), so which strokes a worker compares does not change a pixel.
            for k in range {
                switch commands[fills[k]] {
                case .fill(let path, let paint, let opacity, let rule):
                    guard path.isFinite else {
                        slots.finite[k] = false
                        break
                    }
                    if opacity > 0, let p = PreparedPaint(paint, opacity: min(opacity, 1), ramps: ramps) {
                        slots.base[k] = PreparedShape(path: path, paint: p, rule: rule, tolerance: tolerance).map(
                            Unmanaged.passRetained)
                    }
                case .stroke(let path, let style, let transform, let paint, let opacity):
                    guard path.isFinite, transform.isFinite, style.lineWidth.isFinite else {
                        slots.finite[k] = false
                        break
                    }
                    if opacity > 0, style.lineWidth > 0, let p = PreparedPaint(paint, opacity: min(opacity, 1), ramps: ramps) {
                        // The flattening tolerance in the path's own units, rounded down to a step of
                        // 2^(1/8): instances that differ only by a rotation then ask for the same outline
                        // (their scale factors differ in the last bits), at most 9 % finer than asked.
                        let t = exp2((log2(tolerance / max(transform.maxScale, 1e-9)) * 8).rounded(.down) / 8)
                        let outline: StrokeOutline
                        if let m = last, m.tolerance == t, m.style == style, Self.identical(m.path, path) {
                            outline = m.outline
                        } else {
                            outline = Stroker.polygons(path, style: style, tolerance: t)
                            last = (path, style, t, outline)
                        }
                        // The polygons' edges placed on the device directly: the same edges as the
                        // outline's path transformed and flattened.
                        slots.base[k] = PreparedShape(edges: outline.edges(transform), paint: p, rule: .nonZero).map(
                            Unmanaged.passRetained)
                    }
                default:
                    break
                }
            }
        }

        /// The tree, once every run is prepared: the first non-finite path in drawing order, or the
        /// shapes parsed into nodes (the tree holds this preparation, the shapes' owner).
        func tree() throws(RasterError) -> DrawTree {
            if let k = (0..<fills.count).first(where: { !slots.finite[$0] }) {
                throw .nonFinitePath(commandIndex: fills[k])
            }
            return try DrawTree(self)
        }

        /// Whether two paths are the same bit for bit. `==` takes −0 for +0, which the stroker's angles
        /// (`atan2`) tell apart; copies of one path (a replicator's instances) share their elements' storage
        /// and are answered without a walk.
        static func identical(_ a: Path, _ b: Path) -> Bool {
            a.elements.withUnsafeBufferPointer { pa in
                b.elements.withUnsafeBufferPointer { pb in
                    guard pa.count == pb.count else { return false }
                    if pa.baseAddress == pb.baseAddress { return true }
                    for i in 0..<pa.count where !identical(pa[i], pb[i]) { return false }
                    return true
                }
            }
        }

        static func identical(_ a: Path.Element, _ b: Path.Element) -> Bool {
            func same(_ p: Point, _ q: Point) -> Bool { p.x.bitPattern == q.x.bitPattern && p.y.bitPattern == q.y.bitPattern }
            switch (a, b) {
            case (.move(let p), .move(let q)), (.line(let p), .line(let q)): return same(p, q)
            case (.quad(let p1, let p2), .quad(let q1, let q2)): return same(p1, q1) && same(p2, q2)
            case (.cubic(let p1, let p2, let p3), .cubic(let q1, let q2, let q3)):
                return same(p1, q1) && same(p2, q2) && same(p3, q3)
            case (.close, .close): return true
            default: return false
            }
        }

        /// Frees the shapes of fills `range` (`prepare`), once no worker draws them: called by the worker
        /// that made them, they go back to its own allocator's arena. The tree must not be drawn after
        /// (its nodes do not hold their shapes).
        func release(_ range: Range<Int>) {
            for k in range {
                slots.base[k]?.release()
                slots.base[k] = nil
            }
        }
    }
}

/// The preparation slots, each written by exactly one worker: each shape held by one retain, taken when
/// it is made and given back by `Preparation.release` (or when the preparation is freed), so the tree
/// refers to it without retains of its own.
struct SendableShapes: @unchecked Sendable {
    let base: UnsafeMutablePointer<Unmanaged<PreparedShape>?>
    /// Per fill: false where its path (or stroke) is not finite.
    let finite: UnsafeMutablePointer<Bool>
}
