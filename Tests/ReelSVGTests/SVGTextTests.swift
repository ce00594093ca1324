/// SVG text features read into text layers, against hand-computed values: baseline-shift and a tspan's
/// dy as runs' baseline offsets, tref, xml:space, writing-mode, the text's stroke, hidden runs, and
/// text inside a clip path.
import Foundation
import ReelDocument
import ReelGeometry
import ReelScene
import Testing

@testable import ReelSVG

@Suite struct SVGTextTests {
    /// At font-size 20: baseline-shift 10 raises by 10, 50% by 10, sub lowers by 0.075 × 20 = 1.5,
    /// nested shifts add (10 + 4 = 14); a dy of 3 without an x lowers the rest of the chunk by 3, the
    /// text after its tspan too (a shift of 10 then stands at 7).
    @Test func baselineShiftsAndDyAreBaselineOffsets() throws {
        let svg = try image(
            """
            <svg xmlns="http://www.w3.org/2000/svg" font-size="20">
              <text id="t" x="0" y="50">a<tspan baseline-shift="10">b<tspan baseline-shift="4">c</tspan></tspan><tspan baseline-shift="50%">d</tspan><tspan baseline-shift="sub">e</tspan><tspan dy="3">f</tspan>g<tspan baseline-shift="10">h</tspan></text>
            </svg>
            """)
        let t = try #require(svg.layer.find("t/t"))
        // "f" and "g" are alike but for their text: one run, shaped together.
        #expect(t.text.runs.map(\.text) == ["a", "b", "c", "d", "e", "fg", "h"])
        #expect(t.text.runs.map(\.baselineOffset) == [nil, 10, 14, 10, -1.5, -3, 7])
    }

    /// A tref shows its target's character data (its tspans' included) in the tref's own style; the
    /// tref's children are not drawn; a tref inside the target shows nothing.
    @Test func trefShowsTheTargetsText() throws {
        let svg = try image(
            """
            <svg xmlns="http://www.w3.org/2000/svg">
              <defs><text id="src">One <tspan fill="red">two</tspan><tref href="#src"/></text></defs>
              <text id="t" x="0" y="20"><tref href="#src" fill="#0000ff">not this</tref></text>
            </svg>
            """)
        let t = try #require(svg.layer.find("t/t"))
        #expect(t.text.runs.map(\.text) == ["One two"])
        #expect(t.text.runs[0].foregroundColor == Color(red: 0, green: 0, blue: 1))
    }

    /// text-decoration: a tspan's text takes the lines declared on it and on every element around it
    /// (a group outside the text too, as resvg); `none` on a tspan takes none away; the keywords of a
    /// shorthand with a style and a colour are read, a list with commas is not; word-spacing is
    /// inherited and `normal` is none; no note for either.
    @Test func textDecorationsPropagateToTheRuns() throws {
        let svg = try image(
            """
            <svg xmlns="http://www.w3.org/2000/svg">
              <g text-decoration="overline"><text id="t" x="0" y="20" text-decoration="underline">a<tspan text-decoration="line-through">b</tspan><tspan style="text-decoration: none">c</tspan></text></g>
              <text id="s" x="0" y="50" style="text-decoration: underline wavy red" word-spacing="5">d<tspan word-spacing="normal">e</tspan></text>
              <text id="c" x="0" y="80" text-decoration="underline,overline">f</text>
            </svg>
            """)
        let t = try #require(svg.layer.find("t/t"))
        #expect(t.text.runs.map(\.underline) == [true, true, true])
        #expect(t.text.runs.map(\.overline) == [true, true, true])
        #expect(t.text.runs.map(\.strikethrough) == [nil, true, nil])
        let s = try #require(svg.layer.find("t/s"))
        #expect(s.text.runs.map(\.underline) == [true, true] && s.text.runs.map(\.strikethrough) == [nil, nil])
        #expect(s.text.runs.map(\.wordSpacing) == [5, nil])
        // A list with commas is invalid: no line.
        #expect(svg.layer.find("t/c")?.text.runs.map(\.underline) == [nil])
        #expect(!svg.warnings.contains { $0.contains("text-decoration") || $0.contains("word-spacing") })
    }

    /// paint-order puts a text's stroke under its fill when the stroke comes before the fill in it
    /// (`stroke`, `markers stroke`), not otherwise (`fill stroke`, `normal`); no note either way.
    @Test func paintOrderOnText() throws {
        let svg = try image(
            """
            <svg xmlns="http://www.w3.org/2000/svg" stroke="#000" stroke-width="2">
              <text id="a" paint-order="stroke">a</text><text id="b" paint-order="markers stroke">b</text>
              <text id="c" paint-order="fill stroke">c</text><text id="d">d</text>
            </svg>
            """)
        #expect(["a", "b", "c", "d"].map { svg.layer.find("t/\($0)")?.text.paintOrder } == [.stroke, .stroke, .normal, .normal])
        #expect(!svg.warnings.contains { $0.contains("paint-order") })
    }

    /// xml:space="preserve" keeps every space and turns line breaks and tabs into spaces; the default
    /// collapses them; a chunk's trailing spaces stay as advances (a word joiner after them).
    @Test func preservedWhiteSpace() throws {
        let svg = try image(
            "<svg xmlns=\"http://www.w3.org/2000/svg\"><text id=\"p\" xml:space=\"preserve\">A  b\n\tc </text>"
                + "<text id=\"d\">A  b\n\tc </text></svg>")
        #expect(svg.layer.find("t/p")?.text.runs.map(\.text) == ["A  b  c \u{2060}"])
        #expect(svg.layer.find("t/d")?.text.runs.map(\.text) == ["A b c"])
    }

    /// writing-mode tb turns the line a quarter clockwise about its start and lowers its baseline by
    /// 0.388 em (20 × 0.388 = 7.76) so that the central baseline runs through x; a stroke is the text
    /// layer's; a hidden tspan stays as a transparent run.
    @Test func verticalStrokedAndHidden() throws {
        let svg = try image(
            """
            <svg xmlns="http://www.w3.org/2000/svg" font-size="20">
              <text id="v" x="30" y="10" writing-mode="tb" stroke="#00ff00" stroke-width="2">Ab<tspan visibility="hidden">c</tspan></text>
            </svg>
            """)
        let v = try #require(svg.layer.find("t/v"))
        #expect(v.transform == Transform3D.rotation(.pi / 2) && v.position == Point(x: 30, y: 10))
        #expect(v.text.runs.map(\.baselineOffset) == [-7.76, -7.76])
        #expect(v.text.runs[1].foregroundColor == .clear)
        #expect(v.shape.strokeColor == Color(red: 0, green: 1, blue: 0) && v.shape.stroke.lineWidth == 2)
    }

    /// Text in a clip path clips by its glyphs: a text layer in the mask, opaque black whatever its fill.
    @Test func textInAClipPath() throws {
        let svg = try image(
            """
            <svg xmlns="http://www.w3.org/2000/svg">
              <clipPath id="c"><text x="5" y="20" fill="none">Clip</text></clipPath>
              <rect id="r" width="50" height="50" clip-path="url(#c)"/>
            </svg>
            """)
        let mask = try #require(svg.layer.find("t/r")?.mask)
        let text = try #require(mask.sublayers.first)
        #expect(text.type == .text && text.text.runs.map(\.text) == ["Clip"])
        #expect(text.text.runs[0].foregroundColor == .black && text.position == Point(x: 5, y: 20))
        #expect(svg.warnings.isEmpty, "\(svg.warnings)")
    }

    /// A textPath sets its chunk along the shape its href names (that shape's transform applied), at its
    /// startOffset (25 % of the 100-long line) plus the text's x (5); the text's dy (3) lowers it off
    /// the path. One naming nothing is left out with its text but parts the white space around it, as
    /// resvg and Chrome do ("a" and "b" keep a space each); side and the SVG 2 path attribute are notes.
    @Test func textPathsFollowTheirShapes() throws {
        let svg = try image(
            """
            <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" font-size="20">
              <defs><path id="p" d="M 0 0 L 100 0" transform="translate(10 20)"/></defs>
              <text id="t" x="5" dy="3"> <textPath id="tp" xlink:href="#p" startOffset="25%">on a line</textPath></text>
              <text id="u" x="0" y="50">a <textPath href="#nothing">gone</textPath> b</text>
              <text id="w"><textPath id="wp" href="#p" side="right" path="M 0 0 L 5 5">x</textPath></text>
            </svg>
            """)
        let tp = try #require(svg.layer.find("t/tp"))
        var line = Path()
        line.move(to: Point(x: 10, y: 20))
        line.addLine(to: Point(x: 110, y: 20))
        #expect(tp.shape.path == line && tp.text.pathOffset == 30 && tp.position == .zero)
        #expect(tp.text.runs.map(\.text) == ["on a line"] && tp.text.runs.map(\.baselineOffset) == [-3])
        let u = try #require(svg.layer.find("t/u"))
        #expect(u.text.runs.map(\.text).joined() == "a  b" && u.shape.path.isEmpty)
        #expect(svg.layer.find("t/wp")?.shape.path == line)
        #expect(
            svg.warnings.contains { $0.contains("side=\"right\"") } && svg.warnings.contains { $0.contains("path attribute") })
    }

    /// x, y, dx, dy and rotate are lists, a value a character as white space collapses: an x starts a
    /// chunk there ("a" at 10, "bc" at 20); a dx or dy later in a chunk, and every rotation (its last
    /// value repeated to the element's end), move their character after layout, shaping untouched (the
    /// runs stay one). A tspan's dx within its chunk moves its first character the same way.
    @Test func perCharacterPositions() throws {
        let svg = try image(
            """
            <svg xmlns="http://www.w3.org/2000/svg" font-size="20">
              <text id="t" x="10 20" y="30" dx="0 0 4" rotate="10 20">  abc</text>
              <text id="d" x="0" y="50">ab <tspan dx="5"> cd</tspan></text>
            </svg>
            """)
        let a = try #require(svg.layer.find("t/t/line[0]")), bc = try #require(svg.layer.find("t/t/line[1]"))
        #expect(a.position == Point(x: 10, y: 30) && bc.position == Point(x: 20, y: 30))
        #expect(a.text.runs.map(\.text) == ["a"] && bc.text.runs.map(\.text) == ["bc"])
        #expect(a.text.characterOffsets == [CharacterOffset(index: 0, rotation: 10 * .pi / 180)])
        #expect(
            bc.text.characterOffsets == [
                CharacterOffset(index: 0, rotation: 20 * .pi / 180), CharacterOffset(index: 1, dx: 4, rotation: 20 * .pi / 180),
            ])
        let d = try #require(svg.layer.find("t/d"))
        #expect(d.text.runs.map(\.text) == ["ab cd"] && d.text.characterOffsets == [CharacterOffset(index: 3, dx: 5)])
        #expect(svg.warnings.isEmpty, "\(svg.warnings)")
    }

    /// What text Reel does not draw yet is a note at the text's line, once: textLength (on the text or
    /// a tspan), a textPath inside a tspan (left out with its text, as resvg and browsers).
    @Test func undrawnTextIsNoted() throws {
        let svg = try image(
            """
            <svg xmlns="http://www.w3.org/2000/svg">
              <path id="p" d="M 0 0 L 100 0"/>
              <text x="0" y="20"><tspan textLength="50">a</tspan><tspan>b<textPath href="#p">c</textPath></tspan></text>
            </svg>
            """)
        #expect(
            svg.warnings.filter { $0.contains("textLength is not drawn yet") } == [
                "line 3: textLength is not drawn yet: the text keeps its own length"
            ])
        #expect(svg.warnings.contains { $0.contains("textPath inside a textPath or tspan is left out with its text") })
    }

    /// dominant-baseline (inherited) and alignment-baseline (on its element only, and only when not
    /// auto or baseline) name the baseline each run sits on: text-before-edge the top, ideographic the
    /// bottom; no-change keeps the parent's; vertical text keeps its own central baseline.
    @Test func baselinesNameWhereRunsSit() throws {
        let svg = try image(
            """
            <svg xmlns="http://www.w3.org/2000/svg">
              <text id="t" x="0" y="20" dominant-baseline="central">a<tspan alignment-baseline="text-before-edge">b<tspan>c</tspan></tspan><tspan dominant-baseline="no-change" alignment-baseline="baseline">d</tspan><tspan dominant-baseline="ideographic">e</tspan></text>
              <text id="v" x="0" y="50" dominant-baseline="hanging" writing-mode="tb">f</text>
            </svg>
            """)
        let t = try #require(svg.layer.find("t/t"))
        // "c" and "d" sit alike: one run.
        #expect(t.text.runs.map(\.text) == ["a", "b", "cd", "e"])
        #expect(t.text.runs.map(\.baseline) == [.central, .textTop, .central, .textBottom])
        #expect(svg.layer.find("t/v")?.text.runs.first?.baseline == nil)
        #expect(svg.warnings.isEmpty, "\(svg.warnings)")
    }

    /// Moves meet as SVG has them: a wrapper's rotation adds to the dx its tspan gives the same
    /// character; an empty tspan's dx moves nothing (not the next line); an absolute y undoes the dy
    /// moves before it (B at 20 + 5, C at 30: run offsets −10 and −15 from the chunk's 10, B's move
    /// 5); an em in a list is the declaring element's (2 × 10, not 2 × 40); the stand-ins do not count
    /// as children for `:first-child`.
    @Test func positionEdgeCases() throws {
        let svg = try image(
            """
            <svg xmlns="http://www.w3.org/2000/svg">
              <style>tspan:first-child { fill: #ff0000 }</style>
              <text id="a" x="0" y="20">A<tspan dx="20" rotate="30">B</tspan>C</text>
              <text id="b" x="0" y="20">A<tspan dx="50"/><tspan id="b2" x="0" y="40">B</tspan></text>
              <text id="c" x="0" y="10 20 30" dy="0 5">ABC</text>
              <text id="d" x="0 2em" y="10" font-size="10"><tspan font-size="40">AB</tspan></text>
              <text id="e" x="0" y="60" rotate="5">A<tspan>B</tspan></text>
            </svg>
            """)
        let a = try #require(svg.layer.find("t/a"))
        #expect(a.text.characterOffsets == [CharacterOffset(index: 1, dx: 20, rotation: 30 * .pi / 180)])
        let b2 = try #require(svg.layer.find("t/b2"))
        #expect(b2.position == Point(x: 0, y: 40) && b2.text.characterOffsets.isEmpty)
        let c = try #require(svg.layer.find("t/c"))
        #expect(c.text.runs.map(\.text) == ["A", "B", "C"] && c.text.runs.map(\.baselineOffset) == [nil, -10, -15])
        #expect(c.text.characterOffsets == [CharacterOffset(index: 1, dy: 5)])
        #expect(svg.layer.find("t/d/line[1]")?.position == Point(x: 20, y: 10))
        let e = try #require(svg.layer.find("t/e"))
        #expect(e.text.runs.last?.foregroundColor == Color(red: 1, green: 0, blue: 0))
    }

    /// Past 20,000 characters with positions of their own an import draws no more of them, with a note.
    @Test func positionedCharactersAreLimited() throws {
        let text = String(repeating: "a", count: SVGLimits.maximumPositionedCharacters + 10)
        let svg = try image(
            """
            <svg xmlns="http://www.w3.org/2000/svg"><text id="t" x="0" y="20" rotate="5">\(text)</text></svg>
            """)
        #expect(svg.layer.find("t/t")?.text.characterOffsets.count == SVGLimits.maximumPositionedCharacters)
        #expect(svg.warnings.contains { $0.contains("per-character positions past the file's first 20000") })
    }
}
