/// A path made of subpaths of lines and Bézier curves, as `CGPath` describes shapes.
public struct Path: Hashable, Sendable {
    public enum Element: Hashable, Sendable {
        case move(Point)
        case line(Point)
        case quad(Point, Point)
        case cubic(Point, Point, Point)
        case close
    }

    public internal(set) var elements: [Element] = []

    public init() {}

    public mutating func move(to p: Point) { elements.append(.move(p)) }
    public mutating func addLine(to p: Point) { elements.append(.line(p)) }
    public mutating func addQuadCurve(to p: Point, control: Point) { elements.append(.quad(control, p)) }
    public mutating func addCurve(to p: Point, control1: Point, control2: Point) {
        elements.append(.cubic(control1, control2, p))
    }
    public mutating func closeSubpath() { elements.append(.close) }

    public var isEmpty: Bool { elements.isEmpty }

    /// True when every coordinate is finite; a path with NaN or infinity must not reach the rasterizer.
    public var isFinite: Bool {
        elements.allSatisfy { element in
            switch element {
            case .move(let p), .line(let p): return p.isFinite
            case .quad(let c, let p): return c.isFinite && p.isFinite
            case .cubic(let c1, let c2, let p): return c1.isFinite && c2.isFinite && p.isFinite
            case .close: return true
            }
        }
    }

    public func applying(_ t: Transform2D) -> Path {
        var out = Path()
        out.elements.reserveCapacity(elements.count)
        for element in elements {
            switch element {
            case .move(let p): out.elements.append(.move(t.apply(p)))
            case .line(let p): out.elements.append(.line(t.apply(p)))
            case .quad(let c, let p): out.elements.append(.quad(t.apply(c), t.apply(p)))
            case .cubic(let c1, let c2, let p): out.elements.append(.cubic(t.apply(c1), t.apply(c2), t.apply(p)))
            case .close: out.elements.append(.close)
            }
        }
        return out
    }
}

extension Path {
    public init(rect: Rect) {
        self.init()
        move(to: Point(x: rect.minX, y: rect.minY))
        addLine(to: Point(x: rect.maxX, y: rect.minY))
        addLine(to: Point(x: rect.maxX, y: rect.maxY))
        addLine(to: Point(x: rect.minX, y: rect.maxY))
        closeSubpath()
    }

    /// A rectangle with circular corners, as `CALayer.cornerRadius` draws it: the radius is clamped to
    /// half the shorter side, and each corner is a quarter circle approximated by one cubic Bézier
    /// (the standard 0.5523 handle length, within 0.03 % of the radius of a true circle).
    public init(roundedRect rect: Rect, cornerRadius: Double) {
        let r = min(max(cornerRadius, 0), rect.width / 2, rect.height / 2)
        guard r > 0 else {
            self.init(rect: rect)
            return
        }
        self.init()
        let k = r * 0.552_284_749_831  // 4/3·(√2 − 1)
        let x0 = rect.minX, x1 = rect.maxX, y0 = rect.minY, y1 = rect.maxY
        move(to: Point(x: x0 + r, y: y0))
        addLine(to: Point(x: x1 - r, y: y0))
        addCurve(to: Point(x: x1, y: y0 + r), control1: Point(x: x1 - r + k, y: y0), control2: Point(x: x1, y: y0 + r - k))
        addLine(to: Point(x: x1, y: y1 - r))
        addCurve(to: Point(x: x1 - r, y: y1), control1: Point(x: x1, y: y1 - r + k), control2: Point(x: x1 - r + k, y: y1))
        addLine(to: Point(x: x0 + r, y: y1))
        addCurve(to: Point(x: x0, y: y1 - r), control1: Point(x: x0 + r - k, y: y1), control2: Point(x: x0, y: y1 - r + k))
        addLine(to: Point(x: x0, y: y0 + r))
        addCurve(to: Point(x: x0 + r, y: y0), control1: Point(x: x0, y: y0 + r - k), control2: Point(x: x0 + r - k, y: y0))
        closeSubpath()
    }
}
