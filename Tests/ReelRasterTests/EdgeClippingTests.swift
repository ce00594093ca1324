/// A shape's bounds and whether its edges need clipping, taken in one pass (EdgeClipping.bounds):
/// against hand-computed bounds, the square's side, NaN and no edges at all.
import ReelGeometry
import Testing

@testable import ReelRaster

@Suite struct EdgeClippingTests {
    @Test func boundsAreTheCoordinatesExtremes() {
        let edges = [
            Edge(x0: 3, y0: -2, x1: 10.5, y1: 4), Edge(x0: 10.5, y0: 4, x1: -7.25, y1: 9), Edge(x0: -7.25, y0: 9, x1: 3, y1: -2),
        ]
        let b = EdgeClipping.bounds(edges)
        #expect(b.min == SIMD2(-7.25, -2))
        #expect(b.max == SIMD2(10.5, 9))
        #expect(b.inside)
    }

    @Test func aCoordinateOnTheSquaresSideIsInsideAndBeyondItIsNot() {
        let side = EdgeClipping.bound
        #expect(EdgeClipping.bounds([Edge(x0: -side, y0: 0, x1: 1, y1: side)]).inside)
        #expect(!EdgeClipping.bounds([Edge(x0: 0, y0: 0, x1: 1, y1: side.nextUp)]).inside)
        #expect(!EdgeClipping.bounds([Edge(x0: -side.nextUp, y0: 0, x1: 1, y1: 1)]).inside)
    }

    @Test func aNaNIsNeverInsideAndLeftOutOfTheBounds() {
        let b = EdgeClipping.bounds([Edge(x0: 1, y0: 2, x1: .nan, y1: 5), Edge(x0: 4, y0: .nan, x1: 0, y1: 3)])
        #expect(!b.inside)
        #expect(b.min == SIMD2(0, 2))
        #expect(b.max == SIMD2(4, 5))
    }

    @Test func noEdgesBoundNothing() {
        let b = EdgeClipping.bounds([])
        #expect(b.inside)
        #expect(b.min == SIMD2(repeating: .infinity))
        #expect(b.max == SIMD2(repeating: -.infinity))
    }
}
