// The reference animations of REFERENCE-ANIMATIONS.md at their telling moments: values computed by hand, and pixels.
import Foundation
import ReelAnimation
import ReelGeometry
import ReelRaster
import ReelRender
import ReelScene
import ReelTestSupport
import Testing

/// The reference animations of REFERENCE-ANIMATIONS.md, checked at their telling moments: values
/// computed by hand from the documents (the arithmetic is in the comments), and pixels where they tell.
/// Core Animation's named timing curves, evaluated here apart from the code under test: x(s) of the
/// cubic Bézier (CORE-ANIMATION.md §2's control points) solved by 100 halvings, then y(s) in the
/// Bernstein form. The code solves with Newton to ε = 1e-7 in x, so the two agree to well under
/// `Curve.tolerance`; `curvesMatchTheSpecVectors` checks this evaluator against the spec's vectors.
enum Curve {
    /// How far a value derived from the code's curve may be from one derived from this evaluator:
    /// the code's ε = 1e-7 in x, times the curves' steepest slope (under 3), times the factor of at
    /// most 2 the tests scale a curve value by, rounded up.
    static let tolerance = 1e-6

    static func bezier(_ c1x: Double, _ c1y: Double, _ c2x: Double, _ c2y: Double, _ x: Double) -> Double {
        func b(_ p1: Double, _ p2: Double, _ s: Double) -> Double {
            3 * (1 - s) * (1 - s) * s * p1 + 3 * (1 - s) * s * s * p2 + s * s * s
        }
        var lo = 0.0, hi = 1.0
        for _ in 0..<100 {
            let mid = (lo + hi) / 2
            if b(c1x, c2x, mid) < x { lo = mid } else { hi = mid }
        }
        return b(c1y, c2y, (lo + hi) / 2)
    }
    static func easeIn(_ x: Double) -> Double { bezier(0.42, 0, 1, 1, x) }
    static func easeInEaseOut(_ x: Double) -> Double { bezier(0.42, 0, 0.58, 1, x) }
    /// `default`, the curve of Core Animation's implicit animations.
    static func caDefault(_ x: Double) -> Double { bezier(0.25, 0.1, 0.25, 1, x) }
}

/// The evaluator above against CORE-ANIMATION.md's computed test vectors (six decimals).
@Test func curvesMatchTheSpecVectors() {
    let vectors: [(String, (Double) -> Double, [Double])] = [
        ("easeIn", Curve.easeIn, [0.093465, 0.315357, 0.621862]),
        ("easeInEaseOut", Curve.easeInEaseOut, [0.129162, 0.5, 0.870838]),
        ("default", Curve.caDefault, [0.408511, 0.802403, 0.960459]),
    ]
    for (name, curve, values) in vectors {
        for (x, want) in zip([0.25, 0.5, 0.75], values) {
            #expect(abs(curve(x) - want) < Tolerance.sixDecimals, "\(name)(\(x)) = \(curve(x)), the spec says \(want)")
        }
    }
}

enum Reference {
    /// examples/, where the reference animations' scene files are.
    static let examplesDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("examples").path

    static func scene(_ name: String) throws -> Scene {
        try SceneDecoder.load(contentsOf: Reference.examplesDirectory + "/" + name)
    }

    static func layer(_ s: Scene, _ name: String, at t: Double) -> PresentationLayer {
        s.sample(at: t).layers.find(name)!
    }

    /// The uniform scale of a layer's transform (m11 for these pure scales).
    static func scale(_ s: Scene, _ name: String, at t: Double) -> Double {
        layer(s, name, at: t).transform.m11
    }

    /// The RGB of pixel (x, y) (points) of the frame at t, rendered at the scene's scale, over an opaque
    /// background so premultiplied equals straight.
    static func pixel(_ f: Frame, _ s: Scene, _ x: Double, _ y: Double) -> (Int, Int, Int) {
        let px = Int(x * s.scale), py = Int(y * s.scale)
        let i = (py * f.width + px) * 4
        return (Int(f.pixels[i]), Int(f.pixels[i + 1]), Int(f.pixels[i + 2]))
    }

    /// The frame at t, drawn every way (thread counts, band heights, kernels) and the same bytes each way.
    static func frame(_ s: Scene, at t: Double) throws -> Frame {
        try renderEveryWay { try SceneRenderer(rasterizer: $0).frame(for: s, at: t) }
    }

    static func near(_ a: (Int, Int, Int), _ b: (Int, Int, Int), _ tolerance: Int) -> Bool {
        abs(a.0 - b.0) <= tolerance && abs(a.1 - b.1) <= tolerance && abs(a.2 - b.2) <= tolerance
    }
}

/// §1 StarButton: favorite at 0.2 s, endFavorite chained, notFavorite at 1.6 s.
@Suite struct StarButtonReferenceTests {
    let s: Scene
    init() throws { s = try Reference.scene("star-button.yaml") }

    @Test func starKeyframes() {
        // Star keyframes begin at 0.2 + 0.05 = 0.25 s, last 0.4 s, easeIn, key times [0, 0.4, 0.6].
        // Before: fillMode backwards holds the first value, identity (not the model's 0.01).
        #expect(Reference.scale(s, "star", at: 0.22) == 1)
        #expect(Reference.scale(s, "star", at: 0.1) == 1)  // before the tap: the model value
        // At 0.45 s, p = 0.2/0.4 = 0.5, f = easeIn(0.5); in the first segment (0…0.4) the local fraction is
        // f/0.4 and the scale 1 + 0.5·f/0.4 (pure scales interpolate linearly through decomposition).
        let f = Curve.easeIn(0.5)
        #expect(abs(Reference.scale(s, "star", at: 0.45) - (1 + 0.5 * f / 0.4)) < Curve.tolerance)
        // The peak: f = 0.4 exactly gives 1.5. Solve easeIn(p) = 0.4 by bisection.
        var lo = 0.0, hi = 1.0
        for _ in 0..<60 {
            let mid = (lo + hi) / 2
            if Curve.easeIn(mid) < 0.4 { lo = mid } else { hi = mid }
        }
        #expect(abs(Reference.scale(s, "star", at: 0.25 + 0.4 * lo) - 1.5) < 1e-6)
        // From f = 0.6 to the end the last value holds: 0.01 (key times stop at 0.6). easeIn(0.9) > 0.6.
        #expect(Curve.easeIn(0.9) > 0.6)
        #expect(abs(Reference.scale(s, "star", at: 0.25 + 0.4 * 0.9) - 0.01) < 1e-12)
    }

    @Test func endFavoriteIsChainedToTheStarAnimation() {
        // The star animation stops at 0.25 + 0.4 = 0.65 s: endFavorite's keyframes [0.01, 2, 1] over 0.2 s,
        // linear, key times [0, 0.4, 0.6]. At 0.65 + 0.04 = 0.69: f = 0.2, half way to 2: 0.01 + 1.99·0.5.
        #expect(abs(Reference.scale(s, "star", at: 0.69) - (0.01 + 1.99 * 0.5)) < 1e-9)
        // At 0.65 + 0.1: f = 0.5, in the second segment at 0.5 → 2 + (1 − 2)·0.5 = 1.5.
        #expect(abs(Reference.scale(s, "star", at: 0.75) - 1.5) < 1e-9)
        // The ring: transform identity and opacity 0 from 0.65 on, until notFavorite.
        for t in [0.66, 1.0, 1.59] {
            #expect(Reference.layer(s, "ring", at: t).opacity == 0, "t = \(t)")
        }
        #expect(Reference.layer(s, "star", at: 0.66).shape.fillColor == Color(hex: "#ffffff"))
        #expect(Reference.layer(s, "star", at: 0.64).shape.fillColor == Color(hex: "#9e9b9b"))
    }

    @Test func fillCircle() {
        // Opacity: to 1 from the model value 0, 1 s easeIn from 0.2 s; at 0.45 s, 0 + easeIn(0.25).
        #expect(abs(Reference.layer(s, "fill", at: 0.45).opacity - Curve.easeIn(0.25)) < Curve.tolerance)
        // Transform keyframes [0.2, 1.5, 1] begin at 0.42 s; before that, backwards fill: 0.2.
        #expect(abs(Reference.scale(s, "fill", at: 0.4) - 0.2) < 1e-12)
    }

    @Test func notFavoriteGroupIsCutAtItsDefaultDuration() {
        // The group has no duration: 0.25 s, and its 0.3 s children are cut there. Opacity 1 → 0.5:
        // at 1.8 s, 1 − 0.5·(0.2/0.3); at 1.84 s, 1 − 0.5·(0.24/0.3) = 0.6; at 1.86 s the group is over: 0.5.
        #expect(abs(Reference.layer(s, "star", at: 1.8).opacity - (1 - 0.5 * 0.2 / 0.3)) < 1e-9)
        #expect(abs(Reference.layer(s, "star", at: 1.84).opacity - 0.6) < 1e-9)
        #expect(Reference.layer(s, "star", at: 1.86).opacity == 0.5)
        // The fill fades 1 → 0 over the full 0.3 s: 0.5 at 1.75 s.
        #expect(abs(Reference.layer(s, "fill", at: 1.75).opacity - 0.5) < 1e-9)
        // prepareForFavorite after it: scale 0.2 again.
        #expect(abs(Reference.scale(s, "fill", at: 2.0) - 0.2) < 1e-12)
    }

    @Test func pixels() throws {
        // Before favorite: the grey star (#9e9b9b) at opacity 0.5 over white at its centre:
        // 0.5·(158, 155, 155) + 0.5·255 = (206.5, 205, 205). ±2 levels: 8-bit rounding and the ramp dither.
        let before = try Reference.frame(s, at: 0.1)
        #expect(Reference.near(Reference.pixel(before, s, 100, 100), (206, 205, 205), Tolerance.sceneColourLevels))
        // After: the white star on the opaque yellow circle; yellow 35 pt below the centre (inside the
        // circle, outside the star, which reaches about 23 pt).
        let after = try Reference.frame(s, at: 1.0)
        #expect(Reference.near(Reference.pixel(after, s, 100, 100), (255, 255, 255), Tolerance.sceneColourLevels))
        #expect(Reference.near(Reference.pixel(after, s, 100, 135), (0xee, 0xcd, 0x34), Tolerance.sceneColourLevels))
        // While the star has shrunk to 0.01 (0.62 s), nothing grey is drawn over its full-size box except the
        // centre's ±1 pt: every pixel is white blended with the fill's yellow only, so its (255 − G)/(255 − B)
        // is yellow's (50/203) — a grey pixel would have G = B.
        let shrunk = try Reference.frame(s, at: 0.62)
        var checked = 0
        for y in stride(from: 78.0, through: 122, by: 0.5) {
            for x in stride(from: 76.0, through: 124, by: 0.5) where abs(x - 100) > 1.5 || abs(y - 100) > 1.5 {
                let (_, g, b) = Reference.pixel(shrunk, s, x, y)
                if b < 250 {
                    #expect(abs(Double(255 - g) / Double(255 - b) - 50.0 / 203.0) < 0.05, "(\(x), \(y))")
                    checked += 1
                }
            }
        }
        #expect(checked > 1000)  // the fill circle covers the box by then
    }
}

/// The bonus: the same with the Swift logo.
@Suite struct SwiftStarReferenceTests {
    @Test func sameTimingAsTheStar() throws {
        let swift = try Reference.scene("swift-star.yaml"), star = try Reference.scene("star-button.yaml")
        for t in stride(from: 0.0, through: 2.2, by: 0.05) {
            #expect(Reference.scale(swift, "star", at: t) == Reference.scale(star, "star", at: t), "t = \(t)")
        }
        // The logo is drawn grey before and white after: count white-ish and grey-ish pixels in its box.
        func count(_ t: Double, _ test: ((Int, Int, Int)) -> Bool) throws -> Int {
            let f = try Reference.frame(swift, at: t)
            var n = 0
            for y in stride(from: 80.0, through: 120, by: 0.5) {
                for x in stride(from: 76.0, through: 124, by: 0.5) where test(Reference.pixel(f, swift, x, y)) { n += 1 }
            }
            return n
        }
        #expect(try count(0.1) { $0.0 < 215 && abs($0.0 - $0.2) < 4 } > 500)  // grey logo at half opacity
        #expect(try count(1.0) { $0.0 > 250 && $0.2 > 250 } > 500)  // white logo on yellow
    }
}

/// §3 The Pop spring button.
@Suite struct SpringButtonReferenceTests {
    @Test func pressAndRelease() throws {
        let s = try Reference.scene("spring-button.yaml")
        func scale(_ t: Double) -> Double { Reference.layer(s, "button", at: t).transform.m11 / cos(rotation(t)) }
        func rotation(_ t: Double) -> Double {
            let m = Reference.layer(s, "button", at: t).transform
            return atan2(m.m12, m.m11)
        }
        #expect(scale(0.05) == 1 && rotation(0.05) == 0)
        // Bounciness 20 overshoots: the scale dips below 0.8 and the rotation goes past π/6.
        let pressed = stride(from: 0.1, to: 0.45, by: 1.0 / 300)
        #expect(pressed.map(scale).min()! < 0.8)
        #expect(pressed.map(rotation).max()! > Double.pi / 6)
        // Released at 0.45 s with the scale still moving: retargeting keeps value and velocity, so across
        // ±0.5 ms the scale moves by less than 0.01 (its speed is a few units per second at most).
        #expect(abs(scale(0.4505) - scale(0.4495)) < 0.01)
        #expect(abs(rotation(0.4505) - rotation(0.4495)) < 0.01)
        // Settled on the new targets by the end (within Pop's thresholds: 0.005 scale, 0.01 rotation).
        #expect(abs(scale(1.6) - 1) < 0.005 && abs(rotation(1.6)) < 0.01)
    }
}

/// §4 The search ↔ back stroke morph.
@Suite struct SearchBackReferenceTests {
    let s: Scene
    init() throws { s = try Reference.scene("search-back.yaml") }

    @Test func halfWayThroughATransition() {
        // 0…0.5 s to the back arrow, easeInEaseOut; easeInEaseOut(0.5) = 0.5 exactly (the curve is symmetric).
        #expect(abs(Curve.easeInEaseOut(0.5) - 0.5) < 1e-9)
        #expect(abs(Reference.layer(s, "magnifierTop", at: 0.25).shape.stroke.strokeStart - 0.5) < 1e-9)  // 0 → 1
        #expect(abs(Reference.layer(s, "magnifierBottom", at: 0.25).shape.stroke.strokeEnd - 0.5) < 1e-9)  // 1 → 0
        #expect(abs(Reference.layer(s, "backTopLine", at: 0.25).shape.stroke.strokeEnd - 0.5) < 1e-9)  // 0 → 1
        let m = Reference.layer(s, "handle", at: 0.25).transform
        #expect(abs(atan2(m.m12, m.m11) - Double.pi / 8) < 1e-9)  // π/4 → 0
        // At 0.1 s: strokeEnd of the head lines = easeInEaseOut(0.2).
        #expect(
            abs(Reference.layer(s, "backTopLine", at: 0.1).shape.stroke.strokeEnd - Curve.easeInEaseOut(0.2)) < Curve.tolerance)
        // Back to the magnifier from 1 s: at 1.25 s the head lines are half gone again.
        #expect(abs(Reference.layer(s, "backTopLine", at: 1.25).shape.stroke.strokeEnd - 0.5) < 1e-9)
        // Held between transitions by the model values set before each one.
        #expect(Reference.layer(s, "magnifierTop", at: 0.75).shape.stroke.strokeStart == 1)
        #expect(Reference.layer(s, "magnifierTop", at: 1.75).shape.stroke.strokeStart == 0)
    }

    @Test func pixelsAndTheLoop() throws {
        // Magnifier at 0 s: the circle's leftmost point (centre 22 − 9·√2/2, radius 9) is drawn, the head
        // line's middle (tip + 6.36·(cos 7π/4, sin 7π/4)) is not. At 0.75 s (the arrow) the reverse.
        let c = 22 - 9 * 2.0.squareRoot() / 2
        let left = (c - 9, c), head = (22 + 6.36 * cos(-Double.pi / 4), 22 + 6.36 * sin(-Double.pi / 4))
        let grey = (0xaa, 0xaa, 0xaa), white = (255, 255, 255)
        let magnifier = try Reference.frame(s, at: 0), arrow = try Reference.frame(s, at: 0.75)
        // ±40 levels: the 2 pt line is sampled near its centre but anti-aliased at its edges.
        #expect(Reference.near(Reference.pixel(magnifier, s, left.0, left.1), grey, Tolerance.thinLineCentreLevels))
        #expect(Reference.near(Reference.pixel(magnifier, s, head.0, head.1), white, Tolerance.sceneColourLevels))
        #expect(Reference.near(Reference.pixel(arrow, s, left.0, left.1), white, Tolerance.sceneColourLevels))
        #expect(Reference.near(Reference.pixel(arrow, s, head.0, head.1), grey, Tolerance.thinLineCentreLevels))
        // It loops: the frame at 4 s (the next clip's first) is the frame at 0 s.
        #expect(try Reference.frame(s, at: 4).pixels == magnifier.pixels)
    }
}

/// §2 The gradient switch: on at 0.2 s, off at 1.2 s.
@Suite struct GradientSwitchReferenceTests {
    let s: Scene
    init() throws { s = try Reference.scene("gradient-switch.yaml") }

    @Test func slides() {
        // Knob and gradient move linearly over 0.5 s after a 0.1 s delay: 0.3…0.8 s. Half way (0.55 s):
        // gradient x 76.5 − 102·0.5 = 25.5, knob x 15.5 + 20·0.5 = 25.5.
        #expect(abs(Reference.layer(s, "gradient", at: 0.55).position.x - 25.5) < 1e-9)
        #expect(abs(Reference.layer(s, "knob", at: 0.55).position.x - 25.5) < 1e-9)
        // Before the slide, after it (x = −2·51 for the gradient's left edge: centre 76.5 − 102), and back.
        #expect(Reference.layer(s, "gradient", at: 0.25).position.x == 76.5)
        #expect(Reference.layer(s, "gradient", at: 1.0).position.x == -25.5)
        #expect(Reference.layer(s, "gradient", at: 2.0).position.x == 76.5)
        // The glyphs swap when the slide completes (0.8 s) and back at 1.8 s.
        #expect(!Reference.layer(s, "tick", at: 0.79).hidden && Reference.layer(s, "tick", at: 0.81).hidden)
        #expect(Reference.layer(s, "cross1", at: 0.79).hidden && !Reference.layer(s, "cross1", at: 0.81).hidden)
        #expect(!Reference.layer(s, "tick", at: 1.81).hidden && Reference.layer(s, "cross2", at: 1.81).hidden)
    }

    @Test func glyphMorphs() throws {
        // tickToDot: a 1 s group, easeInEaseOut, whose path child has key times [0.1, 0.4]: the tick until
        // the child's time 0.1, the dot from 0.4. easeInEaseOut(0.5) = 0.5, so at 0.2 + 0.5 s the child is
        // at 0.5: the dot; at 0.2 + 0.05 s, easeInEaseOut(0.05) < 0.1: still the tick.
        let w = 31 - 2 * 31.0 / 12, h = w / 2
        let dot = try Path(svgPathData: "M \(h) \(h) L \(h) \(h)")
        let tick = try Path(svgPathData: "M \(w / 8 * 3) \(h) L \(h) \(w / 8 * 5) L \(w / 8 * 6) \(w / 8 * 3)")
        #expect(Curve.easeInEaseOut(0.05) < 0.1)
        // The scene writes the points to 4 decimals.
        func close(_ a: Path, _ b: Path) -> Bool {
            func points(_ p: Path) -> [Double] {
                p.elements.flatMap { e -> [Double] in
                    switch e {
                    case .move(let q), .line(let q): return [q.x, q.y]
                    default: return [.nan]
                    }
                }
            }
            let x = points(a), y = points(b)
            return x.count == y.count && zip(x, y).allSatisfy { abs($0 - $1) < 1e-3 }
        }
        #expect(close(Reference.layer(s, "tick", at: 0.25).shape.path, tick))
        #expect(close(Reference.layer(s, "tick", at: 0.7).shape.path, dot))
    }

    @Test func gradientPixels() throws {
        // Before (offset 0), at switch-local (40, 15.5), canvas (50, 25.5), clear of the knob on the left:
        // 40/153 = 0.2614, between #08ded6 (0) and #18deb9 (0.33) at 0.792:
        // (8 + 16·0.792, 222, 214 − 29·0.792) = (20.7, 222, 191.0).
        let off = try Reference.frame(s, at: 0.1), on = try Reference.frame(s, at: 1.0)
        #expect(
            Reference.near(Reference.pixel(off, s, 50, 25.5), (21, 222, 191), Tolerance.sceneColourLevels),
            "\(Reference.pixel(off, s, 50, 25.5))")
        // On (offset 102), at switch-local (12, 15.5), canvas (22, 25.5), clear of the knob now on the right:
        // 114/153 = 0.745, between #ef9c29 (0.63) and #e76b39 (1) at 0.311:
        // (239 − 8·0.311, 156 − 49·0.311, 41 + 16·0.311) = (236.5, 140.8, 46.0).
        #expect(
            Reference.near(Reference.pixel(on, s, 22, 25.5), (236, 141, 46), Tolerance.sceneColourLevels),
            "\(Reference.pixel(on, s, 22, 25.5))")
    }
}
/// §5 QuartzCode's favourite star: show at 0.1 s, hide at 1.5 s.
@Suite struct FavoriteStarReferenceTests {
    let s: Scene
    init() throws { s = try Reference.scene("favorite-star.yaml") }

    @Test func showAndHideValues() {
        // showFill: bounds 0 → 0.66·150 = 99 over 0.27 s on (0.25, 0.1, 0.25, 1); half way (0.235 s) 99·TF(½).
        let tf = Curve.caDefault(0.5)
        #expect(abs(Reference.layer(s, "fill", at: 0.235).bounds.size.width - 99 * tf) < 99 * Curve.tolerance)
        // showEmpty: opacity 1 → 0 on the same curve.
        #expect(abs(Reference.layer(s, "empty", at: 0.235).opacity - (1 - tf)) < Curve.tolerance)
        // Before show: fill hidden; during show all three shown; after it (0.1 + 0.489) empty and
        // replicator hidden, fill shown (and held at full size by the forwards fill).
        #expect(Reference.layer(s, "fill", at: 0.05).hidden && !Reference.layer(s, "empty", at: 0.05).hidden)
        // Between the end of a child (0.1 + 0.27 s) and the end of its group, the child's forwards fill
        // holds its end value: the empty star stays gone, the line stays out at (0.13246·W, 0.4·150).
        #expect(Reference.layer(s, "empty", at: 0.45).opacity == 0)
        #expect(Reference.layer(s, "empty", at: 0.45).bounds.size.width == 0)
        let held = Reference.layer(s, "line", at: 0.45).position
        #expect(abs(held.x - 0.13246 * 1.00284 * 150) < 1e-3 && abs(held.y - 60) < 1e-3)
        #expect(!Reference.layer(s, "replicator", at: 0.3).hidden)
        #expect(Reference.layer(s, "empty", at: 0.6).hidden && Reference.layer(s, "replicator", at: 0.6).hidden)
        #expect(abs(Reference.layer(s, "fill", at: 1.0).bounds.size.width - 99) < 1e-9)
        // hideFill: opacity 1 → 0 linearly over 0.186 s from 1.5 s; then hidden; the empty star back.
        #expect(abs(Reference.layer(s, "fill", at: 1.593).opacity - 0.5) < 1e-9)
        #expect(Reference.layer(s, "fill", at: 1.7).hidden && !Reference.layer(s, "empty", at: 1.7).hidden)
        #expect(abs(Reference.layer(s, "empty", at: 2.0).bounds.size.width - 0.52331 * 150) < 1e-3)  // 3 decimals
    }

    @Test func fiveSparksSeventyTwoDegreesApart() throws {
        // The line at 0.3 s: position keyframes (0.42164·W, 0.42·H) → (0.13246·W, 0.4·H) in the replicator
        // (W = 1.00284·150), 0.27 s from 0.1 s on the default curve; scale x from 1 to 0 from 0.222 s.
        let w = 1.00284 * 150, f = Curve.caDefault(0.2 / 0.27)
        let local = (x: 0.42164 * w + (0.13246 * w - 0.42164 * w) * f, y: 0.42 * 150 + (0.4 * 150 - 0.42 * 150) * f)
        let line = Reference.layer(s, "line", at: 0.3)
        #expect(abs(line.position.x - local.x) < 1e-3 && abs(line.position.y - local.y) < 1e-3)  // 3 decimals
        // In the canvas: the replicator's bounds start at x = −0.00284·150; instances turn about its centre
        // (74.787, 75) by multiples of 72°.
        let frame = try Reference.frame(s, at: 0.3)
        let cx = -0.00284 * 150 + w / 2, cy = 75.0
        let p = (x: -0.00284 * 150 + local.x, y: local.y)
        let r = ((p.x - cx) * (p.x - cx) + (p.y - cy) * (p.y - cy)).squareRoot(), a0 = atan2(p.y - cy, p.x - cx)
        for k in 0..<5 {
            let a = a0 + Double(k) * 2 * Double.pi / 5
            // Orange (1, 0.416, 0) at 0.7 × the line's opacity (≈ 0.9 here) over white: red full, blue low.
            let on = Reference.pixel(frame, s, cx + r * cos(a), cy + r * sin(a))
            #expect(on.0 >= 240 && on.2 <= 140, "spark \(k) at \(a * 180 / .pi)°: \(on)")
            // Half way between two sparks (36° on): nothing drawn, white.
            let off = Reference.pixel(frame, s, cx + r * cos(a + Double.pi / 5), cy + r * sin(a + Double.pi / 5))
            #expect(Reference.near(off, (255, 255, 255), Tolerance.sceneColourLevels), "between sparks \(k): \(off)")
        }
    }
}
