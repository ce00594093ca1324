/// Filters on a group's flattened picture (a layer's `filters`): what they are, and how they are prepared.
import Foundation
import ReelGeometry

/// The pixels a frame's SVG filters may cover together (each group's picture, 4 bytes a pixel, is held
/// for the frame: 256 MiB).
public let maximumFilterPixels = 64_000_000

/// A filter on a group's picture, applied in order to the flattened content before its shadow, clip,
/// mask and opacity (a layer's `filters`).
public enum PictureFilter: Sendable, Equatable {
    /// A Gaussian blur of standard deviation `sigma` device pixels. Outside the picture is transparent
    /// (Core Image's clamp-to-transparent edges); the blurred picture spreads 3σ past the content.
    case blur(sigma: Double)
    /// A colour matrix on unpremultiplied colour in 0…1 (`ColorMatrix`).
    case colorMatrix(ColorMatrix)
    /// An SVG filter in device space (`FilterEffects.swift`): evaluated once a frame over its whole
    /// region, as its primitives may read any of it; `images` holds the pictures its `image`
    /// primitives name (one not there draws nothing).
    case effect(FilterEffect, images: [String: RasterImage] = [:])
}

/// Four rows (red, green, blue, alpha), each four coefficients on the unpremultiplied (r, g, b, a) in
/// 0…1 and a bias: Core Image's `CIColorMatrix` and SVG's `feColorMatrix`. Results are clamped to 0…1.
public struct ColorMatrix: Sendable, Equatable {
    /// 20 numbers, row by row: r' = m[0]·r + m[1]·g + m[2]·b + m[3]·a + m[4], and so on.
    public var values: [Double]

    public init(_ values: [Double]) {
        precondition(values.count == 20, "a colour matrix has 20 numbers")
        self.values = values
    }

    public static let identity = ColorMatrix([1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0])

    /// This matrix applied after `first`: one matrix for both (without the clamp between them).
    public func after(_ first: ColorMatrix) -> ColorMatrix {
        var out = [Double](repeating: 0, count: 20)
        for row in 0..<4 {
            for column in 0..<5 {
                var sum = column == 4 ? values[row * 5 + 4] : 0
                for k in 0..<4 { sum += values[row * 5 + k] * first.values[k * 5 + column] }
                out[row * 5 + column] = sum
            }
        }
        return ColorMatrix(out)
    }

    /// Whether a transparent pixel stays transparent (no bias on alpha): the filter changes only what
    /// the content covers.
    var keepsTransparent: Bool { values[19] <= 0 }
}

extension DrawTree {
    /// A filter ready to apply: a blur's kernel and reach, a matrix in single precision.
    enum PreparedFilter {
        /// `kernel`: the Gaussian over pixels, or over the cells of a coarse grid (`coarseFactor` > 1).
        case blur(sigma: Double, kernel: [Float], coarseFactor: Int, margin: Int)
        case matrix(rows: [SIMD4<Float>], bias: SIMD4<Float>)
        case effect(EffectPlan)

        /// Content around the canvas the filter reads.
        var margin: Int {
            if case .blur(_, _, _, let m) = self { return m }
            return 0
        }
    }

    /// The filters that change something, prepared (an effect whose region holds no pixel is left out:
    /// `parse` leaves out its group); a blur of σ below 0.05 px or an identity matrix is
    /// left out.
    static func prepare(_ filters: [PictureFilter]) -> [PreparedFilter] {
        filters.compactMap { f -> PreparedFilter? in
            switch f {
            case .blur(let sigma):
                guard sigma.isFinite, sigma > 0.05 else { return nil }
                // Capped as shadows are: the reach is memory held around every band.
                let s = min(sigma, maximumShadowSigma)
                if s >= BandPainter.coarseFilterSigma {
                    let f = BandPainter.filterCoarseFactor(sigma: s)
                    // Cells within the kernel's reach, two more for the bilinear taps, one partly outside.
                    let margin = Int((3 * s).rounded(.up)) + 2 + 3 * f
                    return .blur(
                        sigma: s, kernel: gaussianKernel(sigma: BandPainter.coarseSigma(s, factor: f)), coarseFactor: f,
                        margin: margin)
                }
                let kernel = gaussianKernel(sigma: s)
                return .blur(sigma: s, kernel: kernel, coarseFactor: 1, margin: kernel.count / 2 + 1)
            case .colorMatrix(let m):
                guard m.values.allSatisfy(\.isFinite), m != .identity else { return nil }
                let v = m.values.map(Float.init)
                let rows = (0..<4).map { r in SIMD4(v[r * 5], v[r * 5 + 1], v[r * 5 + 2], v[r * 5 + 3]) }
                return .matrix(rows: rows, bias: SIMD4(v[4], v[9], v[14], v[19]))
            case .effect(let e, let images):
                return EffectPlan(e, images: images).map(PreparedFilter.effect)
            }
        }
    }
}
