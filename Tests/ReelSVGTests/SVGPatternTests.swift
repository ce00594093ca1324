/// SVG patterns as layers, against hand-computed values: the tile grid (two replicators over one copy
/// of the content) covering the painted part from the first tile that reaches it, the part's outline
/// as its mask, the tile clip left off only when the content lies inside the tile, the fallback for a
/// box with no area, and the limit on tiles.
import Foundation
import ReelDocument
import ReelGeometry
import ReelScene
import Testing

@testable import ReelSVG

@Suite struct SVGPatternTests {
    /// A rect from (15, 5) to (55, 25) filled with 10 × 10 tiles starting at (0, 0): tiles 1…5 across
    /// and 0…2 down reach it (5 columns, 3 rows), the first at (10, 0); its outline masks them; the
    /// stroke stays a plain part over them.
    @Test func theTilesCoverThePaintedPart() throws {
        let svg = try image(
            """
            <svg xmlns="http://www.w3.org/2000/svg">
              <pattern id="p" patternUnits="userSpaceOnUse" width="10" height="10">
                <rect width="5" height="5" fill="#008000"/>
              </pattern>
              <rect id="r" x="15" y="5" width="40" height="20" fill="url(#p)" fill-opacity="0.5" stroke="#000000"/>
            </svg>
            """)
        let r = try #require(svg.layer.find("t/r"))
        #expect(r.shape.fillColor == nil && r.shape.strokeColor == nil)
        #expect(r.sublayers.map(\.name) == ["t/r/fill", "t/r/stroke"])
        let fill = r.sublayers[0]
        #expect(fill.opacity == 0.5 && fill.mask?.shape.fillColor == .black && fill.mask?.shape.path == r.shape.path)
        let rows = try #require(fill.sublayers.first), columns = try #require(rows.sublayers.first)
        #expect(rows.type == .replicator && rows.replicator.instanceCount == 3)
        #expect(columns.type == .replicator && columns.replicator.instanceCount == 5)
        #expect(columns.replicator.instanceTransform == Transform3D(Transform2D.translation(x: 10, y: 0)))
        let tile = try #require(columns.sublayers.first)
        #expect(tile.position == Point(x: 10, y: 0) && tile.bounds == Rect(x: 0, y: 0, width: 10, height: 10))
        // The 5 × 5 square lies inside its tile: no clip, so no edge is anti-aliased twice.
        #expect(!tile.masksToBounds)
        #expect(r.sublayers[1].shape.strokeColor == .black && r.sublayers[1].shape.fillColor == nil)
    }

    /// objectBoundingBox tiles (the default) are fractions of the shape's box; content reaching out of
    /// its tile is clipped to it; a box with no area paints the fallback colour; too many tiles leave
    /// the paint out with a note.
    @Test func boundingBoxUnitsFallbackAndLimit() throws {
        let svg = try image(
            """
            <svg xmlns="http://www.w3.org/2000/svg">
              <pattern id="b" width="0.25" height="0.5"><rect width="30" height="30" fill="#008000"/></pattern>
              <pattern id="tiny" patternUnits="userSpaceOnUse" width="0.01" height="0.01"><rect width="1" height="1"/></pattern>
              <rect id="r" x="20" y="10" width="80" height="40" fill="url(#b)"/>
              <path id="flat" d="M 0 5 L 50 5" stroke="url(#b) #ff0000"/>
              <rect id="many" width="100" height="100" fill="url(#tiny)"/>
            </svg>
            """)
        let r = try #require(svg.layer.find("t/r"))
        let tile = try #require(r.sublayers.first?.sublayers.first?.sublayers.first?.sublayers.first)
        #expect(tile.bounds == Rect(x: 0, y: 0, width: 20, height: 20) && tile.position == Point(x: 20, y: 10))
        #expect(tile.masksToBounds)
        #expect(try #require(svg.layer.find("t/flat")).shape.strokeColor == Color(red: 1, green: 0, blue: 0))
        #expect(try #require(svg.layer.find("t/many")).sublayers.isEmpty)
        #expect(
            svg.warnings == [
                "line 6: the pattern url(#tiny) needs 100000000 tiles here, past the \(SVGLimits.maximumPatternLayers) layers an import's patterns may repeat; that paint is left out"
            ], "\(svg.warnings)")
    }

    /// The import's patterns share one budget of layers: a pattern-filled shape copied by 3,000 markers
    /// (100 tiles of two layers each, 200 a copy) stops at `SVGLimits.maximumPatternLayers`, the later
    /// copies' paint left out with a note, so the frame stays under what a frame may draw.
    @Test func patternsShareOneBudget() throws {
        let points = (0..<3_002).map { "\($0 % 50) \($0 / 50)" }.joined(separator: " ")
        let svg = try image(
            """
            <svg xmlns="http://www.w3.org/2000/svg">
              <pattern id="p" patternUnits="userSpaceOnUse" width="10" height="10"><rect width="5" height="5"/></pattern>
              <marker id="m" overflow="visible"><rect width="100" height="100" fill="url(#p)"/></marker>
              <polyline points="\(points)" marker-mid="url(#m)"/>
            </svg>
            """)
        func tiles(_ l: Layer) -> Int {
            let own = l.type == .replicator ? l.replicator.instanceCount : 1
            return own * (l.name.hasSuffix("/tile") ? 1 : 0) + l.sublayers.map(tiles).reduce(0, +)
                * (l.type == .replicator ? own : 1)
        }
        let made = tiles(svg.layer)
        #expect(made * 2 <= SVGLimits.maximumPatternLayers && made * 2 > SVGLimits.maximumPatternLayers - 200, "\(made)")
        #expect(svg.warnings.count == 1 && svg.warnings[0].contains("layers an import's patterns may repeat"), "\(svg.warnings)")
    }
}
