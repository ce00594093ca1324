// Fuzz target: an SVG file imported into layers, then sampled and drawn (scripts/fuzz.sh svg).
import Foundation
import FuzzSupport
import ReelSVG

/// An SVG file (`reel still icon.svg`, `contents: logo.svg`): parsed by XMLParser, styled and imported
/// into layers, then sampled as a render would.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSVG(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    if let svg = try? SVGImport.image(bytes, file: "fuzz.svg", name: "fuzz") {
        var count = 0
        for entry in svg.layer.flattened() { count += entry.layer.shape.path.elements.count }
        blackHole(count + svg.warnings.count)
    }
    return 0
}
