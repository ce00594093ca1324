/// Text layers drawn: the layer's runs laid out in its bounds, each glyph's outline placed at its
/// unrounded position and filled (and stroked) like a shape, each line, word or cluster moved by its
/// per-unit animations.
import ReelGeometry
import ReelRaster
import ReelScene
import ReelText

extension SceneRenderer {
    /// The commands that draw a text layer's glyphs (after its background, before its sublayers).
    func textCommands(_ layer: PresentationLayer, toDevice3D: Transform3D, toDevice: Transform2D) -> [DisplayList.Command] {
        let text = layer.text
        guard let (set, colors) = self.text.typeset(text, in: layer.bounds), !set.glyphs.isEmpty else { return [] }
        let origin = layer.bounds.origin
        // Units whose animations apply, and each one's values now.
        let animatedUnits = TextUnit.allCases.filter { u in text.unitAnimations.contains { $0.unit == u } }
        func boxes(_ u: TextUnit) -> [Rect] {
            switch u {
            case .line: return set.lines
            case .word: return set.words
            case .cluster: return set.clusters
            }
        }
        var presentations: [TextUnit: [UnitPresentation]] = [:]
        for u in animatedUnits {
            let n = boxes(u).count
            presentations[u] = (0..<n).map { text.presentation(of: u, $0, count: n, at: layer.time) }
        }
        func index(_ g: PlacedGlyph, _ u: TextUnit) -> Int? {
            switch u {
            case .line: return g.line
            case .word: return g.word
            case .cluster: return g.cluster
            }
        }

        // Glyphs gathered into one path per (run, units): one fill per colour and transform.
        struct Key: Hashable {
            var run: Int
            var units: [Int]
        }
        var paths: [Key: Path] = [:]
        var pictures: [Key: [(GlyphBitmap, Rect)]] = [:]
        var order: [Key] = []
        for g in set.glyphs {
            let key = Key(run: g.run, units: animatedUnits.map { index(g, $0) ?? -1 })
            let outline = g.font.outline(of: g.glyph)
            guard !outline.isEmpty else {
                // A colour emoji is a picture: scaled from its strike to the font size, placed on the pen.
                guard g.font.hasColorBitmaps, let bitmap = g.font.colorBitmap(of: g.glyph) else { continue }
                let k = g.fontSize / bitmap.pixelsPerEm
                let frame = Rect(
                    x: origin.x + g.origin.x + bitmap.left * k, y: origin.y + g.origin.y - bitmap.top * k,
                    width: Double(bitmap.width) * k, height: Double(bitmap.height) * k)
                if paths[key] == nil && pictures[key] == nil { order.append(key) }
                pictures[key, default: []].append((bitmap, frame))
                continue
            }
            let s = g.fontSize / Double(g.font.unitsPerEm)
            // Font units are y up; the layer's points are y down.
            let place = Transform2D(a: s, b: 0, c: 0, d: -s, tx: origin.x + g.origin.x, ty: origin.y + g.origin.y)
            if paths[key] == nil && pictures[key] == nil { order.append(key) }
            paths[key, default: Path()].addPath(outline.applying(place))
        }

        // The line each unit lies on (a word or cluster never spans two), for its reveal's height and direction.
        var lineOf: [TextUnit: [Int: Int]] = [:]
        for g in set.glyphs {
            for u in animatedUnits { if let k = index(g, u) { lineOf[u, default: [:]][k] = g.line } }
        }

        var out: [DisplayList.Command] = []
        let strokeColor = layer.shape.strokeColor
        let lineWidth = layer.shape.stroke.lineWidth
        for key in order {
            var path = paths[key] ?? Path()
            var color = colors[key.run]
            var opacity = 1.0
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
                if p.reveal < 1 && revealClip == nil, let n = lineOf[u]?[k] {
                    let line = set.lines[n], w = box.width * p.reveal
                    // As tall as three lines, so that marks and tall glyphs are not cut above or below.
                    revealClip = Rect(
                        x: origin.x + (set.lineIsRightToLeft[n] ? box.maxX - w : box.minX), y: origin.y + line.minY - line.height,
                        width: w, height: line.height * 3)
                }
                if !p.transform.isIdentity {
                    let c = Point(x: origin.x + box.midX, y: origin.y + box.midY)
                    unitTransform = unitTransform.concatenating(
                        Transform3D.translation(-c.x, -c.y).concatenating(p.transform).concatenating(.translation(c.x, c.y)))
                }
            }
            guard opacity > 0, (revealClip?.width ?? 1) > 0 else { continue }
            let toUnitDevice = unitTransform.isIdentity ? toDevice3D : unitTransform.concatenating(toDevice3D)
            var commands: [DisplayList.Command] = []
            for (bitmap, frame) in pictures[key] ?? [] {
                guard let image = RasterImage(width: bitmap.width, height: bitmap.height, premultipliedRGBA: bitmap.rgba)
                else { continue }
                let toFrame = Transform2D.scale(x: frame.width / Double(bitmap.width), y: frame.height / Double(bitmap.height))
                    .concatenating(.translation(x: frame.minX, y: frame.minY))
                commands.append(
                    .fill(
                        path: Path(rect: frame).applying(toUnitDevice),
                        paint: .image(image, transform: toFrame.concatenating(toUnitDevice.affine)), opacity: min(opacity, 1),
                        rule: .nonZero))
            }
            color.alpha *= min(opacity, 1)
            if color.alpha > 0 && !path.isEmpty {
                commands.append(.fill(path: path.applying(toUnitDevice), color: color, rule: .nonZero))
            }
            if var stroke = strokeColor, stroke.alpha > 0, lineWidth > 0, !path.isEmpty {
                stroke.alpha *= min(opacity, 1)
                if toUnitDevice.isAffineOnPlane {
                    if !unitTransform.isIdentity { path = path.applying(unitTransform.affine) }
                    commands.append(
                        .stroke(path: path, style: layer.shape.stroke, transform: toDevice, paint: .solid(stroke), opacity: 1))
                } else {
                    let outline = Stroker.outline(
                        path, style: layer.shape.stroke, tolerance: defaultFlatteningTolerance / max(toDevice.maxScale, 1e-9))
                    commands.append(.fill(path: outline.applying(toUnitDevice), color: stroke))
                }
            }
            guard !commands.isEmpty else { continue }
            if let clip = revealClip {
                out.append(.beginGroup(Group(clip: Path(rect: clip).applying(toUnitDevice))))
                out += commands
                out.append(.endGroup)
            } else {
                out += commands
            }
        }
        return out
    }
}
