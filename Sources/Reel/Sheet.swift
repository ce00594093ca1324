/// Contact sheets: frames of a clip in a grid, each labelled with its time in a built-in 5×7 font,
/// written as PNG.
import Foundation
import ReelMedia
import ReelRaster
import ReelRender
import ReelScene

/// A contact sheet: frames of a clip in a grid, each labelled with its time — the way the documents
/// break an animation into steps.
public enum ContactSheet {
    /// Frame times for `count` frames spread evenly over the clip, first and last frame included; each
    /// is the time of a real frame of the video (a multiple of the frame duration).
    public static func evenTimes(count: Int, scene: Scene) -> [Double] {
        let frames = scene.frameCount
        let n = max(1, min(count, frames))
        if n == 1 { return [0] }
        return (0..<n).map { i in
            let index = Int((Double(i) * Double(frames - 1) / Double(n - 1)).rounded())
            return scene.fps.time(ofFrame: index)
        }
    }

    /// The label of a frame: its time in seconds, to the millisecond, without trailing zeros.
    public static func label(_ t: Double) -> String {
        var s = String(format: "%.3f", t)
        while s.hasSuffix("0") { s.removeLast() }
        if s.hasSuffix(".") { s.removeLast() }
        return s + " s"
    }

    /// Cell padding and label size in pixels, for a label glyph scale `k` (a glyph is 5k × 7k).
    static func layout(frameWidth w: Int, frameHeight h: Int, count: Int, columns: Int, k: Int)
        -> (width: Int, height: Int, pad: Int, labelHeight: Int, rows: Int)
    {
        let pad = 4 * k, labelHeight = 7 * k + 2 * k
        let rows = (count + columns - 1) / columns
        return (columns * (w + pad) + pad, rows * (h + pad + labelHeight) + pad, pad, labelHeight, rows)
    }

    /// Renders the frames at `times` into one RGBA image (opaque; transparent scenes over white).
    public static func image(
        _ clip: Clip, times: [Double], columns: Int, threads: Int, cancellation: Cancellation = Cancellation()
    ) throws(ReelError) -> StillImage {
        let scene = clip.scene
        let w = scene.pixelWidth, h = scene.pixelHeight
        let columns = max(1, min(columns, times.count))
        let k = max(1, min(3, w / 120))
        let (width, height, pad, labelHeight, _) = layout(
            frameWidth: w, frameHeight: h, count: times.count, columns: columns, k: k)
        guard width <= 32_768, height <= 32_768, width * height <= 16_384 * 16_384 else {
            throw .usage(
                "the sheet would be \(width)×\(height) pixels",
                fix: "use fewer frames (\(Setting.count)), more \(Setting.columns) or a smaller \(Setting.scale)")
        }
        var out = [UInt8](repeating: 0, count: width * height * 4)
        // Sheet background: light grey, so that a white scene's edges show.
        for i in stride(from: 0, to: out.count, by: 4) {
            out[i] = 0xe4
            out[i + 1] = 0xe4
            out[i + 2] = 0xe4
            out[i + 3] = 255
        }
        let renderer = clip.renderer(threads: threads)
        let sources = clip.mediaSources()
        for (n, t) in times.enumerated() {
            try cancellation.check()
            let frame = try clip.frame(at: t, renderer: renderer, sources: sources)
            let x0 = pad + (n % columns) * (w + pad)
            let y0 = pad + (n / columns) * (h + pad + labelHeight)
            // Premultiplied frame over white.
            for y in 0..<h {
                for x in 0..<w {
                    let s = (y * w + x) * 4, d = ((y0 + y) * width + x0 + x) * 4
                    let a = Int(frame.pixels[s + 3])
                    for c in 0..<3 { out[d + c] = UInt8(min(255, Int(frame.pixels[s + c]) + (255 * (255 - a) + 127) / 255)) }
                    out[d + 3] = 255
                }
            }
            drawText(label(t), into: &out, width: width, x: x0, y: y0 + h + k, scale: k)
        }
        return StillImage(width: width, height: height, rgba: out)
    }

    /// Writes the sheet as PNG under a temporary name, renamed when complete.
    public static func write(
        _ clip: Clip, times: [Double], columns: Int, to output: String, threads: Int,
        cancellation: Cancellation = Cancellation()
    ) throws(ReelError) {
        guard URL(fileURLWithPath: output).pathExtension.lowercased() == "png" else {
            throw .usage("\(output): a contact sheet is written as PNG", fix: "name the output with .png")
        }
        try checkWritableDestination(output)
        let sheet = try image(clip, times: times, columns: columns, threads: threads, cancellation: cancellation)
        let file = OutputFile(target: output)
        try file.complete(output: output, cancellation: cancellation) { try ImageFile.writePNG(sheet, to: file.temporary) }
    }

    /// A 5×7 bitmap font for the labels: digits, '.', '-', 's' and space. Each row is 5 bits, MSB left.
    static let glyphs: [Character: [UInt8]] = [
        "0": [0x0E, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0E],
        "1": [0x04, 0x0C, 0x04, 0x04, 0x04, 0x04, 0x0E],
        "2": [0x0E, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1F],
        "3": [0x1F, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0E],
        "4": [0x02, 0x06, 0x0A, 0x12, 0x1F, 0x02, 0x02],
        "5": [0x1F, 0x10, 0x1E, 0x01, 0x01, 0x11, 0x0E],
        "6": [0x06, 0x08, 0x10, 0x1E, 0x11, 0x11, 0x0E],
        "7": [0x1F, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08],
        "8": [0x0E, 0x11, 0x11, 0x0E, 0x11, 0x11, 0x0E],
        "9": [0x0E, 0x11, 0x11, 0x0F, 0x01, 0x02, 0x0C],
        ".": [0x00, 0x00, 0x00, 0x00, 0x00, 0x0C, 0x0C],
        "-": [0x00, 0x00, 0x00, 0x1F, 0x00, 0x00, 0x00],
        "s": [0x00, 0x00, 0x0E, 0x10, 0x0E, 0x01, 0x1E],
        " ": [0, 0, 0, 0, 0, 0, 0],
    ]

    /// Draws `text` in dark grey with its top-left corner at (x, y), each font pixel a `scale`² square.
    static func drawText(_ text: String, into px: inout [UInt8], width: Int, x: Int, y: Int, scale k: Int) {
        let height = px.count / 4 / width
        var cx = x
        for ch in text {
            let rows = glyphs[ch] ?? glyphs[" "]!
            for (r, bits) in rows.enumerated() {
                for c in 0..<5 where bits & (0x10 >> c) != 0 {
                    for dy in 0..<k {
                        for dx in 0..<k {
                            let px0 = cx + c * k + dx, py = y + r * k + dy
                            guard px0 >= 0, px0 < width, py >= 0, py < height else { continue }
                            let d = (py * width + px0) * 4
                            px[d] = 0x30
                            px[d + 1] = 0x30
                            px[d + 2] = 0x30
                        }
                    }
                }
            }
            cx += 6 * k
        }
    }
}
