/// A scene's `captions`: the cues read from a subtitle file (through the decoder's `LayerImporter`) or
/// written inline, and their style.
import Foundation
import ReelDocument
import ReelGeometry

extension Reader {
    static let captionKeys = [
        "file", "cues", "font", "fontSize", "color", "background", "padding", "cornerRadius", "position", "margin", "maxWidth",
        "words", "highlightColor", "track",
    ]
    static let cueKeys = ["start", "end", "text"]

    func captions(_ node: JSONNode, _ path: String) throws(SceneError) -> Captions {
        let m = try members(node, path, known: Self.captionKeys, what: "captions")
        var captions: Captions
        switch (m["file"], m["cues"]) {
        case (let fileNode?, nil):
            let name = try string(fileNode, join(path, "file"))
            guard let read = importer?.readFile else {
                throw fail(
                    fileNode, join(path, "file"), "this reader cannot open subtitle files", fix: "load the scene with Reel.load")
            }
            let resolved = ResolvedFile(name, in: file)
            do {
                captions = Captions(cues: try Subtitles.parse(try read(resolved, Subtitles.maximumBytes), file: resolved.path))
            } catch {
                // The subtitle file's own error, at its line and column, named where the scene names it.
                let place = error.location.map { "\(error.file):\($0.line):\($0.column): " } ?? ""
                throw fail(
                    fileNode, join(path, "file"), "\"\(name)\" cannot be read as subtitles: \(place)\(error.message)",
                    fix: error.fix ?? "give an SRT or WebVTT file")
            }
            captions.file = resolved.path
            imports.files.append(("captions:\(path)", resolved.path))
        case (nil, let cuesNode?):
            var cues: [SubtitleCue] = []
            let items = try array(cuesNode, join(path, "cues"))
            guard items.count <= Subtitles.maximumCues else {
                throw fail(cuesNode, join(path, "cues"), "more than \(Subtitles.maximumCues) cues", fix: "use fewer cues")
            }
            for (i, item) in items.enumerated() {
                let p = "\(join(path, "cues"))[\(i)]"
                let c = try members(item, p, known: Self.cueKeys, what: "a cue")
                guard let s = c["start"], let e = c["end"], let t = c["text"] else {
                    throw fail(item, p, "a cue needs its start, end and text", fix: "write {start: 1.5, end: 3, text: \"Hello\"}")
                }
                let start = try finite(try number(s, join(p, "start")), s, join(p, "start"))
                let end = try finite(try number(e, join(p, "end")), e, join(p, "end"))
                guard start >= 0, end > start else {
                    throw fail(e, join(p, "end"), "a cue ends after it starts, at 0 s or later (\(start)…\(end))")
                }
                let text = try string(t, join(p, "text"))
                guard text.count <= Subtitles.maximumCueLength else {
                    throw fail(t, join(p, "text"), "a cue's text is at most \(Subtitles.maximumCueLength) characters")
                }
                cues.append(SubtitleCue(start: start, end: end, text: text))
            }
            captions = Captions(cues: cues)
        default:
            throw fail(
                node, path, "captions come from a \"file\" or from \"cues\", one of the two",
                fix: "write captions: {file: voice.srt} or captions: {cues: [{start: 1, end: 3, text: Hello}]}")
        }
        if let n = m["font"] {
            captions.font = try string(n, join(path, "font"))
            fontReferences.items.append(
                (captions.font, SourceReference(location: n.location, path: join(base, join(path, "font")))))
        }
        func positive(_ key: String, _ range: ClosedRange<Double>) throws(SceneError) -> Double? {
            guard let n = m[key] else { return nil }
            let v = try number(n, join(path, key))
            guard range.contains(v) else {
                throw fail(n, join(path, key), "\(key) must be in \(range.lowerBound)…\(range.upperBound), got \(v)")
            }
            return v
        }
        if let v = try positive("fontSize", 1...1000) { captions.fontSize = v }
        if let v = try positive("padding", 0...1000) { captions.padding = v }
        if let v = try positive("cornerRadius", 0...1000) { captions.cornerRadius = v }
        if let v = try positive("margin", 0...10_000) { captions.margin = v }
        if let v = try positive("maxWidth", 1...100_000) { captions.maxWidth = v }
        if let n = m["color"] { captions.color = try color(n, join(path, "color")) }
        if let n = m["background"] { captions.background = try optionalColor(n, join(path, "background")) }
        if let n = m["track"] { captions.track = try bool(n, join(path, "track")) }
        if let n = m["highlightColor"] { captions.highlightColor = try color(n, join(path, "highlightColor")) }
        if let n = m["words"] {
            let name = try string(n, join(path, "words"))
            guard let read = importer?.readFile else {
                throw fail(n, join(path, "words"), "this reader cannot open files", fix: "load the scene with Reel.load")
            }
            let resolved = ResolvedFile(name, in: file)
            do {
                captions.words = try WordTimings.parse(try read(resolved, WordTimings.maximumBytes), file: resolved.path)
            } catch {
                let place = error.location.map { "\(error.file):\($0.line):\($0.column): " } ?? ""
                let key = error.path.map { $0.isEmpty ? "" : "\($0): " } ?? ""
                throw fail(
                    n, join(path, "words"), "\"\(name)\" cannot be read as word timestamps: \(place)\(key)\(error.message)",
                    fix: error.fix ?? "give a JSON list of {word, start, end}")
            }
            imports.files.append(("captions.words:\(path)", resolved.path))
        }
        if let n = m["position"] {
            switch n.value {
            case .string(let s) where s == "bottom": captions.placement = .bottom
            case .string(let s) where s == "top": captions.placement = .top
            case .string(let s):
                throw fail(n, join(path, "position"), "unknown position \"\(s)\"", fix: "write bottom, top or [x, y]")
            default: captions.placement = .point(try point(n, join(path, "position")))
            }
        }
        return captions
    }
}
