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

    /// A straight segment's outline worked out by hand: a rectangle from side A (the left-hand
    /// normal, +y here) forward to side B back, the caps between them; placed by a scale and shift.
    @Test func aSegmentsPolygonIsItsRectangle() throws {
        let segment = try Path(svgPathData: "M0 0 L10 0")
        func edges(_ points: [(Double, Double)]) -> [Edge] {
            points.indices.map { i in
                let a = points[i], b = points[(i + 1) % points.count]
                return Edge(x0: a.0, y0: a.1, x1: b.0, y1: b.1)
            }
        }
        let butt = Stroker.polygons(segment, style: StrokeStyle(lineWidth: 2))
        #expect(butt.ends == [4])
        let placed = Transform2D(a: 2, b: 0, c: 0, d: 3, tx: 5, ty: 7)
        #expect(butt.edges(placed) == edges([(5, 10), (25, 10), (25, 4), (5, 4)]))
        let square = Stroker.polygons(segment, style: StrokeStyle(lineWidth: 2, lineCap: .square))
        #expect(
            square.edges(.identity)
                == edges([(0, 1), (10, 1), (11, 1), (11, -1), (10, -1), (0, -1), (-1, -1), (-1, 1)]))
    }

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
