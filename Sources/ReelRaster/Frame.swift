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

    /// The smallest rectangle (left, top, right, bottom; right and bottom exclusive) holding every
    /// pixel where two pictures of `width` × `height` RGBA pixels differ, or nil when they are equal.
    /// `rows`: the only rows where they may differ, when known (a frame's damage); nil: every row.
    /// `columns`: the only columns of those rows where they may (nil: any). A 1080p GIF's moving dot
    /// had each of its rows compared from both ends to the dot, across the frame (108 M instructions).
    public static func changedRect(
        _ a: [UInt8], _ b: [UInt8], width: Int, height: Int, rows: [Range<Int>]? = nil, columns: Range<Int>? = nil
    ) -> (left: Int, top: Int, right: Int, bottom: Int)? {
        let rows = rows.map { $0.map { max(0, $0.lowerBound)..<min(height, max(0, $0.upperBound)) } } ?? [0..<height]
        let lo = min(max(0, columns?.lowerBound ?? 0), width)
        let hi = max(lo, min(width, columns?.upperBound ?? width))
        precondition(a.count == width * height * 4 && b.count == a.count, "pictures of another size")
        var top = height, bottom = 0, left = width, right = 0
        a.withUnsafeBytes { a in
            b.withUnsafeBytes { b in
                let p = a.bindMemory(to: UInt32.self), q = b.bindMemory(to: UInt32.self)
                for y in rows.joined() {
                    let row = y * width
                    var x = lo
                    while x < hi && p[row + x] == q[row + x] { x += 1 }
                    guard x < hi else { continue }
                    var r = hi - 1
                    while r > x && p[row + r] == q[row + r] { r -= 1 }
                    top = min(top, y)
                    bottom = y + 1
                    left = min(left, x)
                    right = max(right, r + 1)
                }
            }
        }
        return top < bottom ? (left, top, right, bottom) : nil
    }

    /// The pixel at (x, y) as (r, g, b, a), premultiplied.
    public func pixel(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        let i = (y * width + x) * 4
        return (pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3])
    }
}
