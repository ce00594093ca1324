// Fuzz target: a dotLottie archive (a zip) or a Telegram sticker (gzip) opened from a file, its animation imported (scripts/fuzz.sh dotlottie).
import Foundation
import FuzzSupport
import ReelDocument
import ReelLottie

/// The file each input is written to: archives are read from files, as `reel render x.lottie` reads them.
private let scratch = FileManager.default.temporaryDirectory
    .appendingPathComponent("reel-fuzz-dotlottie-\(ProcessInfo.processInfo.processIdentifier)").path

/// A container as `reel render x.lottie` / `x.tgs` reads it: the zip's entries checked, its manifest,
/// animation, theme and pictures read within small limits (so that bombs are met quickly), then imported.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDotLottie(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(bytes: data, count: size)
    guard (try? bytes.write(to: URL(fileURLWithPath: scratch))) != nil else { return 0 }
    var limits = LottieContainerLimits()
    limits.entries = 64
    limits.entryBytes = 1 << 20
    limits.totalBytes = 4 << 20
    let kind: LottieContainer.Kind = Gzip.isCompressed(bytes) ? .sticker : .dotLottie
    if let document = try? LottieContainer.read(path: scratch, kind: kind, limits: limits),
        let (scene, notes) = try? LottieImport.scene(document, file: "fuzz")
    {
        blackHole(notes.count + scene.sample(at: scene.duration / 2).layers.count + document.pictures.count)
    }
    return 0
}
