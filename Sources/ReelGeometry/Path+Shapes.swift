/// Building and measuring paths: the current point, arcs as `UIBezierPath` draws them, appended
/// paths, and bounding boxes.
import Foundation

extension Path {
    /// The current point: where the next segment starts (the subpath's start after a close).
    public var currentPoint: Point? {
        // From the end: the last element's point, or after a close the start of that subpath (the last
        // move), so appending to a long path does not rescan it.
        guard let last = elements.last else { return nil }
        switch last {
        case .move(let p), .line(let p), .quad(_, let p), .cubic(_, _, let p): return p
        case .close:
            for element in elements.reversed() { if case .move(let p) = element { return p } }
            return nil
        }
    }

    /// Appends a circular arc as `UIBezierPath.addArc(withCenter:radius:startAngle:endAngle:clockwise:)`
    /// does in the y-down coordinates of iOS: angle 0 points along +x, angles grow towards +y, and
    /// `clockwise` (as seen on screen) sweeps with growing angles. A line joins the current point to the
    /// arc's start; with no current point the arc starts a new subpath. A sweep of 2π or more draws one
    /// full circle.
    public mutating func addArc(center: Point, radius: Double, startAngle: Double, endAngle: Double, clockwise: Bool) {
        let sweep = Self.arcSweep(from: startAngle, to: endAngle, clockwise: clockwise)
        let start = Point(x: center.x + radius * cos(startAngle), y: center.y + radius * sin(startAngle))
        if currentPoint == nil { move(to: start) } else { addLine(to: start) }
        appendArcCurves(center: center, rx: radius, ry: radius, rotation: 0, start: startAngle, sweep: sweep)
    }

    /// Signed sweep of an arc from `start` to `end`: positive with `clockwise` (growing angles in y-down
    /// space), negative otherwise, at most one full turn.
    static func arcSweep(from start: Double, to end: Double, clockwise: Bool) -> Double {
        let twoPi = 2 * Double.pi
        var delta = end - start
        if clockwise {
            if delta < 0 { delta = delta.truncatingRemainder(dividingBy: twoPi) + twoPi }
            return min(delta, twoPi)
        } else {
            if delta > 0 { delta = delta.truncatingRemainder(dividingBy: twoPi) - twoPi }
            return max(delta, -twoPi)
        }
    }

    /// Cubic Béziers for an elliptical arc, one per quarter turn or less (handle length
    /// 4/3·tan(θ/4), radial error under 0.03 % for a quarter turn).
    mutating func appendArcCurves(center: Point, rx: Double, ry: Double, rotation: Double, start: Double, sweep: Double) {
        // Callers pass at most a full turn; anything else (NaN from degenerate SVG arcs, 1e300 radians)
        // must not reach the conversion to a piece count.
        guard sweep != 0, sweep.isFinite, start.isFinite, abs(sweep) <= 4 * Double.pi else { return }
        let pieces = max(1, Int((abs(sweep) / (Double.pi / 2) - 1e-9).rounded(.up)))
        let step = sweep / Double(pieces)
        let k = 4.0 / 3.0 * tan(step / 4)
        let cr = cos(rotation), sr = sin(rotation)
        func map(_ x: Double, _ y: Double) -> Point {
            Point(x: center.x + x * cr - y * sr, y: center.y + x * sr + y * cr)
        }
        var a = start
        for i in 0..<pieces {
            let b = i == pieces - 1 ? start + sweep : a + step
            let ca = cos(a), sa = sin(a), cb = cos(b), sb = sin(b)
            let c1 = map(rx * (ca - k * sa), ry * (sa + k * ca))
            let c2 = map(rx * (cb + k * sb), ry * (sb - k * cb))
            addCurve(to: map(rx * cb, ry * sb), control1: c1, control2: c2)
            a = b
        }
    }

    /// An ellipse inscribed in `rect`, as `UIBezierPath(ovalIn:)` draws it: starting at the rightmost
    /// point and running clockwise on screen (towards +y), so that `strokeEnd` grows from 3 o'clock.
    public init(ovalIn rect: Rect) {
        self.init()
        let c = Point(x: rect.minX + rect.width / 2, y: rect.minY + rect.height / 2)
        move(to: Point(x: rect.maxX, y: c.y))
        appendArcCurves(center: c, rx: rect.width / 2, ry: rect.height / 2, rotation: 0, start: 0, sweep: 2 * Double.pi)
        closeSubpath()
    }

    /// Appends every element of `other`.
    public mutating func addPath(_ other: Path) {
        for element in other.elements { add(element) }
    }

    /// Appends one element, as the method that makes it would.
    public mutating func add(_ element: Element) {
        switch element {
        case .move(let p): move(to: p)
        case .line(let p): addLine(to: p)
        case .quad(let c, let p): addQuadCurve(to: p, control: c)
        case .cubic(let c1, let c2, let p): addCurve(to: p, control1: c1, control2: c2)
        case .close: closeSubpath()
        }
    }

    /// The smallest rectangle holding every point and control point (`CGPath.boundingBox`); nil for an
    /// empty path.
    public var controlPointBounds: Rect? {
        var x0 = Double.infinity, y0 = Double.infinity, x1 = -Double.infinity, y1 = -Double.infinity
        func add(_ p: Point) {
            x0 = min(x0, p.x)
            y0 = min(y0, p.y)
            x1 = max(x1, p.x)
            y1 = max(y1, p.y)
        }
        for element in elements {
            switch element {
            case .move(let p), .line(let p): add(p)
            case .quad(let c, let p):
                add(c)
                add(p)
            case .cubic(let c1, let c2, let p):
                add(c1)
                add(c2)
                add(p)
            case .close: break
            }
        }
        guard x0 <= x1 else { return nil }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The bounds of the shape itself (`CGPath.boundingBoxOfPath`), to within the flattening tolerance.
    public func bounds(tolerance: Double = 0.01) -> Rect? {
        var x0 = Double.infinity, y0 = Double.infinity, x1 = -Double.infinity, y1 = -Double.infinity
        for line in polylines(tolerance: tolerance) {
            for p in line.points {
                x0 = min(x0, p.x)
                y0 = min(y0, p.y)
                x1 = max(x1, p.x)
                y1 = max(y1, p.y)
            }
        }
        guard x0 <= x1 else { return nil }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}
