/// Text baselines as data: the scene names them, the text engine measures them in a font.

/// A baseline of a font, as SVG's `dominant-baseline` names them; each the height above the alphabetic
/// baseline that Chrome (and resvg) take from the font's ascender A, descender D (negative) and x-height,
/// fonts' own baseline tables being rare.
public enum TextBaseline: String, Sendable, Hashable, CaseIterable {
    /// The alphabetic baseline (0).
    case alphabetic
    /// The ascender: the text hangs from the line (`text-before-edge`, `before-edge`).
    case textTop
    /// The descender (`text-after-edge`, `after-edge`, `ideographic`).
    case textBottom
    /// Halfway between ascender and descender: (A + D) / 2.
    case central
    /// Half the x-height above the alphabetic baseline.
    case middle
    /// 0.8 of the ascender.
    case hanging
    /// Half the ascender.
    case mathematical
}
