// What `reel --version` prints: Reel's version and commit, the libraries whose versions the output bytes depend on,
// and the pixel kernels it draws with.
import Foundation
import Reel
import ReelBuildInfo
import ReelMedia
import ReelRaster
import ReelText

enum VersionReport {
    /// The first line alone is what ArgumentParser would print, so scripts reading `reel --version | head -1`
    /// get the version; the lines after it say what else must match for two machines to write the same
    /// bytes (FFmpeg's encoders and scaler, HarfBuzz's shaping and outlines, x264's encoder).
    static var text: String {
        var lines = [
            "reel \(ReelVersion.string)",
            "commit \(BuildInfo.commit)",
            "ffmpeg \(MediaLibraries.ffmpeg) ("
                + MediaLibraries.libraries.map { "\($0.name) \($0.version)" }.joined(separator: ", ") + ")",
            "harfbuzz \(TextLibraries.harfBuzz)",
        ]
        lines.append(MediaLibraries.x264().map { "x264 \($0)" } ?? "x264 not available (this FFmpeg has no libx264)")
        lines.append(kernels)
        return lines.joined(separator: "\n")
    }

    /// The pixel kernels frames are drawn with: every variant writes the same bytes, so this line is
    /// about speed, and about why a forced variant would stop a render.
    static var kernels: String {
        let runs = KernelVariant.supported.map(\.rawValue).joined(separator: ", ")
        do {
            let variant = try KernelVariant.chosen()
            let forced = !(ProcessInfo.processInfo.environment[KernelVariant.environmentVariable] ?? "").isEmpty
            let why = forced ? "forced by \(KernelVariant.environmentVariable)" : "the widest this CPU runs"
            return "kernels \(variant) (\(why); this CPU runs \(runs))"
        } catch {
            return "kernels: \(error)"
        }
    }

    /// `reel --version` alone on the command line: ArgumentParser's own answer would be the first line only.
    static func isAsked(_ arguments: [String]) -> Bool { Array(arguments.dropFirst()) == ["--version"] }
}
