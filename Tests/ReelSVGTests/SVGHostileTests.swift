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
    func image(_ text: String) throws(DocumentError) -> SVGImage {
        try SVGImport.image(Data(text.utf8), file: "t.svg", name: "t")
    }

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

    /// Fifteen clip paths, each of eight rects clipped by the next: 8¹⁴ mask layers from 120 elements,
    /// unless clip shapes count towards the 100,000 elements an import draws.
    @Test func clipPathsFanningOutStopAtTheLimit() throws {
        var text = "<svg xmlns=\"http://www.w3.org/2000/svg\">"
        for k in 1...15 {
            let clip = k < 15 ? " clip-path=\"url(#c\(k + 1))\"" : ""
            text +=
                "<clipPath id=\"c\(k)\">" + String(repeating: "<rect width=\"9\" height=\"9\"\(clip)/>", count: 8) + "</clipPath>"
        }
        text += "<rect width=\"9\" height=\"9\" clip-path=\"url(#c1)\"/></svg>"
        let svg = try image(text)
        #expect(svg.warnings.contains { $0.contains("more than 100000 elements to draw") })
    }

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
}
