/// Text set along paths, and characters offset after layout, against hand-computed placements. DejaVu Sans at 20.48 points (0.01 point a
/// font unit; TypesetterTests): "AV" kerned, A's pen from 0 to 12.70 (middle 6.35), V's from 12.70 to
/// 26.71 (middle 19.705), the first baseline 19.01 down.
import Foundation
import ReelGeometry
import ReelText
import Testing

@Suite struct TextOnPathTests {
    func near(_ a: Double, _ b: Double) -> Bool { abs(a - b) < 1e-9 }

    func line(_ from: Point, _ to: Point) -> ArcLength {
        var p = Path()
        p.move(to: from)
        p.addLine(to: to)
        return ArcLength(p)
    }

    func av(_ decorations: TextDecorations = []) throws -> TypesetText? {
        guard let font = try TypesetterTests.font() else { return nil }
        let run = TextRun("AV", TextAttributes(font: font, fontSize: TypesetterTests.size, decorations: decorations))
        return Typesetter().typeset([run], style: ParagraphStyle(), in: Size(width: 100, height: 100))
    }

    /// Along a horizontal line the glyphs only move: x by the line's start and the offset, the baseline
    /// onto the line.
    @Test func aHorizontalLineMovesTheText() throws {
        guard let t = try av() else { return }
        let laid = t.laidAlong(line(Point(x: 100, y: 50), Point(x: 400, y: 50)), offset: 7)
        #expect(laid.glyphs.count == 2 && laid.id != t.id)
        for (g, x) in zip(laid.glyphs, [107.0, 119.70]) {
            #expect(near(g.origin.x, x) && near(g.origin.y, 50) && near(g.rotation, 0))
        }
    }

    /// Down a vertical line (heading +y, a quarter turn clockwise): each glyph's middle on the line at the
    /// offset plus its middle, so its origin half its advance before; turned a quarter. A run raised 5
    /// points lies 5 points off the line on the side the glyphs' tops face: heading +y, that is +x.
    @Test func aVerticalLineTurnsEachGlyph() throws {
        guard let t = try av() else { return }
        let down = line(.zero, Point(x: 0, y: 500))
        let laid = t.laidAlong(down, offset: 10)
        #expect(laid.glyphs.count == 2)
        for (g, y) in zip(laid.glyphs, [10.0, 22.70]) {
            #expect(abs(g.origin.x) < 1e-9 && near(g.origin.y, y) && near(g.rotation, .pi / 2), "\(g.origin)")
        }
        guard let font = try TypesetterTests.font() else { return }
        let raised = Typesetter().typeset(
            [TextRun("A", TextAttributes(font: font, fontSize: TypesetterTests.size, baselineOffset: 5))],
            style: ParagraphStyle(), in: Size(width: 100, height: 100))
        // A alone: pen 0 to 14.01, middle 7.005; the normal (−sin, cos) is (−1, 0), and the glyph lies
        // −5 along it.
        let r = raised.laidAlong(down, offset: 0)
        #expect(r.glyphs.count == 1 && near(r.glyphs[0].origin.x, 5) && near(r.glyphs[0].origin.y, 0))
    }

    /// A glyph whose middle falls before the path's start or past its end is left out.
    @Test func glyphsOffThePathAreLeftOut() throws {
        guard let t = try av() else { return }
        let short = line(.zero, Point(x: 15, y: 0))
        // A's middle at 6.35 is on it, V's at 19.705 past its end.
        #expect(t.laidAlong(short, offset: 0).glyphs.map(\.glyph) == [t.glyphs[0].glyph])
        // From −10: A's middle at −3.65 before the start, V's at 9.705 on it.
        #expect(t.laidAlong(short, offset: -10).glyphs.map(\.glyph) == [t.glyphs[1].glyph])
        #expect(t.laidAlong(short, offset: 100).glyphs.isEmpty)
    }

    /// An underline is cut at each glyph's advance and each piece placed like a glyph: on a vertical
    /// line, the piece under A (0 to 12.70) centred 0.40 below the baseline, so at x = −0.40, and at
    /// y = 6.35; the piece under V at y = 19.705; both 0.90 thick and turned a quarter.
    @Test func decorationsAreCutAtEachGlyph() throws {
        guard let t = try av(.underline) else { return }
        let laid = t.laidAlong(line(.zero, Point(x: 0, y: 500)), offset: 0)
        #expect(laid.decorations.count == 2)
        for (d, (y, width)) in zip(laid.decorations, [(6.35, 12.70), (19.705, 14.01)]) {
            #expect(near(d.rect.midX, -0.40) && near(d.rect.midY, y) && near(d.rect.width, width))
            #expect(near(d.rect.height, 0.90) && near(d.rotation, .pi / 2))
        }
    }

    /// Characters moved after layout: a shift carries every later character along, a rotation turns its
    /// character alone, and shaping is untouched (A's kerned pen end, 12.70, stays V's start).
    @Test func characterOffsetsShiftWhatFollowsAndTurnOne() throws {
        guard let t = try av() else { return }
        let moved = t.offset(by: [
            CharacterOffset(index: 1, dx: 5, dy: 2, rotation: 0.5), CharacterOffset(index: 0, dx: 3),
        ])
        #expect(moved.id != t.id && moved.glyphs.count == 2)
        let a = moved.glyphs[0], v = moved.glyphs[1]
        #expect(near(a.origin.x, 3) && near(a.origin.y, 19.01) && a.rotation == 0)
        #expect(near(v.origin.x, 12.70 + 8) && near(v.origin.y, 19.01 + 2) && v.rotation == 0.5)
        #expect(near(v.penStart, 20.70) && near(v.penEnd, 26.71 + 8))
    }
}
