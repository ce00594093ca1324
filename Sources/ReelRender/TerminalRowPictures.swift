/// Terminal rows as pictures: where a terminal's rows land unrotated on whole pixels over its opaque
/// background, each row is drawn once per content and size into a picture the frames copy.
import ReelGeometry
import ReelRaster
import ReelScene
import ReelTerminal

/// Row pictures shared by every thread that renders. A scroll moves every row of the grid: drawn as
/// outlines, each frame that scrolled put every glyph of the screen through the rasterizer again (a 1080p
/// GIF of a 120 × 36 session scrolling 20 lines a second: half its time); as pictures, only the rows
/// never seen before are drawn, and the others copied. Its pictures hold `byteLimit` bytes at most.
final class TerminalRowPictures: Sendable {
    private struct Key: Hashable, Sendable {
        var row: TerminalRowCache.Key
        /// The device pixels per point of the row, across and down.
        var scaleX: Double
        var scaleY: Double
    }
    /// Some 300 rows of a 1080p grid (1,880 × 30 pixels each), 150 at least in the recent generation:
    /// more than a screen of 4K rows.
    static let byteLimit = 64 << 20
    private let pictures = TerminalCache<Key, RasterImage>(limit: byteLimit)

    func picture(
        of line: TerminalLine, _ style: TerminalRowStyle, scaleX: Double, scaleY: Double, make: () -> RasterImage?
    ) -> RasterImage? {
        pictures.value(for: Key(row: .init(line: line, style: style), scaleX: scaleX, scaleY: scaleY)) {
            make().map { ($0, $0.pixels.count) }
        }
    }
}

extension SceneRenderer {
    /// How a terminal layer's rows are drawn as pictures, or nil where they are drawn as outlines: the
    /// layer mapped to the device by a scale and a translation alone, each row a whole number of pixels
    /// wide and high, and the grid inside the layer's background (`fill`, opaque) and clear of its
    /// rounded corners, so that a row's picture (filled with that background) shows what its outlines
    /// would over it. A glyph reaching out of its row is cut at the row's edges.
    static func rowPictureSize(
        toDevice: Transform2D, fill: Color, cornerRadius: Double, padding: Double, columns: Int, cell: Size
    ) -> (width: Int, height: Int)? {
        guard toDevice.b == 0, toDevice.c == 0, toDevice.a > 0, toDevice.d > 0, fill.alpha >= 1, cornerRadius <= padding
        else { return nil }
        let w = Double(columns) * cell.width * toDevice.a, h = cell.height * toDevice.d
        guard w.isFinite, h.isFinite, w >= 1, h >= 1, w == w.rounded(), h == h.rounded(), w * h <= Double(Scene.maximumPixelArea)
        else { return nil }
        return (Int(w), Int(h))
    }

    /// A row's drawing as a `width` × `height` picture at `scaleX`, `scaleY` pixels per point, over
    /// `fill`; nil when the rasterizer refuses it (the row is then drawn as outlines).
    func rowPicture(
        _ drawing: TerminalRowDrawing, fill: Color, scaleX: Double, scaleY: Double, width: Int, height: Int
    ) -> RasterImage? {
        let toPicture = Transform2D.scale(x: scaleX, y: scaleY)
        var list = DisplayList(background: fill)
        for f in drawing.fills { list.commands.append(.fill(path: f.path.applying(toPicture), color: f.color)) }
        for p in drawing.pictures {
            let frame = Path(rect: Rect(x: 0, y: 0, width: Double(p.image.width), height: Double(p.image.height)))
                .applying(p.place)
            let place = p.place.concatenating(toPicture)
            list.commands.append(
                .fill(path: frame.applying(toPicture), paint: .image(p.image, transform: place), opacity: 1, rule: .nonZero))
        }
        guard let frame = try? rasterizer.render(list, width: width, height: height) else { return nil }
        return RasterImage(unique: frame)
    }
}
