/// SVG `<filter>` elements read into filter effects, against hand-computed values: the default region
/// (10 % around the bounding box), user-space and bounding-box units, subregions, how inputs resolve
/// (the previous result, a named one, an unknown name), colour spaces, and the elements not drawn.
import Foundation
import ReelDocument
import ReelGeometry
import ReelScene
import Testing

@testable import ReelSVG

@Suite struct SVGFilterTests {
    /// A rect at (20, 10) of 100 × 50: the region is the box widened by 10 % each side, (10, 5) of
    /// 120 × 60; primitives default to it; an unnamed input reads the previous result, a named one its
    /// primitive, an unknown name the previous result; the default colour space is linearRGB.
    @Test func regionSubregionsAndInputs() throws {
        let svg = try image(
            """
            <svg xmlns="http://www.w3.org/2000/svg">
              <filter id="f">
                <feGaussianBlur stdDeviation="2 3" result="blur"/>
                <feOffset dx="4" dy="-1" x="30" width="40"/>
                <feMerge><feMergeNode in="blur"/><feMergeNode in="nothing"/><feMergeNode in="SourceGraphic"/></feMerge>
                <feFlood flood-color="#ff0000" flood-opacity="0.5" style="color-interpolation-filters: sRGB"/>
              </filter>
              <rect id="r" x="20" y="10" width="100" height="50" filter="url(#f)"/>
            </svg>
            """)
        let r = try #require(svg.layer.find("t/r"))
        let e = try #require(r.filterEffects.first)
        let region = Rect(x: 10, y: 5, width: 120, height: 60)
        #expect(r.filterEffects.count == 1 && e.region == region)
        #expect(
            e.primitives.map(\.operation) == [
                .gaussianBlur(x: 2, y: 3), .offset(dx: 4, dy: -1), .merge, .flood(Color(red: 1, green: 0, blue: 0, alpha: 0.5)),
            ])
        #expect(e.primitives.map(\.inputs) == [[.sourceGraphic], [.result(0)], [.result(0), .result(1), .sourceGraphic], []])
        #expect(e.primitives[1].subregion == Rect(x: 30, y: 5, width: 40, height: 60))
        #expect(e.primitives[0].subregion == region)
        #expect(e.primitives.map(\.linearRGB) == [true, true, true, false])
    }

    /// filterUnits="userSpaceOnUse" takes the numbers as written; primitiveUnits="objectBoundingBox"
    /// scales lengths by the box and reads subregions as fractions of the region (of the box for a
    /// flood).
    @Test func units() throws {
        let svg = try image(
            """
            <svg xmlns="http://www.w3.org/2000/svg">
              <filter id="f" filterUnits="userSpaceOnUse" x="0" y="0" width="200" height="100" primitiveUnits="objectBoundingBox">
                <feOffset dx="0.1" dy="0.5" x="0.5" width="0.25"/>
                <feFlood x="0.5"/>
              </filter>
              <rect id="r" x="20" y="10" width="100" height="50" filter="url(#f)"/>
            </svg>
            """)
        let e = try #require(svg.layer.find("t/r")?.filterEffects.first)
        #expect(e.region == Rect(x: 0, y: 0, width: 200, height: 100))
        #expect(e.primitives[0].operation == .offset(dx: 10, dy: 25))
        #expect(e.primitives[0].subregion == Rect(x: 100, y: 0, width: 50, height: 100))
        #expect(e.primitives[1].subregion == Rect(x: 70, y: 10, width: 100, height: 50))
    }

    /// A reference to nothing, to a filter without primitives, or a bounding-box region on an element
    /// with no box hides the element; a list holding one good filter keeps it; an unknown child is a
    /// note and left out.
    @Test func elementsNotDrawn() throws {
        let svg = try image(
            """
            <svg xmlns="http://www.w3.org/2000/svg">
              <filter id="empty"/>
              <filter id="f"><feFlood/><feUnknown/></filter>
              <rect id="missing" width="10" height="10" filter="url(#nothing)"/>
              <rect id="none" width="10" height="10" filter="url(#empty)"/>
              <path id="flat" d="M 0 0 L 10 0" stroke="#000000" filter="url(#f)"/>
              <rect id="kept" width="10" height="10" filter="url(#nothing) url(#f)"/>
            </svg>
            """)
        #expect(svg.layer.find("t/missing") == nil && svg.layer.find("t/none") == nil && svg.layer.find("t/flat") == nil)
        #expect(svg.layer.find("t/kept")?.filterEffects.first?.primitives.count == 1)
        #expect(svg.warnings.contains { $0.contains("<feUnknown> is not a filter primitive") })
        #expect(svg.warnings.contains("line 4: filter: url(#nothing) names no <filter> Reel can draw; the element is not drawn"))
    }

    /// feImage of an embedded picture (a 2 × 1 PNG made for this test) fills its subregion as
    /// preserveAspectRatio fits it: the region is the box (0, 0, 100, 100), so `meet` scales the picture
    /// 50× and centres it 25 down, `none` scales it 50 × 100; its name is the URI, its base64
    /// unwrapped. An element or a file is a note and a transparent picture.
    @Test func feImageFitsItsPicture() throws {
        let png = "iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAYAAAD0In+KAAAAEUlEQVR42mP4z8Dwn4Hh/38AD/kD/RUQ4aQAAAAASUVORK5CYII="
        let wrapped = png.prefix(40) + "\n  " + png.dropFirst(40)
        let svg = try image(
            """
            <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">
              <filter id="meet" x="0" y="0" width="1" height="1"><feImage xlink:href="data:image/png;base64,\(wrapped)"/></filter>
              <filter id="none" x="0" y="0" width="1" height="1"><feImage preserveAspectRatio="none" href="data:image/png;base64,\(png)"/></filter>
              <filter id="other" x="0" y="0" width="1" height="1"><feImage href="#a"/><feImage href="picture.png"/></filter>
              <rect id="a" width="100" height="100" filter="url(#meet)"/>
              <rect id="b" width="100" height="100" filter="url(#none)"/>
              <rect id="c" width="100" height="100" filter="url(#other)"/>
            </svg>
            """)
        let uri = "data:image/png;base64," + png
        let meet = try #require(svg.layer.find("t/a")?.filterEffects.first?.primitives.first)
        #expect(meet.operation == .image(name: uri, place: Transform2D(a: 50, b: 0, c: 0, d: 50, tx: 0, ty: 25)))
        let none = try #require(svg.layer.find("t/b")?.filterEffects.first?.primitives.first)
        #expect(none.operation == .image(name: uri, place: Transform2D(a: 50, b: 0, c: 0, d: 100, tx: 0, ty: 0)))
        #expect(svg.layer.find("t/a")?.filterEffects.first?.imageNames == [uri])
        #expect(svg.warnings.contains { $0.contains("<feImage> of an element is not drawn yet") })
        #expect(svg.warnings.contains { $0.contains("<feImage> of a file (picture.png)") })
    }

    /// Attribute readings with resvg's fallbacks: feColorMatrix's types as matrices, a bad stdDeviation
    /// as none, morphology's zero radius as one, an invalid convolution as a transparent flood, a blur
    /// function in a list with a url() as one primitive over the box widened by half each side, in sRGB.
    @Test func primitiveParameters() throws {
        let svg = try image(
            """
            <svg xmlns="http://www.w3.org/2000/svg">
              <filter id="f">
                <feColorMatrix type="saturate" values="0"/>
                <feColorMatrix type="luminanceToAlpha"/>
                <feGaussianBlur stdDeviation="1 2 3"/>
                <feMorphology radius="0 2" operator="dilate"/>
                <feConvolveMatrix kernelMatrix="1 2 3"/>
              </filter>
              <rect id="r" width="100" height="40" filter="url(#f) blur(2)"/>
            </svg>
            """)
        let effects = try #require(svg.layer.find("t/r")?.filterEffects)
        let ops = effects[0].primitives.map(\.operation)
        #expect(
            ops[0]
                == .colorMatrix([0.213, 0.715, 0.072, 0, 0, 0.213, 0.715, 0.072, 0, 0, 0.213, 0.715, 0.072, 0, 0, 0, 0, 0, 1, 0]))
        #expect(ops[1] == .colorMatrix([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0.2125, 0.7154, 0.0721, 0, 0]))
        #expect(ops[2] == .gaussianBlur(x: 0, y: 0))
        #expect(ops[3] == .morphology(dilate: true, radiusX: 1, radiusY: 2))
        #expect(ops[4] == .flood(.clear))
        #expect(effects.count == 2 && effects[1].region == Rect(x: -50, y: -20, width: 200, height: 80))
        #expect(
            effects[1].primitives.map(\.operation) == [.gaussianBlur(x: 2, y: 2)] && effects[1].primitives[0].linearRGB == false)
    }

    /// A filter on the root applies to a layer holding its content, in the root's user space; hostile
    /// numbers stay within the limits: a kernel past 225 numbers gives a transparent picture with a
    /// note, numOctaves is drawn up to 10, an offset of 10³⁰⁰ reads as written (the raster holds it to
    /// whole pixels past any region).
    @Test func rootFilterAndLimits() throws {
        let svg = try image(
            """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100" filter="url(#f)">
              <filter id="f">
                <feConvolveMatrix order="16" kernelMatrix="\(Array(repeating: "1", count: 256).joined(separator: " "))"/>
                <feTurbulence numOctaves="1e9"/>
                <feOffset dx="1e300"/>
              </filter>
              <rect id="r" width="50" height="40"/>
            </svg>
            """)
        let content = try #require(svg.layer.sublayers.first)
        let e = try #require(content.filterEffects.first)
        #expect(e.region == Rect(x: -5, y: -4, width: 60, height: 48))
        #expect(e.primitives[0].operation == .flood(.clear))
        if case .turbulence(let t) = e.primitives[1].operation { #expect(t.octaves == 10) } else { Issue.record("no turbulence") }
        #expect(e.primitives[2].operation == .offset(dx: 1e300, dy: 0))
        #expect(svg.warnings.contains { $0.contains("a kernel of more than 225 numbers is not drawn") }, "\(svg.warnings)")
    }

    /// Words Swift's number parser takes ("nan", "inf") and numbers past Int are not numbers here:
    /// numOctaves keeps its default (1), a target past the kernel makes the convolution invalid.
    @Test func nonNumbersAreDefaults() throws {
        let svg = try image(
            """
            <svg xmlns="http://www.w3.org/2000/svg">
              <filter id="f">
                <feTurbulence numOctaves="nan" seed="inf"/>
                <feConvolveMatrix kernelMatrix="1 1 1 1 1 1 1 1 1" targetX="1e300"/>
                <feConvolveMatrix kernelMatrix="1 1 1 1 1 1 1 1 1" targetY="-inf"/>
              </filter>
              <rect id="r" width="10" height="10" filter="url(#f)"/>
            </svg>
            """)
        let e = try #require(svg.layer.find("t/r")?.filterEffects.first)
        if case .turbulence(let t) = e.primitives[0].operation {
            #expect(t.octaves == 1 && t.seed == 0)
        } else {
            Issue.record("no turbulence")
        }
        #expect(e.primitives[1].operation == .flood(.clear))
        if case .convolveMatrix(let m) = e.primitives[2].operation {
            #expect(m.targetY == 1)
        } else {
            Issue.record("no convolution")
        }
    }
}
