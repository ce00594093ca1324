/// SVG markers and paint-order against hand-computed values: the vertices and the directions
/// `orient="auto"` takes, each marker's placement (its reference point on its vertex, scaled by the stroke
/// width, clipped to its viewport), the layers `paint-order` stacks, and the limit on markers.
import Foundation
import ReelDocument
import ReelGeometry
import ReelScene
import Testing

@testable import ReelSVG

@Suite struct SVGMarkerTests {
    func near(_ a: Point, _ b: Point) -> Bool { abs(a.x - b.x) < 1e-9 && abs(a.y - b.y) < 1e-9 }

    /// An open path: the start takes the first segment's direction, a corner the bisector of the two
    /// directions (0° and 90° make 45°), the end the last segment's. A closed one: the corner before the
    /// close bisects its incoming side and the closing line (90° and 225° make 157.5°), and the end is the
    /// subpath's start, turned along the closing line. A curve whose control point lies on its end is
    /// turned towards its other control point.
    @Test func verticesAndTheirDirections() throws {
        let open = MarkerVertices.vertices(of: try Path(svgPathData: "M 0 0 L 10 0 L 10 10"))
        #expect(open.start == MarkerVertex(point: Point(x: 0, y: 0), degrees: 0))
        #expect(open.middle == [MarkerVertex(point: Point(x: 10, y: 0), degrees: 45)])
        #expect(open.end == MarkerVertex(point: Point(x: 10, y: 10), degrees: 90))

        let closed = MarkerVertices.vertices(of: try Path(svgPathData: "M 0 0 L 10 0 L 10 10 Z"))
        #expect(closed.middle.map(\.point) == [Point(x: 10, y: 0), Point(x: 10, y: 10)])
        #expect(closed.middle.map(\.degrees) == [45, 157.5])
        #expect(closed.end == MarkerVertex(point: Point(x: 0, y: 0), degrees: 225))

        // The second control point on the end: the end's direction is from the first control point, (0, 10)
        // to (10, 10): 0°, where (10, 10) to itself would say nothing.
        let curve = MarkerVertices.vertices(of: try Path(svgPathData: "M 0 0 C 0 10 10 10 10 10"))
        #expect(curve.start?.degrees == 90 && curve.end?.degrees == 0)

        // Two subpaths: the first one's end and the second one's start are middle vertices, each turned
        // along its own segment; at (30, 0) the closing line doubles back (0° then 180°), and the
        // bisector stands across it (90°); repeated closes are one.
        let two = MarkerVertices.vertices(of: try Path(svgPathData: "M 0 0 L 0 10 M 20 0 L 30 0 Z Z"))
        #expect(two.middle.map(\.degrees) == [90, 0, 90])
        #expect(two.end?.point == Point(x: 20, y: 0))

        // A moveto alone draws nothing, and has no markers.
        let lone = MarkerVertices.vertices(of: try Path(svgPathData: "M 5 5"))
        #expect(lone.start == nil && lone.middle.isEmpty && lone.end == nil)
    }

    /// A marker is placed so that its reference point (refX, refY) lies on the vertex, its units scaled
    /// by the stroke width (3 here) and turned by the vertex's direction; its content is clipped to the
    /// marker's viewport (markerWidth × markerHeight, in content units), unless overflow shows it.
    @Test func markersSitOnTheirVerticesScaledByTheStrokeWidth() throws {
        let svg = try image(
            """
            <svg xmlns="http://www.w3.org/2000/svg">
              <marker id="m" refX="2" refY="1" markerWidth="4" markerHeight="2" orient="auto">
                <rect width="4" height="2"/>
              </marker>
              <marker id="v" overflow="visible" orient="-90deg" markerUnits="userSpaceOnUse"><rect width="1" height="1"/></marker>
              <path id="p" d="M 10 10 L 50 10 L 50 50" stroke-width="3" marker-mid="url(#m)" marker-end="url(#v)"/>
            </svg>
            """)
        let p = try #require(svg.layer.find("t/p"))
        #expect(p.sublayers.count == 2, "\(p.sublayers.map(\.name))")
        let mid = p.sublayers[0].transform.affine
        // The reference point lands on (50, 10); one content unit along x is 3 units along the 45° bisector.
        #expect(near(mid.apply(Point(x: 2, y: 1)), Point(x: 50, y: 10)))
        let step = mid.apply(Point(x: 3, y: 1))
        let r = 3 / 2.0.squareRoot()
        #expect(near(step, Point(x: 50 + r, y: 10 + r)), "\(step)")
        let viewport = try #require(p.sublayers[0].sublayers.first)
        #expect(viewport.masksToBounds && viewport.bounds == Rect(x: 0, y: 0, width: 4, height: 2))
        // The end marker: a fixed −90°, user-space units, not clipped.
        let end = p.sublayers[1].transform.affine
        #expect(near(end.apply(Point(x: 1, y: 0)), Point(x: 50, y: 49)))
        #expect(p.sublayers[1].sublayers.first?.masksToBounds == false)
        #expect(svg.warnings.isEmpty, "\(svg.warnings)")
    }

    /// paint-order: normally one shape layer with its markers over it; the stroke first makes the shape a
    /// holder (its path kept, for its bounding box) of a stroke layer, then a fill layer, then the
    /// markers; an invalid value (a word twice) is ignored.
    @Test func paintOrderStacksTheParts() throws {
        let svg = try image(
            """
            <svg xmlns="http://www.w3.org/2000/svg">
              <marker id="m"><rect width="1" height="1"/></marker>
              <path id="a" d="M 0 0 L 9 9" fill="red" stroke="blue" marker-end="url(#m)"/>
              <path id="b" d="M 0 0 L 9 9" fill="red" stroke="blue" marker-end="url(#m)" paint-order="stroke"/>
              <path id="c" d="M 0 0 L 9 9" fill="red" stroke="blue" marker-end="url(#m)" paint-order="markers"/>
              <path id="d" d="M 0 0 L 9 9" fill="red" stroke="blue" paint-order="stroke stroke"/>
              <path id="e" d="M 0 0 L 9 9" fill="red" paint-order="stroke"/>
            </svg>
            """)
        let a = try #require(svg.layer.find("t/a")), b = try #require(svg.layer.find("t/b"))
        let c = try #require(svg.layer.find("t/c")), d = try #require(svg.layer.find("t/d"))
        let e = try #require(svg.layer.find("t/e"))
        #expect(a.shape.fillColor != nil && a.shape.strokeColor != nil && a.sublayers.map(\.name) == ["t/a/marker-end"])
        #expect(b.shape.fillColor == nil && b.shape.strokeColor == nil && !b.shape.path.isEmpty)
        #expect(b.sublayers.map(\.name) == ["t/b/stroke", "t/b/fill", "t/b/marker-end"])
        #expect(b.sublayers[0].shape.fillColor == nil && b.sublayers[1].shape.strokeColor == nil)
        #expect(c.sublayers.map(\.name) == ["t/c/marker-end", "t/c/fill", "t/c/stroke"])
        #expect(d.sublayers.isEmpty && d.shape.strokeColor != nil)
        // Nothing stroked: the order changes nothing, and the layer stays plain.
        #expect(e.sublayers.isEmpty && e.shape.fillColor != nil)
    }

    /// A marker drawn inside itself is left out there (with a note); a marker's content may use what a
    /// marker outside it uses; more than `SVGLimits.maximumMarkers` markers are left out with one note;
    /// the `marker` attribute (a CSS-only shorthand) and markers on a rect are notes, not drawn.
    @Test func recursionLimitsAndNotes() throws {
        let points = (0..<10_010).map { "\($0 % 100) \($0 / 100)" }.joined(separator: " ")
        let svg = try image(
            """
            <svg xmlns="http://www.w3.org/2000/svg">
              <marker id="m"><path d="M 0 0 L 1 1" marker-end="url(#m)"/></marker>
              <path id="p" d="M 0 0 L 9 9" marker-start="url(#m)"/>
              <marker id="dot"><rect width="1" height="1"/></marker>
              <polyline id="many" points="\(points)" marker-mid="url(#dot)"/>
              <path id="q" d="M 0 0 L 9 9" marker="url(#dot)"/>
              <rect width="5" height="5" marker-start="url(#dot)"/>
            </svg>
            """)
        let p = try #require(svg.layer.find("t/p"))
        #expect(p.sublayers.count == 1)
        #expect(try #require(svg.layer.find("t/many")).sublayers.count == SVGLimits.maximumMarkers - 1)
        #expect(try #require(svg.layer.find("t/q")).sublayers.isEmpty)
        #expect(
            svg.warnings == [
                "line 2: marker-end: url(#m) is drawn inside itself; left out there",
                "line 5: more than 10000 markers; the rest are left out",
                "line 6: the marker attribute (url(#dot)) is ignored: SVG reads that shorthand from CSS only; write marker-start, marker-mid and marker-end",
                "line 7: markers are drawn on <path>, <line>, <polyline> and <polygon> only; ignored on <rect>",
            ], "\(svg.warnings)")
    }
}

@Suite struct SVGContextPaintTests {
    /// `context-fill` and `context-stroke` paint what the `use` showing the element, or the shape a marker
    /// marks, paints (a `use` of a `use` passes its own context on); with neither they paint nothing.
    @Test func contextPaintIsTheUseOrTheMarkedShape() throws {
        let svg = try image(
            """
            <svg xmlns="http://www.w3.org/2000/svg">
              <defs>
                <rect id="r" width="5" height="5" fill="context-stroke" stroke="context-fill"/>
                <use id="inner" href="#r" fill="context-fill" stroke="context-stroke"/>
              </defs>
              <use id="u" href="#r" fill="#0000ff" stroke="#008000"/>
              <use id="uu" href="#inner" fill="#ff0000" stroke="#ffff00"/>
              <marker id="m"><rect id="mr" width="1" height="1" fill="context-stroke"/></marker>
              <path id="p" d="M 0 0 L 9 9" stroke="#00ffff" marker-end="url(#m)"/>
              <marker id="n" fill="context-fill" style="overflow: visible"><rect width="1" height="1"/></marker>
              <path id="q" d="M 0 0 L 9 9" fill="#ff00ff" marker-end="url(#n)"/>
              <rect id="alone" width="5" height="5" fill="context-fill"/>
            </svg>
            """)
        func shape(_ layer: Layer?) -> ShapeProperties? {
            guard let layer else { return nil }
            if layer.type == .shape { return layer.shape }
            return layer.sublayers.lazy.compactMap { shape($0) }.first
        }
        let u = try #require(shape(svg.layer.find("t/u")))
        #expect(u.fillColor == Color(red: 0, green: 128 / 255.0, blue: 0) && u.strokeColor == Color(red: 0, green: 0, blue: 1))
        let uu = try #require(shape(svg.layer.find("t/uu")))
        #expect(uu.fillColor == Color(red: 1, green: 1, blue: 0) && uu.strokeColor == Color(red: 1, green: 0, blue: 0))
        let marker = try #require(shape(svg.layer.find("t/p/marker-end")))
        #expect(marker.fillColor == Color(red: 0, green: 1, blue: 1))
        // Context paint on the marker element itself, inherited by its content; overflow from CSS shows
        // the content unclipped.
        let q = try #require(svg.layer.find("t/q/marker-end"))
        #expect(shape(q)?.fillColor == Color(red: 1, green: 0, blue: 1) && q.sublayers.first?.masksToBounds == false)
        #expect(try #require(svg.layer.find("t/alone")).shape.fillColor == nil)
    }
}
