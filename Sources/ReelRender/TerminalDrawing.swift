/// Terminal layers drawn from the screen their frame's media holds: the theme's background, each row's
/// cell backgrounds, glyphs and lines (made once per row content and kept), then the cursor.
import ReelGeometry
import ReelRaster
import ReelScene
import ReelTerminal
import ReelText
import Synchronization

/// A terminal font family's four faces (a style the family lacks is drawn with its regular face) and
/// the grid's metrics, taken from the regular face in ems.
public struct TerminalFaces: Sendable {
    public var regular: FontFace
    public var bold: FontFace
    public var italic: FontFace
    public var boldItalic: FontFace
    /// A cell's width: the advance of "M" (every glyph of a monospace font has it).
    public let advance: Double
    public let ascender: Double
    /// Below the baseline: negative, as fonts give it.
    public let descender: Double
    public let lineGap: Double

    public init(regular: FontFace, bold: FontFace? = nil, italic: FontFace? = nil, boldItalic: FontFace? = nil) {
        self.regular = regular
        self.bold = bold ?? regular
        self.italic = italic ?? regular
        self.boldItalic = boldItalic ?? bold ?? italic ?? regular
        let em = Double(regular.unitsPerEm)
        let m = (try? regular.shape("M"))?.first?.xAdvance ?? em * 0.6
        advance = m / em
        let e = regular.extents
        ascender = e.ascender / em
        descender = e.descender / em
        lineGap = e.lineGap / em
    }

    func face(_ style: TerminalStyle) -> FontFace {
        switch (style.contains(.bold), style.contains(.italic)) {
        case (true, true): boldItalic
        case (true, false): bold
        case (false, true): italic
        case (false, false): regular
        }
    }

    /// The bounds that hold the grid at its font size with nothing stretched: columns advances wide,
    /// rows line heights high (the font's ascender − descender + line gap, times `lineHeight`), plus padding.
    public func naturalSize(of t: TerminalProperties) -> Size {
        let cell = naturalCell(of: t)
        return Size(
            width: Double(t.columns) * cell.width + 2 * t.padding, height: Double(t.rows) * cell.height + 2 * t.padding)
    }

    /// A cell's natural size: the advance of "M" wide, a line of the font (times `lineHeight`) high.
    public func naturalCell(of t: TerminalProperties) -> Size {
        Size(width: advance * t.fontSize, height: (ascender - descender + lineGap) * t.fontSize * t.lineHeight)
    }

    /// The baseline's distance from a cell's top: the font's ascent and descent centred in the cell.
    func baseline(cellHeight: Double, fontSize: Double) -> Double {
        (cellHeight - (ascender - descender) * fontSize) / 2 + ascender * fontSize
    }
}

/// How a row is drawn, whatever its content: what its kept drawing depends on besides its cells.
struct TerminalRowStyle: Hashable, Sendable {
    var fontFamily: String
    var fontSize: Double
    var cell: Size
    var columns: Int
    var theme: TerminalTheme
    var reverse: Bool
}

/// One row's drawing in the row's own space (its grid-left, top corner at 0, 0): fills by colour, in the
/// order they paint (cell backgrounds, glyphs, lines), and colour emoji as pictures.
struct TerminalRowDrawing: Sendable {
    struct Picture: Sendable {
        var image: RasterImage
        /// The bitmap's pixels to the row's space.
        var place: Transform2D
    }
    var fills: [(color: Color, path: Path)] = []
    var pictures: [Picture] = []
}

/// Rows drawn once per content and style, shared by every thread that renders; its rows hold at most
/// `cellLimit` cells in all (`TerminalCache`'s two generations; output that never repeats a row makes one per row each
/// frame, and a row's outlines grow with its width: some 0.5 KB a cell of text).
final class TerminalRowCache: Sendable {
    struct Key: Hashable, Sendable {
        var line: TerminalLine
        var style: TerminalRowStyle
    }
    /// About 100 MB of outlines at most.
    static let cellLimit = 200_000
    private let rows = TerminalCache<Key, TerminalRowDrawing>(limit: cellLimit)

    func drawing(of line: TerminalLine, _ style: TerminalRowStyle, make: () -> TerminalRowDrawing) -> TerminalRowDrawing {
        rows.value(for: Key(line: line, style: style)) { (make(), line.cells.count) }!
    }
}

/// Values made once per key and shared by every thread that renders, in two generations whose costs
/// stay under `limit` together: values are made into the recent one, which becomes the older when it
/// holds half the limit (the older one then dropped whole); a value found in the older generation moves
/// to the recent. The rows a terminal shows come and go in order: those on screen stay however long the
/// clip (dropping everything at the limit made the screen's rows again each time), and nothing is
/// evicted one by one.
final class TerminalCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Generations {
        var recent: [Key: (value: Value, cost: Int)] = [:]
        var recentCost = 0
        var older: [Key: (value: Value, cost: Int)] = [:]
    }
    private let limit: Int
    private let entries = Mutex(Generations())

    init(limit: Int) { self.limit = limit }

    /// The value kept for `key`, or the one `make` gives (with its cost), kept; nil when `make` gives none.
    func value(for key: Key, make: () -> (Value, cost: Int)?) -> Value? {
        let found = entries.withLock { g -> Value? in
            if let hit = g.recent[key] { return hit.value }
            guard let moved = g.older.removeValue(forKey: key) else { return nil }
            Self.keep(key, moved, in: &g, limit: limit)
            return moved.value
        }
        if let found { return found }
        guard let (value, cost) = make() else { return nil }
        entries.withLock { Self.keep(key, (value, cost), in: &$0, limit: limit) }
        return value
    }

    private static func keep(_ key: Key, _ entry: (value: Value, cost: Int), in g: inout Generations, limit: Int) {
        if g.recentCost + entry.cost > limit / 2 {
            g.older = g.recent
            g.recent = [:]
            g.recentCost = 0
        }
        // Another thread may have made it meanwhile: counted once.
        if let old = g.recent.updateValue(entry, forKey: key) { g.recentCost -= old.cost }
        g.recentCost += entry.cost
    }
}

extension TerminalTheme {
    /// The colour a cell's colour means in this theme.
    func color(_ c: TerminalColor, default d: Color) -> Color {
        switch c {
        case .default: return d
        case .indexed(let i) where i < 16: return palette[Int(i)]
        case .indexed(let i): return Self.color(TerminalRGB.extended(Int(i)))
        case .rgb(let rgb): return Self.color(rgb)
        }
    }

    static func color(_ rgb: TerminalRGB) -> Color {
        Color(red: Double(rgb.red) / 255, green: Double(rgb.green) / 255, blue: Double(rgb.blue) / 255)
    }

    /// A cell's foreground and background as drawn: inverse (the cell's or the whole screen's) swaps them.
    func colors(of cell: TerminalCell, reverse: Bool) -> (foreground: Color, background: Color) {
        let fg = color(cell.foreground, default: foreground), bg = color(cell.background, default: background)
        return cell.style.contains(.inverse) != reverse ? (bg, fg) : (fg, bg)
    }
}

extension SceneRenderer {
    /// The commands that draw a terminal layer's screen (after its background, before its sublayers).
    func terminalCommands(of layer: PresentationLayer, toDevice: Transform2D) -> [DisplayList.Command] {
        guard let t = layer.properties.terminal, let faces = text.terminalFaces[t.fontFamily] else { return [] }
        let bounds = layer.properties.bounds
        guard !bounds.isEmpty else { return [] }
        let screen = pictures.nearestScreen(of: layer.name, at: t.recordingTime(atLayerTime: layer.time))
        let reverse = screen?.reverse ?? false
        let fill = reverse ? t.theme.foreground : t.theme.background
        var out: [DisplayList.Command] = [
            .fill(path: Path(roundedRect: bounds, cornerRadius: layer.properties.cornerRadius).applying(toDevice), color: fill)
        ]
        guard let screen else { return out }
        let cell = t.cellSize(in: bounds)
        let style = TerminalRowStyle(
            fontFamily: t.fontFamily, fontSize: t.fontSize, cell: cell, columns: t.columns, theme: t.theme, reverse: reverse)
        let gridLeft = bounds.minX + t.padding, gridTop = bounds.minY + t.padding
        // The device rectangles row pictures cover (rows next to each other joined): opaque, on whole
        // pixels, so the background is not filled under them (a 1080p frame filled twice).
        var covered: [Rect] = []
        let pictured = Self.rowPictureSize(
            toDevice: toDevice, fill: fill, cornerRadius: layer.properties.cornerRadius, padding: t.padding,
            columns: t.columns, cell: cell)
        for r in 0..<min(screen.rows, t.rows) {
            let rowToDevice = Transform2D.translation(x: gridLeft, y: gridTop + Double(r) * cell.height).concatenating(toDevice)
            if let visibleArea {
                let row = Rect(x: 0, y: 0, width: Double(t.columns) * cell.width, height: cell.height).applying(rowToDevice)
                // Glyphs reach a little past their cells (italics, accents): a cell's height around.
                guard row.insetBy(-cell.height * toDevice.maxScale).intersects(visibleArea) else { continue }
            }
            func drawing() -> TerminalRowDrawing {
                text.terminalRows.drawing(of: screen.lines[r], style) {
                    Self.row(screen.lines[r], style, faces: faces, typesetter: text.typesetter)
                }
            }
            let x = rowToDevice.tx, y = rowToDevice.ty
            if let (width, height) = pictured, x == x.rounded(), y == y.rounded(), abs(x) < 1e9, abs(y) < 1e9,
                let picture = text.terminalRowPictures.picture(
                    of: screen.lines[r], style, scaleX: toDevice.a, scaleY: toDevice.d,
                    make: {
                        rowPicture(drawing(), fill: fill, scaleX: toDevice.a, scaleY: toDevice.d, width: width, height: height)
                    })
            {
                let area = Rect(x: x, y: y, width: Double(width), height: Double(height))
                out.append(
                    .fill(
                        path: Path(rect: area), paint: .image(picture, transform: .translation(x: x, y: y)), opacity: 1,
                        rule: .nonZero))
                if let last = covered.last, last.minX == area.minX, last.width == area.width, last.maxY == area.minY {
                    covered[covered.count - 1].size.height += area.height
                } else {
                    covered.append(area)
                }
                continue
            }
            let drawing = drawing()
            for fill in drawing.fills {
                out.append(.fill(path: fill.path.applying(rowToDevice), color: fill.color))
            }
            for p in drawing.pictures {
                let frame = Path(rect: Rect(x: 0, y: 0, width: Double(p.image.width), height: Double(p.image.height)))
                    .applying(p.place)
                out.append(
                    .fill(
                        path: frame.applying(rowToDevice), paint: .image(p.image, transform: p.place.concatenating(rowToDevice)),
                        opacity: 1, rule: .nonZero))
            }
        }
        if !covered.isEmpty {
            // Rectangles on whole pixels cut out of the background, even-odd: every pixel is covered by
            // the one or the other wholly, so the frame is what filling it all first would give.
            var background = Path(roundedRect: bounds, cornerRadius: layer.properties.cornerRadius).applying(toDevice)
            for area in covered { background.addPath(Path(rect: area)) }
            out[0] = .fill(path: background, color: fill, rule: .evenOdd)
        }
        // The program's cursor look where it set one (the layer's `none` hides it whatever it asks).
        let shape: TerminalCursor, blinks: Bool
        switch (t.cursor, screen.cursorStyle) {
        case (.none, _), (_, nil): (shape, blinks) = (t.cursor, t.cursorBlink)
        case (_, .some(let asked)):
            shape = asked.shape == .bar ? .bar : asked.shape == .underline ? .underline : .block
            blinks = asked.blinks
        }
        if let (row, column) = screen.cursor, row < t.rows, column < t.columns,
            t.cursorShows(atLayerTime: layer.time, blinks: blinks)
        {
            out += cursorCommands(
                screen.lines[row].cells[column], column: column, style: style, faces: faces,
                rowToDevice: Transform2D.translation(x: gridLeft, y: gridTop + Double(row) * cell.height).concatenating(toDevice),
                shape: shape)
        }
        return out
    }

    /// The cursor over its cell: a block in the cursor colour with the cell's character drawn again in
    /// the cell's background colour, or a bar or an underline an eighth of the cell (at least a point).
    private func cursorCommands(
        _ cell: TerminalCell, column: Int, style: TerminalRowStyle, faces: TerminalFaces, rowToDevice: Transform2D,
        shape: TerminalCursor
    ) -> [DisplayList.Command] {
        let w = style.cell.width * Double(max(Int(cell.width), 1)), h = style.cell.height
        let x = Double(column) * style.cell.width
        let rect: Rect
        switch shape {
        case .block: rect = Rect(x: x, y: 0, width: w, height: h)
        case .bar: rect = Rect(x: x, y: 0, width: min(max(style.cell.width / 8, 1), style.cell.width), height: h)
        case .underline:
            let thickness = min(max(h / 8, 1), h)
            rect = Rect(x: x, y: h - thickness, width: w, height: thickness)
        case .none: return []
        }
        var out: [DisplayList.Command] = [.fill(path: Path(rect: rect).applying(rowToDevice), color: style.theme.cursor)]
        if shape == .block, !cell.text.isEmpty {
            let colors = style.theme.colors(of: cell, reverse: style.reverse)
            let glyphs = Self.glyphs(of: cell, at: x, style, faces: faces, typesetter: text.typesetter)
            if !glyphs.path.isEmpty { out.append(.fill(path: glyphs.path.applying(rowToDevice), color: colors.background)) }
        }
        return out
    }

    /// A row's drawing: runs of cells whose background differs from the theme's, then each colour's
    /// glyphs, then underlines and strikethroughs.
    static func row(_ line: TerminalLine, _ style: TerminalRowStyle, faces: TerminalFaces, typesetter: Typesetter)
        -> TerminalRowDrawing
    {
        var drawing = TerminalRowDrawing()
        var backgrounds: [Color: Path] = [:], glyphPaths: [Color: Path] = [:], lines: [Color: Path] = [:]
        var order: [Color] = []
        let cells = line.cells.prefix(style.columns)
        let w = style.cell.width, h = style.cell.height
        let fill = style.reverse ? style.theme.foreground : style.theme.background
        let s = style.fontSize
        let baseline = faces.baseline(cellHeight: h, fontSize: s)
        let em = Double(faces.regular.unitsPerEm)
        let metrics = faces.regular.decorationMetrics
        let thickness = max(metrics.thickness / em * s, 0.5)
        var run: (color: Color, start: Int)?
        func endRun(at end: Int) {
            if let r = run, r.color != fill {
                backgrounds[r.color, default: Path()].addPath(
                    Path(rect: Rect(x: Double(r.start) * w, y: 0, width: Double(end - r.start) * w, height: h)))
            }
            run = nil
        }
        for (i, cell) in cells.enumerated() {
            let (fg, bg) = style.theme.colors(of: cell, reverse: style.reverse)
            if run?.color != bg {
                endRun(at: i)
                run = (bg, i)
            }
            guard cell.width > 0 else { continue }
            let x = Double(i) * w
            if !cell.text.isEmpty {
                let placed = glyphs(of: cell, at: x, style, faces: faces, typesetter: typesetter)
                if !placed.path.isEmpty {
                    if glyphPaths[fg] == nil { order.append(fg) }
                    glyphPaths[fg, default: Path()].addPath(placed.path)
                }
                drawing.pictures += placed.pictures
            }
            let span = w * Double(cell.width)
            func addLine(_ centre: Double) {
                lines[fg, default: Path()].addPath(
                    Path(rect: Rect(x: x, y: baseline - centre / em * s - thickness / 2, width: span, height: thickness)))
            }
            if cell.style.contains(.underline) {
                addLine(metrics.underline)
                if cell.style.contains(.doubleUnderline) { addLine(metrics.underline - 2 * metrics.thickness) }
            }
            if cell.style.contains(.strikethrough) { addLine(metrics.strikeout) }
        }
        endRun(at: cells.count)
        for (color, path) in backgrounds.sorted(by: { Self.colorOrder($0.key, $1.key) }) { drawing.fills.append((color, path)) }
        for color in order { if let path = glyphPaths[color] { drawing.fills.append((color, path)) } }
        for (color, path) in lines.sorted(by: { Self.colorOrder($0.key, $1.key) }) { drawing.fills.append((color, path)) }
        return drawing
    }

    /// Disjoint fills in a fixed order, so that the same row always makes the same commands.
    static func colorOrder(_ a: Color, _ b: Color) -> Bool {
        (a.red, a.green, a.blue, a.alpha) < (b.red, b.green, b.blue, b.alpha)
    }

    /// A cell's character as outlines from the pen at (x, baseline) of the row, and its colour emoji as
    /// pictures; shaped alone, in the face its style names, falling back as text layers do.
    static func glyphs(
        of cell: TerminalCell, at x: Double, _ style: TerminalRowStyle, faces: TerminalFaces, typesetter: Typesetter
    )
        -> (path: Path, pictures: [TerminalRowDrawing.Picture])
    {
        let s = style.fontSize
        let baseline = faces.baseline(cellHeight: style.cell.height, fontSize: s)
        let set = typesetter.typeset(
            [TextRun(cell.text, TextAttributes(font: faces.face(cell.style), fontSize: s))],
            style: ParagraphStyle(firstBaselineAtTop: true), in: Size(width: 1e6, height: 1e6))
        var path = Path()
        var pictures: [TerminalRowDrawing.Picture] = []
        for g in set.glyphs {
            let pen = Point(x: x + g.origin.x, y: baseline + g.origin.y)
            let outline = g.font.outline(of: g.glyph)
            if outline.isEmpty {
                guard g.font.hasColorBitmaps, let bitmap = g.font.colorBitmap(of: g.glyph),
                    let image = RasterImage(width: bitmap.width, height: bitmap.height, premultipliedRGBA: bitmap.rgba)
                else { continue }
                let k = g.fontSize / bitmap.pixelsPerEm
                let place = Transform2D.scale(x: k, y: k).concatenating(.translation(x: bitmap.left * k, y: -bitmap.top * k))
                    .concatenating(.translation(x: pen.x, y: pen.y))
                pictures.append(.init(image: image, place: place))
                continue
            }
            let k = g.fontSize / Double(g.font.unitsPerEm)
            // Font units are y up; the row's points are y down.
            path.addPath(outline.applying(Transform2D(a: k, b: 0, c: 0, d: -k, tx: pen.x, ty: pen.y)))
        }
        return (path, pictures)
    }
}
