// Fuzz target: a dotLottie archive (a zip) or a Telegram sticker (gzip) opened in memory, its animation imported (scripts/fuzz.sh dotlottie).
import Foundation
import FuzzSupport
import ReelDocument
import ReelLottie

/// A container as `reel render x.lottie` / `x.tgs` reads it: the zip's entries checked, its manifest,
/// animation and pictures read within small limits (so that bombs are met quickly), then imported.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDotLottie(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var limits = LottieContainerLimits()
    limits.entries = 64
    limits.entryBytes = 1 << 20
    limits.totalBytes = 4 << 20
    let kind: LottieContainer.Kind = Gzip.isCompressed(bytes) ? .sticker : .dotLottie
    if let document = try? LottieContainer.read(bytes, file: "fuzz", kind: kind, limits: limits),
        let (scene, notes) = try? LottieImport.scene(document, file: "fuzz")
    {
        blackHole(notes.count + scene.sample(at: scene.duration / 2).layers.count + document.pictures.count)
    }
    return 0
}
