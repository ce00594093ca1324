/// Layout against hand-computed positions. DejaVu Sans has 2048 units per em, ascender 1901, descender
/// −483, no line gap; at fontSize 20.48 a font unit is 0.01 point, so positions are the shaping
/// advances (checked against uharfbuzz in ShapingTests: A 1270 before V, V 1401) divided by 100.
import Foundation
import ReelGeometry
import ReelText
import Testing

@Suite struct TypesetterTests {
    static let size = 20.48
    static let ascent = 19.01, lineAdvance = 19.01 + 4.83

    static func font() throws -> FontFace? {
        guard FileManager.default.fileExists(atPath: ShapingTests.dejaVu) else {
            print("TypesetterTests: \(ShapingTests.dejaVu) is not installed (scripts/setup.sh installs it); skipped")
            return nil
        }
        return try FontFace(path: ShapingTests.dejaVu)
    }

    func lay(
        _ text: String, width: Double = 100, height: Double = 100, _ style: ParagraphStyle = ParagraphStyle(),
        letterSpacing: Double = 0, fallback: @escaping Typesetter.Fallback = { _, _ in nil }
    ) throws -> TypesetText? {
        guard let font = try Self.font() else { return nil }
        let run = TextRun(text, TextAttributes(font: font, fontSize: Self.size, letterSpacing: letterSpacing))
        return Typesetter(fallback: fallback).typeset([run], style: style, in: Size(width: width, height: height))
    }

    func near(_ a: Double, _ b: Double) -> Bool { abs(a - b) < 1e-9 }

    @Test func firstBaselineIsOneAscenderDownAndAlignmentMovesTheLine() throws {
        for (alignment, x0) in [(TextAlignment.left, 0.0), (.natural, 0), (.center, (100 - 26.71) / 2), (.right, 100 - 26.71)] {
            guard let t = try lay("AV", ParagraphStyle(alignment: alignment)) else { return }
            #expect(t.glyphs.count == 2)
            #expect(near(t.glyphs[0].origin.x, x0) && near(t.glyphs[1].origin.x, x0 + 12.70), "\(alignment)")
            #expect(t.glyphs.allSatisfy { near($0.origin.y, Self.ascent) })
            #expect(near(t.lines[0].width, 26.71) && near(t.lines[0].minY, 0) && near(t.lines[0].height, 19.01 + 4.83))
            #expect(!t.overflows)
        }
    }

    /// A run's baselineOffset raises its glyphs (y down: origin 19.01 − 5) and leaves the other run's,
    /// the advances (V starts where an A alone ends: runs of other attributes are shaped apart, so
    /// unkerned) and the line's height alone.
    @Test func baselineOffsetRaisesItsRunOnly() throws {
        guard let font = try Self.font() else { return }
        let runs = [
            TextRun("A", TextAttributes(font: font, fontSize: Self.size)),
            TextRun("V", TextAttributes(font: font, fontSize: Self.size, baselineOffset: 5)),
        ]
        let t = Typesetter().typeset(runs, style: ParagraphStyle(), in: Size(width: 100, height: 100))
        #expect(t.glyphs.count == 2 && near(t.glyphs[0].origin.y, Self.ascent) && near(t.glyphs[1].origin.y, Self.ascent - 5))
        guard let a = try lay("A") else { return }
        #expect(near(t.glyphs[1].origin.x, a.lines[0].width) && near(t.lines[0].height, 19.01 + 4.83))
    }

    /// A run's baseline sits on the line's: the run moves down by that baseline's height above the
    /// alphabetic one (DejaVu Sans, read with fontTools: hhea ascender 1901, descender −483; no OS/2
    /// sxHeight (version 1), so HarfBuzz takes the x-height from "x", whose top is at 1120). At 0.01
    /// point a unit, from the alphabetic baseline 19.01: central (1901 − 483) / 2 = 7.09, middle 5.60,
    /// hanging 0.8 × 19.01, mathematical 9.505, the top 19.01, the bottom −4.83.
    @Test func aRunSitsOnTheBaselineItNames() throws {
        guard let font = try Self.font() else { return }
        let cases: [(TextBaseline, Double)] = [
            (.alphabetic, 0), (.central, 7.09), (.middle, 5.60), (.hanging, 15.208), (.mathematical, 9.505), (.textTop, 19.01),
            (.textBottom, -4.83),
        ]
        for (baseline, down) in cases {
            var a = TextAttributes(font: font, fontSize: Self.size, baselineOffset: 1)
            a.baseline = baseline
            let t = Typesetter().typeset([TextRun("A", a)], style: ParagraphStyle(), in: Size(width: 100, height: 100))
            #expect(t.glyphs.count == 1 && abs(t.glyphs[0].origin.y - (Self.ascent + down - 1)) < 1e-9, "\(baseline)")
        }
    }

    /// Decorations by hand from DejaVu Sans's tables (read with fontTools): `post` underlinePosition
    /// −40 and underlineThickness 90, `OS/2` yStrikeoutPosition 530, hhea ascender 1901 — at 0.01
    /// point a unit, centres 0.40 below the baseline (19.01), 5.30 above it and at the box's top, each
    /// 0.90 thick. A decorated run's lines start at its first pen position (after "AV", kerned, 26.71),
    /// cover its space and end with its last glyph; the plain run has none.
    @Test func decorationsFollowTheFontsMetricsAcrossSpaces() throws {
        guard let font = try Self.font() else { return }
        let runs = [
            TextRun("AV", TextAttributes(font: font, fontSize: Self.size)),
            TextRun(
                " AV", TextAttributes(font: font, fontSize: Self.size, decorations: [.underline, .strikethrough, .overline])),
        ]
        let t = Typesetter().typeset(runs, style: ParagraphStyle(), in: Size(width: 100, height: 100))
        #expect(t.decorations.count == 3)
        for d in t.decorations {
            #expect(d.run == 1 && d.line == 0)
            #expect(near(d.rect.minX, 26.71) && near(d.rect.maxX, t.lines[0].maxX) && abs(d.rect.height - 0.90) < 1e-9)
        }
        let centres = t.decorations.map(\.rect.midY).sorted()
        #expect(
            centres.count == 3 && abs(centres[0] - 0) < 1e-9 && abs(centres[1] - 13.71) < 1e-9 && abs(centres[2] - 19.41) < 1e-9)
        // Raised with its run's glyphs.
        let raised = [TextRun("AV", TextAttributes(font: font, fontSize: Self.size, baselineOffset: 5, decorations: .underline))]
        let r = Typesetter().typeset(raised, style: ParagraphStyle(), in: Size(width: 100, height: 100))
        #expect(r.decorations.count == 1 && abs((r.decorations.first?.rect.midY ?? 0) - 14.41) < 1e-9)
    }

    /// Letter and word spacing do not break a run's line into dashes: one underline from the first pen
    /// position to the last glyph's end (14.01 + 2 + 6.51 + 2 + 3 + 14.01 = 41.53); a strikethrough
    /// is drawn over the glyphs, the underline under them (`DecorationLine.kind`).
    @Test func spacedRunsKeepOneLine() throws {
        guard let font = try Self.font() else { return }
        let a = TextAttributes(
            font: font, fontSize: Self.size, letterSpacing: 2, decorations: [.underline, .strikethrough], wordSpacing: 3)
        let t = Typesetter().typeset([TextRun("A A", a)], style: ParagraphStyle(), in: Size(width: 100, height: 100))
        #expect(t.decorations.map(\.kind) == [.underline, .strikethrough])
        for d in t.decorations { #expect(near(d.rect.minX, 0) && abs(d.rect.maxX - 41.53) < 1e-9) }
    }

    /// Word spacing follows each space, on top of the letter spacing: "A A" with A 1401 and the space
    /// 651 units (0.01 point each): the second A at 14.01 + 6.51 + 3 = 23.52, and with a letter spacing
    /// of 1 after each cluster, 14.01 + 1 + 6.51 + 1 + 3 = 25.52.
    @Test func wordSpacingFollowsEachSpace() throws {
        guard let font = try Self.font() else { return }
        for (letter, x) in [(0.0, 23.52), (1, 25.52)] {
            let run = TextRun("A A", TextAttributes(font: font, fontSize: Self.size, letterSpacing: letter, wordSpacing: 3))
            let t = Typesetter().typeset([run], style: ParagraphStyle(), in: Size(width: 100, height: 100))
            #expect(t.glyphs.count == 2 && abs(t.glyphs[1].origin.x - x) < 1e-9, "letter spacing \(letter)")
        }
    }

    @Test func linesAreOneLineHeightApartTimesTheMultiple() throws {
        guard let one = try lay("A\nV"), let wide = try lay("A\nV", ParagraphStyle(lineHeight: 1.5)) else { return }
        #expect(near(one.glyphs[1].origin.y, Self.ascent + Self.lineAdvance))
        #expect(near(wide.glyphs[1].origin.y, Self.ascent + 1.5 * Self.lineAdvance))
        // An empty line between two still takes its height.
        guard let gap = try lay("A\n\nV") else { return }
        #expect(near(gap.glyphs[1].origin.y, Self.ascent + 2 * Self.lineAdvance))
        #expect(gap.lines.count == 3)
    }

    @Test func letterSpacingFollowsEachClusterButNotTheLinesEnd() throws {
        guard let t = try lay("AV", ParagraphStyle(alignment: .center), letterSpacing: 2) else { return }
        let x0 = (100 - 28.71) / 2
        #expect(near(t.glyphs[0].origin.x, x0) && near(t.glyphs[1].origin.x, x0 + 14.70))
    }

    @Test func wrappingBreaksAtSpacesAndStacksTheLines() throws {
        guard let t = try lay("AV AV AV", width: 30, ParagraphStyle(isWrapped: true)) else { return }
        #expect(t.lines.count == 3)
        #expect(t.glyphs.count == 6)  // the spaces at the line ends are not drawn
        for (k, pair) in stride(from: 0, to: 6, by: 2).enumerated() {
            #expect(near(t.glyphs[pair].origin.x, 0) && near(t.glyphs[pair + 1].origin.x, 12.70))
            #expect(near(t.glyphs[pair].origin.y, Self.ascent + Double(k) * Self.lineAdvance))
        }
        #expect(t.words.count == 3 && t.clusters.count == 6)
    }

    @Test func aWordWiderThanTheBoxBreaksBetweenClusters() throws {
        guard let t = try lay("AVAVAV", width: 30, ParagraphStyle(isWrapped: true)) else { return }
        #expect(t.lines.count == 3)
        #expect(t.lines.allSatisfy { $0.width <= 30 })
    }

    @Test func justifiedLinesReachBothEdgesButTheParagraphsLast() throws {
        guard let t = try lay("AV AV AV", width: 70, ParagraphStyle(alignment: .justified, isWrapped: true)) else { return }
        #expect(t.lines.count == 2)
        #expect(near(t.glyphs[0].origin.x, 0))
        #expect(near(t.glyphs[3].origin.x + 14.01, 70))  // the second V ends at the right edge
        #expect(near(t.glyphs[4].origin.x, 0))  // the paragraph's last line stays left
        // One line with a line feed after it is its paragraph's last: not stretched.
        guard let last = try lay("AV AV\nAV", ParagraphStyle(alignment: .justified)) else { return }
        #expect(near(last.glyphs[2].origin.x, 26.71 + 6.51) || last.glyphs[2].origin.x < 40)
    }

    @Test func ligaturesAndMarksAreOneClusterAndWordsSplitAtSpaces() throws {
        guard let t = try lay("Office \u{FB01} AV", width: 400) else { return }
        #expect(t.words.count == 3)
        #expect(t.clusters.count == 7)  // O, ffi, c, e, ﬁ, A, V
        #expect(t.glyphs.compactMap(\.cluster) == [0, 1, 2, 3, 4, 5, 6])
        #expect(t.glyphs.compactMap(\.word) == [0, 0, 0, 0, 1, 2, 2])
        // x + U+0301 (no precomposed form) is one cluster of two glyphs.
        guard let e = try lay("x\u{301}y") else { return }
        #expect(e.clusters.count == 2 && e.glyphs.count == 3 && e.glyphs[0].cluster == e.glyphs[1].cluster)
    }

    @Test func truncationElidesWhatDoesNotFit() throws {
        guard let font = try Self.font() else { return }
        let ellipsis = try font.shape("\u{2026}")[0]
        for mode in [TruncationMode.end, .start, .middle] {
            guard let t = try lay("AVAVAVAVAV", width: 60, ParagraphStyle(truncationMode: mode)) else { return }
            #expect(t.lines[0].width <= 60, "\(mode)")
            #expect(t.glyphs.contains { $0.glyph == ellipsis.glyph }, "\(mode)")
            let at = t.glyphs.firstIndex { $0.glyph == ellipsis.glyph }!
            switch mode {
            case .end: #expect(at == t.glyphs.count - 1)
            case .start: #expect(at == 0)
            default: #expect(at > 0 && at < t.glyphs.count - 1)
            }
        }
        // Without truncation the line overflows, and says so.
        guard let over = try lay("AVAVAVAVAV", width: 60) else { return }
        #expect(over.overflows && over.glyphs.count == 10)
    }

    @Test func wrappedTextBelowTheBoxIsCutWithAnEllipsis() throws {
        guard let t = try lay("AV AV AV AV", width: 30, height: 40, ParagraphStyle(isWrapped: true, truncationMode: .end))
        else { return }
        #expect(t.lines.count == 1)  // a second line's descender would pass 40
        guard let font = try Self.font() else { return }
        #expect(t.glyphs.last?.glyph == (try font.shape("\u{2026}"))[0].glyph)
    }

    @Test func aCharacterTheFontLacksComesFromTheFallback() throws {
        guard let font = try Self.font() else { return }
        // DejaVu Sans has no CJK: the fallback gives another face (here DejaVu again, opened as a second
        // face object, so the test needs no other font) and is reported.
        let other = try FontFace(path: ShapingTests.dejaVu)
        let run = TextRun("A\u{4E2D}", TextAttributes(font: font, fontSize: Self.size))
        let t = Typesetter(fallback: { s, f in s.value == 0x4E2D && f === font ? other : nil })
            .typeset([run], style: ParagraphStyle(), in: Size(width: 100, height: 100))
        #expect(t.glyphs.count == 2 && t.glyphs[0].font === font && t.glyphs[1].font === other)
        #expect(t.fallbackFonts == [ShapingTests.dejaVu])
    }

    @Test func aRightToLeftParagraphIsRightAlignedAndInVisualOrder() throws {
        // DejaVu Sans has Hebrew. "אב" (alef, bet) shows bet first from the left; natural alignment is right.
        guard let font = try Self.font(), let t = try lay("\u{5D0}\u{5D1}") else { return }
        let alef = try font.shape("\u{5D0}")[0], bet = try font.shape("\u{5D1}")[0]
        #expect(t.glyphs.map(\.glyph) == [bet.glyph, alef.glyph])
        #expect(near(t.glyphs[1].origin.x + alef.xAdvance / 100, 100))
    }
}
