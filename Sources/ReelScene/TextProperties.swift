/// `CATextLayer`'s properties (and what Reel adds: line height, letter spacing, features, rich runs),
/// and per-unit animation: each line, word or glyph cluster animated as if it were its own sublayer.
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

/// A run of rich text: its own text, and whichever attributes differ from the layer's.
public struct TextSpan: Sendable, Hashable {
    public var text: String
    public var font: String?
    public var fontSize: Double?
    public var foregroundColor: Color?
    public var letterSpacing: Double?
    public var fontFeatures: [String: UInt32]?

    public init(
        _ text: String, font: String? = nil, fontSize: Double? = nil, foregroundColor: Color? = nil,
        letterSpacing: Double? = nil, fontFeatures: [String: UInt32]? = nil
    ) {
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
    /// OpenType features and their values (`["tnum": 1, "liga": 0]`).
    public var fontFeatures: [String: UInt32] = [:]
    /// Animations of each line, word or cluster (applied on top of the layer's own).
    public var unitAnimations: [UnitAnimation] = []

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

/// What a text layer's per-unit animations move.
public enum TextUnit: String, Sendable, CaseIterable {
    case line, word, cluster
}

/// The order units start in.
public enum StaggerOrder: String, Sendable, CaseIterable {
    case forward, backward, centerOut, random
}

/// Animations applied to each unit of a text layer as if the unit were a sublayer (its anchor point at
/// the centre of its box), unit k starting `stagger`·rank(k) seconds later.
public struct UnitAnimation: Sendable {
    /// The key paths a unit has: its opacity, its transform (and `transform.*`), its colour.
    public static let keyPaths: [LayerKeyPath] = [
        .opacity, .transform, .transformScale, .transformScaleX, .transformScaleY, .transformScaleZ, .transformRotation,
        .transformRotationZ, .transformRotationX, .transformRotationY, .transformTranslation, .transformTranslationX,
        .transformTranslationY, .transformTranslationZ, .foregroundColor, .strokeEnd,
    ]
    public var unit: TextUnit
    public var stagger: Double
    public var order: StaggerOrder
    /// For `random`: the same seed gives the same order on every machine and run.
    public var seed: UInt64
    public var animations: [Animation]

    public init(
        unit: TextUnit, stagger: Double = 0, order: StaggerOrder = .forward, seed: UInt64 = 0, animations: [Animation]
    ) {
        self.unit = unit
        self.stagger = stagger
        self.order = order
        self.seed = seed
        self.animations = animations
    }

    /// The rank of unit `k` of `n` in start order (0 starts first).
    public func rank(of k: Int, count n: Int) -> Int {
        switch order {
        case .forward: return k
        case .backward: return n - 1 - k
        case .centerOut:
            // Distance from the middle; for an even count the two middle units start together.
            let middle = Double(n - 1) / 2
            return Int((abs(Double(k) - middle)).rounded(.down))
        case .random:
            return Self.shuffled(count: n, seed: seed)[k]
        }
    }

    /// A permutation of 0..<n from the seed (SplitMix64 driving Fisher–Yates): rank of each unit.
    static func shuffled(count n: Int, seed: UInt64) -> [Int] {
        var state = seed
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        var order = Array(0..<n)
        if n > 1 {
            for i in stride(from: n - 1, to: 0, by: -1) {
                let j = Int(next() % UInt64(i + 1))
                order.swapAt(i, j)
            }
        }
        // order[r] is the unit that starts r-th; invert it to get each unit's rank.
        var rank = Array(repeating: 0, count: n)
        for (r, unit) in order.enumerated() { rank[unit] = r }
        return rank
    }
}

/// One unit's values at a time: what its animations make of opacity 1, the identity and the layer's
/// colour.
public struct UnitPresentation: Sendable, Equatable {
    public var opacity: Double = 1
    public var transform: Transform3D = .identity
    /// Nil unless an animation sets it (the runs' own colours stay).
    public var foregroundColor: Color?
    /// `strokeEnd` on a unit: how much of its box is shown, from its reading start (a wipe), 0…1.
    public var reveal: Double = 1

    public init() {}
}

extension TextProperties {
    /// Unit `k` (of `n` units of `unit`) at layer time `t`: every unit animation of that unit kind, in
    /// order, each in its own time shifted by the unit's delay.
    public func presentation(of unit: TextUnit, _ k: Int, count n: Int, at t: Double) -> UnitPresentation {
        var values = LayerProperties()
        values.text.foregroundColor = foregroundColor
        let model = values
        var changedColor = false
        for group in unitAnimations where group.unit == unit {
            let local = t - group.stagger * Double(group.rank(of: k, count: n))
            func apply(_ animation: Animation, at time: Double) {
                if case .group(let g) = animation {
                    if let child = g.childTime(at: time) { for a in g.animations { apply(a, at: child) } }
                    return
                }
                guard let keyPath = LayerKeyPath(rawValue: animation.keyPath) else { return }
                let v = animation.apply(at: time, model: keyPath.get(model), running: keyPath.get(values), springStart: nil)
                keyPath.set(v, on: &values)
                // Only while it applies (active, or filling): otherwise the runs keep their own colours.
                if keyPath == .foregroundColor, animation.value(at: time, model: keyPath.get(model)) != nil {
                    changedColor = true
                }
            }
            for animation in group.animations { apply(animation, at: local) }
        }
        var p = UnitPresentation()
        p.opacity = values.opacity
        p.transform = values.transform
        p.foregroundColor = changedColor ? values.text.foregroundColor : nil
        p.reveal = min(max(values.shape.stroke.strokeEnd, 0), 1)
        return p
    }
}

extension Scene {
    /// Every font named by a text layer (sublayers and masks included), in the order the layers come.
    public var fontNames: [String] {
        var names: [String] = []
        for (layer, _) in layers.flatMap({ $0.flattened() }) where layer.type == .text {
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
