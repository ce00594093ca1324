/// SVG gradients as they reach shape layers: stop colours through currentColor and inherit, stop
/// opacity, CSS colour syntaxes, spreadMethod, the focal circle (fx, fy, fr) and attributes taken through
/// href from a gradient of the other type, against values worked out from the specification.
import Foundation
import ReelDocument
import ReelGeometry
import ReelScene
import Testing

@testable import ReelSVG

@Suite struct SVGGradientTests {
    func fills(_ body: String) throws -> [ShapeGradient?] {
        let svg = try SVGImport.image(
            Data(
                """
                <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 200 100">
                \(body)
                </svg>
                """.utf8), file: "t.svg", name: "t")
        return svg.layer.sublayers.filter { $0.type == .shape }.map(\.shape.fillGradient)
    }

    let green = Color(red: 0, green: 128.0 / 255, blue: 0)

    @Test func stopColoursThroughCurrentColorAndInherit() throws {
        let g = try fills(
            """
            <g color="green" stop-color="red">
              <linearGradient id="a">
                <stop offset="0" stop-color="currentColor"/><stop offset="1" stop-color="inherit"/>
              </linearGradient>
            </g>
            <linearGradient id="b" stop-color="green" color="blue">
              <stop offset="0" stop-color="inherit"/><stop offset="1" style="stop-color: currentColor"/>
            </linearGradient>
            <linearGradient id="c" xlink:href="#b" stop-color="red">
            </linearGradient>
            <linearGradient id="d" stop-color="green"/>
            <linearGradient id="e" xlink:href="#d">
              <stop offset="0" stop-color="inherit"/><stop offset="1" stop-color="currentColor"/>
            </linearGradient>
            <rect width="10" height="10" fill="url(#a)"/>
            <rect width="10" height="10" fill="url(#b)"/>
            <rect width="10" height="10" fill="url(#c)"/>
            <rect width="10" height="10" fill="url(#e)"/>
            """)
        // a: currentColor is the colour the stop inherits from the group (green); inherit takes the parent
        // gradient's stop-color, which it does not declare and does not inherit (stop-color is not
        // inherited): the initial black, not the group's red.
        #expect(g[0]?.colors == [green, .black])
        // b: inherit is the gradient's own stop-color; currentColor (in a style attribute) its colour.
        #expect(g[1]?.colors == [green, Color(red: 0, green: 0, blue: 1)])
        // c: the stops come from b through href and keep b's resolution, not c's red.
        #expect(g[2]?.colors == [green, Color(red: 0, green: 0, blue: 1)])
        // e: the parent of e's stops is e, which declares no stop-color (d's is not inherited through
        // href); no colour anywhere: black.
        #expect(g[3]?.colors == [.black, .black])
    }

    @Test func stopOpacityAndColourSyntaxes() throws {
        let g = try fills(
            """
            <linearGradient id="a">
              <stop offset="0" stop-color="hsla(120, 100%, 25%, 0.5)" stop-opacity="0.5"/>
              <stop offset="0.5" stop-color="rgba(0, 0, 255, 0.4)" style="stop-opacity: 50%"/>
              <stop offset="1" stop-color="black" stop-opacity="0.2" style="stop-opacity: 0.25"/>
            </linearGradient>
            <rect width="10" height="10" fill="url(#a)"/>
            """)
        let colors = try #require(g[0]).colors
        // hsl(120°, 100 %, 25 %) is rgb(0, 0.5, 0); its alpha 0.5 times stop-opacity 0.5.
        #expect(colors[0] == Color(red: 0, green: 0.5, blue: 0, alpha: 0.25))
        // rgba's 0.4 times 50 % (from the style attribute).
        #expect(abs(colors[1].alpha - 0.2) < 1e-12 && colors[1].blue == 1)
        // The style attribute beats the presentation attribute: 0.25, not 0.2.
        #expect(colors[2] == Color(red: 0, green: 0, blue: 0, alpha: 0.25))
        #expect(try #require(g[0]).straightInterpolation)
    }

    @Test func spreadMethods() throws {
        let g = try fills(
            """
            <linearGradient id="s"><stop offset="0"/><stop offset="1" stop-color="white"/></linearGradient>
            <linearGradient id="reflect" xlink:href="#s" spreadMethod="reflect"/>
            <radialGradient id="repeat" xlink:href="#s" spreadMethod="repeat"/>
            <linearGradient id="bad" xlink:href="#s" spreadMethod="mirror"/>
            <rect width="10" height="10" fill="url(#s)"/>
            <rect width="10" height="10" fill="url(#reflect)"/>
            <rect width="10" height="10" fill="url(#repeat)"/>
            <rect width="10" height="10" fill="url(#bad)"/>
            """)
        #expect(g.map { $0?.spread } == [.pad, .reflect, .repeat, .pad])
    }

    @Test func focalCircle() throws {
        let g = try fills(
            """
            <radialGradient id="s"><stop offset="0"/><stop offset="1" stop-color="white"/></radialGradient>
            <radialGradient id="plain" xlink:href="#s" fx="50%" fy="0.5"/>
            <radialGradient id="f" xlink:href="#s" cx="0.7" fx="0.6" fr="0.2"/>
            <radialGradient id="g" xlink:href="#f" fy="0.25" fr="-1"/>
            <radialGradient id="user" xlink:href="#s" gradientUnits="userSpaceOnUse" cx="60%" cy="50%" r="10%"
                fx="40%" fy="45%" fr="5"/>
            <rect width="10" height="10" fill="url(#plain)"/>
            <rect width="10" height="10" fill="url(#f)"/>
            <rect width="10" height="10" fill="url(#g)"/>
            <rect width="10" height="10" fill="url(#user)"/>
            """)
        let centre = Point(x: 0.5, y: 0.5)
        // The focal point written at the centre, with no radius: the plain radial gradient.
        #expect(g[0]?.kind == .radial(center: centre, radius: 0.5))
        // fy defaults to cy (0.5), not to 50 %.
        #expect(g[1]?.kind == .focal(focus: Point(x: 0.6, y: 0.5), focalRadius: 0.2, center: Point(x: 0.7, y: 0.5), radius: 0.5))
        // cx, fx from f through href; a negative fr is none.
        #expect(g[2]?.kind == .focal(focus: Point(x: 0.6, y: 0.25), focalRadius: 0, center: Point(x: 0.7, y: 0.5), radius: 0.5))
        // User space in a 200 × 100 viewBox: x percentages of 200, y of 100, r of the normalized diagonal
        // √((200² + 100²)/2) = 158.114, so r = 15.811.
        let user = try #require(g[3])
        guard case .focal(let f, let fr, let c, let r) = user.kind else {
            Issue.record("\(user.kind)")
            return
        }
        #expect(f == Point(x: 80, y: 45) && fr == 5 && c == Point(x: 120, y: 50) && abs(r - 15.8114) < 1e-4)
        #expect(user.transform == .identity)
    }

    /// resvg's rule: gradientUnits, spreadMethod and gradientTransform come through href from either type;
    /// geometry only from the same type, and not past one of the other type.
    @Test func attributesFromTheOtherType() throws {
        let g = try fills(
            """
            <radialGradient id="r" y2="1" cx="0.1" spreadMethod="reflect" gradientUnits="userSpaceOnUse"
                gradientTransform="translate(5 0)"/>
            <linearGradient id="l" xlink:href="#r" x2="50">
              <stop offset="0"/><stop offset="1" stop-color="white"/>
            </linearGradient>
            <linearGradient id="far" x1="7"/>
            <radialGradient id="mid" xlink:href="#far"/>
            <linearGradient id="near" xlink:href="#mid" gradientUnits="userSpaceOnUse">
              <stop offset="0"/><stop offset="1" stop-color="white"/>
            </linearGradient>
            <rect x="10" width="10" height="10" fill="url(#l)"/>
            <rect x="10" width="10" height="10" fill="url(#near)"/>
            """)
        let l = try #require(g[0])
        // y2 stays its default 0 %; units, spread and transform are the radial gradient's.
        #expect(l.kind == .axial(start: .zero, end: Point(x: 50, y: 0)))
        #expect(l.spread == .reflect)
        #expect(l.transform == Transform2D(a: 1, b: 0, c: 0, d: 1, tx: 5, ty: 0))
        // x1 = 7 sits behind a radial gradient: not reached. x2 defaults to 100 % of the 200 wide viewport.
        #expect(g[1]?.kind == .axial(start: .zero, end: Point(x: 200, y: 0)))
    }
}
