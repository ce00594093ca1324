/// How a shape's paint is put together: its fill, stroke and markers stacked in `paint-order`, a part
/// painted by a pattern as that pattern masked by the part, and the context paint a `use` hands on.
import Foundation
import ReelGeometry
import ReelScene

extension Importer {
    /// `style` as the parent of what a `use` shows: its fill and stroke are that content's context paint.
    func context(_ style: SVGStyle) -> SVGStyle {
        var s = style
        s.context = style.asContext
        return s
    }

    /// A painted shape with its markers in `order`: normally the markers over the shape; otherwise (the
    /// parts out of that order, or a part painted by a pattern) the shape keeps its path (for its bounding
    /// box) and holds its fill, its stroke and its markers as sublayers in that order, a pattern's part
    /// as the pattern masked by that part.
    mutating func painted(
        _ shape: Layer, in order: [PaintPart], markers: [Layer], patterns: (fill: PatternPaint?, stroke: PatternPaint?),
        at e: SVGElement
    ) -> Layer {
        let stroked = shape.shape.strokeColor != nil
        // The parts that paint anything, in the order asked for: the plain layer when that is normal's.
        let present = order.filter { $0 == .fill || ($0 == .stroke && stroked) || ($0 == .markers && !markers.isEmpty) }
        guard present != PaintPart.normal.filter(present.contains) || patterns.fill != nil || patterns.stroke != nil else {
            var plain = shape
            plain.sublayers = markers
            return plain
        }
        var holder = shape
        holder.shape.fillColor = nil
        holder.shape.fillGradient = nil
        holder.shape.strokeColor = nil
        holder.shape.strokeGradient = nil
        var fill = shape
        fill.hidden = false
        fill.shape.strokeColor = nil
        fill.shape.strokeGradient = nil
        var stroke = shape
        stroke.hidden = false
        stroke.shape.fillColor = nil
        stroke.shape.fillGradient = nil
        // A path with no points paints nothing, patterns included.
        let box = shape.shape.path.bounds() ?? Rect(x: 0, y: 0, width: 0, height: 0)
        for part in order {
            switch part {
            case .fill:
                fill.name = unique("\(shape.name)/fill")
                if let p = patterns.fill {
                    if let layer = patterned(p, mask: fill, box: box, cover: box, at: e) { holder.sublayers.append(layer) }
                } else {
                    holder.sublayers.append(fill)
                }
            case .stroke:
                guard stroked else { continue }
                stroke.name = unique("\(shape.name)/stroke")
                if let p = patterns.stroke {
                    let s = stroke.shape.stroke
                    let reach = s.lineWidth / 2 * max(s.lineJoin == .miter ? s.miterLimit : 1, s.lineCap == .square ? 1.5 : 1)
                    let cover = Rect(
                        x: box.minX - reach, y: box.minY - reach, width: box.width + 2 * reach, height: box.height + 2 * reach)
                    if let layer = patterned(p, mask: stroke, box: box, cover: cover, at: e) { holder.sublayers.append(layer) }
                } else {
                    holder.sublayers.append(stroke)
                }
            case .markers:
                holder.sublayers += markers
            }
        }
        return holder
    }

    /// A pattern painting the part `mask` draws (in black), at the pattern paint's opacity.
    mutating func patterned(_ p: PatternPaint, mask: Layer, box: Rect, cover: Rect, at e: SVGElement) -> Layer? {
        guard let grid = patternLayer(p.server, box: box, cover: cover, name: mask.name, at: e) else { return nil }
        var layer = Layer(name: mask.name)
        var outline = mask
        outline.name = unique("\(mask.name)/outline")
        layer.mask = outline
        layer.opacity = p.opacity
        layer.sublayers = [grid]
        return layer
    }
}
