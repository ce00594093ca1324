// The rectangle where two pictures differ, found in the rows and columns a damage names.
import ReelRaster
import Testing

@Suite struct ChangedRectTests {
    /// Two 40 × 30 pictures differing at three pixels: (5, 4), (17, 9) and (30, 12).
    static func pictures() -> ([UInt8], [UInt8]) {
        let a = [UInt8](repeating: 200, count: 40 * 30 * 4)
        var b = a
        for (x, y) in [(5, 4), (17, 9), (30, 12)] { b[(y * 40 + x) * 4 + 1] = 7 }
        return (a, b)
    }

    @Test func theRectangleHoldsEveryDifference() throws {
        let (a, b) = Self.pictures()
        let whole = try #require(Frame.changedRect(a, b, width: 40, height: 30))
        #expect(whole == (5, 4, 31, 13))
        #expect(Frame.changedRect(a, a, width: 40, height: 30) == nil)
    }

    /// Rows and columns that hold every difference give the rectangle of the whole comparison; columns
    /// that leave some out give the rectangle of the rest: only they are compared.
    @Test func onlyTheNamedRowsAndColumnsAreCompared() throws {
        let (a, b) = Self.pictures()
        let told = try #require(Frame.changedRect(a, b, width: 40, height: 30, rows: [3..<14], columns: 2..<35))
        #expect(told == (5, 4, 31, 13))
        let left = try #require(Frame.changedRect(a, b, width: 40, height: 30, rows: [0..<30], columns: 0..<20))
        #expect(left == (5, 4, 18, 10))
        #expect(Frame.changedRect(a, b, width: 40, height: 30, rows: [0..<30], columns: 31..<40) == nil)
        // Columns past the picture's edges are held to it.
        let wide = try #require(Frame.changedRect(a, b, width: 40, height: 30, rows: [0..<30], columns: -5..<90))
        #expect(wide == (5, 4, 31, 13))
    }
}
