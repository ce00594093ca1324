/// SVG structure and styling beyond the basics, against hand-computed values: masks (their region,
/// units, type, and a mask that refers back to itself), clip paths that inherit where they are written,
/// nested viewports and symbols sized by percentages, CSS `!important`, comments and `transform`, em
/// lengths, foreign namespaces, and the error handling resvg and librsvg agree on.
import Foundation
import ReelDocument
import ReelGeometry
import ReelScene
import Testing

@testable import ReelSVG

@Suite struct SVGStructureTests {
    /// A mask's default region is the masked element's bounding box grown by 10 % each side: for a rect
    /// at (20, 40) of 100 × 50 that is x 10…130, y 35…95, clipped (masksToBounds); it masks by luminance
    /// unless `mask-type: alpha`. userSpaceOnUse takes x/y/width/height as written.
    @Test func masksBecomeLuminanceMaskLayers() throws {
        let svg = try image(
            """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 200">
              <mask id="m"><rect width="200" height="200" fill="white"/></mask>
              <mask id="a" style="mask-type: alpha" maskUnits="userSpaceOnUse" x="5" y="6" width="7" height="8">
                <rect width="9" height="9"/>
              </mask>
              <rect id="r" x="20" y="40" width="100" height="50" mask="url(#m)"/>
              <rect id="s" width="10" height="10" mask="url(#a)"/>
            </svg>
            """)
        let r = try #require(svg.layer.find("t/r")), s = try #require(svg.layer.find("t/s"))
        let mask = try #require(r.mask)
        #expect(r.maskMode == .luminance && mask.masksToBounds)
        #expect(mask.bounds == Rect(x: 10, y: 35, width: 120, height: 60))
        #expect(mask.position == Point(x: 10, y: 35) && mask.anchorPoint == .zero)
        #expect(mask.sublayers.first?.shape.fillColor == .white)
        #expect(s.maskMode == .alpha && s.mask?.bounds == Rect(x: 5, y: 6, width: 7, height: 8))
    }

    /// maskContentUnits="objectBoundingBox" maps the content's unit square onto the box (scale 100 × 50,
    /// then move to (20, 40)); a mask whose content masks itself with it keeps the content, without
    /// the reference back (with a warning), as resvg does; an element with both a clip path and a mask
    /// sits in a group the clip masks.
    @Test func maskUnitsRecursionAndClipTogether() throws {
        let svg = try image(
            """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 200">
              <mask id="m" maskContentUnits="objectBoundingBox"><rect width="0.5" height="1" fill="white"/></mask>
              <mask id="self"><rect width="10" height="10" fill="white" mask="url(#self)"/></mask>
              <clipPath id="c"><rect width="50" height="50"/></clipPath>
              <rect id="r" x="20" y="40" width="100" height="50" mask="url(#m)"/>
              <rect id="q" width="10" height="10" mask="url(#self)"/>
              <rect id="both" width="10" height="10" mask="url(#m)" clip-path="url(#c)"/>
            </svg>
            """)
        let r = try #require(svg.layer.find("t/r"))
        let content = try #require(r.mask?.sublayers.first)
        #expect(content.transform.affine == Transform2D(a: 100, b: 0, c: 0, d: 50, tx: 20, ty: 40))
        let q = try #require(svg.layer.find("t/q"))
        #expect(q.mask?.sublayers.first?.type == .shape)
        #expect(svg.warnings.contains { $0.contains("the mask refers back to itself") })
        let both = try #require(svg.layer.find("t/both"))
        #expect(both.mask?.sublayers.first?.shape.fillColor == .black)  // the clip
        #expect(both.sublayers.first?.maskMode == .luminance && both.sublayers.first?.mask != nil)
    }

    /// A clip path's content inherits clip-rule from where the clipPath is written, not from the element
    /// it clips.
    @Test func clipPathsInheritWhereTheyAreWritten() throws {
        let svg = try image(
            """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 200">
              <g clip-rule="evenodd"><clipPath id="c"><rect width="50" height="50"/></clipPath></g>
              <rect id="r" width="100" height="100" clip-path="url(#c)"/>
            </svg>
            """)
        let r = try #require(svg.layer.find("t/r"))
        #expect(r.mask?.sublayers.first?.shape.fillRule == .evenOdd)
    }

    /// A nested svg with no size fills the enclosing viewport (200 × 200, not 100 × 100); percentages
    /// are of it (25 % → 50, 50 % → 100); inside, percentages are of the nested viewport. A symbol used
    /// without a size takes 100 % too.
    @Test func nestedViewportsAndSymbolsTakePercentagesOfTheirViewport() throws {
        let svg = try image(
            """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 200">
              <svg id="n" x="25%" y="25%" width="50%" height="50%"><rect id="in" width="50%" height="10"/></svg>
              <svg id="all"/>
              <symbol id="s" viewBox="0 0 10 10"><rect width="10" height="10"/></symbol>
              <use id="u" href="#s"/>
            </svg>
            """)
        let n = try #require(svg.layer.find("t/n"))
        #expect(n.position == Point(x: 50, y: 50) && n.bounds.size == Size(width: 100, height: 100))
        #expect(svg.layer.find("t/in")?.shape.path.bounds()?.width == 50)
        #expect(svg.layer.find("t/all")?.bounds.size == Size(width: 200, height: 200))
        let symbol = try #require(svg.layer.find("t/u")?.sublayers.first)
        #expect(symbol.bounds.size == Size(width: 200, height: 200))
        #expect(symbol.sublayerTransform.affine.a == 20)
    }

    /// `!important` beats a later rule and the style attribute; comments in a style attribute are
    /// ignored; a CSS transform replaces the attribute; em is of the inherited font-size (20 → 2em = 40);
    /// a negative stroke width draws no stroke; an element of another namespace is left out.
    @Test func cssDetailsAndUnits() throws {
        let svg = try image(
            """
            <svg xmlns="http://www.w3.org/2000/svg" xmlns:x="http://example.org/x" viewBox="0 0 200 200">
              <style>#a { fill: green !important } #a { fill: red } #b { transform: scale(2) }</style>
              <rect id="a" width="1" height="1" style="fill: blue"/>
              <rect id="c" width="1" height="1" style="/* note */fill:lime/* note */"/>
              <rect id="b" width="1" height="1" transform="translate(5 5)"/>
              <g font-size="20"><rect id="em" width="2em" height="1ex"/></g>
              <rect id="neg" width="1" height="1" stroke="red" stroke-width="-20"/>
              <x:rect id="foreign" width="1" height="1"/>
            </svg>
            """)
        #expect(svg.layer.find("t/a")?.shape.fillColor == SVGValues.color("green"))
        #expect(svg.layer.find("t/c")?.shape.fillColor == SVGValues.color("lime"))
        #expect(svg.layer.find("t/b")?.transform.affine == Transform2D(a: 2, b: 0, c: 0, d: 2, tx: 0, ty: 0))
        #expect(svg.layer.find("t/em")?.shape.path.bounds() == Rect(x: 0, y: 0, width: 40, height: 10))
        #expect(svg.layer.find("t/neg")?.shape.strokeColor == nil)
        #expect(svg.layer.find("t/foreign") == nil)
    }

    /// Selectors beyond the simple ones: descendant and child combinators, attribute tests and
    /// `:first-child`, ranked by specificity (an id beats any number of classes); a selector Reel does
    /// not match (a sibling combinator, another pseudo-class) drops only its own rule.
    @Test func compoundSelectorsAndCombinators() throws {
        let svg = try image(
            """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 200">
              <style>
                g rect { fill: blue }
                g > rect.c { fill: green }
                #outer rect[data-k="v"] { fill: lime }
                rect:first-child { stroke: red }
                rect + rect { fill: yellow }
                rect:hover { fill: yellow }
                .a.b.c { stroke: black }
                #i { stroke: white }
              </style>
              <g id="outer">
                <rect id="first" width="1" height="1"/>
                <rect id="child" class="c" width="1" height="1"/>
                <g><rect id="deep" class="c" data-k="v" width="1" height="1"/></g>
              </g>
              <rect id="i" class="a b c" width="1" height="1"/>
            </svg>
            """)
        func fill(_ id: String) -> Color? { svg.layer.find("t/\(id)")?.shape.fillColor }
        #expect(fill("first") == SVGValues.color("blue"))
        #expect(fill("child") == SVGValues.color("green"))
        #expect(fill("deep") == SVGValues.color("lime"))  // (1, 1, 1) beats (0, 1, 2)
        #expect(svg.layer.find("t/first")?.shape.strokeColor == SVGValues.color("red"))
        #expect(svg.layer.find("t/child")?.shape.strokeColor == nil)
        #expect(fill("i") == .black)  // no rule for it but the unmatched ones
        #expect(svg.layer.find("t/i")?.shape.strokeColor == .white)
        #expect(CSSSelector.parse("a + b") == nil && CSSSelector.parse("p:hover") == nil)
        #expect(CSSSelector.parse("#x .y > z[w]")?.specificity == 1_000_000 + 2 * 1_000 + 1)
    }

    /// What resvg and librsvg agree on for bad values: a transform that cannot be read is ignored (the
    /// element is drawn); a path is drawn up to its last complete segment; rgb() mixing numbers and
    /// percentages is invalid (the fill stays the default black); a fallback that cannot be read (an
    /// ICC colour) invalidates the whole paint; `currentColor` is a fallback; an invisible shape is a
    /// hidden layer that still counts in its group's bounding box.
    @Test func errorHandlingAsOtherRenderersAgree() throws {
        let svg = try image(
            """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 200">
              <rect id="t" width="1" height="1" transform="qwe"/>
              <path id="p" d="M 30 40 L 110 160 L 150"/>
              <rect id="mix" width="1" height="1" fill="rgba(0, 50%, 0, 0.5)"/>
              <rect id="icc" width="1" height="1" fill="url(#none) green icc-color(x, 0.1)"/>
              <rect id="cc" width="1" height="1" color="green" fill="url(#none) currentColor"/>
              <rect id="hid" width="100" height="100" visibility="hidden"/>
            </svg>
            """)
        #expect(svg.layer.find("t/t")?.transform.isIdentity == true)
        #expect(svg.layer.find("t/p")?.shape.path.elements == [.move(Point(x: 30, y: 40)), .line(Point(x: 110, y: 160))])
        #expect(svg.layer.find("t/mix")?.shape.fillColor == .black)
        #expect(svg.layer.find("t/icc")?.shape.fillColor == .black)
        #expect(svg.layer.find("t/cc")?.shape.fillColor == SVGValues.color("green"))
        let hidden = try #require(svg.layer.find("t/hid"))
        #expect(hidden.hidden && Importer.bounds(of: hidden)?.width == 100)
        #expect(svg.warnings.contains { $0.contains("\"qwe\" cannot be read and is ignored") })
    }

    /// Text becomes text layers placed by their baseline: runs for the text's own characters and its
    /// tspans (font, size, colour), white space collapsed across them, a tspan with its own x or dy a
    /// new line (x as given, y = 40 + 1.5 × 20 = 70), text-anchor as the alignment, and the font a list
    /// of the families asked for, with the weight, then a generic family as itself (fontconfig's choice)
    /// and the usual installed families for it.
    @Test func textBecomesBaselinePlacedTextLayers() throws {
        let svg = try image(
            """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 200" font-family="Inter, sans-serif">
              <text id="t1" x="10" y="40" font-size="20" fill="#102030" text-anchor="middle">
                Hello   <tspan font-weight="bold" fill="red">bold</tspan>
                world<tspan id="second" x="10" dy="1.5em">again</tspan>
              </text>
            </svg>
            """)
        let group = try #require(svg.layer.find("t/t1"))
        let first = try #require(group.sublayers.first), second = try #require(svg.layer.find("t/second"))
        #expect(first.type == .text && first.position == Point(x: 10, y: 40) && first.anchorPoint == .zero)
        #expect(first.text.firstBaselineAtTop && first.text.alignmentMode == .center)
        #expect(first.text.runs.map(\.text) == ["Hello ", "bold", " world"])
        #expect(first.text.runs[1].foregroundColor == SVGValues.color("red"))
        #expect(first.text.runs[0].fontSize == 20)
        #expect(first.text.runs[1].font?.hasPrefix("Inter Bold, Noto Sans Bold") == true)
        #expect(first.text.runs[0].font?.hasPrefix("Inter, sans-serif, Noto Sans, DejaVu Sans") == true)
        #expect(second.position == Point(x: 10, y: 70) && second.text.runs.map(\.text) == ["again"])
    }

    /// A use's x and y move what it uses inside its own transform: with transform="scale(2)" and x="10",
    /// the used rect at 0…5 lands at 20…30 (scale(2)·translate(10)), not 10…20.
    @Test func useTranslatesBeforeItsTransform() throws {
        let svg = try image(
            """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 200">
              <defs><rect id="r" width="5" height="5"/></defs>
              <g id="g" clip-path="url(#c)"><use id="u" href="#r" x="10" transform="scale(2)"/></g>
              <clipPath id="c" clipPathUnits="objectBoundingBox"><rect width="1" height="1"/></clipPath>
            </svg>
            """)
        let g = try #require(svg.layer.find("t/g"))
        #expect(Importer.bounds(of: g) == Rect(x: 20, y: 0, width: 10, height: 10))
    }

    /// A `use` fan-out (8 levels of 10 uses: 10⁸ copies) stops at the import's limit of 100,000 drawn
    /// elements with one warning; names stay unique (`t/l0`, `t/l0#2`, …) without a walk past the
    /// earlier ones, so the import takes seconds, not minutes.
    @Test func aUseFanOutStopsAtTheLimit() throws {
        var text = #"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><defs><rect id="l0" width="1" height="1"/>"#
        for i in 1...8 { text += "<g id=\"l\(i)\">" + String(repeating: "<use href=\"#l\(i - 1)\"/>", count: 10) + "</g>" }
        text += ##"</defs><use href="#l8"/></svg>"##
        let svg = try image(text)
        #expect(svg.warnings.contains { $0.contains("more than 100000 elements to draw") })
        let names = svg.layer.flattened().map(\.layer.name)
        #expect(Set(names).count == names.count)
        #expect(names.contains("t/l0#2") && names.count > 100_000)
    }

    /// Style sheets reach gradient stops: a one-stop gradient whose stop colour comes from a rule paints
    /// that colour.
    @Test func styleSheetsReachGradientStops() throws {
        let svg = try image(
            """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 200">
              <style>.s { stop-color: lime }</style>
              <linearGradient id="g"><stop class="s" offset="0"/></linearGradient>
              <rect id="r" width="10" height="10" fill="url(#g)"/>
            </svg>
            """)
        #expect(svg.layer.find("t/r")?.shape.fillColor == SVGValues.color("lime"))
    }

    /// A clip path on a clip path intersects them (a group holding the first, masked by the second); a
    /// clip path on a clip path's child clips that child; one that clips itself drops that reference
    /// with a warning, as resvg does; a style sheet of another type than CSS is not read.
    @Test func clipPathsOnClipPaths() throws {
        let svg = try image(
            """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 200">
              <style type="text/foo">rect { fill: red }</style>
              <clipPath id="b"><rect width="50" height="50"/></clipPath>
              <clipPath id="a" clip-path="url(#b)"><rect width="100" height="100" clip-path="url(#b)"/></clipPath>
              <clipPath id="self" clip-path="url(#self)"><rect width="10" height="10"/></clipPath>
              <rect id="r" width="200" height="200" clip-path="url(#a)"/>
              <rect id="s" width="200" height="200" clip-path="url(#self)"/>
            </svg>
            """)
        let r = try #require(svg.layer.find("t/r"))
        let intersection = try #require(r.mask)
        #expect(intersection.mask?.sublayers.first?.shape.path.bounds()?.width == 50)
        let childClipped = try #require(intersection.sublayers.first?.sublayers.first)
        #expect(childClipped.mask != nil && childClipped.sublayers.first?.shape.path.bounds()?.width == 100)
        let s = try #require(svg.layer.find("t/s"))
        #expect(s.mask?.sublayers.first?.shape.path.bounds()?.width == 10 && s.mask?.mask == nil)
        #expect(svg.warnings.contains { $0.contains("the clip path refers back to itself") })
        #expect(r.shape.fillColor == .black)
    }

    /// display: none on the root draws nothing; a clip path on the root clips in its user space.
    @Test func theRootCanBeHiddenOrClipped() throws {
        let hidden = try image(
            #"<svg xmlns="http://www.w3.org/2000/svg" display="none"><rect width="5" height="5"/></svg>"#)
        #expect(hidden.layer.sublayers.isEmpty)
        let clipped = try image(
            """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" clip-path="url(#c)">
              <clipPath id="c"><rect width="5" height="5"/></clipPath><rect width="10" height="10"/>
            </svg>
            """)
        #expect(clipped.layer.sublayers.count == 1 && clipped.layer.sublayers[0].mask != nil)
    }
}
