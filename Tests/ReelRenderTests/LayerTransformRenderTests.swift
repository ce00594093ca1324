// Layer transforms (anchor point, zPosition, sublayerTransform) and replicators drawn, each every way, against hand-placed pixels.
import ReelRaster
import ReelRender
import ReelScene
import ReelTestSupport
import Testing

@Suite struct LayerTransformRenderTests {
    func render(_ json: String) throws -> ReelRaster.Frame {
        let scene = try SceneDecoder.decode(Array(json.utf8), file: "t.json")
        return try renderEveryWay { try SceneRenderer(rasterizer: $0).frame(for: scene, at: 0) }
    }

    /// A 10×10 square at (50, 50) scaled 2× about its centre covers 40…60; rotated 45° its corner
    /// reaches 50 + 10√2 = 64.1 along x.
    @Test func transformPivotsOnTheAnchorPoint() throws {
        let f = try render(
            ##"{"width": 100, "height": 100, "fps": 10, "duration": 1, "background": "#ffffff", "layers": [{"name": "s", "position": [50, 50], "bounds": [10, 10], "backgroundColor": "#000000", "transform": {"scale": 2}}]}"##
        )
        #expect(f.pixel(x: 40, y: 40).r == 0 && f.pixel(x: 59, y: 59).r == 0)
        #expect(f.pixel(x: 39, y: 50).r == 255 && f.pixel(x: 60, y: 50).r == 255)
        let r = try render(
            ##"{"width": 100, "height": 100, "fps": 10, "duration": 1, "background": "#ffffff", "layers": [{"name": "s", "position": [50, 50], "bounds": [20, 20], "backgroundColor": "#000000", "transform": {"rotation": 0.7853981633974483}}]}"##
        )
        #expect(r.pixel(x: 62, y: 49).r == 0 && r.pixel(x: 65, y: 49).r == 255)  // |dx| + |dy| ≤ 14.1 inside
        #expect(r.pixel(x: 58, y: 41).r == 255)  // the square's corner is cut away by the rotation
    }

    @Test func zPositionOrdersSiblings() throws {
        let f = try render(
            ##"{"width": 20, "height": 20, "fps": 10, "duration": 1, "layers": [{"name": "front", "zPosition": 1, "position": [10, 10], "bounds": [20, 20], "backgroundColor": "#ff0000"}, {"name": "back", "position": [10, 10], "bounds": [20, 20], "backgroundColor": "#0000ff"}]}"##
        )
        #expect(f.pixel(x: 10, y: 10) == (255, 0, 0, 255))
    }

    @Test func sublayerTransformAboutThePivot() throws {
        // The parent's sublayerTransform scales its sublayers 2× about the parent's centre (50, 50).
        let f = try render(
            ##"{"width": 100, "height": 100, "fps": 10, "duration": 1, "background": "#ffffff", "layers": [{"name": "p", "position": [50, 50], "bounds": [100, 100], "sublayerTransform": {"scale": 2}, "sublayers": [{"name": "c", "position": [50, 50], "bounds": [10, 10], "backgroundColor": "#000000"}]}]}"##
        )
        #expect(f.pixel(x: 41, y: 41).r == 0 && f.pixel(x: 38, y: 50).r == 255)
    }
}

@Suite struct ReplicatorRenderTests {
    func render(_ json: String, at t: Double = 0) throws -> ReelRaster.Frame {
        let scene = try SceneDecoder.decode(Array(json.utf8), file: "r.json")
        return try renderEveryWay { try SceneRenderer(rasterizer: $0).frame(for: scene, at: t) }
    }

    /// Four instances of a square at the top, each turned a further 90° about the bounds' centre:
    /// top, right, bottom, left; colour offsets take blue down by 0.25 per instance on white.
    @Test func instancesTurnAboutTheCentreAndShiftColour() throws {
        let f = try render(
            ##"{"width": 100, "height": 100, "fps": 10, "duration": 1, "background": "#000000", "layers": [{"name": "r", "type": "replicator", "position": [50, 50], "bounds": [100, 100], "instanceCount": 4, "instanceTransform": {"rotation": 1.5707963267948966}, "instanceBlueOffset": -0.25, "sublayers": [{"name": "s", "position": [50, 10], "bounds": [10, 10], "backgroundColor": "#ffffff"}]}]}"##
        )
        #expect(f.pixel(x: 50, y: 10) == (255, 255, 255, 255))  // k = 0: white × white
        #expect(f.pixel(x: 89, y: 50) == (255, 255, 191, 255))  // k = 1 at the right: blue 1 − 0.25 → 191
        #expect(f.pixel(x: 50, y: 89) == (255, 255, 128, 255))  // k = 2 at the bottom: 0.5 → 128 (127.5 up)
        #expect(f.pixel(x: 10, y: 50) == (255, 255, 64, 255))  // k = 3 at the left: 0.25 → 64 (63.75)
        #expect(f.pixel(x: 50, y: 50) == (0, 0, 0, 255))
    }

    /// Instance k is sampled at t − k·instanceDelay.
    @Test func instanceDelay() throws {
        let json =
            ##"{"width": 40, "height": 20, "fps": 10, "duration": 1, "background": "#000000", "layers": [{"name": "r", "type": "replicator", "position": [20, 10], "bounds": [40, 20], "instanceCount": 2, "instanceDelay": 0.5, "instanceTransform": {"translation": [20, 0]}, "sublayers": [{"name": "s", "position": [10, 10], "bounds": [20, 20], "backgroundColor": "#ffffff", "opacity": 0, "animations": [{"keyPath": "opacity", "fromValue": 0, "toValue": 1, "duration": 1, "fillMode": "both", "removedOnCompletion": false}]}]}]}"##
        let f = try render(json, at: 0.75)
        #expect(f.pixel(x: 10, y: 10).r == 191)  // k = 0 at 0.75: opacity 0.75
        #expect(f.pixel(x: 30, y: 10).r == 64)  // k = 1 at 0.25: opacity 0.25
    }
}
