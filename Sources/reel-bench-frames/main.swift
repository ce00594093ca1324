// Draws every frame of a scene or Lottie file with Reel's renderer and no encoder, to time Reel's
// drawing alone against another renderer's (scripts/bench-lottie.sh); prints one JSON object.
//
//   reel-bench-frames FILE [--width W] [--fps F] [--threads N]
import Foundation
import Reel
import ReelScene

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("reel-bench-frames: \(message)\n".utf8))
    exit(1)
}

var path = "", width: Int?, fps: FrameRate?, threads = 1
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
        guard let n = Int(args.popFirst() ?? "") else { fail("--threads takes a number") }
        threads = n
    default: path = a
    }
}
guard !path.isEmpty else { fail("usage: reel-bench-frames FILE [--width W] [--fps F] [--threads N]") }
do {
    let clip = try Reel.load(path, overrides: SceneOverrides(fps: fps, width: width))
    let scene = clip.scene
    let renderer = clip.renderer(threads: threads)
    // The first frame once, untimed: caches (fonts, images, flattened paths) filled as a render's would be.
    _ = try renderer.frame(for: scene, at: 0)
    var checksum = 0
    let start = DispatchTime.now().uptimeNanoseconds
    for i in 0..<scene.frameCount {
        let frame = try renderer.frame(for: scene, at: scene.fps.time(ofFrame: i))
        checksum &+= Int(frame.pixels[frame.pixels.count / 2])
    }
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    print(
        #"{"frames": \#(scene.frameCount), "width": \#(scene.pixelWidth), "height": \#(scene.pixelHeight), "threads": \#(threads), "seconds": \#(seconds), "fps": \#(Double(scene.frameCount) / seconds), "checksum": \#(checksum)}"#
    )
} catch {
    fail("\(error)")
}
