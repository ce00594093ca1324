// Reel's GIF writer (#21) decoded by Pillow, FFmpeg and giflib against the nearest palette colours; delays, lossy, budgets.
import Foundation
import ReelMedia
import Testing

/// Reel's own GIF writer (issue #21), read back by three decoders that share no code with it: Pillow,
/// FFmpeg's and giflib's (through its library, the images laid over each other by GIF89a's disposal
/// rules). Expectations are independent of the writer: every decoded pixel is the palette colour
/// nearest (in Oklab, computed here in float64 by numpy) to the pixel Reel rendered, at every clip
/// frame's time; hand-computed frame counts and delays for merged frames.
@Suite struct GIFWriterTests {
    /// Decodes a GIF with the three decoders and compares it with the PNG frames of the same clip.
    static let checker = #"""
        import json, subprocess, sys
        import numpy as np
        from PIL import Image

        def srgb_to_oklab(rgb):
            c = rgb.astype(np.float64) / 255.0
            lin = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
            m1 = np.array([[0.4122214708, 0.5363325363, 0.0514459929],
                           [0.2119034982, 0.6806995451, 0.1073969566],
                           [0.0883024619, 0.2817188376, 0.6299787005]])
            lms = np.cbrt(lin @ m1.T)
            m2 = np.array([[0.2104542553, 0.7936177850, -0.0040720468],
                           [1.9779984951, -2.4285922050, 0.4505937099],
                           [0.0259040371, 0.7827717662, -0.8086757660]])
            return lms @ m2.T

        def giflib_frames(path, w, h):
            import ctypes as C
            lib = C.CDLL("libgif.so.7")
            class ColorMap(C.Structure):
                _fields_ = [("ColorCount", C.c_int), ("BitsPerPixel", C.c_int), ("SortFlag", C.c_bool), ("Colors", C.POINTER(C.c_ubyte))]
            class ImageDesc(C.Structure):
                _fields_ = [("Left", C.c_int), ("Top", C.c_int), ("Width", C.c_int), ("Height", C.c_int), ("Interlace", C.c_bool), ("ColorMap", C.POINTER(ColorMap))]
            class SavedImage(C.Structure):
                _fields_ = [("ImageDesc", ImageDesc), ("RasterBits", C.POINTER(C.c_ubyte)), ("ExtensionBlockCount", C.c_int), ("ExtensionBlocks", C.c_void_p)]
            class GifFile(C.Structure):
                _fields_ = [("SWidth", C.c_int), ("SHeight", C.c_int), ("SColorResolution", C.c_int), ("SBackGroundColor", C.c_int),
                            ("AspectByte", C.c_ubyte), ("SColorMap", C.POINTER(ColorMap)), ("ImageCount", C.c_int), ("Image", ImageDesc),
                            ("SavedImages", C.POINTER(SavedImage))]
            class GCB(C.Structure):
                _fields_ = [("DisposalMode", C.c_int), ("UserInputFlag", C.c_bool), ("DelayTime", C.c_int), ("TransparentColor", C.c_int)]
            lib.DGifOpenFileName.restype = C.POINTER(GifFile)
            err = C.c_int(0)
            g = lib.DGifOpenFileName(path.encode(), C.byref(err))
            assert g and lib.DGifSlurp(g) == 1, "giflib cannot read " + path
            cmap = g.contents.SColorMap.contents
            pal = np.ctypeslib.as_array(cmap.Colors, shape=(cmap.ColorCount * 3,)).reshape(-1, 3).copy()
            screen = np.zeros((h, w, 4), dtype=np.uint8)
            out, delays = [], []
            for k in range(g.contents.ImageCount):
                img = g.contents.SavedImages[k]
                d = img.ImageDesc
                gcb = GCB()
                lib.DGifSavedExtensionToGCB(g, k, C.byref(gcb))
                delays.append(gcb.DelayTime * 10)
                bits = np.ctypeslib.as_array(img.RasterBits, shape=(d.Width * d.Height,)).reshape(d.Height, d.Width)
                region = screen[d.Top:d.Top + d.Height, d.Left:d.Left + d.Width]
                drawn = bits != gcb.TransparentColor
                # A frame's local colour table, where it has one, instead of the global table.
                cm = d.ColorMap
                colours = np.ctypeslib.as_array(cm.contents.Colors, shape=(cm.contents.ColorCount * 3,)).reshape(-1, 3) if cm else pal
                region[drawn, :3] = colours[bits[drawn]]
                region[drawn, 3] = 255
                out.append(visible(screen).tobytes())
                if gcb.DisposalMode == 2:
                    region[...] = 0
            lib.DGifCloseFile(g, C.byref(err))
            return out, delays

        def visible(a):
            b = a.copy(); b[b[..., 3] == 0] = 0; return b

        def main():
            gif, frames_dir, num, den, bound, threshold = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5]), int(sys.argv[6])
            im = Image.open(gif)
            palette = np.array(im.getpalette()[:3 * 256], dtype=np.uint8).reshape(-1, 3)
            transparent = im.info.get("transparency")
            entries = [i for i in range(len(palette)) if i != transparent]
            pal_lab = srgb_to_oklab(palette[entries])
            frames, durations = [], []
            for k in range(im.n_frames):
                im.seek(k)
                frames.append(np.array(im.convert("RGBA")))
                durations.append(im.info["duration"])
            h, w = frames[0].shape[:2]
            # ffmpeg's decoder, every frame as stored
            raw = subprocess.run(["ffmpeg", "-v", "error", "-i", gif, "-vsync", "0", "-f", "rawvideo", "-pix_fmt", "rgba", "-"], capture_output=True, check=True).stdout
            ff = np.frombuffer(raw, dtype=np.uint8).reshape(-1, h, w, 4)
            out = {"frames": len(frames), "ffmpegFrames": int(ff.shape[0]), "durations": durations}
            # giflib decodes each image (DGifSlurp) and reads its graphic control (DGifSavedExtensionToGCB); the
            # images are laid over each other by GIF89a's rules (disposal 1 keeps, 2 clears to transparent).
            decoded, delays = giflib_frames(gif, w, h)
            out["giflibMatches"] = decoded == [visible(f).tobytes() for f in frames] and delays == durations
            out["ffmpegMatches"] = bool(ff.shape[0] == len(frames) and all(np.array_equal(visible(ff[k]), visible(frames[k])) for k in range(len(frames))))
            # Clip frames: frame i starts at centisecond cs(i); a GIF frame starts where the delays before it sum.
            starts = np.cumsum([0] + [d // 10 for d in durations[:-1]])
            import glob
            paths = sorted(glob.glob(frames_dir + "/frame_*.png"))
            cs = lambda i: (2 * i * 100 * den + num) // (2 * num)
            out["startsOnFrames"] = bool(set(starts.tolist()) <= {cs(i) for i in range(len(paths))})
            out["totalCentiseconds"] = int(sum(d // 10 for d in durations))
            out["clipCentiseconds"] = cs(len(paths))
            worst, wrong_alpha, unstable = 0.0, 0, 0
            prev_src = prev_dec = None
            cache = {}
            for i, p in enumerate(paths):
                src = np.array(Image.open(p).convert("RGBA"))
                k = int(np.searchsorted(starts, cs(i), side="right") - 1)
                dec = frames[k]
                shown = src[..., 3] >= threshold
                wrong_alpha += int(np.count_nonzero(shown != (dec[..., 3] == 255)))
                colours = src[shown][:, :3].reshape(-1, 3).astype(np.int64)
                keys = colours[:, 0] << 16 | colours[:, 1] << 8 | colours[:, 2]
                unique, inverse = np.unique(keys, return_inverse=True)
                todo = [u for u in unique.tolist() if u not in cache]
                if todo:
                    t = np.array(todo, dtype=np.int64)
                    lab = srgb_to_oklab(np.stack([t >> 16 & 255, t >> 8 & 255, t & 255], -1))
                    dist = np.sqrt(((lab[:, None, :] - pal_lab[None, :, :]) ** 2).sum(-1)).min(1)
                    cache.update(zip(todo, dist.tolist()))
                if len(keys):
                    best = np.array([cache[u] for u in unique.tolist()])[inverse]
                    s = srgb_to_oklab(colours)
                    d = srgb_to_oklab(dec[shown][:, :3].reshape(-1, 3))
                    got = np.sqrt(((s - d) ** 2).sum(-1))
                    worst = max(worst, float((got - best).max()))
                if prev_src is not None:
                    same = np.all(src == prev_src, axis=-1)
                    unstable += int(np.count_nonzero(np.any(visible(dec)[same] != visible(prev_dec)[same], axis=-1)))
                prev_src, prev_dec = src, dec
            out["worstExcess"] = worst
            out["wrongAlpha"] = wrong_alpha
            out["unstable"] = unstable
            print(json.dumps(out))

        main()
        """#

    struct Check: Decodable {
        var frames: Int
        var ffmpegFrames: Int
        var durations: [Int]
        var giflibMatches: Bool
        var ffmpegMatches: Bool
        var startsOnFrames: Bool
        var totalCentiseconds: Int
        var clipCentiseconds: Int
        var worstExcess: Double
        var wrongAlpha: Int
        var unstable: Int
    }

    static var hasDecoders: Bool {
        let libgif = ["x86_64", "aarch64"].contains {
            FileManager.default.fileExists(atPath: "/usr/lib/\($0)-linux-gnu/libgif.so.7")
        }
        return libgif && FileManager.default.fileExists(atPath: "/usr/bin/python3")
    }

    /// Renders `scene` as PNG frames and as a GIF (with `options`, and `lossy` as --gif-lossy in
    /// thousandths), and checks the GIF.
    func check(_ ws: Workspace, _ scene: String, _ options: [String] = [], lossy: Int = 0, fps: (Int, Int) = (30, 1))
        throws -> (Check, bytes: Int)
    {
        let frames = ws.file("frames/"), gif = ws.file("clip-\(lossy).gif")
        let a = try runReel(["render", scene, "-o", frames, "-q"] + options)
        let b = try runReel(["render", scene, "-o", gif, "-q", "--gif-lossy", "\(lossy)"] + options)
        #expect(a.status == 0 && b.status == 0, "\(a.stderr)\(b.stderr)")
        let script = ws.write("gifcheck.py", Self.checker)
        let p = try runProgram(
            "/usr/bin/python3", [script, gif, frames, "\(fps.0)", "\(fps.1)", "\(Double(lossy) / 1000)", "128"])
        let data = Data(p.stdout.utf8)
        guard p.status == 0 else {
            Issue.record("gifcheck.py failed: \(p.stderr)")
            throw CocoaError(.fileReadUnknown)
        }
        let size = (try FileManager.default.attributesOfItem(atPath: gif)[.size] as? Int) ?? 0
        return (try JSONDecoder().decode(Check.self, from: data), size)
    }

    /// A shipped example scene's path.
    static func example(_ name: String) -> String {
        ExamplesTests.examplesDirectory + "/" + (name.hasSuffix(".json") ? name : "\(name).yaml")
    }

    /// The scene a test case names: "transparent" (written into `ws`) or a shipped example.
    static func scene(_ name: String, in ws: Workspace) -> String {
        name == "transparent" ? ws.write("t.yaml", transparentScene) : example(name)
    }

    static let transparentScene = """
        width: 64
        height: 48
        fps: 30
        duration: 1.2
        background: "#00000000"
        layers:
          - name: box
            position: [12, 24]
            bounds: [16, 16]
            cornerRadius: 4
            backgroundColor: "#e0567a"
            animations:
              - {keyPath: position.x, fromValue: 12, toValue: 52, duration: 0.6}
              - {keyPath: opacity, fromValue: 1, toValue: 0, beginTime: 0.6, duration: 0.3, fillMode: forwards}
          - name: dot
            position: [32, 8]
            bounds: [6, 6]
            cornerRadius: 3
            backgroundColor: "#3478f6"
        """

    /// Lossless: each decoder shows, at every clip frame, exactly the palette colour nearest to what
    /// Reel drew (the excess over the nearest distance is float32's rounding of Oklab, under 1e-4
    /// where a wrong colour is at least 1e-3 away), transparency where alpha is under 128, frames
    /// starting only where clip frames start, and the clip's whole length. Every shipped example and
    /// reference animation (favorite-star is checked at 1× by localTablesDecodeLikeTheGlobalOne).
    @Test(arguments: [
        "star-button", "gradient-switch", "search-back", "transparent", "swift-star", "spring-button", "search-icon",
        "titles", "svg-logo", "lottie-in-scene", "demo-video", "hello.json", "lottie-loader.json",
    ])
    func decodesToTheNearestColoursEverywhere(_ name: String) throws {
        guard Self.hasDecoders else {
            print("skipped: needs /usr/bin/python3 with Pillow and numpy, and libgif7 (scripts/setup.sh)")
            return
        }
        let ws = try Workspace()
        let scene =
            Self.scene(name, in: ws)
        // gradient-switch 480 px wide: its first frame takes over 4,096 codes, so the dictionary is reset.
        let width = name == "gradient-switch" ? "480" : "160"
        let (c, _) = try check(ws, scene, name == "transparent" ? [] : ["--width", width])
        #expect(c.frames == c.ffmpegFrames && c.ffmpegMatches && c.giflibMatches, "\(c)")
        #expect(c.startsOnFrames && c.totalCentiseconds == c.clipCentiseconds, "\(c)")
        #expect(c.worstExcess < 1e-4 && c.wrongAlpha == 0 && c.unstable == 0, "\(c)")
    }

    /// Frames that change almost everywhere are coded in bands, each band an LZW run of its own that a
    /// later frame may write again: a recording alone of 60 × 16 cells fitted into 1000 × 541 (cells of
    /// 15 × 30 px, a grid of 952 × 532), full from the start and scrolling a line every 0.1 s, so every
    /// frame's rectangle is the text's, some 880 × 450 px, past `GIFFileWriter.bandedArea` (262,144) and
    /// half the frame. Each decoder must show exactly the nearest palette colours at every frame.
    @Test func scrollingFramesCodedInBandsDecodeExactly() throws {
        guard Self.hasDecoders else {
            print("skipped: needs /usr/bin/python3 with Pillow and numpy, and libgif7 (scripts/setup.sh)")
            return
        }
        let ws = try Workspace()
        var cast = "{\"version\": 2, \"width\": 60, \"height\": 16}\n"
        func line(_ k: Int) -> String {
            "\\u001b[3\(k % 7 + 1)m[\(k)] compiling module \(k * 7919 % 1000) of the build\\u001b[0m done, \(k * 31) ms, cached\\r\\n"
        }
        cast += "[0.0, \"o\", \"\((1...16).map(line).joined())\"]\n"
        for k in 17...26 { cast += "[\(Double(k - 16) / 10), \"o\", \"\(line(k))\"]\n" }
        let (c, _) = try check(
            ws, ws.write("s.cast", cast), ["--size", "1000x541", "--fps", "10", "--duration", "0.5"], fps: (10, 1))
        #expect(c.frames == c.ffmpegFrames && c.ffmpegMatches && c.giflibMatches, "\(c)")
        #expect(c.startsOnFrames && c.totalCentiseconds == c.clipCentiseconds, "\(c)")
        #expect(c.worstExcess < 1e-4 && c.wrongAlpha == 0 && c.unstable == 0, "\(c)")
    }

    /// Local colour tables, written only where they make a frame shorter: favorite-star at 1× has a
    /// frame of a few colours that sit high in the clip's palette. The file must hold at least one, and
    /// every decoder must still show exactly the nearest palette colours.
    @Test func localTablesDecodeLikeTheGlobalOne() throws {
        guard Self.hasDecoders else {
            print("skipped: needs /usr/bin/python3 with Pillow and numpy, and libgif7 (scripts/setup.sh)")
            return
        }
        let ws = try Workspace()
        let (c, _) = try check(ws, Self.example("favorite-star"), ["--scale", "1"])
        #expect(c.frames == c.ffmpegFrames && c.ffmpegMatches && c.giflibMatches, "\(c)")
        #expect(c.worstExcess < 1e-4 && c.unstable == 0, "\(c)")
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: ws.file("clip-0.gif"))))
        #expect(Self.localTables(bytes) >= 1)
    }

    /// How many image descriptors of a GIF carry a local colour table.
    static func localTables(_ b: [UInt8]) -> Int {
        guard b.count > 13 else { return 0 }
        var i = 13 + (b[10] & 0x80 != 0 ? 3 << (Int(b[10] & 7) + 1) : 0), count = 0
        func skipSubBlocks(_ j: inout Int) {
            while j < b.count && b[j] != 0 { j += Int(b[j]) + 1 }
            j += 1
        }
        while i < b.count {
            switch b[i] {
            case 0x21:
                i += 2
                skipSubBlocks(&i)
            case 0x2C where i + 10 <= b.count:
                let flags = b[i + 9]
                if flags & 0x80 != 0 { count += 1 }
                i += 10 + (flags & 0x80 != 0 ? 3 << (Int(flags & 7) + 1) : 0) + 1
                skipSubBlocks(&i)
            default: return count  // the trailer (or a broken file)
            }
        }
        return count
    }

    /// A box moving 2 px a frame for 0.5 s, then still for 2.5 s, at 30 fps: frames 0–15 differ (the
    /// last of them is where it stops), frames 16–89 repeat frame 15. The GIF holds 16 frames; frame i
    /// starts at round(100·i/30) cs, so the delays are 3, 4, 3, 3, 4, 3… and the last one 300 − 50 cs.
    @Test func stillFramesAreMergedWithTheirDelaysSummed() throws {
        guard Self.hasDecoders else { return }
        let ws = try Workspace()
        let scene = ws.write(
            "s.yaml",
            """
            width: 64
            height: 32
            fps: 30
            duration: 3
            background: "#ffffff"
            layers:
              - {name: box, position: [10, 16], bounds: [8, 8], backgroundColor: "#3478f6",
                 animations: [{keyPath: position.x, fromValue: 10, toValue: 40, duration: 0.5, fillMode: forwards}]}
            """)
        let (c, _) = try check(ws, scene)
        let cs = (0...90).map { (2 * $0 * 100 + 30) / 60 }
        let expected = (0..<15).map { 10 * (cs[$0 + 1] - cs[$0]) } + [10 * (300 - cs[15])]
        #expect(c.frames == 16 && c.durations == expected, "\(c.durations)")
        #expect(c.ffmpegMatches && c.giflibMatches && c.worstExcess < 1e-4, "\(c)")
    }

    /// Lossy 30: every pixel within 0.030 (Oklab) of its nearest palette colour, plus that colour's own
    /// distance (the bound is between palette entries), no pixel that stayed the same in the clip
    /// changing in the GIF, and fewer bytes than lossless.
    @Test func lossyStaysWithinItsBoundAndStill() throws {
        guard Self.hasDecoders else { return }
        let ws = try Workspace()
        let scene = Self.example("gradient-switch")
        let (exact, exactBytes) = try check(ws, scene, ["--width", "160"])
        let (lossy, lossyBytes) = try check(ws, scene, ["--width", "160"], lossy: 30)
        #expect(exact.worstExcess < 1e-4)
        #expect(lossy.worstExcess <= 0.030 + 1e-4 && lossy.worstExcess > 1e-3, "\(lossy)")
        #expect(lossy.unstable == 0 && lossy.ffmpegMatches && lossy.giflibMatches, "\(lossy)")
        #expect(Double(lossyBytes) < 0.9 * Double(exactBytes), "\(lossyBytes) vs \(exactBytes)")
    }

    /// `--max-size`: a budget the clip meets as asked writes the same file as without it; one just
    /// below takes the next rung (lossy 20), byte for byte the file `--gif-lossy 20` writes, and says so;
    /// one no rung meets is an error naming the smallest size reached, and leaves nothing behind.
    @Test func sizeBudgetTakesTheFirstRungThatFits() throws {
        let ws = try Workspace()
        let scene = Self.example("star-button")
        func bytes(_ name: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: ws.file(name))) }
        let base = ["render", scene, "--width", "120"]
        #expect(try runReel(base + ["-o", ws.file("exact.gif")]).status == 0)
        #expect(try runReel(base + ["-o", ws.file("l20.gif"), "--gif-lossy", "20"]).status == 0)
        let exact = try bytes("exact.gif"), l20 = try bytes("l20.gif")
        #expect(l20.count < exact.count)
        let roomy = try runReel(base + ["-o", ws.file("a.gif"), "--max-size", "\(exact.count)B"])
        #expect(roomy.status == 0 && !roomy.stderr.contains("to fit"), "\(roomy.stderr)")
        #expect(try bytes("a.gif") == exact)
        let tight = try runReel(base + ["-o", ws.file("b.gif"), "--max-size", "\(exact.count - 1)B"])
        #expect(tight.status == 0 && tight.stderr.contains("written with --gif-lossy 20, --colors 255"), "\(tight.stderr)")
        #expect(try bytes("b.gif") == l20)
        let hopeless = try runReel(base + ["-o", ws.file("c.gif"), "--max-size", "1KiB"])
        #expect(hopeless.status != 0 && hopeless.stderr.contains("the smallest GIF reached is"), "\(hopeless.stderr)")
        #expect(ws.listing().filter { $0.hasPrefix(".") || $0 == "c.gif" }.isEmpty, "\(ws.listing())")
        let video = try runReel(base + ["-o", ws.file("d.mp4"), "--max-size", "2MB"])
        #expect(video.status != 0 && video.stderr.contains("--max-size"), "\(video.stderr)")
    }

    /// Chromium (headless) opens the GIF in a test page: its size, and its first frame drawn on a canvas
    /// is FFmpeg's decoding of it pixel for pixel (transparent pixels only need to be transparent).
    @Test(arguments: ["star-button", "transparent"])
    func chromiumDrawsTheFirstFrame(_ name: String) throws {
        guard FileManager.default.fileExists(atPath: "/usr/bin/chromium") else {
            print("skipped: needs /usr/bin/chromium (scripts/setup.sh installs it)")
            return
        }
        let ws = try Workspace()
        let scene =
            Self.scene(name, in: ws)
        let gif = ws.file("a.gif")
        #expect(try runReel(["render", scene, "-o", gif, "-q"] + (name == "transparent" ? [] : ["--width", "120"])).status == 0)
        let first = try #require(try VideoReader(path: gif).decodeAll().first)
        let page = ws.write(
            "page.html",
            """
            <!doctype html><html><body><img id="g" src="data:image/gif;base64,\(try Data(contentsOf: URL(fileURLWithPath: gif)).base64EncodedString())">
            <pre id="out">pending</pre><script>
            window.onload = () => {
              const img = document.getElementById('g');
              const c = document.createElement('canvas'); c.width = img.naturalWidth; c.height = img.naturalHeight;
              const x = c.getContext('2d'); x.drawImage(img, 0, 0);
              const got = x.getImageData(0, 0, c.width, c.height).data;
              const want = Uint8Array.from(atob('\(Data(first.rgba).base64EncodedString())'), ch => ch.charCodeAt(0));
              let bad = 0;
              for (let i = 0; i < want.length; i += 4) {
                if (want[i + 3] === 0 && got[i + 3] === 0) continue;
                for (let k = 0; k < 4; k++) if (got[i + k] !== want[i + k]) { bad++; break; }
              }
              document.getElementById('out').textContent = `${c.width}x${c.height} bad=${bad}`;
            };
            </script></body></html>
            """)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/chromium")
        p.arguments = [
            "--headless=new", "--no-sandbox", "--disable-gpu", "--user-data-dir=\(ws.file("profile"))", "--dump-dom",
            "file://\(page)",
        ]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        let dom = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(dom.contains("\(first.width)x\(first.height) bad=0"), "\(dom.suffix(300))")
    }
}
