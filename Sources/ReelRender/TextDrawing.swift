/// Text layers drawn from their presentation (TextPresentation.swift): each glyph's outline placed at
/// its unrounded position and filled (and stroked) like a shape, each line, word or cluster placed by
/// the values its per-unit animations have. A layout's glyphs are gathered into paths once and reused.
import ReelGeometry
import ReelRaster
import ReelScene
import ReelText
import Synchronization

/// A layout's glyphs gathered into one path per line, run and animated unit (one fill per colour and
/// transform; a line off the frame is skipped whole), in the text box's points (its top-left at 0, 0),
/// with the colour emoji as pictures.
struct GlyphRuns: Sendable {
    struct Key: Hashable, Sendable {
        var line: Int
        var run: Int
        /// The glyphs' line, word or cluster for each animated unit kind (−1: in none, a space).
        var units: [Int]
        /// The run's decoration lines, a fill of their own (a rectangle and a glyph wound the other way
        /// would cancel where they overlap under the non-zero rule): 1 under the glyphs (underline,
        /// overline), 2 over them (strikethrough), as SVG paints them; 0 for glyphs.
        var decoration = 0
    }
    struct Picture: Sendable {
        var bitmap: GlyphBitmap
        /// The bitmap's pixels to the text box's points.
        var place: Transform2D
    }
    var order: [Key] = []
    var paths: [Key: Path] = [:]
    var pictures: [Key: [Picture]] = [:]
    /// What each key draws covers no more than this (outlines' control points, pictures' frames).
    var bounds: [Key: Rect] = [:]
    /// The line each unit lies on (a word or cluster never spans two), for its reveal.
    var lineOf: [TextUnit: [Int: Int]] = [:]

    init(_ set: TypesetText, units: [TextUnit]) {
        func index(_ g: PlacedGlyph, _ u: TextUnit) -> Int? {
            switch u {
            case .line: return g.line
            case .word: return g.word
            case .cluster: return g.cluster
            }
        }
        for g in set.glyphs {
            let key = Key(line: g.line, run: g.run, units: units.map { index(g, $0) ?? -1 })
            for u in units { if let k = index(g, u) { lineOf[u, default: [:]][k] = g.line } }
            let outline = g.font.outline(of: g.glyph)
            if paths[key] == nil && pictures[key] == nil { order.append(key) }
            guard !outline.isEmpty else {
                // A colour emoji is a picture: scaled from its strike to the font size, placed on the pen.
                guard g.font.hasColorBitmaps, let bitmap = g.font.colorBitmap(of: g.glyph) else { continue }
                let k = g.fontSize / bitmap.pixelsPerEm
                let place = Transform2D.scale(x: k, y: k).concatenating(.translation(x: bitmap.left * k, y: -bitmap.top * k))
                    .concatenating(.rotation(g.rotation)).concatenating(.translation(x: g.origin.x, y: g.origin.y))
                let frame =
                    Path(rect: Rect(x: 0, y: 0, width: Double(bitmap.width), height: Double(bitmap.height)))
                    .applying(place).controlPointBounds ?? .zero
                pictures[key, default: []].append(Picture(bitmap: bitmap, place: place))
                bounds[key] = bounds[key].map { $0.union(frame) } ?? frame
                continue
            }
            let s = g.fontSize / Double(g.font.unitsPerEm)
            // Font units are y up; the text box's points are y down.
            var place = Transform2D(a: s, b: 0, c: 0, d: -s, tx: g.origin.x, ty: g.origin.y)
            if g.rotation != 0 {
                place = Transform2D.scale(x: s, y: -s).concatenating(.rotation(g.rotation))
                    .concatenating(.translation(x: g.origin.x, y: g.origin.y))
            }
            let placed = outline.applying(place)
            paths[key, default: Path()].addPath(placed)
            if let box = placed.controlPointBounds { bounds[key] = bounds[key].map { $0.union(box) } ?? box }
        }
        // Decoration lines move with their line only: a word's animation leaves the underline under it.
        var below: [Key] = []
        for d in set.decorations {
            let over = d.kind == .strikethrough
            let key = Key(line: d.line, run: d.run, units: units.map { $0 == .line ? d.line : -1 }, decoration: over ? 2 : 1)
            if paths[key] == nil {
                if over { order.append(key) } else { below.append(key) }
            }
            var rect = Path(rect: d.rect)
            if d.rotation != 0 {
                let c = Point(x: d.rect.midX, y: d.rect.midY)
                rect = rect.applying(
                    Transform2D.translation(x: -c.x, y: -c.y).concatenating(.rotation(d.rotation)).concatenating(
                        .translation(x: c.x, y: c.y)))
            }
            let box = rect.controlPointBounds ?? d.rect
            paths[key, default: Path()].addPath(rect)
            bounds[key] = bounds[key].map { $0.union(box) } ?? box
        }
        order = below + order
    }
}

/// Glyph runs by layout and animated unit kinds, shared by every thread that renders.
final class GlyphRunCache: Sendable {
    private struct Key: Hashable {
        var layout: UInt64
        var units: [TextUnit]
    }
    /// Most kept; it starts over when full (a clip whose text changes every frame makes one a frame).
    static let limit = 1024
    private let entries = Mutex<[Key: GlyphRuns]>([:])

    func runs(for set: TypesetText, units: [TextUnit]) -> GlyphRuns {
        let key = Key(layout: set.id, units: units)
        if let hit = entries.withLock({ $0[key] }) { return hit }
        let runs = GlyphRuns(set, units: units)
        entries.withLock {
            if $0.count >= Self.limit { $0.removeAll(keepingCapacity: true) }
            $0[key] = runs
        }
        return runs
    }
}

extension SceneRenderer {
    /// The commands that draw a text layer's glyphs (after its background, before its sublayers), from
    /// its presentation: nothing here evaluates an animation.
    func textCommands(
        _ text: PresentedText, of layer: PresentationLayer, toDevice3D: Transform3D, toDevice: Transform2D
    ) -> [DisplayList.Command] {
        // Whatever lies wholly outside the frame is left out (the pen's half width and a pixel of margin
        // around it); not in perspective, where a box's corners do not bound its projection simply.
        let visible = visibleArea.flatMap { area in toDevice3D.isAffineOnPlane ? area : nil }
        let pen =
            (layer.properties.shape.strokeColor != nil ? layer.properties.shape.stroke.lineWidth * toDevice.maxScale : 0) + 1
        let set = text.set, colors = text.colors, runs = text.runs, animatedUnits = text.units
        let presentations = text.values
        func boxes(_ u: TextUnit) -> [Rect] { text.boxes(u) }

        // The text box's points to the layer's: its origin is the bounds' origin.
        let origin = layer.properties.bounds.origin
        let boxToLayer = Transform3D.translation(origin.x, origin.y)
        let strokeColor = layer.properties.shape.strokeColor
        let lineWidth = layer.properties.shape.stroke.lineWidth
        let strokeFirst = layer.properties.text.paintOrder == .stroke
        var out: [DisplayList.Command] = []
        for key in runs.order {
            var color = colors[key.run]
            var opacity = 1.0
            // In the text box's points: each animated unit about its own centre.
            var unitTransform = Transform3D.identity
            // The wipe of the innermost unit that has one: its box cut at the revealed fraction, from
            // where its paragraph starts reading.
            var revealClip: Rect?
            // Innermost unit first (a cluster moves within its word, the word within its line).
            for (u, k) in zip(animatedUnits, key.units).reversed() where k >= 0 {
                guard let p = presentations[u]?[k] else { continue }
                opacity *= p.opacity
                if let c = p.foregroundColor { color = c }
                let box = boxes(u)[k]
                if p.reveal < 1 && revealClip == nil, let n = runs.lineOf[u]?[k] {
                    let line = set.lines[n], w = box.width * p.reveal
                    // As tall as three lines, so that marks and tall glyphs are not cut above or below.
                    revealClip = Rect(
                        x: set.lineIsRightToLeft[n] ? box.maxX - w : box.minX, y: line.minY - line.height, width: w,
                        height: line.height * 3)
                }
                if !p.transform.isIdentity {
                    unitTransform = unitTransform.concatenating(
                        Transform3D.translation(-box.midX, -box.midY).concatenating(p.transform)
                            .concatenating(.translation(box.midX, box.midY)))
                }
            }
            guard opacity > 0, (revealClip?.width ?? 1) > 0 else { continue }
            let boxToDevice = unitTransform.concatenating(boxToLayer).concatenating(toDevice3D)
            if let visible, let box = runs.bounds[key], boxToDevice.isAffineOnPlane,
                !box.applying(boxToDevice.affine).insetBy(-pen).intersects(visible)
            {
                continue
            }
            var commands: [DisplayList.Command] = []
            for picture in runs.pictures[key] ?? [] {
                let b = picture.bitmap
                guard let image = RasterImage(width: b.width, height: b.height, premultipliedRGBA: b.rgba) else { continue }
                let frame = Path(rect: Rect(x: 0, y: 0, width: Double(b.width), height: Double(b.height))).applying(picture.place)
                commands.append(
                    .fill(
                        path: frame.applying(boxToDevice),
                        paint: .image(image, transform: picture.place.concatenating(boxToDevice.affine)),
                        opacity: min(opacity, 1),
                        rule: .nonZero))
            }
            let path = runs.paths[key] ?? Path()
            color.alpha *= min(opacity, 1)
            var fill: [DisplayList.Command] = []
            if color.alpha > 0 && !path.isEmpty {
                fill.append(.fill(path: path.applying(boxToDevice), color: color, rule: .nonZero))
            }
            if !strokeFirst { commands += fill }
            if var stroke = strokeColor, stroke.alpha > 0, lineWidth > 0, !path.isEmpty {
                stroke.alpha *= min(opacity, 1)
                let boxToLayerSpace = unitTransform.concatenating(boxToLayer)
                if boxToDevice.isAffineOnPlane {
                    // Stroked in the layer's own space, so a non-uniform scale shapes the pen as for shapes.
                    commands.append(
                        .stroke(
                            path: path.applying(boxToLayerSpace.affine), style: layer.properties.shape.stroke,
                            transform: toDevice,
                            paint: .solid(stroke), opacity: 1))
                } else {
                    let outline = Stroker.outline(
                        path.applying(boxToLayerSpace.affine), style: layer.properties.shape.stroke,
                        tolerance: defaultFlatteningTolerance / max(toDevice.maxScale, 1e-9))
                    commands.append(.fill(path: outline.applying(toDevice3D), color: stroke))
                }
            }
            if strokeFirst { commands += fill }
            guard !commands.isEmpty else { continue }
            if let clip = revealClip {
                out.append(.beginGroup(Group(clip: Path(rect: clip).applying(boxToDevice))))
                out += commands
                out.append(.endGroup)
            } else {
                out += commands
            }
        }
        return out
    }
}
