/// Text layout: paragraphs split into runs by bidi level, script and font (falling back per character),
/// shaped, broken into lines, elided, aligned, and placed at HarfBuzz's unrounded positions; the result
/// is cached, so a clip lays out each distinct text once however many frames show it.
import ReelGeometry
import Synchronization

/// Lays out text; shared by every thread that renders (its cache is locked).
public final class Typesetter: Sendable {
    /// The font to draw a character with when the run's font has no glyph for it.
    public typealias Fallback = @Sendable (Unicode.Scalar, FontFace) -> FontFace?
    /// The colour font to draw a character with when it is shown as emoji (by default, as 😀, or
    /// asked for with U+FE0F, as ❤️), even where the run's font has a black-and-white glyph for it.
    public typealias EmojiFont = @Sendable (Unicode.Scalar, FontFace) -> FontFace?

    private struct Key: Hashable {
        var runs: [TextRun]
        var style: ParagraphStyle
        var width: Double
        var height: Double
    }

    /// Most distinct layouts kept; the cache starts over when full (an animated string makes one per
    /// value, and memory must stay flat over a long clip).
    static let cacheLimit = 4096
    private let fallback: Fallback
    private let emoji: EmojiFont
    private let cache = Mutex<[Key: TypesetText]>([:])
    private static let nextID = Atomic<UInt64>(1)

    public init(fallback: @escaping Fallback = { _, _ in nil }, emoji: @escaping EmojiFont = { _, _ in nil }) {
        self.fallback = fallback
        self.emoji = emoji
    }

    /// An id no other layout in the process has.
    static func newID() -> UInt64 { nextID.add(1, ordering: .relaxed).oldValue }

    /// Lays out `runs` in a box of `size` points (its width wraps, aligns and truncates; its height
    /// truncates wrapped text).
    public func typeset(_ runs: [TextRun], style: ParagraphStyle, in size: Size) -> TypesetText {
        let key = Key(runs: runs, style: style, width: size.width, height: size.height)
        if let hit = cache.withLock({ $0[key] }) { return hit }
        var layout = Layout(runs: runs, style: style, size: size, fallback: fallback, emoji: emoji)
        var result = layout.run()
        result.id = Self.newID()
        cache.withLock {
            if $0.count >= Self.cacheLimit { $0.removeAll(keepingCapacity: true) }
            $0[key] = result
        }
        return result
    }
}

/// One character with what layout decided for it.
struct Char {
    var value: UInt32
    /// The run it came from.
    var run: Int
    var font: FontFace
    var level: Int8 = 0
    var script: UInt32 = 0
    /// Its index in the whole text (ellipses inserted by truncation take the index of what they replace).
    var index: Int
    var isSpace: Bool { Unicode.Scalar(value)?.properties.isWhitespace ?? false }
}

/// A line shaped and placed along x from 0, before alignment.
struct ShapedLine {
    struct Glyph {
        var glyph: UInt32
        var font: FontFace
        var fontSize: Double
        var x: Double
        var y: Double
        /// The pen's span for this glyph (its advance), for unit boxes.
        var penStart: Double
        var penEnd: Double
        /// The character (in the line) its cluster starts at.
        var char: Int
    }
    var chars: [Char]
    var glyphs: [Glyph] = []
    var width: Double = 0
    var ascent: Double = 0
    var descent: Double = 0
    var gap: Double = 0
    /// Per character, the advance of the cluster it starts (0 for the rest of a cluster).
    var advances: [Double] = []
    /// Per character, whether it starts a cluster (has glyphs of its own): lines break and elide there.
    var startsCluster: [Bool] = []
    /// Whether this line ends its paragraph (justification leaves it alone).
    var endsParagraph = true
}

struct Layout {
    let runs: [TextRun]
    let style: ParagraphStyle
    let size: Size
    let fallback: Typesetter.Fallback
    let emoji: Typesetter.EmojiFont
    var features: [FeatureList]
    var fallbacksUsed: Set<String> = []
    var overflows = false

    init(
        runs: [TextRun], style: ParagraphStyle, size: Size, fallback: @escaping Typesetter.Fallback,
        emoji: @escaping Typesetter.EmojiFont
    ) {
        self.emoji = emoji
        self.runs = runs
        self.style = style
        self.size = size
        self.fallback = fallback
        features = runs.map { FeatureList(lenient: $0.attributes.features) }
    }

    mutating func run() -> TypesetText {
        // The whole text as characters, each knowing its run; then paragraphs at line feeds.
        var all: [Char] = []
        for (r, run) in runs.enumerated() {
            for s in run.text.unicodeScalars {
                all.append(Char(value: s.value, run: r, font: run.attributes.font, index: all.count))
            }
        }
        guard !runs.isEmpty else { return TypesetText() }
        var paragraphs: [[Char]] = [[]]
        // The run each paragraph starts in: an empty paragraph's line takes that run's font's height.
        var paragraphRuns: [Int] = [0]
        for c in all {
            if c.value == 0x0A || c.value == 0x2029 {
                paragraphs.append([])
                paragraphRuns.append(c.run)
            } else if c.value != 0x0D {
                paragraphs[paragraphs.count - 1].append(c)
            }
        }
        var lines: [ShapedLine] = []
        var paragraphIsRTL: [Bool] = []
        for (p, paragraph) in paragraphs.enumerated() {
            let (chars, rtl) = prepare(paragraph)
            var paragraphLines = breakLines(chars).map { layOut($0) }
            if paragraphLines.isEmpty {
                // An empty paragraph still takes a line, of its run's font.
                var empty = ShapedLine(chars: [])
                measureVertically(&empty, runs: [paragraphRuns[p]])
                paragraphLines = [empty]
            }
            for i in paragraphLines.indices { paragraphLines[i].endsParagraph = i == paragraphLines.count - 1 }
            lines += paragraphLines
            paragraphIsRTL += Array(repeating: rtl, count: paragraphLines.count)
        }
        lines = truncatedToHeight(lines, rtl: &paragraphIsRTL)
        if style.truncationMode != .none && !style.isWrapped {
            lines = lines.map { $0.width > size.width + 1e-9 ? elide($0, mode: style.truncationMode) : $0 }
        }
        return place(lines, rtl: paragraphIsRTL)
    }

    /// Levels, scripts and fonts of one paragraph's characters.
    mutating func prepare(_ paragraph: [Char]) -> ([Char], Bool) {
        var chars = paragraph
        let values = ArraySlice(chars.map(\.value))
        let (levels, rtl) = Bidi.levels(of: values)
        let scripts = Scripts.resolved(values)
        for i in chars.indices {
            chars[i].level = levels[i]
            chars[i].script = scripts[i]
            chars[i].font = font(for: chars, at: i)
        }
        return (chars, rtl)
    }

    /// The run's font when it has the character; marks, joiners and variation selectors stay with the
    /// character before them (a cluster is drawn from one font); a character shown as emoji (😀, or ❤
    /// before U+FE0F) from a colour font even where the run's font has a plain glyph; otherwise
    /// fontconfig's fallback.
    mutating func font(for chars: [Char], at i: Int) -> FontFace {
        let c = chars[i]
        let own = runs[c.run].attributes.font
        guard let scalar = Unicode.Scalar(c.value) else { return own }
        let category = scalar.properties.generalCategory
        let follows: Bool
        switch category {
        case .nonspacingMark, .spacingMark, .enclosingMark, .format: follows = true
        default: follows = scalar.properties.isVariationSelector || scalar.properties.isEmojiModifier
        }
        if follows, i > 0, chars[i - 1].run == c.run { return chars[i - 1].font }
        let next = i + 1 < chars.count ? chars[i + 1].value : 0
        if next == 0xFE0F || (scalar.properties.isEmojiPresentation && next != 0xFE0E), !own.hasColorBitmaps,
            let colour = emoji(scalar, own), colour.hasGlyph(for: scalar)
        {
            fallbacksUsed.insert(colour.path)
            return colour
        }
        // Default-ignorable characters (a word joiner, a zero-width space) draw nothing: no fallback.
        if own.hasGlyph(for: scalar) || scalar.properties.isWhitespace || category == .control
            || scalar.properties.isDefaultIgnorableCodePoint
        {
            return own
        }
        guard let other = fallback(scalar, own) else { return own }
        fallbacksUsed.insert(other.path)
        return other
    }
}
