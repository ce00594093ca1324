// The render pipeline: same bytes for any thread count, peak memory flat in clip length, the frame pool's limit, held frames.
import Foundation
import Reel
import ReelMedia
import ReelRender
import ReelScene
import ReelTestSupport
import Testing

/// The render pipeline: frames rendered ahead of the encoder by worker threads from a fixed pool.
@Suite struct PipelineTests {
    /// A busy little scene: moving, rotating, fading layers over 1 s.
    static let scene = """
        {"width": 160, "height": 90, "scale": 2, "fps": 30, "duration": 1, "background": "#101418",
         "layers": [
           {"name": "a", "type": "shape", "position": [40, 45], "bounds": [40, 40], "path": [{"oval": [0, 0, 40, 40]}],
            "fillColor": "#eecd34", "strokeColor": "#e76b39", "lineWidth": 3,
            "animations": [{"keyPath": "position.x", "fromValue": 40, "toValue": 120, "duration": 1},
                           {"keyPath": "transform.rotation.z", "fromValue": 0, "toValue": 3, "duration": 1}]},
           {"name": "b", "position": [80, 20], "bounds": [100, 10], "backgroundColor": "#3478f6", "cornerRadius": 5,
            "animations": [{"keyPath": "opacity", "fromValue": 1, "toValue": 0.2, "duration": 1, "autoreverses": true}]}]}
        """

    /// The output is the same file whatever the thread counts: frames come back in order, the rasterizer
    /// is bit-identical for any band split, and the encoder's own settings do not depend on them.
    @Test func sameBytesForAnyThreadCounts() throws {
        let ws = try Workspace()
        let s = ws.write("s.json", Self.scene)
        var files: [Data] = []
        for (i, (workers, threads)) in [(1, 1), (4, 1), (2, 3), (4, 4)].enumerated() {
            for ext in ["mp4", "gif"] {
                let out = ws.file("o\(i).\(ext)")
                let r = try runReel(["render", s, "-o", out, "--workers", "\(workers)", "--threads", "\(threads)", "-q"])
                #expect(r.status == 0, "\(r.stderr)")
                files.append(try Data(contentsOf: URL(fileURLWithPath: out)))
            }
        }
        for i in stride(from: 2, to: files.count, by: 2) {
            #expect(files[i] == files[0], "mp4 #\(i / 2) differs")
            #expect(files[i + 1] == files[1], "gif #\(i / 2) differs")
        }
    }

    /// Memory stays flat: a 20 s clip peaks within 10 % (+8 MiB for allocator noise) of the same clip
    /// cut to 2 s — the frames in flight are a fixed pool, and nothing keeps encoded frames.
    @Test func peakMemoryDoesNotGrowWithLength() throws {
        let ws = try Workspace()
        let s = ws.write("s.json", Self.scene)
        func peak(_ seconds: Int) throws -> Int {
            let r = try runReel(["render", s, "-o", ws.file("m\(seconds).mp4"), "--duration", "\(seconds)", "--stats", "-q"])
            #expect(r.status == 0, "\(r.stderr)")
            let line = r.stderr.split(separator: "\n").first { $0.hasPrefix("peak resident memory:") } ?? ""
            return Int(line.split(separator: " ")[3]) ?? -1
        }
        let short = try peak(2), long = try peak(20)
        #expect(short > 0 && long > 0)
        #expect(Double(long) <= Double(short) * 1.10 + 8 * 1024, "2 s: \(short) KiB, 20 s: \(long) KiB")
    }

    @Test func refusesAFramePoolOverTheLimit() throws {
        let ws = try Workspace()
        let s = ws.write("s.json", Self.scene)
        // 3840×2160 RGBA is 31.6 MiB a frame; 2 workers hold 4 frames in flight, and the first frame is kept
        // while the pool fills: 5 frames, 158 MiB, over the 8 MiB limit.
        let r = try runReel(["render", s, "-o", ws.file("x.mp4"), "--width", "3840", "--memory-limit", "8", "--workers", "2"])
        #expect(r.status == 1)
        #expect(
            r.stderr.contains("at 5 frames in flight") && r.stderr.contains("(frames in flight 158 MiB")
                && r.stderr.contains("more than the limit of 8 MiB")
                && r.stderr.contains("--memory-limit"),
            "\(r.stderr)")
        #expect(ws.listing() == ["s.json"])
    }

    @Test func progress() throws {
        let ws = try Workspace()
        let s = ws.write("s.json", Self.scene)
        // Not a terminal: nothing but the summary.
        let quiet = try runReel(["render", s, "-o", ws.file("a.mp4")])
        #expect(quiet.status == 0 && !quiet.stderr.contains("frames  ") && !quiet.stderr.contains("{\"frame\""))
        // JSON lines for scripts: one at the start, one a second at most after, and the last.
        let json = try runReel(["render", s, "-o", ws.file("b.mp4"), "--progress", "json", "--duration", "3"])
        #expect(json.status == 0)
        let lines = json.stderr.split(separator: "\n").filter { $0.contains("\"event\": \"progress\"") }
        #expect(lines.count >= 2)
        var last = 0
        for line in lines {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
            let frame = object["frame"] as! Int
            #expect(frame > last && object["frames"] as! Int == 90 && object["bytes"] != nil && object["eta"] != nil)
            last = frame
        }
        #expect(last == 90)
        // --quiet wins over everything but errors.
        let silent = try runReel(["render", s, "-o", ws.file("c.mp4"), "-q"])
        #expect(silent.status == 0 && silent.stderr.isEmpty)
    }
}

@Suite struct HeldFrameTests {
    /// Frames that draw what the frame before drew are not rasterized again; the sequence still holds
    /// every frame as `reel still` draws it alone.
    @Test func heldFramesAreTheSame() throws {
        let ws = try Workspace()
        let s = ws.write(
            "h.json",
            ##"{"width": 40, "height": 30, "fps": 10, "duration": 1, "layers": [{"name": "a", "position": [20, 15], "bounds": [20, 10], "backgroundColor": "#3478f6", "animations": [{"keyPath": "position.x", "fromValue": 10, "toValue": 30, "beginTime": 0.3, "duration": 0.3}]}]}"##
        )
        #expect(try runReel(["render", s, "-o", ws.file("seq") + "/", "--workers", "2"]).status == 0)
        for i in 0..<10 {
            #expect(try runReel(["still", s, "--at", "\(Double(i) / 10)", "-o", ws.file("still.png")]).status == 0)
            let a = try ImageFile.read(path: ws.file("still.png"))
            let b = try ImageFile.read(path: ws.file(String(format: "seq/frame_%05d.png", i)))
            let same = a.rgba == b.rgba
            #expect(same, "frame \(i) differs in \(zip(a.rgba, b.rgba).filter { $0 != $1 }.count) bytes")
        }
    }
}

/// Frames drawn only where they differ from the picture their buffer holds (damage), from a presentation
/// whose still subtrees are made once, must be the frames `reel still` draws whole from a fresh sample.
@Suite struct DamagedFrameTests {
    /// Still layers (one with a shadow, one masked, a replicator) around a dot that moves down, a bar that
    /// fades and a square that moves off the frame and back: the damage is a few rows on most frames.
    static let scene = ##"""
        {"width": 64, "height": 96, "fps": 10, "duration": 1.2, "background": "#f4f6f8", "layers": [
          {"name": "card", "position": [20, 20], "bounds": [30, 20], "backgroundColor": "#ffffff",
           "shadowOpacity": 0.6, "shadowRadius": 2, "shadowOffset": [0, 6]},
          {"name": "panel", "position": [48, 60], "bounds": [24, 24], "backgroundColor": "#ff9900",
           "mask": {"name": "m", "position": [12, 12], "bounds": [16, 16], "cornerRadius": 8, "backgroundColor": "#000000"}},
          {"name": "bars", "type": "replicator", "position": [32, 88], "bounds": [64, 8], "instanceCount": 4,
           "instanceTransform": {"translation": [16, 0]},
           "sublayers": [{"name": "bar", "position": [4, 4], "bounds": [6, 6], "backgroundColor": "#5533aa"}]},
          {"name": "dot", "position": [12, 10], "bounds": [6, 6], "cornerRadius": 3, "backgroundColor": "#e0245e",
           "animations": [{"keyPath": "position.y", "fromValue": 10, "toValue": 80, "duration": 1.2}]},
          {"name": "fade", "position": [32, 50], "bounds": [40, 4], "backgroundColor": "#1da1f2",
           "animations": [{"keyPath": "opacity", "fromValue": 1, "toValue": 0.3, "beginTime": 0.4, "duration": 0.3}]},
          {"name": "away", "position": [50, 40], "bounds": [6, 6], "backgroundColor": "#00aa55",
           "animations": [{"type": "keyframe", "keyPath": "position.x", "values": [50, 90, 90, 50], "keyTimes": [0, 0.3, 0.6, 1],
                           "duration": 1.2}]}]}
        """##

    @Test(arguments: [1, 2, 3]) func framesDrawnOverTheirBuffersAreTheWholeFrames(workers: Int) throws {
        let ws = try Workspace()
        let s = ws.write("d.json", Self.scene)
        let r = try runReel(["render", s, "-o", ws.file("seq") + "/", "--workers", "\(workers)"])
        #expect(r.status == 0, "\(r.stderr)")
        for i in 0..<12 {
            #expect(try runReel(["still", s, "--at", "\(Double(i) / 10)", "-o", ws.file("still.png")]).status == 0)
            let a = try ImageFile.read(path: ws.file("still.png"))
            let b = try ImageFile.read(path: ws.file(String(format: "seq/frame_%05d.png", i)))
            #expect(a.rgba == b.rgba, "frame \(i) differs in \(zip(a.rgba, b.rgba).filter { $0 != $1 }.count) bytes")
        }
    }

    /// `--memory-limit` counts the commands kept for still subtrees: 2 KiB a drawn layer (as a frame's
    /// display list is counted), up to their 64 MiB budget. Hand-computed: 6 drawn layers here (card,
    /// panel, the mask, dot, fade, away) plus the replicator's 4 bars and itself: 11 × 2048.
    @Test func theMemoryEstimateCountsKeptCommands() throws {
        let ws = try Workspace()
        let clip = try Reel.load(ws.write("d.json", Self.scene))
        let e = Reel.estimatedMemory(of: clip, width: 64, height: 96, codec: .gif, workers: 2, threads: 1)
        #expect(e.retained == Int(clip.scene.drawnLayerBound) * 2048)
        #expect(e.retained == 11 * 2048)
        let many = (0..<40_000).map {
            ##"{"name": "l\##($0)", "position": [1, 1], "bounds": [1, 1], "backgroundColor": "#000000"}"##
        }
        let big = try Reel.load(
            ws.write(
                "many.json", #"{"width": 8, "height": 8, "fps": 1, "duration": 1, "layers": [\#(many.joined(separator: ","))]}"#))
        let f = Reel.estimatedMemory(of: big, width: 8, height: 8, codec: .gif, workers: 2, threads: 1)
        #expect(f.retained == RetainedCommands.defaultBudget)
        #expect(f.total >= f.retained + f.displayLists)
    }

    /// With motion blur each of 2 workers holds a copy of its 64 × 96 frame and the sums of its samples
    /// (4 + 8 bytes a pixel), and the lists of the frames in flight are one a sample: hand-computed.
    @Test func theMemoryEstimateCountsMotionBlur() throws {
        let ws = try Workspace()
        var clip = try Reel.load(ws.write("d.json", Self.scene))
        let sharp = Reel.estimatedMemory(of: clip, width: 64, height: 96, codec: .gif, workers: 2, threads: 1)
        clip.scene.motionBlur = MotionBlur(shutterAngle: 180, samples: 8)
        let blurred = Reel.estimatedMemory(of: clip, width: 64, height: 96, codec: .gif, workers: 2, threads: 1)
        #expect(blurred.raster - sharp.raster == 2 * 64 * 96 * 12)
        #expect(blurred.displayLists == 8 * sharp.displayLists)
    }
}
