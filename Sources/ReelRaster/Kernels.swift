/// The pixel kernels' variants (portable, AVX2, AVX-512 in the C target CRasterKernels): which this CPU
/// runs, which `REEL_KERNELS` asks for, and each one's table.
internal import CRasterKernels
import Foundation

/// A set of pixel kernels, one per instruction set. Every variant writes the same bytes as the portable
/// one (integer and fixed-point lanes, float operations in the portable order and never fused), so the
/// frames of one clip drawn on different machines join without a seam.
public enum KernelVariant: String, CaseIterable, Sendable, CustomStringConvertible {
    /// Four pixels an iteration in the build's baseline lanes (SSE2 on x86-64, NEON on arm64).
    case portable
    /// Eight pixels an iteration in 256-bit lanes (x86-64).
    case avx2
    /// Sixteen pixels an iteration in 512-bit lanes (x86-64 with AVX-512 F, BW, VL and DQ).
    case avx512

    /// The environment variable that forces a variant for every rasterizer that does not choose one.
    public static let environmentVariable = "REEL_KERNELS"

    /// The variants this CPU and its operating system run, narrowest first (portable always).
    public static let supported: [KernelVariant] = allCases.filter { reel_kernels_supported($0.code) != 0 }

    /// The widest variant this CPU runs: the one drawn with unless `REEL_KERNELS` says otherwise.
    public static var widest: KernelVariant { supported.last ?? .portable }

    public var isSupported: Bool { Self.supported.contains(self) }

    public var description: String { rawValue }

    /// `REEL_KERNELS`'s variant, or the widest this CPU runs where it is unset or empty; the error
    /// where it names no variant or one this CPU does not run. The environment is read once a process.
    public static func chosen() throws(RasterError) -> KernelVariant { try environmentChoice.get() }

    private static let environmentChoice = choice(ProcessInfo.processInfo.environment[environmentVariable])

    /// The variant a value of `REEL_KERNELS` asks for (nil or empty: the widest this CPU runs).
    static func choice(_ value: String?) -> Result<KernelVariant, RasterError> {
        guard let value, !value.isEmpty else { return .success(widest) }
        guard let variant = KernelVariant(rawValue: value), variant.isSupported else {
            return .failure(.kernelsUnavailable(requested: value, fromEnvironment: true))
        }
        return .success(variant)
    }

    var code: Int32 {
        switch self {
        case .portable: return Int32(REEL_KERNELS_PORTABLE)
        case .avx2: return Int32(REEL_KERNELS_AVX2)
        case .avx512: return Int32(REEL_KERNELS_AVX512)
        }
    }

    /// The variant's kernels; only for a variant this CPU runs (`Rasterizer` checks before drawing).
    var table: reel_raster_kernels { reel_kernels_table(code) }
}

extension RasterError {
    /// What the kernels error says: the value asked for, what this CPU runs.
    static func kernelsDescription(requested: String, fromEnvironment: Bool) -> String {
        let runs = KernelVariant.supported.map(\.rawValue).joined(separator: ", ")
        let known = KernelVariant(rawValue: requested) != nil
        let asked = fromEnvironment ? "\(KernelVariant.environmentVariable)=\(requested)" : "the \(requested) kernels"
        if !known {
            let names = KernelVariant.allCases.map(\.rawValue).joined(separator: ", ")
            return "\(asked) names no kernel variant (there are \(names)); this CPU runs \(runs)"
        }
        return "\(asked): this CPU does not run the \(requested) kernels; it runs \(runs)"
    }

    /// How to mend it: leave the choice to Reel, or name a variant this CPU runs.
    static func kernelsFix(fromEnvironment: Bool) -> String {
        let runs = KernelVariant.supported.map(\.rawValue).joined(separator: ", ")
        guard fromEnvironment else { return "choose one of \(runs), or leave the choice to Reel (nil)" }
        return "unset \(KernelVariant.environmentVariable) to draw with the widest this CPU runs "
            + "(\(KernelVariant.widest)), or set it to one of \(runs)"
    }
}
