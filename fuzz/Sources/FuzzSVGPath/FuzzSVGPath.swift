// Fuzz target: SVG path data parsed, flattened, measured and stroked (scripts/fuzz.sh path).
import FuzzSupport
import ReelGeometry

/// SVG path data (a shape layer's `path: "M 0 0 L …"`): parsed, then flattened, measured and stroked.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSVGPath(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    if let path = try? Path(svgPathData: text(data, size)) { exercise(path) }
    return 0
}
