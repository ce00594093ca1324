/// Stroke outlines as polygons against the same outline as a path, transformed and flattened.
import ReelGeometry
import Testing

@Suite struct StrokeOutlineTests {
    /// Paths that reach every part of the stroker: sharp turns that break a run into separate join
    /// pieces, curves with near-cusps (round joins inside a curve), closed rings, zero-length subpaths
    /// (dots), dashes.
    static let paths = [
        "M10 10 L90 12 L12 30 L95 60 L20 62",
        "M20 80 C140 -20 -40 -20 80 80 Z M50 50 C60 40 70 60 80 50",
        "M10 10 L60 10 L60 60 L10 60 Z M30 30 L30 30",
        "M5 50 Q50 -30 95 50 T185 50",
    ]

    static let styles: [StrokeStyle] = {
        var styles: [StrokeStyle] = []
        for join in LineJoin.allCases {
            for cap in LineCap.allCases {
                styles.append(StrokeStyle(lineWidth: 7, lineCap: cap, lineJoin: join, miterLimit: 4))
            }
        }
        var dashed = StrokeStyle(lineWidth: 3, lineCap: .round, lineJoin: .round)
        dashed.lineDashPattern = [9, 4]
        dashed.lineDashPhase = 2
        dashed.strokeEnd = 0.8
        styles.append(dashed)
        return styles
    }()

    static let transforms = [
        Transform2D.identity,
        Transform2D(a: 1.7, b: 0.4, c: -0.9, d: 0.6, tx: 33.25, ty: -7.5),
    ]

    @Test(arguments: paths)
    func polygonsAreTheOutlinesPathAndPlaceToItsEdges(_ data: String) throws {
        let path = try Path(svgPathData: data)
        for style in Self.styles {
            let outline = Stroker.outline(path, style: style, tolerance: 0.2)
            let polygons = Stroker.polygons(path, style: style, tolerance: 0.2)
            #expect(!polygons.isEmpty)
            #expect(polygons.path == outline, "\(style)")
            for t in Self.transforms {
                let expected = outline.applying(t).flattenedEdges()
                #expect(!expected.isEmpty)
                #expect(polygons.edges(t) == expected, "\(style), \(t)")
            }
        }
    }
}
