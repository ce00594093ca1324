/// Shaping and bidi layout against References/shaping.json, written by scripts/text-references.py with
/// uharfbuzz 0.57 and python-bidi (its docstring gives the conventions): plain runs must shape to the same
/// glyphs, clusters and positions exactly, and bidi paragraphs must come out of the Typesetter in the same
/// visual order, fonts and pen positions (to 1/64 px, issue #17's tolerance).
import Foundation
import ReelGeometry
import ReelTestSupport
import ReelText
import Testing

@Suite struct ShapingReferenceTests {
    /// One glyph run as the generator writes it (font units, HarfBuzz's default scale = upem, y up).
    struct Glyphs: Decodable {
        var font: String
        var upem: Int
        var glyphs: [UInt32]
        var glyphNames: [String]
        var clusters: [Int]
        var xAdvances: [Double]
        var yAdvances: [Double]
        var xOffsets: [Double]
        var yOffsets: [Double]
    }

    struct ShapingCase: Decodable {
        var name: String
        var text: String
        var features: [String: UInt32]
        var direction: String
        var run: Glyphs

        enum CodingKeys: String, CodingKey { case name, text, features, direction }

        init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            name = try c.decode(String.self, forKey: .name)
            text = try c.decode(String.self, forKey: .text)
            features = try c.decode([String: UInt32].self, forKey: .features)
            direction = try c.decode(String.self, forKey: .direction)
            run = try Glyphs(from: decoder)
        }
    }

    /// A bidi run: a maximal run of one resolved level, in visual order, shaped in one font with the
    /// paragraph as context; `originX` is in points from the line's start (pen + xOffset * scale).
    struct BidiRun: Decodable {
        var start: Int
        var end: Int
        var level: Int
        var originX: [Double]
        var run: Glyphs

        enum CodingKeys: String, CodingKey { case start, end, level, originX }

        init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            start = try c.decode(Int.self, forKey: .start)
            end = try c.decode(Int.self, forKey: .end)
            level = try c.decode(Int.self, forKey: .level)
            originX = try c.decode([Double].self, forKey: .originX)
            run = try Glyphs(from: decoder)
        }
    }

    struct BidiCase: Decodable {
        var name: String
        var text: String
        var baseDirection: String
        var fontSize: Double
        var width: Double
        var runs: [BidiRun]
    }

    struct References: Decodable {
        var shaping: [ShapingCase]
        var bidi: [BidiCase]
    }

    static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("References/shaping.json")

    static func references() throws -> References {
        try JSONDecoder().decode(References.self, from: Data(contentsOf: file))
    }

    /// Issue #17: "advances and cluster positions equal hb-shape's to 1/64 px" (a point is a pixel at
    /// scale 1).
    static let tolerance = Tolerance.penPositionPixels

    /// Each font file opened once per test; nil (and a note) when it is not installed.
    final class Fonts {
        var open: [String: FontFace] = [:]

        func face(_ path: String, for name: String) throws -> FontFace? {
            if let face = open[path] { return face }
            guard FileManager.default.fileExists(atPath: path) else {
                print("ShapingReferenceTests: \(path) is not installed (scripts/setup.sh installs it); \(name) skipped")
                return nil
            }
            let face = try FontFace(path: path)
            open[path] = face
            return face
        }
    }

    /// Every plain run shapes exactly as uharfbuzz shaped it (Reel's HarfBuzz 6.0 and uharfbuzz's 15.0
    /// agree on these; the generator checked hb-shape 6.0 against them).
    @Test func plainRunsShapeAsTheReference() throws {
        let fonts = Fonts()
        let cases = try Self.references().shaping
        #expect(cases.count == 8)
        for c in cases {
            guard let face = try fonts.face(c.run.font, for: c.name) else { continue }
            #expect(face.unitsPerEm == c.run.upem, "\(c.name)")
            let glyphs = try face.shape(c.text, features: c.features)
            #expect(glyphs.map(\.glyph) == c.run.glyphs, "\(c.name): glyph ids (\(c.run.glyphNames))")
            #expect(glyphs.map(\.cluster) == c.run.clusters, "\(c.name): clusters")
            #expect(glyphs.map(\.xAdvance) == c.run.xAdvances, "\(c.name): x advances")
            #expect(glyphs.map(\.yAdvance) == c.run.yAdvances, "\(c.name): y advances")
            #expect(glyphs.map(\.xOffset) == c.run.xOffsets, "\(c.name): x offsets")
            #expect(glyphs.map(\.yOffset) == c.run.yOffsets, "\(c.name): y offsets")
        }
    }

    /// The same runs through the Typesetter (one line, left-aligned, 36 pt): each drawn glyph sits at
    /// the reference's pen (advances before it, scaled) plus its offset; spaces draw nothing.
    @Test func plainRunsAreTypesetAtTheReferencePositions() throws {
        let fonts = Fonts()
        let size = 36.0
        for c in try Self.references().shaping {
            guard let face = try fonts.face(c.run.font, for: c.name) else { continue }
            let scale = size / Double(c.run.upem)
            let scalars = Array(c.text.unicodeScalars)
            var expected: [(glyph: UInt32, x: Double, y: Double)] = []
            var pen = 0.0
            for k in c.run.glyphs.indices {
                if !scalars[c.run.clusters[k]].properties.isWhitespace {
                    expected.append((c.run.glyphs[k], pen + c.run.xOffsets[k] * scale, -c.run.yOffsets[k] * scale))
                }
                pen += c.run.xAdvances[k] * scale
            }
            let run = TextRun(c.text, TextAttributes(font: face, fontSize: size, features: c.features))
            let laid = Typesetter().typeset([run], style: ParagraphStyle(alignment: .left), in: Size(width: 1000, height: 200))
            #expect(laid.glyphs.map(\.glyph) == expected.map(\.glyph), "\(c.name): glyphs in visual order")
            guard laid.glyphs.count == expected.count, let first = laid.glyphs.first else { continue }
            let baseline = first.origin.y - expected[0].y
            for (g, e) in zip(laid.glyphs, expected) {
                #expect(abs(g.origin.x - e.x) <= Self.tolerance, "\(c.name): glyph \(g.glyph) at x \(g.origin.x), not \(e.x)")
                #expect(abs(g.origin.y - (baseline + e.y)) <= Self.tolerance, "\(c.name): glyph \(g.glyph) y")
                #expect(g.font === face, "\(c.name): glyph \(g.glyph) in \(g.font.path)")
            }
            #expect(abs(laid.lines[0].width - pen) <= Self.tolerance, "\(c.name): line width \(laid.lines[0].width), not \(pen)")
        }
    }

    /// Bidi paragraphs laid out in one run of the paragraph's primary font (the one the reference used
    /// for its first character), the other font as the fallback for what the primary lacks; `.left` puts
    /// the line's start at x = 0 whatever the paragraph's direction, where the reference's pens start.
    @Test func bidiParagraphsAreInTheReferencesVisualOrderAndPositions() throws {
        let fonts = Fonts()
        let cases = try Self.references().bidi
        #expect(cases.count == 3)
        for c in cases {
            guard let primaryRun = c.runs.first(where: { $0.start == 0 }) else {
                Issue.record("\(c.name): no run holds the first character")
                continue
            }
            let paths = [primaryRun.run.font] + Set(c.runs.map(\.run.font)).subtracting([primaryRun.run.font]).sorted()
            var faces: [FontFace] = []
            for path in paths {
                guard let face = try fonts.face(path, for: c.name) else { break }
                faces.append(face)
            }
            guard faces.count == paths.count else { continue }
            let primary = faces[0], others = Array(faces.dropFirst())
            let fallback: Typesetter.Fallback = { scalar, _ in others.first { $0.hasGlyph(for: scalar) } }

            let scalars = Array(c.text.unicodeScalars)
            var expected: [(glyph: UInt32, font: String, x: Double, cluster: Int)] = []
            for run in c.runs {
                for k in run.run.glyphs.indices where !scalars[run.run.clusters[k]].properties.isWhitespace {
                    expected.append((run.run.glyphs[k], run.run.font, run.originX[k], run.run.clusters[k]))
                }
            }
            let laid = Typesetter(fallback: fallback).typeset(
                [TextRun(c.text, TextAttributes(font: primary, fontSize: c.fontSize))], style: ParagraphStyle(alignment: .left),
                in: Size(width: 1000, height: 200))

            #expect(laid.glyphs.map(\.glyph) == expected.map(\.glyph), "\(c.name): glyphs in visual order")
            #expect(laid.glyphs.map(\.font.path) == expected.map(\.font), "\(c.name): fonts per glyph")
            #expect(laid.fallbackFonts == Array(paths.dropFirst()), "\(c.name): fallback fonts")
            #expect(laid.lines.count == 1, "\(c.name): one line")
            guard laid.glyphs.count == expected.count else { continue }
            // Reel numbers clusters in reading order over the drawn ones (spaces have none).
            let readingOrder = Set(expected.map(\.cluster)).sorted()
            for (g, e) in zip(laid.glyphs, expected) {
                #expect(abs(g.origin.x - e.x) <= Self.tolerance, "\(c.name): glyph \(g.glyph) at x \(g.origin.x), not \(e.x)")
                #expect(g.origin.y == laid.glyphs[0].origin.y, "\(c.name): glyph \(g.glyph) off the baseline")
                #expect(g.cluster == readingOrder.firstIndex(of: e.cluster), "\(c.name): glyph \(g.glyph)'s cluster")
                #expect(g.fontSize == c.fontSize)
            }
            // The line's box spans the reference's advance width (its last glyph is not a space here).
            #expect(
                abs(laid.lines[0].minX) <= Self.tolerance && abs(laid.lines[0].width - c.width) <= Self.tolerance,
                "\(c.name): line box \(laid.lines[0]) for a width of \(c.width)")
        }
    }
}
