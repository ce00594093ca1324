/// A terminal layer's recording and its looks: the file played and how the layer's own time becomes
/// the recording's, the grid, the font, the theme and the cursor.
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

    /// Whether the cursor shows at the layer's own time `t`.
    public func cursorShows(atLayerTime t: Double) -> Bool {
        guard cursor != .none else { return false }
        guard cursorBlink, t.isFinite else { return true }
        return (t - t.rounded(.down)) < 0.5
    }
}

extension LayerProperties {
    /// Bounds and position from `cells` in the grid of a terminal of `bounds`: the layer covers its cells
    /// exactly, its anchor point where it falls in them.
    mutating func place(inCellsOf terminal: TerminalProperties, bounds: Rect) {
        guard let c = cells else { return }
        let first = terminal.cell(column: c.minX, row: c.minY, in: bounds)
        let size = terminal.cellSize(in: bounds)
        self.bounds = Rect(x: 0, y: 0, width: c.width * size.width, height: c.height * size.height)
        position = Point(
            x: first.minX + anchorPoint.x * self.bounds.width, y: first.minY + anchorPoint.y * self.bounds.height)
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

/// A terminal's colours: default foreground and background, the cursor, and the 16 palette colours the
/// programs name (0–7 normal, 8–15 bright); colours 16–255 are xterm's fixed cube and greys.
public struct TerminalTheme: Sendable, Hashable {
    public var foreground: Color
    public var background: Color
    public var cursor: Color
    public var palette: [Color]

    public init(foreground: Color, background: Color, cursor: Color? = nil, palette: [Color]) {
        self.foreground = foreground
        self.background = background
        self.cursor = cursor ?? foreground
        self.palette = palette
    }

    /// Reel's dark theme: light grey on a near-black blue.
    public static let dark = TerminalTheme(
        foreground: hex(0xD5D9E0), background: hex(0x171A21), cursor: hex(0xF2F4F7),
        palette: [
            0x2A2E37, 0xE06471, 0x94C47A, 0xE3BD74, 0x5FA8EC, 0xC27BD9, 0x52B5C0, 0xD5D9E0,
            0x5E6573, 0xF0838E, 0xB2DE93, 0xF2D293, 0x86C0F4, 0xD89CEA, 0x78CFD8, 0xFFFFFF,
        ].map(hex))

    /// Reel's light theme: near-black on off-white.
    public static let light = TerminalTheme(
        foreground: hex(0x2B2F36), background: hex(0xFAFAF8), cursor: hex(0x2B2F36),
        palette: [
            0x2B2F36, 0xC4353F, 0x3F8A2E, 0x9E6C00, 0x2A63C4, 0x9C3FB5, 0x1F8591, 0xD6D9DE,
            0x6B717D, 0xDD4F59, 0x53A13F, 0xBC8812, 0x4A80DD, 0xB55BCC, 0x32A0AD, 0xFFFFFF,
        ].map(hex))

    /// The built-in themes by the names scene files and `--theme` give them.
    public static let builtIn: [String: TerminalTheme] = ["dark": .dark, "light": .light]

    static func hex(_ v: Int) -> Color {
        Color(red: Double(v >> 16 & 255) / 255, green: Double(v >> 8 & 255) / 255, blue: Double(v & 255) / 255)
    }
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
