/// Glyph outlines as `Path`s in font units (y up, unhinted, curves kept as curves), cached per font so
/// that a text-heavy clip decomposes each glyph once, whatever size and transform it is drawn at.
internal import CText
import ReelGeometry
import Synchronization

/// The outlines a font has decomposed so far, shared by every thread that draws with it.
final class OutlineCache: Sendable {
    private let paths = Mutex<[UInt32: Path]>([:])

    func path(of glyph: UInt32, decompose: () -> Path) -> Path {
        if let cached = paths.withLock({ $0[glyph] }) { return cached }
        // Decomposed outside the lock: two threads may both decompose a new glyph, to the same path.
        let path = decompose()
        paths.withLock { $0[glyph] = path }
        return path
    }
}

/// HarfBuzz's draw callbacks, made once: they append to the `PathSink` passed as the draw data.
private final class DrawFunctions: @unchecked Sendable {
    // Immutable after init (`hb_draw_funcs_make_immutable`), so every thread may use it.
    let funcs: OpaquePointer

    init() {
        funcs = hb_draw_funcs_create()
        hb_draw_funcs_set_move_to_func(
            funcs, { _, data, _, x, y, _ in PathSink.from(data).path.move(to: Point(x: Double(x), y: Double(y))) }, nil, nil)
        hb_draw_funcs_set_line_to_func(
            funcs, { _, data, _, x, y, _ in PathSink.from(data).path.addLine(to: Point(x: Double(x), y: Double(y))) }, nil, nil)
        hb_draw_funcs_set_quadratic_to_func(
            funcs,
            { _, data, _, cx, cy, x, y, _ in
                PathSink.from(data).path.addQuadCurve(
                    to: Point(x: Double(x), y: Double(y)), control: Point(x: Double(cx), y: Double(cy)))
            }, nil, nil)
        hb_draw_funcs_set_cubic_to_func(
            funcs,
            { _, data, _, c1x, c1y, c2x, c2y, x, y, _ in
                PathSink.from(data).path.addCurve(
                    to: Point(x: Double(x), y: Double(y)), control1: Point(x: Double(c1x), y: Double(c1y)),
                    control2: Point(x: Double(c2x), y: Double(c2y)))
            }, nil, nil)
        hb_draw_funcs_set_close_path_func(funcs, { _, data, _, _ in PathSink.from(data).path.closeSubpath() }, nil, nil)
        hb_draw_funcs_make_immutable(funcs)
    }

    static let shared = DrawFunctions()
}

/// The path a glyph is being drawn into, reached from HarfBuzz's callbacks through an unretained pointer
/// that lives only for the duration of one `reel_hb_draw_glyph` call.
private final class PathSink {
    var path = Path()

    static func from(_ data: UnsafeMutableRawPointer?) -> PathSink {
        Unmanaged<PathSink>.fromOpaque(data!).takeUnretainedValue()
    }
}

extension FontFace {
    /// The outline of `glyph` in font units, y up (scale by size / unitsPerEm and flip for the layer's
    /// y-down space). Empty for a glyph with no outline (a space, or a bitmap-only colour glyph).
    public func outline(of glyph: UInt32) -> Path {
        outlines.path(of: glyph) {
            let sink = PathSink()
            withExtendedLifetime(sink) {
                reel_hb_draw_glyph(font, glyph, DrawFunctions.shared.funcs, Unmanaged.passUnretained(sink).toOpaque())
            }
            return sink.path
        }
    }
}
