/// Text layers (`ty` 5) as Reel text layers: each line of a text document a layer placed by its
/// baseline (Lottie's line height is in points, so lines are placed apart rather than spaced by the
/// font), in the document's font, size, fill colour, tracking and justification; a box (paragraph)
/// text wraps in its box. Documents that change over time switch at their frames.
import Foundation
import ReelAnimation
import ReelGeometry
import ReelScene

extension LottieImporter {
    /// One text document (`t.d.k[i].s`) and the frame it starts at.
    struct TextDocument {
        var frame: Double
        var text: String
        var font: String
        var size: Double
        var color: Color
        var justification: Int
        var tracking: Double
        var lineHeight: Double
        var baselineShift: Double
        var box: Rect?
    }

    /// The layers a text layer draws, nil when its documents hold no text.
    mutating func textLayers(_ t: LottieText, path: String, time: TimeMap, name: String) -> [Layer] {
        if t.hasAnimators {
            warn("\(path).t.a", "text animators are not supported yet; the text is drawn as set")
        }
        if t.pathAlignment { warn("\(path).t.p", "text on a path is not supported yet; the text is drawn on a line") }
        let docs = t.documents.map { s -> TextDocument in
            if s.strokeColor.map({ !$0.isEmpty }) == true, (s.strokeWidth ?? 0) > 0 {
                warn("\(path).t.d", "a stroke on text is not supported yet; the text is filled only")
            }
            let size = min(max(s.size ?? 12, 0), TextProperties.maximumFontSize)
            let c = s.fillColor ?? [0, 0, 0]
            var box: Rect?
            if let sz = s.boxSize, sz.count >= 2 {
                let ps = s.boxPosition ?? [0, 0]
                box = Rect(x: ps.first ?? 0, y: ps.count > 1 ? ps[1] : 0, width: sz[0], height: sz[1])
            }
            return TextDocument(
                frame: s.frame ?? 0, text: s.text ?? "", font: fontSpec(s.font ?? ""), size: size,
                color: Self.color(c, alpha: c.count > 3 ? min(max(c[3], 0), 1) : 1), justification: s.justification ?? 0,
                tracking: (s.tracking ?? 0) / 1000 * size, lineHeight: s.lineHeight ?? size * 1.2,
                baselineShift: s.baselineShift ?? 0, box: box)
        }
        guard let first = docs.first else { return [] }
        // Lines by Lottie's breaks (carriage returns, as After Effects writes them); a layer for each line
        // any document has, its string switched document by document.
        func lines(_ d: TextDocument) -> [String] {
            d.box != nil
                ? [d.text.replacingOccurrences(of: "\r", with: "\n")]
                : d.text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\r" || $0 == "\n" || $0 == "\u{3}" })
                    .map(String.init)
        }
        let count = min(docs.map { lines($0).count }.max() ?? 1, 1_000)
        var out: [Layer] = []
        for k in 0..<count {
            func configure(_ layer: inout Layer, _ d: TextDocument) {
                let text = lines(d)
                layer.text.string = k < text.count ? String(text[k].prefix(TextProperties.maximumTextLength)) : ""
                layer.text.font = d.font
                layer.text.fontSize = d.size
                layer.text.foregroundColor = d.color
                layer.text.letterSpacing = d.tracking
                layer.text.alignmentMode =
                    [1: .right, 2: .center, 3: .justified, 4: .justified, 5: .justified, 6: .justified][
                        d.justification] ?? .left
                if let box = d.box {
                    // Paragraph text wraps in its box, the first line one ascent below its top.
                    layer.bounds = Rect(x: 0, y: 0, width: box.width, height: box.height)
                    layer.position = box.origin
                    layer.text.isWrapped = true
                    layer.text.lineHeight = d.size > 0 ? d.lineHeight / (d.size * 1.2) : 1
                } else {
                    // Point text: line k's baseline k line heights below the origin, on the origin's x by
                    // the justification.
                    layer.position = Point(x: 0, y: Double(k) * d.lineHeight - d.baselineShift)
                    layer.text.firstBaselineAtTop = true
                }
            }
            var layer = Layer(name: unique(count == 1 ? "\(name)/text" : "\(name)/line \(k)"), type: .text)
            layer.anchorPoint = .zero
            configure(&layer, first)
            // Later documents switch the string and its attributes at their frames.
            if docs.count > 1 {
                var frames: [Double] = [], strings: [AnimatableValue] = [], sizes: [AnimatableValue] = []
                var colors: [AnimatableValue] = [], positions: [AnimatableValue] = []
                for (i, d) in docs.enumerated() {
                    var shown = layer
                    configure(&shown, d)
                    let until = i + 1 < docs.count ? max(docs[i + 1].frame - 0.001, d.frame) : d.frame
                    for f in (i + 1 < docs.count ? [d.frame, until] : [d.frame]) {
                        frames.append(f)
                        strings.append(.string(shown.text.string))
                        sizes.append(.number(shown.text.fontSize))
                        colors.append(.color(shown.text.foregroundColor))
                        positions.append(.point(shown.position))
                    }
                }
                for (key, values) in [
                    ("string", strings), ("fontSize", sizes), ("foregroundColor", colors), ("position", positions),
                ] {
                    if let a = time.keyframed(key, frames: frames, values: values) { layer.addAnimation(.keyframe(a)) }
                }
            }
            out.append(layer)
        }
        return out
    }

    /// A Lottie font name as a list Reel resolves in order: the PostScript name, its family and style
    /// from the file's font list, the family alone, then fonts most machines have.
    func fontSpec(_ name: String) -> String {
        let entry = fonts.first { $0.name == name }
        var names = [name]
        if let family = entry?.family {
            if let style = entry?.style, !style.isEmpty { names.append("\(family) \(style)") }
            names.append(family)
        }
        names += ["Noto Sans", "DejaVu Sans", "Liberation Sans", "Inter"]
        return names.filter { !$0.isEmpty && !$0.contains(",") }.joined(separator: ", ")
    }
}
