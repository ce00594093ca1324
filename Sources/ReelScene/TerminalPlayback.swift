/// A terminal layer's recording and its looks: the file played and how the layer's own time becomes
/// the recording's, the grid, the font and the cursor; and what the recording's file says.
import ReelGeometry

/// A `type: terminal` layer's recording and appearance. The layer's timing (`beginTime`, `speed`,
/// `timeOffset`, `repeatCount`…) gives its own time t, as for any layer; the screen shown is the
/// recording's at `startAt + t` (pauses past `idleTimeLimit` cut first), held at its last event after.
public struct TerminalProperties: Sendable, Equatable {
    /// The file as the scene names it.
    public var name: String
    /// The file, resolved against the scene's folder.
    public var file: String
    /// The grid drawn, in cells (the recording's own size unless the scene gives one).
    public var columns: Int
    public var rows: Int
    /// Pauses longer than this many seconds are cut to it; nil keeps the recording's own.
    public var idleTimeLimit: Double?
    /// The second of the played recording shown at the layer's time 0.
    public var startAt: Double = 0
    /// The played recording's length in seconds (its last event, after the idle limit).
    public var length: Double
    public var fontFamily = TerminalProperties.defaultFontFamily
    public var fontSize = 14.0
    /// A multiple of the font's own line height (ascender − descender + line gap), as text layers take it.
    public var lineHeight = 1.0
    public var theme = TerminalTheme.dark
    public var cursor = TerminalCursor.block
    /// The cursor is shown half of each second (the first half) of the layer's time.
    public var cursorBlink = false
    /// Points between the bounds and the grid, on every side.
    public var padding = 0.0
    /// Whether the bounds are the grid's natural size (what the font makes it), set when the fonts are
    /// opened; false when the scene gives the bounds.
    public var sizedByFont = true

    /// Monospace, covers Latin, Greek, Cyrillic and box drawing, and is installed with the tests'
    /// fonts-dejavu-core (a Debian system's default monospace font).
    public static let defaultFontFamily = "DejaVu Sans Mono"

    /// The largest grid, as ReelTerminal's `TerminalLimits` has it for recordings (a test keeps the two
    /// alike; this module does not see that one).
    public static let maximumColumns = 1_000
    public static let maximumRows = 500
    public static let maximumCells = 250_000

    public init(name: String, file: String, columns: Int, rows: Int, length: Double) {
        self.name = name
        self.file = file
        self.columns = columns
        self.rows = rows
        self.length = length
    }

    /// The second of the played recording on screen at the layer's own time `t`.
    public func recordingTime(atLayerTime t: Double) -> Double {
        startAt + min(max(t.isFinite ? t : 0, 0), max(length - startAt, 0))
    }

    /// Cell (`column`, `row`)'s rectangle in the layer's coordinates: the bounds less the padding hold
    /// exactly `columns` × `rows` cells, whatever the font (the rule a highlight is placed by).
    public func cell(column: Double, row: Double, in bounds: Rect) -> Rect {
        let size = cellSize(in: bounds)
        return Rect(
            x: bounds.minX + padding + column * size.width, y: bounds.minY + padding + row * size.height, width: size.width,
            height: size.height)
    }

    public func cellSize(in bounds: Rect) -> Size {
        Size(
            width: max(bounds.width - 2 * padding, 0) / Double(max(columns, 1)),
            height: max(bounds.height - 2 * padding, 0) / Double(max(rows, 1)))
    }

    /// Whether the cursor shows at the layer's own time `t`; `blinks`: whether it blinks (the layer's
    /// `cursorBlink` unless the program asked otherwise).
    public func cursorShows(atLayerTime t: Double, blinks: Bool? = nil) -> Bool {
        guard cursor != .none else { return false }
        guard blinks ?? cursorBlink, t.isFinite else { return true }
        return (t - t.rounded(.down)) < 0.5
    }
}

/// How the cursor is drawn.
public enum TerminalCursor: String, Sendable, CaseIterable {
    /// The whole cell, its character drawn in the background colour over it.
    case block
    /// A bar at the cell's left edge, an eighth of the cell wide (at least a point).
    case bar
    /// A line along the cell's bottom, an eighth of the cell high (at least a point).
    case underline
    /// Not drawn.
    case none
}

/// What a terminal recording says that a scene needs while it is read.
public struct TerminalFileFacts: Sendable {
    public var columns: Int
    public var rows: Int
    /// The played length in seconds, with the idle limit asked for (or the recording's own) applied.
    public var length: Double
    /// The colours the recorder saved, if any (`theme: recording`).
    public var theme: TerminalTheme?

    public init(columns: Int, rows: Int, length: Double, theme: TerminalTheme? = nil) {
        self.columns = columns
        self.rows = rows
        self.length = length
        self.theme = theme
    }
}

extension Scene {
    /// Each terminal layer's model (named), once per layer: what a player opened before the first frame needs.
    public var terminalLayers: [(name: String, terminal: TerminalProperties)] {
        var out: [(name: String, terminal: TerminalProperties)] = []
        layers.forEachLayer { layer, _ in
            if layer.type == .terminal, let t = layer.terminal { out.append((layer.name, t)) }
        }
        return out
    }
}
