/// The GIF palette pass: one palette for the whole clip, built before encoding from frames sampled
/// evenly over it (the quantizer itself lives in ReelMedia).
import ReelMedia
import ReelRender
import ReelScene

extension Reel {
    static func wholeClipPalette(
        into settings: inout VideoSettings, renderer: SceneRenderer, scene drawn: Scene, rate: FrameRate, frames: Int,
        options: RenderOptions
    ) throws(ReelError) {
        // One palette for the whole clip, from frames sampled evenly over it.
        var builder = GIFPaletteBuilder()
        let samples = max(1, min(options.gifPaletteSamples, frames))
        var previous: [UInt8]?
        for j in 0..<samples {
            try options.cancellation.check()
            let i = samples == 1 ? 0 : j * (frames - 1) / (samples - 1)
            let t = rate.time(ofFrame: i)
            do {
                let f = try renderer.frame(for: drawn, at: t)
                builder.add(
                    rgba: f.pixels, width: f.width, height: f.height, alphaThreshold: settings.gif.alphaThreshold,
                    previous: previous)
                previous = f.pixels
            } catch {
                throw ReelError.raster(error, time: t)
            }
        }
        let palette = builder.palette(count: settings.gif.colors)
        settings.gif.palette = palette.isEmpty ? [0] : palette  // a clip with nothing opaque
    }
}
