// `--frames`, `--shard`, `reel concat`: shards rendered apart, joined, decode to the single render's frames (MP4, GIF, PNG).
import Foundation
import ReelMedia
import ReelTestSupport
import Testing

/// Rendering part of a clip (`--frames`, `--shard`) and joining the parts (`reel concat`).
@Suite struct SegmentTests {
    /// The reference star button at 1×: 66 frames at 30 fps, every one of them different.
    static let scene = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("examples/star-button.yaml").path

    /// Runs the shards as separate `reel` processes at the same time, as a render farm would.
    static func renderShards(_ count: Int, to name: (Int) -> String, extra: [String]) throws {
        var processes: [Process] = []
        for i in 0..<count {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: reelBinary())
            p.arguments = ["render", scene, "--scale", "1", "--shard", "\(i)/\(count)", "-o", name(i), "-q"] + extra
            p.standardError = FileHandle.nullDevice
            try p.run()
            processes.append(p)
        }
        for (i, p) in processes.enumerated() {
            p.waitUntilExit()
            #expect(p.terminationStatus == 0, "shard \(i) failed")
        }
    }

    /// Four shards rendered by four processes and joined decode to exactly the frames of a single render
    /// (same count, same timestamps, same pixels). Lossless H.264 (CRF 0) makes "exactly" testable: a
    /// lossy encoder codes each segment's first frame as a key frame where the single render predicts
    /// it, so its pixels legitimately differ by the coding error.
    @Test func fourShardsJoinToTheSingleRender() throws {
        let ws = try Workspace()
        try Self.renderShards(4, to: { ws.file("seg-\($0).mp4") }, extra: ["--crf", "0"])
        // Given out of order on purpose: the join orders them by the frames they hold.
        let r = try runReel([
            "concat", ws.file("seg-2.mp4"), ws.file("seg-0.mp4"), ws.file("seg-3.mp4"), ws.file("seg-1.mp4"), "-o",
            ws.file("joined.mp4"),
        ])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("66 frames"), "\(r.stderr)")
        let single = try runReel(["render", Self.scene, "--scale", "1", "--crf", "0", "-o", ws.file("whole.mp4"), "-q"])
        #expect(single.status == 0, "\(single.stderr)")
        let joined = try VideoReader(path: ws.file("joined.mp4")).decodeAll()
        let whole = try VideoReader(path: ws.file("whole.mp4")).decodeAll()
        #expect(joined.count == 66 && whole.count == 66)
        for (i, (a, b)) in zip(joined, whole).enumerated() {
            #expect(abs(a.time - b.time) < 1e-6, "frame \(i): \(a.time) s vs \(b.time) s")
            #expect(a.rgba == b.rgba, "frame \(i) differs")
        }
        // The shards were split evenly: frames 0-15, 16-32, 33-48, 49-65 (⌊i·66/4⌋).
        let info = try SegmentJoiner.info(ofFileAt: ws.file("seg-1.mp4"))
        #expect(info == SegmentInfo(first: 16, last: 32, total: 66))
        // Each segment decodes on its own, starting at its own time.
        let alone = try VideoReader(path: ws.file("seg-1.mp4")).decodeAll()
        #expect(alone.count == 17)
        #expect(abs((alone.first?.time ?? -1) - 16.0 / 30) < 1e-3)
    }

    /// GIF shards share the whole clip's palette, so the join decodes to the single render's frames at
    /// every one of the clip's 66 times (each shard merges its own still frames, so the two files may
    /// cut the time into frames differently), lasts as long and keeps the loop.
    @Test func gifShardsJoinToTheSingleRender() throws {
        let ws = try Workspace()
        try Self.renderShards(3, to: { ws.file("seg-\($0).gif") }, extra: [])
        let r = try runReel([
            "concat", ws.file("seg-0.gif"), ws.file("seg-1.gif"), ws.file("seg-2.gif"), "-o", ws.file("joined.gif"),
        ])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try runReel(["render", Self.scene, "--scale", "1", "-o", ws.file("whole.gif"), "-q"]).status == 0)
        let joined = try VideoReader(path: ws.file("joined.gif")).decodeAll()
        let whole = try VideoReader(path: ws.file("whole.gif")).decodeAll()
        /// The decoded frame shown at clip frame i, which starts at round(100·i/30) cs.
        func shown(_ frames: [DecodedFrame], _ i: Int) -> [UInt8]? {
            let t = Double((2 * i * 100 + 30) / 60) / 100
            return frames.last(where: { $0.time <= t + 1e-6 })?.rgba
        }
        #expect(!joined.isEmpty && !whole.isEmpty)
        for i in 0..<66 { #expect(shown(joined, i) == shown(whole, i), "clip frame \(i) differs") }
        let j = gifLoopAndDelays([UInt8](try Data(contentsOf: URL(fileURLWithPath: ws.file("joined.gif")))))
        let w = gifLoopAndDelays([UInt8](try Data(contentsOf: URL(fileURLWithPath: ws.file("whole.gif")))))
        #expect(j.delays.reduce(0, +) == 220 && w.delays.reduce(0, +) == 220)  // 66 frames at 30 fps: 2.2 s
        #expect(j.loop == w.loop)
    }

    /// PNG sequences: each shard's frames are numbered for the whole clip; the join gathers them.
    @Test func pngSequenceShardsJoinToTheSingleRender() throws {
        let ws = try Workspace()
        try Self.renderShards(2, to: { ws.file("part\($0)/") }, extra: [])
        #expect(ws.listing("part1").first == "frame_00033.png")
        let r = try runReel(["concat", ws.file("part1"), ws.file("part0"), "-o", ws.file("joined/")])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try runReel(["render", Self.scene, "--scale", "1", "-o", ws.file("whole/"), "-q"]).status == 0)
        let names = ws.listing("whole")
        #expect(names.count == 66 && ws.listing("joined") == names)
        for name in names {
            let a = try Data(contentsOf: URL(fileURLWithPath: ws.file("joined/\(name)")))
            let b = try Data(contentsOf: URL(fileURLWithPath: ws.file("whole/\(name)")))
            #expect(a == b, "\(name) differs")
        }
    }

    /// Segments that do not fit together are refused, naming what is wrong, and nothing is written.
    @Test func refusesSegmentsThatDoNotFit() throws {
        let ws = try Workspace()
        try Self.renderShards(3, to: { ws.file("s\($0).mp4") }, extra: [])
        func refused(_ inputs: [String], _ expected: String) throws {
            let r = try runReel(["concat"] + inputs.map { ws.file($0) } + ["-o", ws.file("out.mp4")])
            #expect(r.status == 1, "\(inputs)")
            #expect(r.stderr.contains(expected), "\(r.stderr)")
            #expect(!ws.listing().contains { $0.contains("out.mp4") }, "\(ws.listing())")
        }
        try refused(["s0.mp4", "s2.mp4"], "no segment holds frames 22-43 of 66")
        try refused(["s0.mp4", "s1.mp4"], "no segment holds frames 44-65 of 66 (the clip's end)")
        #expect(
            try runReel(["render", Self.scene, "--scale", "1", "--frames", "20-30", "-o", ws.file("x.mp4"), "-q"]).status == 0)
        try refused(["s0.mp4", "s1.mp4", "s2.mp4", "x.mp4"], "overlaps")
        #expect(
            try runReel(["render", Self.scene, "--scale", "1", "--frames", "22-43", "--crf", "28", "-o", ws.file("c.mp4"), "-q"])
                .status == 0)
        try refused(["s0.mp4", "c.mp4", "s2.mp4"], "was encoded differently")
        #expect(try runReel(["render", Self.scene, "--scale", "1", "-o", ws.file("plain.mp4"), "-q"]).status == 0)
        try refused(["plain.mp4"], "not a Reel segment")
        #expect(try runReel(["render", Self.scene, "--scale", "1", "--shard", "1/3", "-o", ws.file("s1.gif"), "-q"]).status == 0)
        try refused(["s0.mp4", "s1.gif", "s2.mp4"], "is not a .mp4 file like the output")
    }

    /// `--shard` is read by one rule (`Shard(parsing:)`): `render`, `render --rows` and `batch` refuse
    /// the same values with the same words and status, before reading any file.
    @Test func shardIsReadOneWay() throws {
        let ws = try Workspace()
        let examples = URL(fileURLWithPath: Self.scene).deletingLastPathComponent().path
        for value in ["4/4", "x", "0/0", "0/100001", "1/2/3"] {
            let runs = [
                try runReel(["render", Self.scene, "--shard", value, "-o", ws.file("x.mp4")]),
                try runReel([
                    "render", examples + "/batch/badge.yaml", "--rows", examples + "/batch/badges.csv", "--shard", value, "-o",
                    ws.file("{name}.gif"),
                ]),
                try runReel(["batch", examples + "/batch/demo.yaml", "--shard", value, "--dry-run"]),
            ]
            let first = runs.map { $0.stderr.split(separator: "\n").first.map(String.init) ?? "" }
            #expect(first[0].contains("--shard \(value)"), "\(first[0])")
            #expect(Set(first).count == 1, "\(value): \(first)")
            #expect(Set(runs.map(\.status)).count == 1 && runs[0].status != 0, "\(value): \(runs.map(\.status))")
        }
        #expect(ws.listing().isEmpty)
    }

    @Test func refusesBadRanges() throws {
        let ws = try Workspace()
        for (args, expected) in [
            (["--shard", "4/4"], "shards are numbered from 0"),
            (["--frames", "0-66"], "the clip has 66 frames, numbered 0-65"),
            (["--shard", "0/100"], "this shard holds none"),
            (["--frames", "9-3"], "--frames 9-3 is not FIRST-LAST"),
            (["--shard", "0/2", "--frames", "0-3"], "not both"),
        ] {
            let r = try runReel(["render", Self.scene, "--scale", "1", "-o", ws.file("x.mp4")] + args)
            #expect(r.status != 0, "\(args)")
            #expect(r.stderr.contains(expected), "\(args): \(r.stderr)")
        }
        let webp = try runReel(["render", Self.scene, "--shard", "0/2", "-o", ws.file("x.webp")])
        #expect(webp.status == 1 && webp.stderr.contains("segments (--frames, --shard) are written as"))
        #expect(ws.listing().isEmpty)
    }

    /// Shards cover every frame exactly once and differ in length by at most one.
    @Test(arguments: [1, 2, 3, 7, 66, 1000])
    func shardsPartitionTheClip(total: Int) {
        for count in [1, 2, 3, 4, 5, 16, 60] where count <= total {
            let shards = (0..<count).map { SegmentInfo.shard($0, of: count, total: total)! }
            #expect(shards.first?.first == 0 && shards.last?.last == total - 1)
            for (a, b) in zip(shards, shards.dropFirst()) { #expect(b.first == a.last + 1) }
            let sizes = shards.map(\.count)
            #expect(sizes.max()! - sizes.min()! <= 1, "\(count) shards of \(total): \(sizes)")
        }
        #expect(SegmentInfo.shard(0, of: total + 1, total: total) == nil)
        #expect(
            SegmentInfo(comment: SegmentInfo(first: 3, last: 9, total: total + 9).description)
                == SegmentInfo(first: 3, last: 9, total: total + 9))
    }
}
