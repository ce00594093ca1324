/// Captions drawn: each cue a box (the caption style's background, padding and corner radius) holding
/// its text, wrapped and centred, shown from its start to its end, with the word being said highlighted
/// when word timestamps are given; all of them in one layer above the scene's own. And the same cues as a
/// soft subtitle track, for the outputs that carry one.
import Foundation
import ReelAnimation
import ReelDocument
import ReelGeometry
import ReelMedia
import ReelRender
import ReelScene

extension Reel {
    /// The name of the layer holding the captions (a scene's own names cannot start with `reel.`
    /// without meaning to).
    static let captionsLayerName = "reel.captions"

    /// The timed words said during a cue, found in its text in order (a word not found is passed over):
    /// each one's range in the text, its times, and which run of the cut text it is.
    static func spokenWords(of cue: SubtitleCue, in words: [TimedWord]) -> [(
        range: Range<String.Index>, start: Double, end: Double, run: Int
    )] {
        var out: [(range: Range<String.Index>, start: Double, end: Double, run: Int)] = []
        var cursor = cue.text.startIndex
        for w in words where w.start < cue.end && w.end > cue.start {
            let token = w.word.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !token.isEmpty,
                let range = cue.text.range(of: token, range: cursor..<cue.text.endIndex)
                    ?? cue.text.range(of: token, options: .caseInsensitive, range: cursor..<cue.text.endIndex)
            else { continue }
            // Runs alternate: text before the first word (possibly empty), word, text between, word…
            out.append((range, w.start, w.end, 2 * out.count + 1))
            cursor = range.upperBound
        }
        return out
    }

    /// `text` cut into runs at `ranges` (in order, apart): the text before each range, the range, and
    /// the rest, all in `colour`.
    static func runs(of text: String, cutAt ranges: [Range<String.Index>], colour: Color) -> [TextSpan] {
        var spans: [TextSpan] = []
        var at = text.startIndex
        for r in ranges {
            spans.append(TextSpan(String(text[at..<r.lowerBound]), foregroundColor: colour))
            spans.append(TextSpan(String(text[r]), foregroundColor: colour))
            at = r.upperBound
        }
        spans.append(TextSpan(String(text[at...]), foregroundColor: colour))
        return spans
    }

    /// The layer of a scene's captions: one box per cue, sized to its text as the typesetter lays it
    /// out (lines wrapped at the style's width), hidden but from its start to its end in scene time.
    static func captionsLayer(_ captions: Captions, scene: Scene, text: TextResources) -> Layer {
        var root = Layer(name: captionsLayerName)
        root.anchorPoint = .zero
        root.bounds = Rect(x: 0, y: 0, width: scene.width, height: scene.height)
        let width = captions.maxWidth ?? scene.width * 0.8
        for (i, cue) in captions.cues.enumerated() {
            var label = Layer.text(
                "\(captionsLayerName)/\(i + 1)/text", string: cue.text, font: captions.font, fontSize: captions.fontSize,
                color: captions.color)
            label.text.alignmentMode = .center
            label.text.isWrapped = true
            // With word timestamps, the text is cut into runs at the words said during the cue (the
            // same cuts for the text and for each word's highlight, so that all lay out alike).
            let said = spokenWords(of: cue, in: captions.words)
            if !said.isEmpty { label.text.runs = runs(of: cue.text, cutAt: said.map(\.range), colour: captions.color) }
            // Laid out once here to size the box; drawn in a box as wide as the wrapping width, centred
            // on it, so that the lines break and sit exactly as measured.
            let lines = text.typeset(label.text, in: Rect(x: 0, y: 0, width: width, height: 1e6))?.0.lines ?? []
            let left = lines.map(\.minX).min() ?? 0, right = lines.map(\.maxX).max() ?? 0
            let top = lines.map(\.minY).min() ?? 0, bottom = lines.map(\.maxY).max() ?? captions.fontSize
            let size = Size(
                width: max(0, right - left) + 2 * captions.padding, height: max(0, bottom - top) + 2 * captions.padding)
            var box = Layer(name: "\(captionsLayerName)/\(i + 1)")
            box.bounds = Rect(origin: .zero, size: size)
            box.backgroundColor = captions.background
            box.cornerRadius = captions.cornerRadius
            switch captions.placement {
            case .bottom: box.position = Point(x: scene.width / 2, y: scene.height - captions.margin - size.height / 2)
            case .top: box.position = Point(x: scene.width / 2, y: captions.margin + size.height / 2)
            case .point(let p): box.position = p
            }
            box.hidden = true
            box.modelChanges = [
                ModelChange(time: cue.start, keyPath: .hidden, value: .bool(false)),
                ModelChange(time: cue.end, keyPath: .hidden, value: .bool(true)),
            ]
            label.bounds = Rect(x: 0, y: 0, width: width, height: max(0, bottom - top))
            // The layout's first line starts at `top`; the label's bounds start there too.
            label.bounds.origin.y = top
            label.position = Point(x: size.width / 2 + (width / 2 - (left + right) / 2), y: size.height / 2)
            box.sublayers = [label]
            // Each word said: the same text drawn over it, clear but for that word, from when it is said
            // to when it ends.
            for (j, word) in said.enumerated() {
                var highlight = label
                highlight.name = "\(captionsLayerName)/\(i + 1)/word\(j + 1)"
                highlight.text.runs = label.text.runs.enumerated().map { k, run in
                    var r = run
                    r.foregroundColor = k == word.run ? captions.highlightColor : .clear
                    return r
                }
                highlight.hidden = true
                highlight.modelChanges = [
                    ModelChange(time: max(word.start, cue.start), keyPath: .hidden, value: .bool(false)),
                    ModelChange(time: min(word.end, cue.end), keyPath: .hidden, value: .bool(true)),
                ]
                box.sublayers.append(highlight)
            }
            root.sublayers.append(box)
        }
        return root
    }
}

extension Reel {
    /// The captions as the writer's soft subtitle track (`captions.track`), in clip time; a note when the
    /// output cannot carry one (GIF and the image formats; segments, which join without it).
    static func subtitleTrack(
        for scene: Scene, container: VideoContainer, output: String, options: RenderOptions, into settings: inout VideoSettings,
        note: (Message) -> Void
    ) {
        guard let captions = scene.captions, captions.track, !captions.cues.isEmpty else { return }
        guard [.mp4, .mov, .webm].contains(container), options.segment == nil else {
            note(
                "\(output): the captions are drawn, but .\(container.rawValue) \(options.segment == nil ? "has" : "segments have") no subtitle track"
            )
            return
        }
        settings.subtitles = captions.cues.map {
            SubtitleTrackCue(start: $0.start / scene.speed, end: $0.end / scene.speed, text: $0.text)
        }
    }
}
