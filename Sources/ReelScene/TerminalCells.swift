/// A terminal layer's sublayers placed by cells of its grid: what `cells` means at each frame (the
/// presentation step calls it with the terminal's presented bounds).
import ReelGeometry

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
