/// Terminal layers against an independent emulator and renderer: pyte (not libvterm) played
/// TerminalReferences/session.cast to each checkpoint and Pillow drew the screen it showed
/// (scripts/terminal-references.py: cells of 10 × 20 px, DejaVu Sans Mono at 16 px, glyphs at 32× and
/// box-filtered down). Reel plays the same recording in a terminal layer of the same grid; in every cell
/// its frame must show the background colour pyte gives, exactly, wherever the reference has no ink
/// within a pixel, and the cell as a whole must match the reference's to `Tolerance.textReferencePSNR`
/// (the glyphs' hinting and origin rounding in Pillow, as for text layers).
import Foundation
import Reel
import ReelMedia
import ReelTestSupport
import Testing

@Suite struct TerminalReferenceTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "TerminalReferences")

    struct Cell: Decodable { var text: String, foreground: String, background: String }
    struct Case: Decodable {
        struct Cursor: Decodable { var row: Int, column: Int }
        var time: Double
        var image: String
        var cursor: Cursor
        var text: [String]
        var cells: [[Cell]]
    }
    struct Corpus: Decodable {
        var columns: Int, rows: Int, cellWidth: Int, cellHeight: Int, fontSize: Double
        var cases: [Case]
    }

    static func corpus() throws -> Corpus {
        try JSONDecoder().decode(Corpus.self, from: Data(contentsOf: folder.appendingPathComponent("cases.json")))
    }

    /// The recording in a layer whose bounds are exactly the reference's grid.
    static func scene(_ c: Corpus, cursor: String) -> String {
        let w = c.columns * c.cellWidth, h = c.rows * c.cellHeight
        return """
            {"width": \(w), "height": \(h), "fps": 10, "duration": 6, "background": "#000000",
             "layers": [{"name": "term", "type": "terminal", "contents": "\(folder.appendingPathComponent("session.cast").path)",
               "bounds": [\(w), \(h)], "position": [\(Double(w) / 2), \(Double(h) / 2)], "fontSize": \(c.fontSize),
               "theme": "dark", "cursor": "\(cursor)"}]}
            """
    }

    static func rgb(_ hex: String) -> [UInt8] {
        let v = Int(hex, radix: 16) ?? 0
        return [UInt8(v >> 16 & 255), UInt8(v >> 8 & 255), UInt8(v & 255)]
    }

    static func fontsInstalled() -> Bool {
        ["/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf", "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"].allSatisfy {
            FileManager.default.fileExists(atPath: $0)
        }
    }

    @Test(arguments: 0..<5)
    func matchesPyteAndPillow(_ index: Int) throws {
        guard Self.fontsInstalled() else {
            print("TerminalReferenceTests: DejaVu Sans Mono or WenQuanYi Micro Hei is not installed (scripts/setup.sh); skipped")
            return
        }
        let corpus = try Self.corpus()
        let c = corpus.cases[index]
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let sceneFile = dir + "/scene.json", out = dir + "/out.png"
        try Self.scene(corpus, cursor: "none").write(toFile: sceneFile, atomically: true, encoding: .utf8)
        try Reel.still(try Reel.load(sceneFile), at: c.time, to: out)
        let ours = try ImageFile.read(path: out)
        let reference = try ImageFile.read(path: Self.folder.appendingPathComponent(c.image).path)
        try #require(ours.width == reference.width && ours.height == reference.height)
        let w = reference.width
        func pixel(_ image: [UInt8], _ x: Int, _ y: Int) -> [UInt8] { Array(image[(y * w + x) * 4..<(y * w + x) * 4 + 3]) }
        // Where the reference has ink: any pixel that differs from its cell's background.
        var ink = [Bool](repeating: false, count: w * reference.height)
        for y in 0..<reference.height {
            for x in 0..<w {
                let cell = c.cells[y / corpus.cellHeight][x / corpus.cellWidth]
                ink[y * w + x] = pixel(reference.rgba, x, y) != Self.rgb(cell.background)
            }
        }
        func inkNear(_ x: Int, _ y: Int) -> Bool {
            for dy in -1...1 {
                for dx in -1...1 {
                    let xx = x + dx, yy = y + dy
                    if xx >= 0, yy >= 0, xx < w, yy < reference.height, ink[yy * w + xx] { return true }
                }
            }
            return false
        }
        var wrongBackground = 0, worst = Double.infinity, worstCell = (0, 0)
        for r in 0..<corpus.rows {
            for col in 0..<corpus.columns {
                let cell = c.cells[r][col]
                var a: [UInt8] = [], b: [UInt8] = []
                for y in r * corpus.cellHeight..<(r + 1) * corpus.cellHeight {
                    for x in col * corpus.cellWidth..<(col + 1) * corpus.cellWidth {
                        let p = pixel(ours.rgba, x, y)
                        if !inkNear(x, y) && p != Self.rgb(cell.background) {
                            wrongBackground += 1
                            if wrongBackground <= 5 {
                                Issue.record("cell (\(col), \(r)) at (\(x), \(y)): \(p), pyte's background \(cell.background)")
                            }
                        }
                        a += p + [255]
                        b += pixel(reference.rgba, x, y) + [255]
                    }
                }
                let db = psnr(a, b)
                if db < worst { (worst, worstCell) = (db, (col, r)) }
            }
        }
        print(
            "TerminalReferenceTests: screen \(index) at \(c.time) s: worst cell (\(worstCell.0), \(worstCell.1)) \(String(format: "%.1f", worst)) dB"
        )
        #expect(wrongBackground == 0)
        #expect(worst >= Tolerance.textReferencePSNR, "cell (\(worstCell.0), \(worstCell.1)): \(worst) dB")
    }
}
