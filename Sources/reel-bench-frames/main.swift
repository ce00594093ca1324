// Draws every frame of a scene or Lottie file with Reel's renderer and no encoder, to time Reel's
// drawing alone against another renderer's (scripts/bench-lottie.sh); prints one JSON object.
//
//   reel-bench-frames FILE [--width W] [--fps F] [--threads N] [--workers N]
//
// --threads: band threads inside each frame; --workers: frames drawn at once (as `reel render` runs
// its frame workers), each worker taking every Nth frame. Each frame is drawn as `reel render` draws
// it: from the scene's retained presentation, into the worker's buffer, only the rows that differ from
// the frame the buffer holds.
import Foundation
import Reel
import ReelRaster
import ReelRender
import ReelScene
import Synchronization

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("reel-bench-frames: \(message)\n".utf8))
    exit(1)
}

var path = "", width: Int?, fps: FrameRate?, threads = 1, workers = 1
var args = CommandLine.arguments.dropFirst()
while let a = args.popFirst() {
    switch a {
    case "--width":
        guard let w = Int(args.popFirst() ?? "") else { fail("--width takes a number of pixels") }
        width = w
    case "--fps":
        guard let f = FrameRate(value: Double(args.popFirst() ?? "") ?? 0) else { fail("--fps takes a frame rate") }
        fps = f
    case "--threads":
        guard let n = Int(args.popFirst() ?? ""), n > 0 else { fail("--threads takes a number") }
        threads = n
    case "--workers":
        guard let n = Int(args.popFirst() ?? ""), n > 0 else { fail("--workers takes a number") }
        workers = n
    default: path = a
    }
}
guard !path.isEmpty else { fail("usage: reel-bench-frames FILE [--width W] [--fps F] [--threads N] [--workers N]") }
do {
    let clip = try Reel.load(path, overrides: SceneOverrides(fps: fps, width: width))
    let scene = clip.scene
    let renderer = clip.renderer(threads: threads)
    // The first frame once, untimed: caches (fonts, images, flattened paths) filled as a render's would be.
    _ = try renderer.frame(for: scene, at: 0)
    let presentation = RetainedPresentation(scene)
    let count = scene.frameCount, step = workers
    let start = DispatchTime.now().uptimeNanoseconds
    // Each worker draws frames w, w + N, w + 2N…; a frame that fails stops the run.
    let failed = Mutex<String?>(nil)
    DispatchQueue.concurrentPerform(iterations: step) { w in
        var frame = Frame(width: scene.pixelWidth, height: scene.pixelHeight)
        var shows: DisplayList?
        for i in stride(from: w, to: count, by: step) {
            do {
                let list = renderer.displayList(for: presentation.sample(at: scene.fps.time(ofFrame: i)), scene: scene)
                try renderer.rasterizer.render(list, into: &frame, over: shows)
                shows = list
            } catch {
                failed.withLock { $0 = "\(error)" }
                return
            }
        }
    }
    if let message = failed.withLock({ $0 }) { fail(message) }
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    print(
        #"{"frames": \#(count), "width": \#(scene.pixelWidth), "height": \#(scene.pixelHeight), "threads": \#(threads), "workers": \#(workers), "seconds": \#(seconds), "fps": \#(Double(count) / seconds)}"#
    )
} catch {
    fail("\(error)")
}
