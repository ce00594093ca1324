/// Snapshot → display list: where a layer's background lands in device pixels (position, bounds,
/// anchor point, scale, transforms, sublayers), what hidden and transparent layers draw, and when a
/// layer becomes a group — each expectation worked out by hand from CORE-ANIMATION.md §8.2.
import ReelGeometry
import ReelRaster
import ReelRender
import ReelScene
import Testing

@Suite struct LayerGeometryTests {
    func scene(scale: Double = 1, _ layers: [Layer]) -> Scene {
        var s = Scene(width: 100, height: 100, scale: scale, fps: FrameRate(numerator: 10, denominator: 1)!, duration: 1)
        s.layers = layers
        return s
    }

    func box(_ name: String, position: Point, bounds: Rect, color: Color = .black) -> Layer {
        var l = Layer(name: name, type: .layer)
        l.position = position
        l.bounds = bounds
        l.backgroundColor = color
        return l
    }

    /// The device-space bounding box of every point of a fill's path.
    func box(of command: DisplayList.Command) -> Rect? {
        guard case .fill(let path, _, _, _) = command else { return nil }
        var xs: [Double] = [], ys: [Double] = []
        for e in path.elements {
            switch e {
            case .move(let p), .line(let p):
                xs.append(p.x)
                ys.append(p.y)
            case .quad(let c, let p):
                xs += [c.x, p.x]
                ys += [c.y, p.y]
            case .cubic(let a, let b, let p):
                xs += [a.x, b.x, p.x]
                ys += [a.y, b.y, p.y]
            case .close: break
            }
        }
        guard let x0 = xs.min(), let x1 = xs.max(), let y0 = ys.min(), let y1 = ys.max() else { return nil }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    func list(_ s: Scene) -> DisplayList { SceneRenderer().displayList(for: s.sample(at: 0), scene: s) }

    @Test func positionIsTheAnchorPointsPlace() throws {
        // A 40×20 box at (50, 30), anchor (0.5, 0.5): its corners at 50 ∓ 20, 30 ∓ 10; at scale 2, doubled.
        let l = list(scene(scale: 2, [box("a", position: Point(x: 50, y: 30), bounds: Rect(x: 0, y: 0, width: 40, height: 20))]))
        #expect(l.commands.count == 1)
        #expect(box(of: l.commands[0]) == Rect(x: 60, y: 40, width: 80, height: 40))
    }

    @Test func anchorPointAndBoundsOrigin() throws {
        // anchorPoint (0, 1) puts the bottom-left corner at the position; a bounds origin of (5, 5) moves
        // the content the other way: the box spans x 10 − 5 + 5 … so (10, 30 − 20) to (50, 30).
        var a = box("a", position: Point(x: 10, y: 30), bounds: Rect(x: 5, y: 5, width: 40, height: 20))
        a.anchorPoint = Point(x: 0, y: 1)
        let l = list(scene([a]))
        #expect(box(of: l.commands[0]) == Rect(x: 10, y: 10, width: 40, height: 20))
    }

    @Test func sublayersLiveInTheirParentsBounds() throws {
        // Parent 60×60 centred at (50, 50): its bounds' (0, 0) is at (20, 20). A 10×10 child at (30, 30)
        // in those coordinates is centred at (50, 50): corners (45, 45)–(55, 55). The parent is rotated
        // a quarter turn about its centre, which maps that square onto itself.
        var parent = box("p", position: Point(x: 50, y: 50), bounds: Rect(x: 0, y: 0, width: 60, height: 60), color: .white)
        parent.transform = .rotation(Double.pi / 2)
        parent.sublayers = [box("c", position: Point(x: 30, y: 30), bounds: Rect(x: 0, y: 0, width: 10, height: 10))]
        let l = list(scene([parent]))
        #expect(l.commands.count == 2)
        let child = try #require(box(of: l.commands[1]))
        for (got, want) in [(child.minX, 45.0), (child.minY, 45), (child.width, 10), (child.height, 10)] {
            #expect(abs(got - want) < 1e-9, "\(child)")
        }
    }

    @Test func hiddenAndTransparentLayersDrawNothing() throws {
        var hidden = box("h", position: Point(x: 50, y: 50), bounds: Rect(x: 0, y: 0, width: 10, height: 10))
        hidden.hidden = true
        var clear = box("c", position: Point(x: 50, y: 50), bounds: Rect(x: 0, y: 0, width: 10, height: 10))
        clear.opacity = 0
        #expect(list(scene([hidden, clear])).commands.isEmpty)
    }

    @Test func opacityMakesAGroup() throws {
        // Group opacity applies to the layer and its sublayers as one picture (CALayer's default
        // allowsGroupOpacity): a group around both fills, not two translucent fills.
        var a = box("a", position: Point(x: 50, y: 50), bounds: Rect(x: 0, y: 0, width: 20, height: 20))
        a.opacity = 0.5
        a.sublayers = [box("b", position: Point(x: 5, y: 5), bounds: Rect(x: 0, y: 0, width: 10, height: 10))]
        let commands = list(scene([a])).commands
        guard case .beginGroup(let g) = commands.first else {
            Issue.record("no group: \(commands)")
            return
        }
        #expect(g.opacity == 0.5)
        #expect(commands.count == 4)
        if case .endGroup = commands.last {} else { Issue.record("the group is not closed") }
    }
}
