/// The row walks of accumulated cells against the plainest one (`sweep`, a coverage for every pixel):
/// `quads` (four cells in lanes) and `runs` hand over the same coverage for every pixel, under both rules, and
/// leave the cells and their touched bits zero.
import Testing

@testable import ReelRaster

@Suite struct CoverageWalkTests {
    static let width = 150
    static let minimum: Float = 0.5 / 255

    /// A row of cells as edges leave them: a few touched cells (pairs that cancel, runs of several, lone
    /// ones, values that push the sum past ±1 and back) within c0…c1 + 1, everything else zero.
    struct Row {
        var cells: [Int32]
        var c0: Int
        var c1: Int
    }

    static func randomRows() -> [Row] {
        var seed: UInt64 = 0x2545_F491_4F6C_DD1D
        func next() -> UInt64 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return seed >> 33
        }
        var rows: [Row] = []
        for n in 0..<600 {
            // Rows ending at the canvas's last column (the walk's tail of one to three cells) and inside it.
            let c1 = n % 3 == 0 ? width - 1 : Int(next() % UInt64(width))
            let c0 = Int(next() % UInt64(c1 + 1))
            var cells = [Int32](repeating: 0, count: width + 2)
            let one = Int(CoverageScratch.one)
            for _ in 0..<Int(next() % 6) {
                let at = c0 + Int(next() % UInt64(c1 + 2 - c0))
                let length = min(Int(next() % 7) + 1, c1 + 2 - at)
                for i in at..<(at + length) {
                    switch next() % 6 {
                    case 0: cells[i] += Int32(one)
                    case 1: cells[i] -= Int32(one)
                    case 2: cells[i] += 131
                    default: cells[i] += Int32((Int(next() % 2_000_001) - 1_000_000) * one / 700_000)
                    }
                }
            }
            rows.append(Row(cells: cells, c0: c0, c1: c1))
        }
        return rows
    }

    /// The row's cells placed in a scratch (row 1 of 3), their touched bits set where a cell is not zero
    /// and on every seventh cell of c0…c1 + 1 besides (edges leave touched cells that sum to zero).
    static func withScratch(_ row: Row, _ body: (CoverageScratch) -> Void) {
        let scratch = CoverageScratch(width: width, rows: 3)
        defer { scratch.deallocate() }
        let line = scratch.cells + (scratch.capacityWidth + 2)
        let bits = scratch.touched + scratch.wordsPerRow
        for (i, v) in row.cells.enumerated() where v != 0 || (i >= row.c0 && i <= row.c1 + 1 && i % 7 == 3) {
            line[i] = v
            CoverageScratch.mark(bits, i, through: i)
        }
        body(scratch)
        let count = (scratch.capacityWidth + 2) * 3
        #expect((0..<count).allSatisfy { scratch.cells[$0] == 0 }, "cells left after the walk")
        #expect((0..<(scratch.wordsPerRow * 3)).allSatisfy { scratch.touched[$0] == 0 }, "touched bits left after the walk")
    }

    /// Each pixel's coverage from `sweep`, zero where at most `minimum` (the walks hand those over as zero
    /// or not at all).
    static func swept(_ row: Row, rule: FillRule = .nonZero) -> [Float] {
        var out: [Float] = []
        withScratch(row) { scratch in
            scratch.sweep(row: 1, c0: row.c0, c1: row.c1, rule: rule)
            out = (0...(row.c1 - row.c0)).map { scratch.coverage[$0] > minimum ? scratch.coverage[$0] : 0 }
        }
        return out
    }

    @Test(arguments: [FillRule.nonZero, .evenOdd])
    func quadsMatchTheSweep(_ rule: FillRule) {
        for row in Self.randomRows() {
            var walked = [Float](repeating: 0, count: row.c1 - row.c0 + 1)
            var visits = [Int](repeating: 0, count: walked.count)
            Self.withScratch(row) { scratch in
                scratch.quads(row: 1, c0: row.c0, c1: row.c1, rule: rule) { start, count, coverages in
                    #expect((1...4).contains(count) && start + count <= row.c1 + 1)
                    #expect(count == 4 || start + count == row.c1 + 1, "fewer than four lanes before the row's end")
                    for i in 0..<count {
                        walked[start + i - row.c0] = coverages[i]
                        visits[start + i - row.c0] += 1
                    }
                } constant: { start, end, c in
                    #expect(start < end && end <= row.c1 + 1 && c > Self.minimum)
                    for x in start..<end {
                        walked[x - row.c0] = c
                        visits[x - row.c0] += 1
                    }
                }
            }
            #expect(walked == Self.swept(row, rule: rule), "c0 \(row.c0) c1 \(row.c1) cells \(row.cells)")
            #expect(visits.allSatisfy { $0 <= 1 }, "a pixel handed over twice")
        }
    }

    /// `runs`, under both rules: even-odd fills (solid, gradient and image) and the other paints go
    /// through it.
    @Test(arguments: [FillRule.nonZero, .evenOdd])
    func runsMatchTheSweep(_ rule: FillRule) {
        for row in Self.randomRows() {
            var walked = [Float](repeating: 0, count: row.c1 - row.c0 + 1)
            Self.withScratch(row) { scratch in
                scratch.runs(row: 1, c0: row.c0, c1: row.c1, rule: rule) { start, end in
                    for x in start..<end { walked[x - row.c0] = scratch.coverage[x - start] }
                } constant: { start, end, c in
                    for x in start..<end { walked[x - row.c0] = c }
                }
            }
            #expect(walked == Self.swept(row, rule: rule), "c0 \(row.c0) c1 \(row.c1) cells \(row.cells)")
        }
    }

    /// Hand-computed: cells ¼ at column 2 and ½ at 3 and −¾ at 7 (of `one`), columns 0…9. Coverage 0, 0, ¼,
    /// ¾, ¾, ¾, ¾, 0, 0, 0: the lanes start at the first touched cell (2…5), a constant run of ¾ follows
    /// (6), then lanes at 7 (7…9, three at the row's end).
    @Test func handComputedRow() {
        var cells = [Int32](repeating: 0, count: Self.width + 2)
        let one = CoverageScratch.one
        cells[2] = one / 4
        cells[3] = one / 2
        cells[7] = -3 * one / 4
        var calls: [String] = []
        Self.withScratch(Row(cells: cells, c0: 0, c1: 9)) { scratch in
            scratch.quads(row: 1, c0: 0, c1: 9, rule: .nonZero) { start, count, c in
                calls.append("lanes \(start) \(count) \(Array((0..<count).map { c[$0] }))")
            } constant: { start, end, c in
                calls.append("run \(start)..<\(end) \(c)")
            }
        }
        #expect(calls == ["lanes 2 4 [0.25, 0.75, 0.75, 0.75]", "run 6..<7 0.75", "lanes 7 3 [0.0, 0.0, 0.0]"])
    }

    /// The rule in lanes (`coverages`) against `coverage`, lane by lane, bit for bit: sums either side
    /// of zero and of every multiple of `one` up to four, the largest and smallest Int32 (whose magnitude
    /// wraps), both signs.
    @Test func laneRulesMatchTheScalarOnes() {
        let one = CoverageScratch.one
        var values: [Int32] = [0, 1, 2, 258, .max, .min, .max - 1, .min + 1]
        for k: Int32 in 1...4 { values += [k * one - 1, k * one, k * one + 1, k * one - one / 2] }
        values += values.map { 0 &- $0 }
        for evenOdd in [false, true] {
            for i in stride(from: 0, to: values.count, by: 4) {
                var s = SIMD4<Int32>()
                for j in 0..<4 { s[j] = values[(i + j) % values.count] }
                let lanes = CoverageScratch.coverages(s, evenOdd: evenOdd)
                for j in 0..<4 {
                    let scalar = CoverageScratch.coverage(s[j], evenOdd: evenOdd)
                    #expect(
                        lanes[j].bitPattern == scalar.bitPattern, "\(s[j]) even-odd \(evenOdd): \(lanes[j]) against \(scalar)")
                }
            }
        }
    }
}
