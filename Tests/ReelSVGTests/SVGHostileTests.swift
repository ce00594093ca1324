/// Hostile SVG that is well-formed XML: files built to make the importer's work explode — descendant
/// selectors over deep trees, comment floods, chains of uses through deep groups, clip paths fanning
/// out through clip paths, gradients of many stops shared by many shapes. Each must import (these
/// tests finish; a regression shows as a test that runs for minutes) with the limit named in a warning.
import Foundation
import ReelDocument
import ReelGeometry
import ReelScene
import Testing

@testable import ReelSVG

@Suite struct SVGHostileTests {
    /// `x g g … g` (20 descendant steps) over 60 nested groups, where `x` matches nothing: without
    /// memory of failed steps this tries C(60, 20) ≈ 4·10¹⁵ ancestor chains.
    @Test func descendantSelectorsOverDeepTreesAreLinear() throws {
        let selector = "x" + String(repeating: " g", count: 20)
        let text =
            "<svg xmlns=\"http://www.w3.org/2000/svg\"><style>\(selector) { fill: red }</style>"
            + String(repeating: "<g>", count: 60) + "<rect id=\"r\" width=\"1\" height=\"1\"/>"
            + String(repeating: "</g>", count: 60) + "</svg>"
        let svg = try image(text)
        #expect(svg.layer.find("t/r")?.shape.fillColor == .black)
    }

    /// 500,000 empty comments in a sheet and in a style attribute (rebuilding the text per comment was
    /// quadratic).
    @Test func commentFloods() throws {
        let comments = String(repeating: "/**/", count: 500_000)
        let svg = try image(
            "<svg xmlns=\"http://www.w3.org/2000/svg\"><style>\(comments) rect { fill: lime }</style>"
                + "<rect id=\"r\" width=\"1\" height=\"1\" style=\"\(comments)stroke: red\"/></svg>")
        #expect(svg.layer.find("t/r")?.shape.fillColor == SVGValues.color("lime"))
        #expect(svg.layer.find("t/r")?.shape.strokeColor == SVGValues.color("red"))
    }

    /// 31 groups, each 200 deep, each ending in a use of the next: 6,200 levels of nesting through
    /// uses, held to 64 levels drawn (the stack stays small) with one warning.
    @Test func usesChainedThroughDeepGroupsAreHeldToTheDepthLimit() throws {
        var text = "<svg xmlns=\"http://www.w3.org/2000/svg\"><defs>"
        for k in 0..<31 {
            text += "<g id=\"u\(k)\">" + String(repeating: "<g>", count: 199)
            text += k < 30 ? "<use href=\"#u\(k + 1)\"/>" : "<rect width=\"1\" height=\"1\"/>"
            text += String(repeating: "</g>", count: 200)
        }
        text += "</defs><use href=\"#u0\"/></svg>"
        let svg = try image(text)
        #expect(svg.warnings.contains { $0.contains("nested more than 64 deep") })
    }

    /// Fifteen clip paths, each of eight rects clipped by the next: 8¹⁴ mask layers from 120 elements.
    /// The expansion is counted before it is made (issue #45: clip shapes counted as they were made
    /// stopped at 100,000 elements, which still took 10 s and 700 MB to draw), and the rect is left out
    /// with the limit named.
    @Test func clipPathsFanningOutStopAtTheLimit() throws {
        var text = "<svg xmlns=\"http://www.w3.org/2000/svg\">"
        for k in 1...15 {
            let clip = k < 15 ? " clip-path=\"url(#c\(k + 1))\"" : ""
            text +=
                "<clipPath id=\"c\(k)\">" + String(repeating: "<rect width=\"9\" height=\"9\"\(clip)/>", count: 8) + "</clipPath>"
        }
        text += "<rect width=\"9\" height=\"9\" clip-path=\"url(#c1)\"/></svg>"
        let svg = try image(text)
        #expect(svg.warnings.contains { $0.contains("more than 10000 mask layers") }, "\(svg.warnings)")
        #expect(svg.layer.sublayers.isEmpty)
    }

    /// Uses fanning out ten a level, nine levels, each clipped by a clip path of two rects that are
    /// clipped, as the clip path is: every use makes six mask layers. Counted before each is made,
    /// they stop at `SVGLimits.maximumMaskLayers` (with the uses they would clip left out).
    @Test func clippedUseFanOutStopsAtTheMaskLimit() throws {
        let svg = try image(Self.clippedUseFanOut)
        #expect(svg.warnings.contains { $0.contains("more than 10000 mask layers") }, "\(svg.warnings)")
        func masks(_ l: Layer) -> Int {
            l.sublayers.reduce(0) { $0 + masks($1) } + (l.mask.map { 1 + masks($0) } ?? 0)
        }
        let count = masks(svg.layer)
        #expect(count > 0 && count <= SVGLimits.maximumMaskLayers, "\(count)")
    }

    static let clippedUseFanOut: String = {
        var text =
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"100\" height=\"100\">"
            + "<clipPath id=\"c0\"><rect width=\"50\" height=\"50\"/></clipPath>"
            + "<clipPath id=\"c\" clip-path=\"url(#c0)\">"
            + String(repeating: "<rect width=\"50\" height=\"50\" clip-path=\"url(#c0)\"/>", count: 2)
            + "</clipPath><defs><rect id=\"g0\" width=\"9\" height=\"9\"/>"
        for k in 1...9 {
            text += "<g id=\"g\(k)\">" + String(repeating: "<use href=\"#g\(k - 1)\" clip-path=\"url(#c)\"/>", count: 10) + "</g>"
        }
        return text + "</defs><use href=\"#g9\"/></svg>"
    }()

    /// A gradient of 5,000 stops painted on 2,000 rects: stops resolved once (and at most 1,024 kept),
    /// every rect sharing them.
    @Test func manyStopsOnManyShapes() throws {
        var text = "<svg xmlns=\"http://www.w3.org/2000/svg\"><linearGradient id=\"g\">"
        for k in 0..<5_000 { text += "<stop offset=\"\(Double(k) / 5_000)\" stop-color=\"#\(k % 2 == 0 ? "f00" : "00f")\"/>" }
        text +=
            "</linearGradient>" + String(repeating: "<rect width=\"9\" height=\"9\" fill=\"url(#g)\"/>", count: 2_000) + "</svg>"
        let svg = try image(text)
        #expect(svg.layer.sublayers.count == 2_000)
        #expect(svg.layer.sublayers.first?.shape.fillGradient?.colors.count == 1_024)
    }

    /// Coordinates past ±1e308, given or reached by relative moves that overflow to infinity (issue
    /// #45): clipped at import to ±1e9 user units, with a warning naming the element, so that no later
    /// product overflows. The clip keeps directions: the edge from (−1e20, −2e20) to the origin
    /// meets the square's top side y = −1e9 at x = −5e8 (its slope is 2), where a clamp of each
    /// coordinate would have bent it to (−1e9, −1e9).
    @Test func hugeCoordinatesAreClippedToTheSquare() throws {
        let svg = try image(
            """
            <svg xmlns="http://www.w3.org/2000/svg">
            <path id="a" d="M -1e308 -1e308 L 1e308 1e308 L 1e308 -1e308 Z"/>
            <path id="b" d="m 1e308 0 l 1e308 0 l 0 1e308 z"/>
            <path id="c" d="M -1e20 -2e20 L 0 0 L 1 0 Z"/>
            <rect id="d" x="0" y="0" width="10" height="10"/>
            </svg>
            """)
        for id in ["a", "b", "c", "d"] {
            let path = try #require(svg.layer.find("t/\(id)")?.shape.path)
            let points = path.elements.flatMap(SVGBounds.points(of:))
            #expect(!points.isEmpty && points.allSatisfy { abs($0.x) <= 1e9 && abs($0.y) <= 1e9 }, "\(id): \(points)")
        }
        #expect(svg.warnings.filter { $0.contains("reaches past ±1e9 user units") }.count == 3, "\(svg.warnings)")
        let c = try #require(svg.layer.find("t/c")?.shape.path).elements.flatMap(SVGBounds.points(of:))
        #expect(c.contains { abs($0.x + 5e8) < 1e-6 && $0.y == -1e9 }, "\(c)")
        #expect(c.contains(Point(x: 0, y: 0)) && c.contains(Point(x: 1, y: 0)))
        // Inside the square, a rect is kept as it was.
        #expect(svg.layer.find("t/d")?.shape.path == Path(rect: Rect(x: 0, y: 0, width: 10, height: 10)))
    }
}
