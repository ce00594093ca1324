/// `type: video` layers: the file named by `contents` probed through the decoder's `LayerImporter`, its
/// `playbackRange` checked against the file's length, the layer sized and timed by the file.
import Foundation
import ReelDocument
import ReelGeometry

extension Reader {
    static let videoLayerKeys = ["playbackRange", "audio", "volume"]

    func readVideo(_ m: [String: JSONNode], _ node: JSONNode, _ path: String, into layer: inout Layer) throws(SceneError) {
        let contentsPath = join(path, "contents")
        guard let contentsNode = m["contents"], let name = layer.contents else {
            throw fail(node, path, "a video layer needs the \"contents\" it plays", fix: "add \"contents\": \"recording.mp4\"")
        }
        // The file is played, not drawn as a picture.
        layer.contents = nil
        imports.videos += 1
        guard imports.videos <= Scene.maximumVideoLayers else {
            throw fail(
                contentsNode, contentsPath, "more than \(Scene.maximumVideoLayers) video layers (each one decodes its own file)",
                fix: "render parts of the scene separately and place the results as fewer videos")
        }
        guard let probe = importer?.probeVideo else {
            throw fail(
                contentsNode, contentsPath, "this reader cannot open video files",
                fix: "load the scene with Reel.load, which plays video")
        }
        let resolved = ResolvedFile(name, in: file)
        let facts: VideoFileFacts
        do {
            facts = try probe(resolved)
        } catch {
            throw fail(
                contentsNode, contentsPath, "\"\(name)\" cannot be played: \(error.message)",
                fix: error.fix ?? "give a video file FFmpeg decodes (MP4, MOV, WebM, MKV, GIF)")
        }
        let length = facts.duration
        var from = 0.0, to = length
        if let r = m["playbackRange"] {
            let p = join(path, "playbackRange")
            let v = try components(r, p, names: ["from", "to"], what: "a range of the file's seconds", example: "[2, 7.5]")
            guard v[0] >= 0, v[1] > v[0] else {
                throw fail(
                    r, p, "playbackRange [\(v[0]), \(v[1])] must start at 0 or later and end after it starts",
                    fix: "give [from, to] in seconds of the file, e.g. [2, 7.5]")
            }
            // A millisecond of slack: lengths are rounded where files and people write them.
            guard v[1] <= length + 0.001 else {
                throw fail(
                    r, p, "playbackRange ends at \(v[1]) s, past the end of \"\(name)\", which is \(Self.seconds(length)) s long",
                    fix: "end it at \(Self.seconds(length)) or before")
            }
            from = v[0]
            to = min(v[1], length)
        }
        guard to > from else {
            throw fail(
                contentsNode, contentsPath, "\"\(name)\" has no frames to play (it is 0 s long)", fix: "give a longer video")
        }
        layer.video = VideoPlayback(name: name, file: resolved.path, size: facts.size, from: from, to: to)
        if let n = m["audio"], try bool(n, join(path, "audio")) {
            guard facts.hasAudio else {
                throw fail(n, join(path, "audio"), "\"\(name)\" has no sound", fix: "remove \"audio\": true")
            }
            layer.video?.audio = true
        }
        if let n = m["volume"] {
            layer.video?.volume = try gain(n, join(path, "volume"))
        }
        if m["bounds"] == nil { layer.bounds = Rect(origin: .zero, size: facts.size) }
        // As for an imported animation: a timing without a duration repeats (and fills) the range played.
        if var timing = layer.timing, timing.duration <= 0 {
            timing.duration = to - from
            layer.timing = timing
        }
        imports.files.append((layer.name, resolved.path))
    }

    /// A volume: a gain in 0…4 (1 as recorded; 4 is 12 dB louder).
    func gain(_ node: JSONNode, _ path: String) throws(SceneError) -> Double {
        let v = try number(node, path)
        guard v >= 0, v <= 4 else {
            throw fail(node, path, "volume must be in 0…4 (1 is as recorded), got \(v)", fix: "use 0.8 for a little quieter")
        }
        return v
    }

    /// Seconds as a message quotes them: to the millisecond, without trailing zeros.
    static func seconds(_ v: Double) -> String {
        let ms = (v * 1000).rounded() / 1000
        return ms == ms.rounded() ? String(Int(ms)) : String(ms)
    }
}
