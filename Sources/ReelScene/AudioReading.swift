/// A scene's `audio` list: each file probed through the decoder's `LayerImporter`, its range checked
/// against the file's length, its volume and fades against their limits.
import Foundation
import ReelDocument

extension Reader {
    static let audioKeys = ["file", "at", "from", "to", "volume", "fadeIn", "fadeOut", "loop"]

    /// Most sound files a scene places.
    static let maximumAudioClips = 64

    func audioClips(_ node: JSONNode, _ path: String) throws(SceneError) -> [AudioClip] {
        let items = try array(node, path)
        guard items.count <= Self.maximumAudioClips else {
            throw fail(
                node, path, "\(items.count) sound files, above the limit of \(Self.maximumAudioClips)",
                fix: "mix them into fewer files first")
        }
        var clips: [AudioClip] = []
        for (i, item) in items.enumerated() { clips.append(try audioClip(item, "\(path)[\(i)]")) }
        return clips
    }

    func audioClip(_ node: JSONNode, _ path: String) throws(SceneError) -> AudioClip {
        let m = try members(node, path, known: Self.audioKeys, what: "a sound")
        guard let fileNode = m["file"] else {
            throw fail(node, path, "a sound needs the \"file\" it plays", fix: "add \"file\": \"music.m4a\"")
        }
        let name = try string(fileNode, join(path, "file"))
        guard let probe = importer?.probeAudio else {
            throw fail(fileNode, join(path, "file"), "this reader cannot open sound files", fix: "load the scene with Reel.load")
        }
        let resolved = ResolvedFile(name, in: file)
        let length: Double
        do {
            length = try probe(resolved)
        } catch {
            throw fail(
                fileNode, join(path, "file"), "\"\(name)\" cannot be played: \(error.message)",
                fix: error.fix ?? "give a sound file FFmpeg decodes (M4A, MP3, WAV, FLAC, Opus, or a video with sound)")
        }
        var clip = AudioClip(name: name, file: resolved.path, to: length)
        func seconds(_ key: String) throws(SceneError) -> Double? {
            guard let n = m[key] else { return nil }
            let v = try number(n, join(path, key))
            guard v >= 0, v <= Scene.maximumDuration else {
                throw fail(n, join(path, key), "\(key) must be 0…\(Int(Scene.maximumDuration)) seconds, got \(v)")
            }
            return v
        }
        if let v = try seconds("at") { clip.at = v }
        if let v = try seconds("from") { clip.from = v }
        if let v = try seconds("to") {
            // A millisecond of slack: lengths are rounded where files and people write them.
            guard v <= length + 0.001 else {
                throw fail(
                    m["to"]!, join(path, "to"),
                    "to is \(v) s, past the end of \"\(name)\", which is \(Self.seconds(length)) s long",
                    fix: "end it at \(Self.seconds(length)) or before")
            }
            clip.to = min(v, length)
        }
        guard clip.to > clip.from else {
            throw fail(
                m["from"] ?? fileNode, join(path, m["from"] == nil ? "file" : "from"),
                "nothing to play: from \(clip.from) s is not before to \(clip.to) s", fix: "play a range that has sound")
        }
        if let n = m["volume"] { clip.volume = try gain(n, join(path, "volume")) }
        if let v = try seconds("fadeIn") { clip.fadeIn = v }
        if let v = try seconds("fadeOut") { clip.fadeOut = v }
        if let n = m["loop"] { clip.loop = try bool(n, join(path, "loop")) }
        imports.files.append(("audio:\(path)", resolved.path))
        return clip
    }
}
