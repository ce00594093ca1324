/// One picture: 8-bit RGBA, premultiplied alpha, rows top to bottom with no padding (`stride = width·4`).
public struct Frame: Hashable, Sendable {
    public let width: Int
    public let height: Int
    public var pixels: [UInt8]

    public init(width: Int, height: Int, fill: PremultipliedColor = .clear) {
        precondition(width > 0 && height > 0, "frame size must be positive")
        self.width = width
        self.height = height
        self.pixels = [UInt8](repeating: 0, count: width * height * 4)
        if fill != .clear { self.fill(with: fill) }
    }

    /// Sets every pixel to `color` (reusing the memory: no allocation).
    public mutating func fill(with color: PremultipliedColor) {
        let c = color.bytes
        let word = UInt32(c.0) | UInt32(c.1) << 8 | UInt32(c.2) << 16 | UInt32(c.3) << 24
        pixels.withUnsafeMutableBytes { raw in
            raw.bindMemory(to: UInt32.self).update(repeating: word)
        }
    }

    public var stride: Int { width * 4 }

    /// The pixel at (x, y) as (r, g, b, a), premultiplied.
    public func pixel(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        let i = (y * width + x) * 4
        return (pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3])
    }
}
