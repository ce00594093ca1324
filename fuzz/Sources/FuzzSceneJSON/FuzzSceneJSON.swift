// Fuzz target: a JSON scene decoded as reel render decodes it, then sampled (scripts/fuzz.sh json).
import FuzzSupport
import ReelScene

/// A JSON scene file: decoded as `reel render scene.json` decodes it, then sampled.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSceneJSON(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let scene = try? SceneDecoder.decode(bytes, file: "fuzz.json") { exercise(scene) }
    return 0
}
