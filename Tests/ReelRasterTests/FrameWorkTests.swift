/// A frame's work shared by its workers: every fill prepared once, frames drawn whatever the number of
/// workers `concurrentPerform` runs at once (more threads than cores, one at a time), errors and empty
/// frames with several workers, and the latch they wait at.
import Dispatch
import Foundation
import ReelGeometry
import Testing

@testable import ReelRaster

@Suite struct FrameWorkTests {
    /// `count` small squares down a tall frame, one in each 20 rows, so every band has some.
    static func column(_ count: Int, bad: Int? = nil) -> DisplayList {
        var list = DisplayList(background: .white)
        for i in 0..<count {
            let y = Double(i) * 20 + 3.25
            let x = i == bad ? Double.nan : 2.5 + Double(i % 7)
            list.commands.append(
                .fill(
                    path: polygonPath([Point(x: x, y: y), Point(x: x + 9, y: y + 1), Point(x: x + 8, y: y + 12)]),
                    color: Color(red: Double(i % 5) / 4, green: 0.3, blue: 0.6, alpha: 0.75), opacity: 1))
        }
        return list
    }

    static func work(fills: Int, workers: Int) -> FrameWork {
        let preparation = DrawTree.Preparation(column(fills).commands, tolerance: 0.1, ramps: nil)
        return FrameWork(preparation, workers: workers, height: fills * 20, bandHeight: 32, background: true)
    }

    /// The runs taken cover every fill once, in order, each at most 32 long and, for few fills, short
    /// enough that every worker gets some (at least 8 runs a worker where there are fills for them).
    @Test func runsCoverEveryFillOnce() {
        for (fills, workers) in [(0, 2), (1, 2), (20, 2), (100, 3), (2_300, 2), (5_000, 4)] {
            let work = Self.work(fills: fills, workers: workers)
            var covered: [Int] = []
            var longest = 0
            while let run = work.takeRun() {
                covered += Array(run)
                longest = max(longest, run.count)
            }
            #expect(covered == Array(0..<fills), "\(fills) fills")
            #expect(longest <= 32)
            #expect(work.runs >= min(fills, 8 * workers), "\(fills) fills, \(workers) workers: \(work.runs) runs")
            #expect(work.takeRun() == nil)
        }
    }

    /// A frame without fills is planned at once: a worker finds nothing to prepare and does not wait.
    @Test func noFillsIsPlannedAtOnce() {
        var list = DisplayList(background: .white)
        list.commands = [.beginGroup(Group()), .endGroup]
        let preparation = DrawTree.Preparation(list.commands, tolerance: 0.1, ramps: nil)
        let work = FrameWork(preparation, workers: 2, height: 64, bandHeight: 32, background: true)
        #expect(work.takeRun() == nil)
        work.planned.wait()
        #expect(work.tree != nil && work.bands == 2 && work.error == nil)
    }

    /// More threads than the machine has cores, and more than the frame has bands (94, and 150 fills: up
    /// to 150 workers): the same bytes as one thread. A barrier waiting for every worker hung here
    /// (`concurrentPerform` ran some iterations only after others had ended).
    @Test func moreThreadsThanCoresDrawTheSameFrame() throws {
        let list = Self.column(150)
        let one = try Rasterizer(threads: 1).render(list, width: 24, height: 3_000)
        let cores = ProcessInfo.processInfo.activeProcessorCount
        for threads in [2, cores + 1, 4 * cores + 3, 200] {
            let many = try Rasterizer(threads: threads).render(list, width: 24, height: 3_000)
            #expect(many.pixels == one.pixels, "\(threads) threads differ from 1")
        }
    }

    /// The first non-finite path in drawing order is the error, with any number of workers (each fill in
    /// a run of its own for 20 fills on two workers).
    @Test func nonFinitePathWithSeveralWorkers() {
        for threads in [1, 2, 5] {
            #expect(throws: RasterError.nonFinitePath(commandIndex: 13), "\(threads) threads") {
                _ = try Rasterizer(threads: threads).render(Self.column(20, bad: 13), width: 24, height: 400)
            }
        }
    }

    /// Nothing to draw over an existing frame (no background): the frame is left as it was, its pixels
    /// not even copied where another frame shares them.
    @Test func emptyListLeavesTheFrame() throws {
        var frame = try Rasterizer(threads: 1).render(Self.column(10), width: 24, height: 200)
        let before = frame
        try Rasterizer(threads: 3).draw([], into: &frame)
        #expect(frame.pixels == before.pixels)
        let shared = frame.pixels.withUnsafeBufferPointer { a in
            before.pixels.withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress }
        }
        #expect(shared)
        try Rasterizer(threads: 3).draw([.beginGroup(Group()), .endGroup], into: &frame)
        #expect(frame.pixels == before.pixels)
        #expect(
            frame.pixels.withUnsafeBufferPointer { a in
                before.pixels.withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress }
            })
    }

    /// A list without fills but with a background clears the frame it is drawn into (the early return
    /// for lists that draw nothing must not take it), with any number of workers.
    @Test func backgroundAloneClearsTheFrame() throws {
        for threads in [1, 3] {
            var frame = try Rasterizer(threads: 1).render(Self.column(10), width: 24, height: 200)
            try Rasterizer(threads: threads).render(DisplayList(background: .white), into: &frame)
            #expect(frame.pixels.allSatisfy { $0 == 255 }, "\(threads) threads")
        }
    }

    /// A band height set to 0 after `init` is held to one row, as `init` holds it, instead of dividing by
    /// zero.
    @Test func zeroBandHeightIsOneRow() throws {
        var zero = Rasterizer(threads: 2)
        zero.bandHeight = 0
        let frame = try zero.render(Self.column(5), width: 24, height: 100)
        #expect(frame.pixels == (try Rasterizer(threads: 1, bandHeight: 1).render(Self.column(5), width: 24, height: 100)).pixels)
    }

    /// A stroke outline is reused only for a path the same bit for bit: −0 and +0 are `==` but not
    /// `identical` (the stroker's angles tell them apart), copies sharing their storage are, and so are
    /// equal paths built apart.
    @Test func outlinesAreReusedForIdenticalPathsOnly() {
        let a = polygonPath([Point(x: 0, y: 0), Point(x: 10, y: 0), Point(x: 10, y: 5)])
        let b = polygonPath([Point(x: -0.0, y: 0), Point(x: 10, y: 0), Point(x: 10, y: 5)])
        let c = polygonPath([Point(x: 0, y: 0), Point(x: 10, y: 0), Point(x: 10, y: 5)])
        let copy = a
        #expect(a == b && !DrawTree.Preparation.identical(a, b))
        #expect(DrawTree.Preparation.identical(a, copy) && DrawTree.Preparation.identical(a, c))
        #expect(!DrawTree.Preparation.identical(a, polygonPath([Point(x: 0, y: 0), Point(x: 10, y: 0)])))
        var curved = Path()
        curved.move(to: Point(x: 1, y: 1))
        curved.addQuadCurve(to: Point(x: 5, y: 1), control: Point(x: 3, y: 0))
        var curvedZero = Path()
        curvedZero.move(to: Point(x: 1, y: 1))
        curvedZero.addQuadCurve(to: Point(x: 5, y: 1), control: Point(x: 3, y: -0.0))
        #expect(curved == curvedZero && !DrawTree.Preparation.identical(curved, curvedZero))
    }

    /// A worker waiting past the yield limit sleeps, and `open` wakes it; once open, `wait` returns at
    /// once.
    @Test func latchWakesASleepingWaiter() async {
        let latch = Latch()
        let waited = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            latch.wait()
            waited.signal()
        }
        // Ten times the yield limit: the waiter is asleep on the condition by now.
        usleep(useconds_t(Latch.yieldLimit / 100))
        #expect(waited.wait(timeout: .now()) == .timedOut)
        latch.open()
        #expect(waited.wait(timeout: .now() + 10) == .success)
        latch.wait()
    }
}
