/// Characters moved after layout (SVG's per-character dx, dy and rotate): a shift that carries every
/// character after it along, and a turn of the character alone.
import ReelGeometry

extension TypesetText {
    /// The layout with `offsets` applied: each glyph moved by the shifts of its cluster's first
    /// character and of every character before it, and turned by its cluster's first character's
    /// rotation. Decorations and unit boxes stay where layout put them. The result has an id of its own.
    public func offset(by offsets: [CharacterOffset]) -> TypesetText {
        var out = self
        let sorted = offsets.sorted { $0.index < $1.index }
        // The running shift at each offset's character, and each character's own turn.
        var shifts: [(index: Int, dx: Double, dy: Double)] = []
        var turns: [Int: Double] = [:]
        var dx = 0.0, dy = 0.0
        for o in sorted {
            dx += o.dx
            dy += o.dy
            shifts.append((o.index, dx, dy))
            if o.rotation != 0 { turns[o.index] = o.rotation }
        }
        for i in out.glyphs.indices {
            let c = out.glyphs[i].character
            // The last shift at or before the glyph's character.
            var lo = 0, hi = shifts.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if shifts[mid].index <= c { lo = mid + 1 } else { hi = mid }
            }
            if lo > 0 {
                let s = shifts[lo - 1]
                out.glyphs[i].origin = Point(x: out.glyphs[i].origin.x + s.dx, y: out.glyphs[i].origin.y + s.dy)
                out.glyphs[i].penStart += s.dx
                out.glyphs[i].penEnd += s.dx
            }
            if let turn = turns[c] { out.glyphs[i].rotation += turn }
        }
        out.id = Typesetter.newID()
        return out
    }
}
