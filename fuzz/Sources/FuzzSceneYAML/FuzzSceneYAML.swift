// Fuzz target: a YAML scene decoded as reel render decodes it, then sampled (scripts/fuzz.sh yaml).
import FuzzSupport
import ReelScene

/// A YAML scene file: decoded as `reel render scene.yaml` decodes it (Yams, then the shared decoder),
/// then sampled.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSceneYAML(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    if let scene = try? SceneDecoder.decode(yaml: text(data, size), file: "fuzz.yaml") { exercise(scene) }
    return 0
}
