/// Rounded corners (`rd`): every sharp corner of a path cut back along both its edges by the radius (at
/// most half of each edge) and joined by a cubic that bends toward the old corner, as the players do.
import Foundation
import ReelGeometry

enum RoundCorners {
    /// How far a rounding cubic's handles reach toward the corner it replaces (a quarter circle's
    /// handle length, 0.5519, as the players use).
    static let handle = 0.5519

    /// `path` with its sharp corners rounded by `radius`; an open subpath keeps its two ends.
    static func rounded(_ path: Path, radius: Double) -> Path {
        guard radius > 0, radius.isFinite else { return path }
        var out = Path()
        for sub in subpaths(path) {
            let n = sub.vertices.count
            guard n > 1 else {
                if let v = sub.vertices.first { out.move(to: v.point) }
                continue
            }
            // Each vertex as (point, in handle, out handle), absolute; a corner becomes two.
            var result: [(point: Point, inHandle: Point, outHandle: Point)] = []
            for (i, v) in sub.vertices.enumerated() {
                let sharp = v.inHandle == v.point && v.outHandle == v.point
                let end = !sub.closed && (i == 0 || i == n - 1)
                guard sharp, !end else {
                    result.append(v)
                    continue
                }
                let previous = sub.vertices[(i + n - 1) % n].point, next = sub.vertices[(i + 1) % n].point
                let before = cut(v.point, toward: previous, by: radius)
                let after = cut(v.point, toward: next, by: radius)
                let bend1 = lerp(before, v.point, handle), bend2 = lerp(after, v.point, handle)
                result.append((before, before, bend1))
                result.append((after, bend2, after))
            }
            out.move(to: result[0].point)
            let segments = sub.closed ? result.count : result.count - 1
            for k in 0..<segments {
                let a = result[k], b = result[(k + 1) % result.count]
                if a.outHandle == a.point && b.inHandle == b.point {
                    out.addLine(to: b.point)
                } else {
                    out.addCurve(to: b.point, control1: a.outHandle, control2: b.inHandle)
                }
            }
            if sub.closed { out.closeSubpath() }
        }
        return out
    }

    /// The point `radius` from `corner` toward `other`, at most half way.
    static func cut(_ corner: Point, toward other: Point, by radius: Double) -> Point {
        let d = hypot(other.x - corner.x, other.y - corner.y)
        guard d > 0 else { return corner }
        return lerp(corner, other, min(d / 2, radius) / d)
    }

    static func lerp(_ a: Point, _ b: Point, _ t: Double) -> Point {
        Point(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t)
    }

    struct Subpath {
        var vertices: [(point: Point, inHandle: Point, outHandle: Point)] = []
        var closed = false
    }

    /// A path's subpaths as vertices with absolute handles (a line's handles on its ends); a closing
    /// vertex that repeats the first is folded into it.
    static func subpaths(_ path: Path) -> [Subpath] {
        var all: [Subpath] = []
        var current = Subpath()
        func finish() {
            if current.closed, current.vertices.count > 1, let first = current.vertices.first, let last = current.vertices.last,
                last.point == first.point
            {
                current.vertices[0].inHandle = last.inHandle
                current.vertices.removeLast()
            }
            if !current.vertices.isEmpty { all.append(current) }
            current = Subpath()
        }
        // Drawing on after a close starts again from the closed subpath's start.
        var restart: Point?
        func begin() {
            if current.vertices.isEmpty, let p = restart { current.vertices = [(p, p, p)] }
        }
        for element in path.elements {
            switch element {
            case .move(let p):
                finish()
                restart = nil
                current.vertices = [(p, p, p)]
            case .line(let p):
                begin()
                current.vertices.append((p, p, p))
            case .quad(let c, let p):
                // As a cubic: handles two thirds of the way to the control point.
                begin()
                guard let last = current.vertices.last?.point else { continue }
                current.vertices[current.vertices.count - 1].outHandle = lerp(last, c, 2.0 / 3)
                current.vertices.append((p, lerp(p, c, 2.0 / 3), p))
            case .cubic(let c1, let c2, let p):
                begin()
                guard !current.vertices.isEmpty else { continue }
                current.vertices[current.vertices.count - 1].outHandle = c1
                current.vertices.append((p, c2, p))
            case .close:
                current.closed = true
                restart = current.vertices.first?.point
                finish()
            }
        }
        finish()
        return all
    }
}
