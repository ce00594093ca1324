/// The picture a filter primitive reads and writes: premultiplied RGBA8 over the filter's region in
/// device pixels; and the namespace of the primitives' kernels.

/// Premultiplied RGBA8, row by row, `width` × `height` pixels; pixel (0, 0) is the device pixel at the
/// region's top-left corner.
struct FilterPixels {
    var width: Int
    var height: Int
    var bytes: [UInt8]

    /// Transparent.
    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        bytes = [UInt8](repeating: 0, count: width * height * 4)
    }

    init(width: Int, height: Int, bytes: [UInt8]) {
        precondition(bytes.count == width * height * 4, "four bytes a pixel")
        self.width = width
        self.height = height
        self.bytes = bytes
    }
}

/// The namespace of the filter primitives' kernels (one file each family).
enum FilterKernels {}
