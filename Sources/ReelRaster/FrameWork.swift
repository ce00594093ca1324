/// A frame's work as its workers share it: runs of shapes to prepare, the tree and its bands made once
/// they are, bands to draw, each piece taken by whichever worker asks next.
import Foundation
import Synchronization

/// The stages of one frame for the workers drawing it (`Rasterizer.draw`).
///
/// Every piece of work (a run of fills to prepare, a band to draw) is taken by whichever worker asks
/// next, and a worker waits (`Latch`) only for pieces others have taken, never for another worker to
/// arrive: a worker alone does the whole frame. The worker finishing the last run makes the tree, its
/// bands and the lists of nodes each band meets; the one finishing the last band lets every worker free
/// the shapes it made.
final class FrameWork: @unchecked Sendable {
    let preparation: DrawTree.Preparation
    /// Fills per run: up to 32 (a run's slots are 256 bytes, of which only the cache lines at its ends
    /// may be another worker's too, where every other slot had been; a frame of 2,000 shapes is 60-odd
    /// runs), fewer where a frame has few fills, so there are at least eight runs a worker where there
    /// are fills for them (20 stroked butterflies are 20 runs).
    let runLength: Int
    let runs: Int
    private let nextRun = Atomic<Int>(0)
    private let runsDone = Atomic<Int>(0)
    /// Opened once the tree and its bands are made (or the error that stops the frame is found).
    let planned = Latch()
    private(set) var tree: DrawTree?
    /// The nodes each band meets; nil when nothing is drawn.
    private(set) var lists: BandLists?
    private(set) var error: RasterError?
    /// The largest `DrawTree.Node.reach` of the tree.
    private(set) var reach = 0
    private(set) var bandHeight: Int
    /// Pieces of bands to draw: how many, and which rows of which band (nil: every band whole, in order).
    private(set) var bands = 0
    private var pieces: [(band: Int, rows: Range<Int>)]?
    /// The rows to draw (nil: all): only they are drawn, in pieces of the bands that hold them; the others
    /// are left as they are.
    private let rows: DamagedRows?
    private let nextBand = Atomic<Int>(0)
    private let bandsDone = Atomic<Int>(0)
    /// Opened once every band is drawn.
    let drawn = Latch()
    private let height: Int
    private let background: Bool

    /// `bandHeight`: the rasterizer's; shadows may ask for taller bands. `background`: whether bands are
    /// cleared (drawn even when the tree is empty).
    init(
        _ preparation: DrawTree.Preparation, workers: Int, height: Int, bandHeight: Int, background: Bool,
        rows: DamagedRows? = nil
    ) {
        self.preparation = preparation
        self.rows = rows
        self.height = height
        self.bandHeight = bandHeight
        self.background = background
        let fills = preparation.fills.count
        runLength = max(1, min(32, fills / (8 * max(workers, 1))))
        runs = (fills + runLength - 1) / runLength
        if runs == 0 { plan() }
    }

    /// The next run of fills to prepare (indices into `preparation.fills`), or nil once all are taken.
    func takeRun() -> Range<Int>? {
        let r = nextRun.wrappingAdd(1, ordering: .relaxed).oldValue
        guard r < runs else { return nil }
        return (r * runLength)..<min((r + 1) * runLength, preparation.fills.count)
    }

    /// A run taken is prepared; the worker finishing the last makes the plan.
    func finishRun() {
        if runsDone.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue == runs { plan() }
    }

    /// The next band to draw, or nil once all are taken: bands handed out in order as workers come for
    /// them, not dealt in turn, as a frame's work is uneven down its rows (lines of text, a stroke-heavy
    /// diagram; dealt in turn, text_glyphs on two threads was 1.63× one thread).
    func takeBand() -> (band: Int, rows: Range<Int>)? {
        let b = nextBand.wrappingAdd(1, ordering: .relaxed).oldValue
        guard b < bands else { return nil }
        return pieces?[b] ?? (b, b * bandHeight..<min((b + 1) * bandHeight, height))
    }

    /// A band taken is drawn; the worker finishing the last opens `drawn`.
    func finishBand() {
        if bandsDone.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue == bands { drawn.open() }
    }

    /// The tree, its bands (at least `bandHeight` rows) and their lists, then `planned` opened; `drawn`
    /// opened too when there is nothing to draw (an error, or an empty tree and no background).
    private func plan() {
        defer { planned.open() }
        let tree: DrawTree
        do {
            tree = try preparation.tree()
        } catch {
            self.error = error
            drawn.open()
            return
        }
        guard !tree.nodes.isEmpty || background else {
            drawn.open()
            return
        }
        // A group that reads content around its canvas (a shadow's blur and offset) paints that margin again
        // in every band: bands at least 4× the reach keep the repeated work under half.
        reach = tree.nodes.reduce(0) { max($0, $1.reach) }
        bandHeight = max(bandHeight, min(4 * reach, height))
        let bands = (height + bandHeight - 1) / bandHeight
        lists = BandLists(tree.nodes, bands: bands, bandHeight: bandHeight)
        self.tree = tree
        self.bands = bands
        if let rows {
            // Only the damaged rows: a band's other rows may hold what the list was cut of.
            var pieces: [(band: Int, rows: Range<Int>)] = []
            for r in rows.ranges {
                var y = r.lowerBound
                while y < min(r.upperBound, height) {
                    let band = y / bandHeight
                    let end = min(r.upperBound, (band + 1) * bandHeight, height)
                    pieces.append((band, y..<end))
                    y = end
                }
            }
            self.pieces = pieces
            self.bands = pieces.count
        }
        if self.bands == 0 { drawn.open() }
    }
}

/// The top-level nodes each band of a frame meets, in drawing order (`Buckets`). A band visits only those
/// instead of every node of the frame (400 small shapes on a 1080p frame each touch 1–2 of its 34
/// bands). Exact: a node paints nothing outside its rows. One list rather than an array per band: made
/// one after the other for a frame of 2,300 glyphs, an array per band took 69 µs and this 38 (1,000
/// rectangles: 48 and 23), on one thread while the other waits.
struct BandLists {
    let lists: Buckets<Int32>

    init(_ nodes: [DrawTree.Node], bands: Int, bandHeight: Int) {
        lists = Buckets(count: nodes.count, buckets: bands) { i in
            guard let rows = nodes[i].rows else { return (0, bands - 1) }
            guard rows.lowerBound < rows.upperBound else { return (0, -1) }
            return (
                max(0, rows.lowerBound >= 0 ? rows.lowerBound / bandHeight : 0),
                min(bands - 1, rows.upperBound <= 0 ? -1 : (rows.upperBound - 1) / bandHeight)
            )
        } item: {
            Int32($0)
        }
    }

    /// Band b's node indices, in drawing order.
    func band(_ b: Int) -> ArraySlice<Int32> { lists.bucket(b) }
}
