/// The pixels a band worker draws into: a rectangle of a frame (or of an offscreen picture) in device
/// coordinates.
import ReelGeometry

/// A rectangle of premultiplied RGBA8 pixels: columns x0 ..< x0+width, rows y0 ..< y0+rows of the frame's
/// coordinate space (which may extend beyond the frame, for the content that casts a shadow into it).
struct Canvas {
    let pixels: UnsafeMutablePointer<UInt8>
    let x0: Int
    let y0: Int
    let width: Int
    let rows: Int
    /// Pixels from one row to the next (the width, except for a view into a wider canvas).
    let stride: Int

    init(pixels: UnsafeMutablePointer<UInt8>, x0: Int, y0: Int, width: Int, rows: Int, stride: Int? = nil) {
        self.pixels = pixels
        self.x0 = x0
        self.y0 = y0
        self.width = width
        self.rows = rows
        self.stride = stride ?? width
    }

    var y1: Int { y0 + rows }
    var x1: Int { x0 + width }

    @inline(__always) func row(_ y: Int) -> UnsafeMutablePointer<UInt8> { pixels + (y - y0) * stride * 4 }

    /// The same pixels, columns x0 ..< x1 and rows y0 ..< y1 only (inside this canvas).
    func view(x0: Int, y0: Int, x1: Int, y1: Int) -> Canvas {
        Canvas(pixels: row(y0) + (x0 - self.x0) * 4, x0: x0, y0: y0, width: x1 - x0, rows: y1 - y0, stride: stride)
    }
}

/// A transparent canvas of its own memory, for a group's content, shadow or mask, alive for `body` only:
/// the memory is freed when it returns, so a caller cannot forget to (nor free it twice).
@inline(__always)
func withOffscreen<R>(x0: Int, y0: Int, width: Int, rows: Int, _ body: (Canvas) -> R) -> R {
    let p = UnsafeMutablePointer<UInt8>.allocate(capacity: width * rows * 4)
    defer { p.deallocate() }
    p.initialize(repeating: 0, count: width * rows * 4)
    return body(Canvas(pixels: p, x0: x0, y0: y0, width: width, rows: rows))
}
