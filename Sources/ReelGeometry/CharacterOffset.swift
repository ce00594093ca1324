/// A character moved after layout (SVG's per-character dx, dy and rotate) as data: the scene holds it,
/// the text engine applies it (`TypesetText.offset(by:)`).

/// A character's own move, applied after layout so that shaping (kerning, ligatures) is untouched.
public struct CharacterOffset: Sendable, Hashable {
    /// The character's index in the whole text (Unicode scalars, the runs' texts one after another).
    public var index: Int
    /// Points it and every character after it move, right and down.
    public var dx: Double
    public var dy: Double
    /// Radians it alone is turned clockwise about its origin on the baseline.
    public var rotation: Double

    public init(index: Int, dx: Double = 0, dy: Double = 0, rotation: Double = 0) {
        self.index = index
        self.dx = dx
        self.dy = dy
        self.rotation = rotation
    }
}
