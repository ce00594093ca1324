/// One picture: 8-bit RGBA, premultiplied alpha, rows top to bottom with no padding (`stride = width·4`).
public struct Frame: Hashable, Sendable {
    public let width: Int
    public let height: Int
    public var pixels: [UInt8]

    public init(width: Int, height: Int, fill: PremultipliedColor = .clear) {
        precondition(width > 0 && height > 0, "frame size must be positive")
        self.width = width
        self.height = height
        var px = [UInt8](repeating: 0, count: width * height * 4)
        if fill != .clear {
            let c = fill.bytes
            px.withUnsafeMutableBufferPointer { buf in
                var i = 0
                while i < buf.count {
                    buf[i] = c.0
                    buf[i + 1] = c.1
                    buf[i + 2] = c.2
                    buf[i + 3] = c.3
                    i += 4
                }
            }
        }
        self.pixels = px
    }

    public var stride: Int { width * 4 }

    /// The pixel at (x, y) as (r, g, b, a), premultiplied.
    public func pixel(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        let i = (y * width + x) * 4
        return (pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3])
    }
}
