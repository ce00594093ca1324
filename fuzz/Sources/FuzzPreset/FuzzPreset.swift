// Fuzz target: an output preset file decoded as --preset FILE decodes it (scripts/fuzz.sh preset).
import FuzzSupport
import Reel

/// An output preset file (`presets/NAME.yaml`), decoded as `--preset FILE` decodes it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPreset(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    if let preset = try? Preset.decode(yaml: text(data, size), file: "fuzz.yaml", name: "fuzz") { blackHole(preset) }
    return 0
}
