/// What drawing text needs beyond the scene: the fonts its text layers name, opened, and the typesetter;
/// and a text layer's properties turned into the runs and paragraph style layout takes.
import ReelGeometry
import ReelScene
import ReelText

/// What drawing text needs beyond the scene: the fonts it names, opened, and the typesetter (with
/// its fallback fonts and its cache of layouts).
public struct TextResources: Sendable {
    /// Each font name a scene uses (as written in it), opened.
    public var fonts: [String: FontFace]
    public var typesetter: Typesetter
    /// Each layout's glyphs gathered into paths (TextDrawing.swift), made once per layout.
    let glyphRuns = GlyphRunCache()
    /// Layouts set along paths or with characters offset, made once per layout and move.
    let movedLayouts = MovedLayoutCache()
    /// Terminal layers' font families (as scenes name them), their four faces opened.
    public var terminalFaces: [String: TerminalFaces] = [:]
    /// Terminal rows drawn once per content (TerminalDrawing.swift).
    let terminalRows = TerminalRowCache()
    /// And drawn once per content and size as pictures, where rows land on whole pixels (TerminalRowPictures.swift).
    let terminalRowPictures = TerminalRowPictures()

    public init(fonts: [String: FontFace] = [:], typesetter: Typesetter = Typesetter()) {
        self.fonts = fonts
        self.typesetter = typesetter
    }

    /// The runs of a text layer as the typesetter takes them, and each run's colour; nil when a font is
    /// missing (the loader reports it before any frame is drawn).
    public func runs(of text: TextProperties) -> (runs: [TextRun], colors: [Color])? {
        var runs: [TextRun] = []
        var colors: [Color] = []
        for span in text.spans {
            guard let font = fonts[span.font ?? text.font] else { return nil }
            var features = text.fontFeatures
            for (k, v) in span.fontFeatures ?? [:] { features[k] = v }
            var attributes = TextAttributes(
                font: font, fontSize: span.fontSize ?? text.fontSize, features: features,
                letterSpacing: span.letterSpacing ?? text.letterSpacing, baselineOffset: span.baselineOffset ?? 0,
                decorations: span.decorations, wordSpacing: span.wordSpacing ?? text.wordSpacing)
            attributes.baseline = span.baseline ?? .alphabetic
            runs.append(TextRun(span.text, attributes))
            colors.append(span.foregroundColor ?? text.foregroundColor)
        }
        return (runs, colors)
    }

    /// Lays out a text layer's model or presentation in its bounds.
    public func typeset(_ text: TextProperties, in bounds: Rect) -> (TypesetText, colors: [Color])? {
        guard let (runs, colors) = runs(of: text) else { return nil }
        let style = ParagraphStyle(
            alignment: TextAlignment(rawValue: text.alignmentMode.rawValue) ?? .natural, isWrapped: text.isWrapped,
            truncationMode: TruncationMode(rawValue: text.truncationMode.rawValue) ?? .none, lineHeight: text.lineHeight,
            firstBaselineAtTop: text.firstBaselineAtTop)
        return (typesetter.typeset(runs, style: style, in: bounds.size), colors)
    }
}

extension TextSpan {
    /// The run's lines as the typesetter takes them.
    var decorations: TextDecorations {
        var d: TextDecorations = []
        if underline == true { d.insert(.underline) }
        if strikethrough == true { d.insert(.strikethrough) }
        if overline == true { d.insert(.overline) }
        return d
    }
}
