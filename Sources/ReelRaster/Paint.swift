/// What a fill paints with: a solid colour, a gradient (axial, radial, conic) or an image, mapped into
/// device space.
import ReelGeometry

/// What fills the covered pixels.
public enum Paint: Sendable, Equatable {
    case solid(Color)
    case gradient(Gradient)
    /// An image, mapped into device space by `transform` (image pixel coordinates → device pixels),
    /// sampled bilinearly, its edges clamped.
    case image(RasterImage, transform: Transform2D)
}

/// A colour ramp over one of the three `CAGradientLayer` shapes, defined in its own space and mapped
/// into device space by `transform`.
public struct Gradient: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// s = ((P − start)·(end − start)) / ‖end − start‖².
        case axial(start: Point, end: Point)
        /// s = √(((P.x − c.x)/rx)² + ((P.y − c.y)/ry)²).
        case radial(center: Point, radiusX: Double, radiusY: Double)
        /// s = angle from `startAngle` round to +y, over 2π.
        case conic(center: Point, startAngle: Double)
    }

    public var kind: Kind
    public var colors: [Color]
    /// Stop positions in 0…1, increasing; nil (or a count that does not match) spaces them evenly.
    public var locations: [Double]?
    public var transform: Transform2D

    public init(kind: Kind, colors: [Color], locations: [Double]? = nil, transform: Transform2D = .identity) {
        self.kind = kind
        self.colors = colors
        self.locations = locations
        self.transform = transform
    }
}

/// A decoded picture: premultiplied RGBA8 rows, no padding.
public struct RasterImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public let pixels: [UInt8]

    public init?(width: Int, height: Int, premultipliedRGBA pixels: [UInt8]) {
        guard width > 0, height > 0, pixels.count == width * height * 4 else { return nil }
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    public init(_ frame: Frame) {
        self.width = frame.width
        self.height = frame.height
        self.pixels = frame.pixels
    }
}
