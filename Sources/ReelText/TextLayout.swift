/// What text layout takes and gives: styled runs and a paragraph style in, glyphs placed in the layer's
/// points out, with the boxes of the lines, words and glyph clusters that per-unit animation moves.
import ReelGeometry

/// How one run of text is drawn: font, size, OpenType features, spacing.
public struct TextAttributes: Sendable, Hashable {
    public var font: FontFace
    /// Points (pixels at scale 1).
    public var fontSize: Double
    /// OpenType features and their values (`["liga": 0, "tnum": 1]`) on top of HarfBuzz's defaults.
    public var features: [String: UInt32]
    /// Points added after each glyph cluster.
    public var letterSpacing: Double
    /// Points added after each word separator (a space, a no-break space…: CSS's `word-spacing`), on
    /// top of the letter spacing.
    public var wordSpacing: Double
    /// Points the run's glyphs are raised above the line's baseline (`NSAttributedString`'s
    /// `baselineOffset`; negative lowers them). The line's height does not change.
    public var baselineOffset: Double
    /// Lines drawn along the run (`NSAttributedString`'s `underlineStyle` and `strikethroughStyle`,
    /// single; and CSS's overline).
    public var decorations: TextDecorations
    /// Which of the run's font's baselines sits on the line's baseline (SVG's `dominant-baseline` and
    /// `alignment-baseline`).
    public var baseline: TextBaseline = .alphabetic

    public init(
        font: FontFace, fontSize: Double, features: [String: UInt32] = [:], letterSpacing: Double = 0,
        baselineOffset: Double = 0, decorations: TextDecorations = [], wordSpacing: Double = 0
    ) {
        self.wordSpacing = wordSpacing
        self.font = font
        self.fontSize = fontSize
        self.features = features
        self.letterSpacing = letterSpacing
        self.baselineOffset = baselineOffset
        self.decorations = decorations
    }

    public static func == (a: Self, b: Self) -> Bool {
        a.font === b.font && a.fontSize == b.fontSize && a.features == b.features && a.letterSpacing == b.letterSpacing
            && a.baselineOffset == b.baselineOffset && a.decorations == b.decorations && a.wordSpacing == b.wordSpacing
            && a.baseline == b.baseline
    }

    public func hash(into h: inout Hasher) {
        h.combine(ObjectIdentifier(font))
        h.combine(fontSize)
        h.combine(features)
        h.combine(letterSpacing)
        h.combine(baselineOffset)
        h.combine(decorations.rawValue)
        h.combine(wordSpacing)
        h.combine(baseline)
    }
}

/// The lines a run's text may carry: under it, over it, through it.
public struct TextDecorations: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// Centred on the font's underline position (its `post` table), as thick as its underline.
    public static let underline = TextDecorations(rawValue: 1)
    /// Centred on the font's ascender, as thick as its underline.
    public static let overline = TextDecorations(rawValue: 2)
    /// Centred on the font's strikeout position (its `OS/2` table), as thick as its underline.
    public static let strikethrough = TextDecorations(rawValue: 4)
}

/// One decoration line of a run on one line of text: a rectangle in the text box's points.
public struct DecorationLine: Sendable, Equatable {
    public var rect: Rect
    /// Which line it is: an underline or overline is painted under the glyphs, a strikethrough over them.
    public var kind: TextDecorations
    /// The run it belongs to (its colour) and the line it lies on.
    public var run: Int
    public var line: Int
    /// Radians the rectangle is turned clockwise about its centre (a piece of a line set along a path).
    public var rotation: Double = 0
}

/// A run of an attributed string: text with one set of attributes.
public struct TextRun: Sendable, Hashable {
    public var text: String
    public var attributes: TextAttributes

    public init(_ text: String, _ attributes: TextAttributes) {
        self.text = text
        self.attributes = attributes
    }
}

/// `CATextLayerAlignmentMode`.
public enum TextAlignment: String, Sendable, CaseIterable {
    /// Left, or right in a right-to-left paragraph.
    case natural
    case left, right, center
    /// Lines but each paragraph's last stretched to the width at their spaces.
    case justified
}

/// `CATextLayerTruncationMode`: where "…" replaces what does not fit.
public enum TruncationMode: String, Sendable, CaseIterable {
    case none, start, end, middle
}

/// How the lines of a text are broken and placed in its box.
public struct ParagraphStyle: Sendable, Hashable {
    public var alignment: TextAlignment
    /// Break lines at the box's width (Unicode line-break opportunities; a word longer than the width
    /// breaks between clusters).
    public var isWrapped: Bool
    public var truncationMode: TruncationMode
    /// A multiple of each line's natural height (ascender − descender + line gap).
    public var lineHeight: Double
    /// The first line's baseline on the box's top edge instead of one ascent below it: text placed by
    /// its baseline (SVG's text, at x, y), which then never overflows the box.
    public var firstBaselineAtTop: Bool

    public init(
        alignment: TextAlignment = .natural, isWrapped: Bool = false, truncationMode: TruncationMode = .none,
        lineHeight: Double = 1, firstBaselineAtTop: Bool = false
    ) {
        self.alignment = alignment
        self.isWrapped = isWrapped
        self.truncationMode = truncationMode
        self.lineHeight = lineHeight
        self.firstBaselineAtTop = firstBaselineAtTop
    }
}

/// One glyph where it is drawn.
public struct PlacedGlyph: Sendable {
    public var glyph: UInt32
    public var font: FontFace
    public var fontSize: Double
    /// The glyph's origin on its baseline, in the text box's points (y down), unrounded.
    public var origin: Point
    /// Radians the glyph is turned clockwise about its origin (text set along a path).
    public var rotation: Double = 0
    /// Where its advance (the pen's span for its cluster) starts and ends along the line's x.
    public var penStart: Double
    public var penEnd: Double
    /// Which run (of those given) it belongs to, for its colour and other paint.
    public var run: Int
    /// The index of its cluster's first character in the whole text (Unicode scalars, the runs'
    /// texts one after another).
    public var character: Int = 0
    /// Its line, word and cluster, numbered in reading order; a space is in no word and no cluster.
    public var line: Int
    public var word: Int?
    public var cluster: Int?
}

/// Text laid out in its box.
public struct TypesetText: Sendable {
    /// Tells layouts apart (unique in the process): what is made from a layout can be cached by it.
    public internal(set) var id: UInt64 = 0
    public var glyphs: [PlacedGlyph] = []
    /// Each line's box (its advance width, from ascender to descender), in reading order.
    public var lines: [Rect] = []
    /// Each line's baseline (its y in the box).
    public var baselines: [Double] = []
    /// Whether each line's paragraph reads right to left (a unit's reveal starts at its right edge).
    public var lineIsRightToLeft: [Bool] = []
    /// The runs' underlines, overlines and strikethroughs, across their spaces.
    public var decorations: [DecorationLine] = []
    /// Each word's box and each glyph cluster's box, in reading order.
    public var words: [Rect] = []
    public var clusters: [Rect] = []
    /// Fonts a character had to fall back to (the run's font lacked it), by file path.
    public var fallbackFonts: [String] = []
    /// Whether some text lies outside the box (drawn anyway, as Core Animation does).
    public var overflows = false

    public init() {}
}
