// Fuzz target: a batch manifest, as YAML and as JSON, decoded as reel batch decodes it (scripts/fuzz.sh manifest).
import FuzzSupport
import Reel

// The YAML reader is the package's own; scripts/fuzz.sh builds with -enable-testing so the target can
// reach it without reading a file, as `BatchManifest.load` would.
@testable import ReelDocument

/// A batch manifest (`reel batch MANIFEST`): a YAML one, and when the bytes parse as JSON, the JSON one.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzManifest(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    if let root = try? YAMLReader.parse(text(data, size), file: "fuzz.yaml"),
        let manifest = try? BatchManifest.decode(root, file: "fuzz.yaml")
    {
        blackHole(manifest)
    }
    if let root = try? JSONParser.parse(Array(UnsafeBufferPointer(start: data, count: size))),
        let manifest = try? BatchManifest.decode(root, file: "fuzz.json")
    {
        blackHole(manifest)
    }
    return 0
}
