/// `contentsGravity`: where a layer's contents image sits in its bounds.
import ReelGeometry

/// `CALayerContentsGravity`: where the contents image sits in the bounds.
public enum ContentsGravity: String, Sendable, CaseIterable {
    case resize, resizeAspect, resizeAspectFill, center, top, bottom, left, right, topLeft, topRight, bottomLeft, bottomRight

    /// The rectangle the image (natural size `size`, in points) fills inside `bounds`.
    /// UNCONFIRMED: `top` is the top of the screen (iOS reports `top` and `bottom` swapped for layers
    /// whose geometry is not flipped; Reel's y-down space has no such flip).
    public func frame(for size: Size, in bounds: Rect) -> Rect {
        let bw = bounds.width, bh = bounds.height
        switch self {
        case .resize:
            return bounds
        case .resizeAspect, .resizeAspectFill:
            guard size.width > 0, size.height > 0 else { return bounds }
            let sx = bw / size.width, sy = bh / size.height
            let k = self == .resizeAspect ? min(sx, sy) : max(sx, sy)
            let w = size.width * k, h = size.height * k
            return Rect(x: bounds.minX + (bw - w) / 2, y: bounds.minY + (bh - h) / 2, width: w, height: h)
        default:
            let w = size.width, h = size.height
            let left = bounds.minX, right = bounds.maxX - w, midX = bounds.minX + (bw - w) / 2
            let top = bounds.minY, bottom = bounds.maxY - h, midY = bounds.minY + (bh - h) / 2
            let (x, y): (Double, Double)
            switch self {
            case .top: (x, y) = (midX, top)
            case .bottom: (x, y) = (midX, bottom)
            case .left: (x, y) = (left, midY)
            case .right: (x, y) = (right, midY)
            case .topLeft: (x, y) = (left, top)
            case .topRight: (x, y) = (right, top)
            case .bottomLeft: (x, y) = (left, bottom)
            case .bottomRight: (x, y) = (right, bottom)
            default: (x, y) = (midX, midY)
            }
            return Rect(x: x, y: y, width: w, height: h)
        }
    }
}
