import ReelGeometry

/// What to draw, in device pixels, back to front. Built by ReelRender from a scene snapshot.
public struct DisplayList: Sendable {
    public enum Command: Sendable {
        /// Fill `path` (device space) with a solid colour; coverage is multiplied by `opacity`.
        case fill(path: Path, color: Color, opacity: Double, rule: FillRule = .nonZero)
    }

    public var background: Color
    public var commands: [Command]

    public init(background: Color, commands: [Command] = []) {
        self.background = background
        self.commands = commands
    }
}

/// Which points a path's fill covers (`CAShapeLayerFillRule`).
public enum FillRule: String, Sendable, CaseIterable {
    /// Covered where the path winds round the point a non-zero number of times.
    case nonZero
    /// Covered where a ray from the point crosses the path an odd number of times.
    case evenOdd
}
