// Fuzz target: a Lottie (Bodymovin) JSON file imported into layers and animations, then sampled (scripts/fuzz.sh lottie).
import Foundation
import FuzzSupport
import ReelLottie

/// A Lottie file (`reel render anim.json`): the located JSON parsed, layers, shapes, masks, mattes and
/// keyframes imported into a scene, then sampled as a render would.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLottie(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let (scene, notes) = try? LottieImport.scene(bytes, file: "fuzz.json") {
        var count = notes.count
        for t in [0, scene.duration / 2, scene.duration] {
            count += scene.sample(at: t).layers.count
        }
        blackHole(count)
    }
    return 0
}
