/// A straight edge of a flattened path, in device space.
public struct Edge: Hashable, Sendable {
    public var x0, y0, x1, y1: Double

    public init(x0: Double, y0: Double, x1: Double, y1: Double) {
        self.x0 = x0
        self.y0 = y0
        self.x1 = x1
        self.y1 = y1
    }
}

extension Path {
    /// The path as closed polygons of straight edges, each curve split into uniform pieces so that no
    /// point of the polyline is further than `tolerance` from the curve. Every subpath is closed, as a
    /// fill treats it. The bound used: a uniform n-piece polyline of a curve with second-derivative
    /// bound M deviates by at most M/(8n²); for a cubic M ≤ 6·max|Pᵢ − 2Pᵢ₊₁ + Pᵢ₊₂|, for a quad
    /// M = 2·|P0 − 2P1 + P2|.
    public func flattenedEdges(tolerance: Double = 0.1) -> [Edge] {
        var edges: [Edge] = []
        var start = Point.zero
        var current = Point.zero
        var open = false

        func line(to p: Point) {
            if p != current {
                edges.append(Edge(x0: current.x, y0: current.y, x1: p.x, y1: p.y))
            }
            current = p
        }
        func closeIfOpen() {
            if open { line(to: start) }
            open = false
        }

        for element in elements {
            switch element {
            case .move(let p):
                closeIfOpen()
                start = p
                current = p
                open = true
            case .line(let p):
                open = true
                line(to: p)
            case .quad(let c, let p):
                open = true
                let p0 = current
                let m = 2 * hypot(p0.x - 2 * c.x + p.x, p0.y - 2 * c.y + p.y)
                let n = Self.pieces(secondDerivativeBound: m, tolerance: tolerance)
                for i in 1...n {
                    let t = Double(i) / Double(n), u = 1 - t
                    let q =
                        i == n
                        ? p
                        : Point(
                            x: u * u * p0.x + 2 * u * t * c.x + t * t * p.x,
                            y: u * u * p0.y + 2 * u * t * c.y + t * t * p.y)
                    line(to: q)
                }
            case .cubic(let c1, let c2, let p):
                open = true
                let p0 = current
                let dd1 = hypot(p0.x - 2 * c1.x + c2.x, p0.y - 2 * c1.y + c2.y)
                let dd2 = hypot(c1.x - 2 * c2.x + p.x, c1.y - 2 * c2.y + p.y)
                let n = Self.pieces(secondDerivativeBound: 6 * max(dd1, dd2), tolerance: tolerance)
                for i in 1...n {
                    let t = Double(i) / Double(n), u = 1 - t
                    let a = u * u * u, b = 3 * u * u * t, cc = 3 * u * t * t, d = t * t * t
                    let q =
                        i == n
                        ? p
                        : Point(
                            x: a * p0.x + b * c1.x + cc * c2.x + d * p.x,
                            y: a * p0.y + b * c1.y + cc * c2.y + d * p.y)
                    line(to: q)
                }
            case .close:
                closeIfOpen()
                current = start
            }
        }
        closeIfOpen()
        return edges
    }

    static func pieces(secondDerivativeBound m: Double, tolerance: Double) -> Int {
        guard m.isFinite, m > 0 else { return 1 }
        let n = (m / (8 * tolerance)).squareRoot().rounded(.up)
        return Int(min(max(n, 1), 1000))
    }
}

@inline(__always) func hypot(_ x: Double, _ y: Double) -> Double { (x * x + y * y).squareRoot() }
