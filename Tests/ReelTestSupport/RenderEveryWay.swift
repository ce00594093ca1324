// renderEveryWay: a frame drawn with several thread counts, band heights and kernel variants, held byte-identical.
import ReelRaster
import Testing

/// One way the rasterizer may run: how many workers, how tall its bands, which pixel kernels.
public struct RenderWay: Sendable, CustomStringConvertible {
    public let threads: Int
    public let bandHeight: Int
    /// The pixel kernels' variant, as `REEL_KERNELS` would name it (`KernelVariant`'s raw values).
    public let kernels: String

    public init(threads: Int, bandHeight: Int, kernels: String = "portable") {
        self.threads = threads
        self.bandHeight = bandHeight
        self.kernels = kernels
    }

    public var description: String { "\(threads) threads, \(bandHeight)-row bands, \(kernels) kernels" }

    /// A rasterizer that runs this way, its kernels chosen on the rasterizer (not by `REEL_KERNELS`:
    /// tests run in parallel in one process). A name that is no variant is a mistake in the test.
    public func rasterizer() -> Rasterizer {
        let variant = KernelVariant(rawValue: kernels)
        precondition(variant != nil, "no kernel variant is named \(kernels)")
        return Rasterizer(threads: threads, bandHeight: bandHeight, kernels: variant)
    }
}

/// The ways `renderEveryWay` draws a frame, the first being the reference the others must equal.
public enum RenderWays {
    /// The pixel kernels to draw with: every variant this CPU runs (`KernelVariant.supported`, portable
    /// first), so every test that renders every way checks each gives the portable kernels' bytes.
    public static let kernelVariants = KernelVariant.supported.map(\.rawValue)

    /// Thread counts and band heights: one worker with the default 32-row bands (the reference); two
    /// workers on the same bands; three on 7-row bands (odd, so bands cut shapes, groups and blurs at
    /// rows no power of two lands on); four on 1-row bands; two on one band taller than any test frame.
    static let layouts: [(threads: Int, bandHeight: Int)] = [(1, 32), (2, 32), (3, 7), (4, 1), (2, 100_000)]

    /// Every layout with the portable kernels, then the reference layout with each other kernel variant
    /// (a variant's kernels are per pixel run, so the layouts need not be crossed with them).
    public static var all: [RenderWay] {
        layouts.map { RenderWay(threads: $0.threads, bandHeight: $0.bandHeight) }
            + kernelVariants.filter { $0 != "portable" }.map {
                RenderWay(threads: layouts[0].threads, bandHeight: layouts[0].bandHeight, kernels: $0)
            }
    }
}

/// Draws a frame every way in `RenderWays.all` with `render`, records an issue at the caller for each
/// way whose bytes differ from the first way's (with the first differing pixel), and returns the first
/// way's frame for the test's own checks.
///
/// `render` gets the rasterizer to use; it may wrap it (a `SceneRenderer(rasterizer:)`) or call it
/// directly. The output must not depend on the way: bands are laid out independently of the thread
/// count, and every row is computed by the same arithmetic whichever band holds it.
@discardableResult
public func renderEveryWay(
    sourceLocation: SourceLocation = #_sourceLocation, _ render: (Rasterizer) throws -> Frame
) throws -> Frame {
    let ways = RenderWays.all
    let reference = try render(ways[0].rasterizer())
    for way in ways.dropFirst() {
        let frame = try render(way.rasterizer())
        guard frame.width == reference.width, frame.height == reference.height else {
            Issue.record(
                "\(way): \(frame.width)×\(frame.height), not \(reference.width)×\(reference.height) as with \(ways[0])",
                sourceLocation: sourceLocation)
            continue
        }
        if frame.pixels != reference.pixels {
            let i = frame.pixels.indices.first { frame.pixels[$0] != reference.pixels[$0] } ?? 0
            let pixel = i / 4, x = pixel % max(1, reference.width), y = pixel / max(1, reference.width)
            Issue.record(
                "\(way) differs from \(ways[0]): first at pixel (\(x), \(y)) channel \(i % 4), \(frame.pixels[i]) not \(reference.pixels[i])",
                sourceLocation: sourceLocation)
        }
    }
    return reference
}

/// A display list drawn every way into a `width` × `height` frame (see `renderEveryWay(_:)`).
@discardableResult
public func renderEveryWay(
    _ list: DisplayList, width: Int, height: Int, sourceLocation: SourceLocation = #_sourceLocation
) throws -> Frame {
    try renderEveryWay(sourceLocation: sourceLocation) { try $0.render(list, width: width, height: height) }
}
