/// A frame's video pictures as the renderer's input: which pictures a snapshot asks for (every
/// replicated instance at its own time, hidden layers not at all) and that each is drawn where its layer is.
import ReelGeometry
import ReelRaster
import ReelRender
import ReelScene
import Testing

@Suite struct VideoPicturesTests {
    /// A 30 × 10 scene: a replicator of three instances 10 points apart, 0.5 s apart in time, showing a
    /// 10 × 10 video layer that plays a 10 s file from its start; and a hidden video layer.
    static func scene() -> Scene {
        var scene = Scene(width: 30, height: 10, fps: FrameRate(numerator: 10, denominator: 1)!, duration: 5)
        var video = Layer(name: "clip", type: .video)
        video.anchorPoint = .zero
        video.bounds = Rect(x: 0, y: 0, width: 10, height: 10)
        video.video = VideoPlayback(name: "clip.mp4", file: "clip.mp4", size: Size(width: 10, height: 10), from: 0, to: 10)
        var replicator = Layer(name: "row", type: .replicator)
        replicator.anchorPoint = .zero
        replicator.bounds = Rect(x: 0, y: 0, width: 30, height: 10)
        replicator.replicator.instanceCount = 3
        replicator.replicator.instanceDelay = 0.5
        replicator.replicator.instanceTransform = .translation(10, 0, 0)
        replicator.sublayers = [video]
        var hidden = video
        hidden.name = "hidden"
        hidden.hidden = true
        scene.layers = [replicator, hidden]
        return scene
    }

    /// A 10 × 10 picture of one opaque colour.
    static func picture(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> RasterImage {
        RasterImage(width: 10, height: 10, premultipliedRGBA: Array(repeating: [r, g, b, 255], count: 100).flatMap { $0 })!
    }

    /// At t = 2 the instances are at their own times 2, 1.5 and 1 s (t − k·instanceDelay), so the frame
    /// asks for three pictures of one layer; the hidden layer, which `emit` would not draw, asks for none.
    @Test func aSnapshotAsksForEveryInstancesPicture() {
        let requests = SceneRenderer.videoFrames(in: Self.scene().sample(at: 2))
        #expect(requests.map(\.layer) == ["clip", "clip", "clip"])
        #expect(requests.map(\.fileTime) == [2, 1.5, 1])
    }

    /// Each instance shows the picture given for its own file time; a time given no picture draws nothing.
    @Test func eachInstanceShowsItsOwnPicture() throws {
        let scene = Self.scene()
        var pictures = LayerPictures()
        pictures[layer: "clip", at: 2] = Self.picture(255, 0, 0)
        pictures[layer: "clip", at: 1.5] = Self.picture(0, 255, 0)
        let frame = try SceneRenderer().frame(for: scene, at: 2, pictures: pictures)
        #expect(frame.pixel(x: 5, y: 5) == (255, 0, 0, 255))
        #expect(frame.pixel(x: 15, y: 5) == (0, 255, 0, 255))
        // The scene's white background shows where nothing is drawn.
        #expect(frame.pixel(x: 25, y: 5) == (255, 255, 255, 255))
        // Without pictures, no video layer draws anything.
        #expect(try SceneRenderer().frame(for: scene, at: 2).pixel(x: 5, y: 5) == (255, 255, 255, 255))
    }
}
