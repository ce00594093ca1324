/// SVG reading against hand-computed values: colours in every CSS syntax, the transform list's order,
/// preserveAspectRatio, shapes as the specification starts them, the cascade, and hostile files refused
/// with their line (entities, deep nesting, malformed XML) or drawn safely (a `use` that refers to
/// itself, numbers past any range).
import Foundation
import ReelDocument
import ReelGeometry
import ReelScene
import Testing

@testable import ReelSVG

@Suite struct SVGReadingTests {
    func near(_ a: Double, _ b: Double) -> Bool { abs(a - b) < 1e-9 }

    @Test func coloursInEveryCSSSyntax() {
        #expect(SVGValues.color("#f00") == Color(red: 1, green: 0, blue: 0))
        #expect(SVGValues.color("#FF000080") == Color(red: 1, green: 0, blue: 0, alpha: 128.0 / 255))
        #expect(SVGValues.color("rgb(255, 0, 0)") == Color(red: 1, green: 0, blue: 0))
        #expect(SVGValues.color("rgb(100%, 50%, 0%)") == Color(red: 1, green: 0.5, blue: 0))
        #expect(SVGValues.color("rgba(0, 0, 255, 0.25)") == Color(red: 0, green: 0, blue: 1, alpha: 0.25))
        #expect(SVGValues.color("hsl(120, 100%, 50%)") == Color(red: 0, green: 1, blue: 0))
        // rebeccapurple is #663399 (CSS Color 4).
        #expect(SVGValues.color("RebeccaPurple") == Color(red: 0x66 / 255.0, green: 0x33 / 255.0, blue: 0x99 / 255.0))
        #expect(SVGValues.color("transparent") == .clear)
        #expect(SVGValues.color("#12") == nil && SVGValues.color("bluish") == nil)
    }

    @Test func transformListsApplyRightmostFirst() throws {
        let t = try #require(SVGValues.transform("translate(10 20) scale(2)"))
        #expect(t.apply(Point(x: 1, y: 1)) == Point(x: 12, y: 22))
        let r = try #require(SVGValues.transform("rotate(90 10 10)"))
        let p = r.apply(Point(x: 20, y: 10))
        #expect(near(p.x, 10) && near(p.y, 20))
        #expect(SVGValues.transform("scale(1, 2, 3)") == nil)
    }

    @Test func lengthsInEveryUnit() {
        #expect(SVGValues.length("1in") == 96)
        #expect(near(SVGValues.length("25.4mm")!, 96))
        #expect(SVGValues.length("12pt") == 16)
        #expect(SVGValues.length("50%", percentOf: 300) == 150)
        #expect(SVGValues.length("1e400") == nil)
    }

    /// viewBox 0 0 100 50 in a 200 × 200 viewport: meet scales by 2 and centres vertically (50 down);
    /// slice scales by 4 and centres horizontally (−100); none stretches (2, 4).
    @Test func preserveAspectRatio() {
        let b = [0.0, 0, 100, 50], size = Size(width: 200, height: 200)
        let meet = SVGImportFit.fit(b, size, nil)
        #expect(meet.a == 2 && meet.d == 2 && meet.tx == 0 && meet.ty == 50)
        let slice = SVGImportFit.fit(b, size, "xMidYMid slice")
        #expect(slice.a == 4 && slice.d == 4 && slice.tx == -100 && slice.ty == 0)
        let none = SVGImportFit.fit(b, size, "none")
        #expect(none.a == 2 && none.d == 4 && none.tx == 0 && none.ty == 0)
        let maxMeet = SVGImportFit.fit(b, size, "xMaxYMax meet")
        #expect(maxMeet.ty == 100)
    }

    @Test func elementsWithIDsAreNamedLayersAndTheCascadeApplies() throws {
        let svg = try image(
            """
            <svg xmlns="http://www.w3.org/2000/svg" width="40" height="20">
              <style>rect { fill: blue } .warm { fill: orange } #hot { fill: red }</style>
              <g id="group" fill="green" opacity="0.5">
                <rect id="a" width="10" height="10"/>
                <rect id="b" class="warm" width="10" height="10"/>
                <rect id="hot" class="warm" width="10" height="10" style="stroke: black; stroke-width: 2"/>
                <circle id="c" r="5"/>
              </g>
            </svg>
            """)
        #expect(svg.width == 40 && svg.height == 20 && svg.layer.name == "t")
        let g = try #require(svg.layer.sublayers.first)
        #expect(g.name == "t/group" && g.opacity == 0.5)
        let fills = g.sublayers.map { $0.shape.fillColor }
        #expect(g.sublayers.map(\.name) == ["t/a", "t/b", "t/hot", "t/c"])
        // A sheet's type rule beats the inherited green; class beats type; id beats class.
        #expect(fills[0] == Color(red: 0, green: 0, blue: 1))
        #expect(fills[1] == SVGValues.color("orange"))
        #expect(fills[2] == Color(red: 1, green: 0, blue: 0))
        #expect(fills[3] == SVGValues.color("green"))  // inherited from the group
        #expect(g.sublayers[2].shape.strokeColor == .black && g.sublayers[2].shape.stroke.lineWidth == 2)
        // SVG's default miter limit is 4, not Core Animation's 10.
        #expect(g.sublayers[2].shape.stroke.miterLimit == 4)
    }

    @Test func entitiesAreRefusedWithTheirLine() {
        let billionLaughs = """
            <?xml version="1.0"?>
            <!DOCTYPE svg [
              <!ENTITY a "aaaaaaaaaa">
              <!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">
            ]>
            <svg xmlns="http://www.w3.org/2000/svg"><text>&b;</text></svg>
            """
        #expect {
            try image(billionLaughs)
        } throws: { error in
            let e = error as? DocumentError
            return e?.location?.line == 3 && e?.message.contains("entities") == true
        }
    }

    @Test func deepNestingAndMalformedXMLAreLocatedErrors() {
        let deep =
            "<svg xmlns=\"http://www.w3.org/2000/svg\">" + String(repeating: "<g>", count: 300)
            + String(repeating: "</g>", count: 300) + "</svg>"
        #expect {
            try image(deep)
        } throws: { ($0 as? DocumentError)?.message.contains("nested more than 256") == true }
        #expect {
            try image("<svg xmlns=\"http://www.w3.org/2000/svg\">\n<rect width=\"1\" height=\"1\">\n</svg>")
        } throws: { ($0 as? DocumentError)?.location?.line == 3 }
        // Not UTF-8 (a name with bytes C5 C5, which once trapped inside Foundation's XMLParser).
        var bytes = Array("<svg xmlns=\"http://www.w3.org/2000/svg\">\n<rect w".utf8)
        bytes += [0xC5, 0xC5]
        bytes += Array("=\"2\"/></svg>".utf8)
        #expect {
            try SVGImport.image(Data(bytes), file: "t.svg", name: "t")
        } throws: { ($0 as? DocumentError).map { $0.location == SourceLocation(line: 2, column: 8) } == true }
        #expect {
            try image("<html></html>")
        } throws: { ($0 as? DocumentError)?.message == "the root element is <html>, not <svg>" }
    }

    @Test func aUseThatRefersToItselfIsLeftOutWithAWarning() throws {
        let svg = try image(
            """
            <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">
              <g id="loop"><use xlink:href="#loop"/><rect width="5" height="5"/></g>
              <use href="#missing"/>
              <filter id="f"/><foreignObject/>
            </svg>
            """)
        #expect(svg.warnings.contains { $0.contains("refers back to itself") })
        #expect(svg.warnings.contains { $0.hasPrefix("line 3:") && $0.contains("points at nothing") })
        #expect(svg.warnings.contains { $0 == "line 4: <foreignObject> is not supported yet and is left out" })
    }

    /// A `switch` draws only its first child that SVG draws and whose conditions pass: a
    /// `requiredExtensions` fails (Reel implements none), an element of no SVG kind is passed over,
    /// `requiredFeatures` is ignored, and `systemLanguage` passes on English or a form of it. Outside a
    /// `switch` a failing condition leaves its element out too, the root's the whole drawing.
    @Test func switchDrawsItsFirstChildWhoseConditionsPass() throws {
        let svg = try image(
            """
            <svg xmlns="http://www.w3.org/2000/svg" id="t">
              <switch id="s">
                <foreignObject id="html" requiredExtensions="http://www.w3.org/1999/xhtml"/>
                <random id="r"/>
                <rect id="de" width="5" height="5" systemLanguage="de"/>
                <rect id="chosen" width="5" height="5" systemLanguage=" fr , EN-gb" requiredFeatures="x"/>
                <rect id="after" width="5" height="5"/>
              </switch>
              <rect id="ru" width="5" height="5" systemLanguage="ru-RU"/>
              <rect id="empty" width="5" height="5" systemLanguage=""/>
              <rect id="en" width="5" height="5" systemLanguage="en"/>
            </svg>
            """)
        #expect(svg.layer.sublayers.map(\.name) == ["t/s", "t/en"])
        #expect(svg.layer.sublayers.first?.sublayers.map(\.name) == ["t/chosen"])
        let none = try image(
            """
            <svg xmlns="http://www.w3.org/2000/svg" systemLanguage="ru"><rect width="5" height="5"/></svg>
            """)
        #expect(none.layer.sublayers.isEmpty)
    }

    /// `mix-blend-mode` from CSS is the layer's compositing filter by Core Animation's name; as an
    /// attribute (SVG takes it only from CSS), `normal`, or a mode CSS does not have, it is none.
    /// `isolation: isolate` from CSS isolates the layer's blending; as an attribute it does nothing.
    @Test func mixBlendModeIsTheCompositingFilter() throws {
        let svg = try image(
            """
            <svg xmlns="http://www.w3.org/2000/svg">
              <style>.d { mix-blend-mode: color-dodge }</style>
              <rect width="5" height="5" style="mix-blend-mode: multiply"/>
              <g class="d"><rect width="5" height="5"/></g>
              <rect width="5" height="5" mix-blend-mode="screen"/>
              <rect width="5" height="5" style="mix-blend-mode: xor"/>
              <rect class="d" width="5" height="5" style="mix-blend-mode: normal"/>
              <rect width="5" height="5" style="mix-blend-mode: luminosity" opacity="0.5"/>
              <g style="isolation: isolate"/>
              <g isolation="isolate"/>
            </svg>
            """)
        #expect(
            svg.layer.sublayers.map(\.compositingFilter) == [
                .multiplyBlendMode, .colorDodgeBlendMode, nil, nil, nil, .luminosityBlendMode, nil, nil,
            ])
        #expect(svg.layer.sublayers.map(\.isolatesBlending) == [false, false, false, false, false, false, true, false])
        #expect(svg.layer.sublayers[1].sublayers.first?.compositingFilter == nil, "not inherited")
        #expect(svg.warnings.isEmpty, "\(svg.warnings)")
    }

    /// CSS filter functions are the layer's filters in order (colour functions as the Filter Effects
    /// spec's matrices), a final `drop-shadow()` its shadow; an invalid list draws no filter and is a
    /// note; a `url()` naming nothing leaves its element out with a note.
    @Test func filterFunctionsAreLayerFilters() throws {
        let svg = try image(
            """
            <svg xmlns="http://www.w3.org/2000/svg">
              <rect width="5" height="5" filter="blur(4) grayscale(50%)"/>
              <rect width="5" height="5" style="filter: invert() drop-shadow(blue 4 5 6)"/>
              <rect width="5" height="5" filter="url(#f)"/>
              <rect width="5" height="5" filter="drop-shadow(red, 10, 15)"/>
              <g filter="opacity(0.5)"><rect width="5" height="5"/></g>
              <rect width="5" height="5" style="filter: drop-shadow(0 2px 3px rgba(255, 0, 0, 0.5))"/>
            </svg>
            """)
        let l = svg.layer.sublayers
        #expect(l[0].filters.map(\.type) == [.gaussianBlur, .colorMatrix] && l[0].filters[0].inputRadius == 4)
        // grayscale(0.5): red's row is 0.2126 + 0.7874 · 0.5, 0.7152 − 0.7152 · 0.5, 0.0722 − 0.0722 · 0.5.
        let red = l[0].filters[1].inputRVector
        #expect(abs(red[0] - 0.6063) < 1e-9 && abs(red[1] - 0.3576) < 1e-9 && abs(red[2] - 0.0361) < 1e-9)
        // invert(): 1 − c, and the shadow after it.
        #expect(l[1].filters[0].inputRVector == [-1, 0, 0, 0] && l[1].filters[0].inputBiasVector == [1, 1, 1, 0])
        #expect(l[1].shadowOpacity == 1 && l[1].shadowOffset == Point(x: 4, y: 5) && l[1].shadowRadius == 6)
        #expect(l[1].shadowColor == Color(red: 0, green: 0, blue: 1))
        #expect(l.count == 5 && l[2].filters.isEmpty && l[2].shadowOpacity == 0)
        #expect(l[3].filters.first?.inputAVector == [0, 0, 0, 0.5])
        #expect(l[3].sublayers.first?.filters.isEmpty == true, "not inherited")
        // A colour function's own commas are not commas between the shadow's values.
        #expect(l[4].shadowOffset == Point(x: 0, y: 2) && l[4].shadowRadius == 3)
        #expect(l[4].shadowColor == Color(red: 1, green: 0, blue: 0, alpha: 0.5))
        #expect(svg.warnings.count == 2 && svg.warnings.allSatisfy { $0.contains("filter") }, "\(svg.warnings)")
    }

    /// A property Reel does not draw yet is one note at its element's line, whether it comes as an
    /// attribute, in a `style` attribute or from a style sheet, on the root, a shape or a `tspan`; the
    /// values that draw the same as leaving it out (as Inkscape writes them on every element) say
    /// nothing, and a later declaration of such a value takes an earlier one's note back.
    @Test func propertiesNotDrawnYetAreOneNoteEach() throws {
        let svg = try image(
            """
            <svg xmlns="http://www.w3.org/2000/svg" style="transform-box: fill-box">
              <style>.a { paint-order: stroke } .b { transform-box: stroke-box }</style>
              <rect class="a" width="5" height="5" marker-end="url(#m)"/>
              <path d="M0 0 L5 5" style="marker-start: url(#m); paint-order: stroke fill; transform-origin: center"/>
              <text x="1" y="9" transform-box="border-box" writing-mode="tb">A<tspan x="3" class="b">B</tspan></text>
              <rect width="5" height="5" style="mix-blend-mode:normal;isolation:auto;paint-order:markers fill stroke;filter:none;text-decoration:none;word-spacing:0px;writing-mode:lr-tb;baseline-shift:baseline;dominant-baseline:auto;transform-box:view-box;marker:none"/>
              <rect class="b" width="5" height="5" style="transform-box: view-box"/>
              <circle r="2" transform-box="content-box"/>
            </svg>
            """)
        #expect(
            svg.warnings == [
                "line 1: transform-box: fill-box is not drawn yet and is ignored",
                "line 3: markers are drawn on <path>, <line>, <polyline> and <polygon> only; ignored on <rect>",
                "line 4: marker-start: url(#m) is not a <marker>; nothing is drawn there",
                "line 5: transform-box: border-box is not drawn yet and is ignored",
                "line 5: transform-box: stroke-box is not drawn yet and is ignored",
                "line 8: transform-box: content-box is not drawn yet and is ignored",
            ], "\(svg.warnings)")
    }

    /// transform-origin: keywords, percentages of the viewport and lengths, in either order for keywords,
    /// a missing value the centre; the transform applies about that point (rotate(90) about (100, 100)
    /// takes (150, 100) to (100, 150)).
    @Test func transformOriginMovesThePivot() throws {
        let v = Size(width: 200, height: 100)
        func origin(_ s: String) -> Point? { SVGValues.origin(s, viewport: v, fontSize: 16) }
        #expect(origin("center") == Point(x: 100, y: 50) && origin("top left") == Point(x: 0, y: 0))
        #expect(origin("left") == Point(x: 0, y: 50) && origin("bottom") == Point(x: 100, y: 100))
        #expect(origin("25% top") == Point(x: 50, y: 0) && origin("10px 20px") == Point(x: 10, y: 20))
        #expect(origin("bottom right") == Point(x: 200, y: 100) && origin("sideways") == nil)
        #expect(origin("center left") == Point(x: 0, y: 50) && origin("center right") == Point(x: 200, y: 50))
        let svg = try image(
            """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 200">
              <rect id="r" width="1" height="1" transform="rotate(90)" transform-origin="center"/>
            </svg>
            """)
        let t = try #require(svg.layer.find("t/r")).transform.affine
        let p = t.apply(Point(x: 150, y: 100))
        #expect(abs(p.x - 100) < 1e-9 && abs(p.y - 150) < 1e-9, "\(p)")
    }

    /// Shapes start where the specification says, which is where dashes and strokeEnd begin: a circle
    /// at (cx + r, cy), a rounded rect at (x + rx, y).
    @Test func shapesStartWhereTheSpecificationSays() throws {
        let svg = try image(
            """
            <svg xmlns="http://www.w3.org/2000/svg">
              <circle cx="50" cy="40" r="10"/><rect x="10" y="20" width="30" height="20" rx="5"/>
              <polyline points="0,0 10,0 10"/>
            </svg>
            """)
        let circle = svg.layer.sublayers[0].shape.path, rect = svg.layer.sublayers[1].shape.path
        #expect(circle.elements.first == .move(Point(x: 60, y: 40)))
        #expect(rect.elements.first == .move(Point(x: 15, y: 20)))
        // An odd number of coordinates drops the last one.
        #expect(svg.layer.sublayers[2].shape.path.elements.count == 2)
    }

    /// A bounding-box gradient maps its unit square onto the shape's box (x 10…50, y 20…40) after its
    /// gradientTransform; stops come through href; one stop paints a colour; a shape with no area takes
    /// the fallback colour.
    @Test func gradientsBecomeShapePaints() throws {
        let svg = try image(
            """
            <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">
              <linearGradient id="base"><stop offset="0" stop-color="red"/><stop offset="100%" stop-color="blue" stop-opacity="0.5"/></linearGradient>
              <linearGradient id="lg" xlink:href="#base" x2="0" y2="1" gradientTransform="scale(0.5)"/>
              <radialGradient id="one"><stop offset="0.3" style="stop-color: lime"/></radialGradient>
              <rect x="10" y="20" width="40" height="20" fill="url(#lg)" fill-opacity="0.5"/>
              <rect width="5" height="5" fill="url(#one)"/>
              <line x2="10" stroke="url(#lg) green"/>
            </svg>
            """)
        let rect = svg.layer.sublayers[0].shape
        let g = try #require(rect.fillGradient)
        #expect(g.kind == .axial(start: Point(x: 0, y: 0), end: Point(x: 0, y: 1)))
        #expect(g.colors == [Color(red: 1, green: 0, blue: 0), Color(red: 0, green: 0, blue: 1, alpha: 0.5)])
        #expect(g.locations == [0, 1])
        #expect(g.transform.apply(Point(x: 1, y: 1)) == Point(x: 30, y: 30))  // scale(0.5), then the box
        #expect(rect.fillColor?.alpha == 0.5)
        #expect(svg.layer.sublayers[1].shape.fillGradient == nil)
        #expect(svg.layer.sublayers[1].shape.fillColor == SVGValues.color("lime"))
        #expect(svg.layer.sublayers[2].shape.strokeGradient == nil)
        #expect(svg.layer.sublayers[2].shape.strokeColor == SVGValues.color("green"))
    }

    /// A clipPath becomes the element's mask: its shapes filled opaque with their clip-rule, in
    /// bounding-box units mapped onto the element's box (10…50 × 20…40); a clip-path that points at
    /// nothing leaves the element unclipped, with a warning.
    @Test func clipPathsBecomeMasks() throws {
        let svg = try image(
            """
            <svg xmlns="http://www.w3.org/2000/svg">
              <clipPath id="c" clipPathUnits="objectBoundingBox"><circle cx="0.5" cy="0.5" r="0.5" clip-rule="evenodd"/></clipPath>
              <rect x="10" y="20" width="40" height="20" clip-path="url(#c)"/>
              <rect width="5" height="5" clip-path="url(#nothing)"/>
            </svg>
            """)
        let mask = try #require(svg.layer.sublayers[0].mask)
        #expect(mask.transform.affine.apply(Point(x: 1, y: 1)) == Point(x: 50, y: 40))
        #expect(mask.sublayers.count == 1 && mask.sublayers[0].shape.fillColor == .black)
        #expect(mask.sublayers[0].shape.fillRule == .evenOdd)
        #expect(svg.layer.sublayers[1].mask == nil)
        #expect(svg.warnings.contains { $0.hasPrefix("line 4:") && $0.contains("not clipped") })
    }

    /// href beats xlink:href whatever their order in the file; a prefix that is not xlink's is not an
    /// href at all; percentages are of the viewport (width, height, or its normalized diagonal).
    @Test func hrefPrecedenceAndPercentages() throws {
        let svg = try image(
            """
            <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:svg="http://www.w3.org/2000/svg" viewBox="0 0 200 100">
              <rect id="a" width="1" height="1"/><circle id="b" r="1"/>
              <use xlink:href="#a" href="#b"/><use href="#b" xlink:href="#a"/><use svg:href="#a"/>
              <rect width="50%" height="50%" stroke="black" stroke-width="10%"/>
            </svg>
            """)
        let uses = svg.layer.sublayers.filter { $0.name.contains("use") }
        #expect(uses.count == 2)
        // The copy is named after what it copies: the circle, "t/b" (then "t/b#2").
        #expect(uses.allSatisfy { $0.sublayers.first?.name.hasPrefix("t/b") == true })
        let rect = try #require(svg.layer.sublayers.last)
        #expect(rect.shape.path.controlPointBounds == Rect(x: 0, y: 0, width: 100, height: 50))
        // 10 % of √(200² + 100²)/√2.
        #expect(abs(rect.shape.stroke.lineWidth - 0.1 * (50_000.0).squareRoot() / 2.0.squareRoot()) < 1e-9)
    }
}
