/// What a fill paints with: a solid colour, a gradient (axial, radial, conic, two-point conical; padded,
/// reflected or repeated) or an image, mapped into device space.
import ReelGeometry
import Synchronization

/// What fills the covered pixels.
public enum Paint: Sendable, Equatable {
    case solid(Color)
    case gradient(Gradient)
    /// An image, mapped into device space by `transform` (image pixel coordinates → device pixels),
    /// sampled bilinearly, its edges clamped.
    case image(RasterImage, transform: Transform2D)
}

/// A colour ramp over one of the three `CAGradientLayer` shapes, or SVG's two-point conical gradient,
/// defined in its own space and mapped into device space by `transform`.
public struct Gradient: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// s = ((P − start)·(end − start)) / ‖end − start‖².
        case axial(start: Point, end: Point)
        /// s = √(((P.x − c.x)/rx)² + ((P.y − c.y)/ry)²).
        case radial(center: Point, radiusX: Double, radiusY: Double)
        /// s = angle from `startAngle` round to +y, over 2π.
        case conic(center: Point, startAngle: Double)
        /// SVG's radial gradient with a focal circle (and canvas's `createRadialGradient`): s is the
        /// largest t whose circle — centre start + t·(end − start), radius startRadius + t·(endRadius −
        /// startRadius), never negative — passes through P. Where no circle does (outside the cone the
        /// two circles span, when one is not inside the other) nothing is painted.
        case conical(start: Point, startRadius: Double, end: Point, endRadius: Double)
    }

    /// How s outside 0…1 maps back onto the ramp (SVG's `spreadMethod`).
    public enum Spread: Sendable, Equatable {
        /// The end colours hold (Core Animation's only behaviour).
        case pad
        /// Back and forth: 1…2 runs the ramp backwards.
        case reflect
        /// Over and over: only the fraction of s counts.
        case `repeat`
    }

    /// Which colours are mixed between two stops.
    public enum Interpolation: Sendable, Equatable {
        /// Premultiplied colours, so a fade to transparent does not darken (Reel's Core Animation
        /// gradients).
        case premultiplied
        /// Straight (non-premultiplied) sRGB, premultiplied afterwards: what SVG asks for and resvg
        /// does, where a fade to transparent black passes through grey.
        case unpremultiplied
    }

    public var kind: Kind
    public var colors: [Color]
    /// Stop positions in 0…1, increasing; nil (or a count that does not match) spaces them evenly.
    public var locations: [Double]?
    public var transform: Transform2D
    public var spread: Spread
    public var interpolation: Interpolation

    public init(
        kind: Kind, colors: [Color], locations: [Double]? = nil, transform: Transform2D = .identity, spread: Spread = .pad,
        interpolation: Interpolation = .premultiplied
    ) {
        self.kind = kind
        self.colors = colors
        self.locations = locations
        self.transform = transform
        self.spread = spread
        self.interpolation = interpolation
    }
}

/// A decoded picture: premultiplied RGBA8 rows, no padding.
public struct RasterImage: Sendable, Equatable {
    /// Zero, or a number its maker gives no other picture (`RasterImage(_:unique:)`): compared first, so
    /// that two such pictures are told apart without comparing their pixels (a terminal's rows, each a
    /// picture of 1,880 × 30 pixels, compared with the row before's in every frame that scrolled).
    public let tag: Int
    public let width: Int
    public let height: Int
    public let pixels: [UInt8]
    /// Every pixel's alpha is 255, known from its maker (false: not known).
    public let isOpaque: Bool

    /// Nil unless `pixels` holds width × height pixels (sizes whose byte count overflows included,
    /// where the product would have trapped).
    public init?(width: Int, height: Int, premultipliedRGBA pixels: [UInt8]) {
        guard width > 0, height > 0 else { return nil }
        let (area, areaOverflows) = width.multipliedReportingOverflow(by: height)
        let (bytes, bytesOverflow) = area.multipliedReportingOverflow(by: 4)
        guard !areaOverflows, !bytesOverflow, pixels.count == bytes else { return nil }
        self.tag = 0
        self.width = width
        self.height = height
        self.pixels = pixels
        self.isOpaque = false
    }

    public init(_ frame: Frame) {
        self.tag = 0
        self.width = frame.width
        self.height = frame.height
        self.pixels = frame.pixels
        self.isOpaque = false
    }

    private static let tags = Atomic<Int>(0)

    /// A frame as a picture unlike any other made so: tagged with a number of its own, and its opacity
    /// found (one pass over its pixels: for pictures made once and drawn many times).
    public init(unique frame: Frame) {
        self.tag = Self.tags.wrappingAdd(1, ordering: .relaxed).newValue
        self.width = frame.width
        self.height = frame.height
        self.pixels = frame.pixels
        self.isOpaque = frame.pixels.withUnsafeBytes { bytes in
            var alpha: UInt32 = 0xFF00_0000
            for i in 0..<(bytes.count / 4) { alpha &= bytes.loadUnaligned(fromByteOffset: i &* 4, as: UInt32.self) }
            return alpha == 0xFF00_0000
        }
    }
}
