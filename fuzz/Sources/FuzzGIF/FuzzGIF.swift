// Fuzz target: a GIF segment's blocks walked as reel concat reads them: every frame inside the file (scripts/fuzz.sh gif).
import FuzzSupport

@testable import ReelGIF

/// A GIF file as `reel concat` reads a segment: its blocks walked (GIFBlocks), each frame's bytes inside
/// the file and after the header.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGIF(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = [UInt8](UnsafeBufferPointer(start: data, count: size))
    if case .success(let blocks) = GIFBlocks.read(bytes) {
        for frame in blocks.frames where frame.startIndex < blocks.header.endIndex || frame.endIndex > bytes.count {
            fatalError("a frame outside the file")
        }
        blackHole(blocks.frames.count + blocks.applicationExtensions.count)
    }
    return 0
}
