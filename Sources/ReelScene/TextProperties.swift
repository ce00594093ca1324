/// `CATextLayer`'s properties (and what Reel adds: line height, letter spacing, features, rich runs,
/// per-unit animations), the fonts a scene names, and `Layer.text` for the Swift API.
import ReelAnimation
import ReelGeometry

/// `CATextLayerAlignmentMode`.
public enum TextAlignmentMode: String, Sendable, CaseIterable {
    /// Left, or right in a right-to-left paragraph.
    case natural
    case left, right, center
    /// Each line but a paragraph's last stretched to the width at its spaces.
    case justified
}

/// `CATextLayerTruncationMode`: where "…" replaces what does not fit the bounds.
public enum TextTruncationMode: String, Sendable, CaseIterable {
    case none, start, end, middle
}

/// Which of a text's fill and stroke is painted first (SVG's and CSS's `paint-order`).
public enum TextPaintOrder: String, Sendable, CaseIterable {
    /// The fill, then the stroke over it.
    case normal
    /// The stroke, then the fill over it: only the outline's outer half shows, as captions are outlined.
    case stroke
}

/// A run of rich text: its own text, and whichever attributes differ from the layer's.
public struct TextSpan: Sendable, Hashable {
    public var text: String
    public var font: String?
    public var fontSize: Double?
    public var foregroundColor: Color?
    public var letterSpacing: Double?
    public var wordSpacing: Double?
    public var fontFeatures: [String: UInt32]?
    /// Points the run is raised above the baseline (negative lowers it), as `NSAttributedString`'s
    /// `baselineOffset`: superscripts, subscripts.
    public var baselineOffset: Double?
    /// A single line under the run, and through it (`NSAttributedString`'s `underlineStyle` and
    /// `strikethroughStyle`), where the font puts them, in the run's colour, across its spaces.
    public var underline: Bool?
    public var strikethrough: Bool?
    /// A line over the run, at the font's ascender (CSS's and SVG's `overline`).
    public var overline: Bool?
    /// Which of its font's baselines the run sits on (SVG's `dominant-baseline`); nil: alphabetic.
    public var baseline: TextBaseline?

    public init(
        _ text: String, font: String? = nil, fontSize: Double? = nil, foregroundColor: Color? = nil,
        letterSpacing: Double? = nil, fontFeatures: [String: UInt32]? = nil, baselineOffset: Double? = nil,
        underline: Bool? = nil, strikethrough: Bool? = nil, overline: Bool? = nil, wordSpacing: Double? = nil
    ) {
        self.wordSpacing = wordSpacing
        self.baselineOffset = baselineOffset
        self.underline = underline
        self.strikethrough = strikethrough
        self.overline = overline
        self.text = text
        self.font = font
        self.fontSize = fontSize
        self.foregroundColor = foregroundColor
        self.letterSpacing = letterSpacing
        self.fontFeatures = fontFeatures
    }
}

/// `CATextLayer`'s own properties, with its defaults (white, 36 points), and Reel's additions.
public struct TextProperties: Sendable {
    /// Longest text a layer may hold (its runs together), in Unicode scalars: pages, so layout stays fast.
    public static let maximumTextLength = 100_000
    /// Largest font size, in points (an animated size is held to it too).
    public static let maximumFontSize = 10_000.0

    /// The text; a line feed breaks a line. Animates in steps.
    public var string = ""
    /// Rich text: runs with their own attributes, replacing `string` when not empty.
    public var runs: [TextSpan] = []
    /// A PostScript name, a family with an optional style, or a font file relative to the scene.
    public var font = "Inter"
    public var fontSize: Double = 36
    public var foregroundColor: Color = .white
    public var alignmentMode: TextAlignmentMode = .natural
    public var isWrapped = false
    public var truncationMode: TextTruncationMode = .none
    /// A multiple of the font's line height (ascender − descender + line gap).
    public var lineHeight: Double = 1
    /// Points added after each glyph cluster.
    public var letterSpacing: Double = 0
    /// Points added after each space (each word separator), on top of the letter spacing.
    public var wordSpacing: Double = 0
    /// Points along the layer's path (`shape.path`, when it has one) where the text box's left edge
    /// lies: the text is set along the path, each glyph centred on it at `pathOffset` plus the middle
    /// of its advance and turned with it (SVG's `textPath` with its `startOffset`).
    public var pathOffset: Double = 0
    /// Characters moved after layout, shaping untouched (SVG's per-character dx, dy and rotate, which
    /// the SVG importer sets; not a scene-file key).
    public var characterOffsets: [CharacterOffset] = []
    /// Whether the stroke (`shape.strokeColor`) is painted over the fill or under it.
    public var paintOrder: TextPaintOrder = .normal
    /// OpenType features and their values (`["tnum": 1, "liga": 0]`).
    public var fontFeatures: [String: UInt32] = [:]
    /// Animations of each line, word or cluster (applied on top of the layer's own).
    public var unitAnimations: [UnitAnimation] = []
    /// The first baseline on the bounds' top edge (text placed by its baseline, as SVG's `text` is)
    /// rather than one ascent below it as `CATextLayer` draws.
    public var firstBaselineAtTop = false

    public init() {}

    /// The runs to lay out: `runs`, or the whole `string` in the layer's attributes.
    public var spans: [TextSpan] { runs.isEmpty ? [TextSpan(string)] : runs }

    /// Every font the text names (the layer's, and each run's), in order of first use.
    public var fontNames: [String] {
        var names = [font]
        for run in runs { if let f = run.font, !names.contains(f) { names.append(f) } }
        return names
    }
}

extension Scene {
    /// Every font named by a text layer (sublayers and masks included), in the order the layers come.
    public var fontNames: [String] {
        var names: [String] = []
        layers.forEachLayer { layer, _ in
            guard layer.type == .text else { return }
            for name in layer.text.fontNames where !names.contains(name) { names.append(name) }
        }
        return names
    }
}

extension Layer {
    /// A text layer (`CATextLayer`) showing `string` in `font` at `fontSize` points, in `bounds` at
    /// `position`; set `layer.text` for the rest (alignment, wrapping, runs, per-unit animations).
    public static func text(
        _ name: String, string: String, font: String = "Inter", fontSize: Double = 36, color: Color = .white,
        position: Point = .zero, bounds: Rect = .zero
    ) -> Layer {
        var layer = Layer(name: name, type: .text)
        layer.text.string = string
        layer.text.font = font
        layer.text.fontSize = fontSize
        layer.text.foregroundColor = color
        layer.position = position
        layer.bounds = bounds
        return layer
    }
}
