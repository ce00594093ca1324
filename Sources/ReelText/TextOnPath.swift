/// Text set along a path (SVG's `textPath`): each glyph moved and turned so that the middle of its
/// advance on the first line's baseline lands on the path, the text box's x measured along the path.
import Foundation
import ReelGeometry

extension TypesetText {
    /// The layout with its x axis laid along `path` from `offset` (points along the path where the box's
    /// x = 0 falls): a glyph whose advance's middle is at x sits at `offset + x` along the path, turned
    /// with it, and what lay above or below the first baseline lies that far off the path on the same
    /// side. A glyph whose middle falls before the path's start or past its end is not drawn (SVG's
    /// rule). Decorations are cut at each glyph's advance and the gaps between, each piece placed like
    /// a glyph; unit boxes move with their centres (not turned). The result has an id of its own.
    public func laidAlong(_ path: ArcLength, offset: Double) -> TypesetText {
        var out = self
        out.glyphs = []
        out.decorations = []
        let base = baselines.first ?? 0
        /// Where the box's point (x, y) goes when the point `middle` of the line lands on the path.
        func place(_ p: Point, middle: Double) -> (point: Point, angle: Double)? {
            guard let (on, angle) = path.at(offset + middle) else { return nil }
            let t = Point(x: cos(angle), y: sin(angle)), n = Point(x: -sin(angle), y: cos(angle))
            return (on + t * (p.x - middle) + n * (p.y - base), angle)
        }
        for g in glyphs {
            guard let (origin, angle) = place(g.origin, middle: (g.penStart + g.penEnd) / 2) else { continue }
            var moved = g
            moved.origin = origin
            moved.rotation = g.rotation + angle
            out.glyphs.append(moved)
        }
        for d in decorations {
            // Cut at the advances of the glyphs of its line that it crosses; what lies between them (a
            // space, spacing) is a piece of its own.
            var cuts = [d.rect.minX, d.rect.maxX]
            for g in glyphs where g.line == d.line {
                for x in [g.penStart, g.penEnd] where x > d.rect.minX && x < d.rect.maxX { cuts.append(x) }
            }
            cuts.sort()
            for (a, b) in zip(cuts, cuts.dropFirst()) where b - a > 1e-9 {
                let middle = (a + b) / 2
                guard let (centre, angle) = place(Point(x: middle, y: d.rect.midY), middle: middle) else { continue }
                var piece = d
                piece.rect = Rect(x: centre.x - (b - a) / 2, y: centre.y - d.rect.height / 2, width: b - a, height: d.rect.height)
                piece.rotation = d.rotation + angle
                out.decorations.append(piece)
            }
        }
        func moved(_ boxes: [Rect]) -> [Rect] {
            boxes.map { box in
                guard let (centre, _) = place(Point(x: box.midX, y: box.midY), middle: box.midX) else { return box }
                return Rect(x: centre.x - box.width / 2, y: centre.y - box.height / 2, width: box.width, height: box.height)
            }
        }
        out.lines = moved(lines)
        out.words = moved(words)
        out.clusters = moved(clusters)
        out.id = Typesetter.newID()
        return out
    }
}
