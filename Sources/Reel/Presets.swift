import Foundation
import ReelGeometry
import ReelMedia
import ReelScene

extension Reel {
    /// The names of the presets shipped with Reel, sorted.
    public static var presetNames: [String] { BuiltInPresets.files.keys.sorted() }

    /// A shipped preset by name, or a preset file by path (anything with a `/` or a `.yaml`/`.yml`/`.json`
    /// extension).
    public static func preset(_ nameOrPath: String) throws(ReelError) -> Preset {
        let ext = (nameOrPath as NSString).pathExtension.lowercased()
        if nameOrPath.contains("/") || ["yaml", "yml", "json"].contains(ext) {
            guard FileManager.default.fileExists(atPath: nameOrPath) else {
                throw .usage("--preset \(nameOrPath): no such file", fix: "check the path, or use a shipped preset: reel presets")
            }
            do {
                return try Preset.load(contentsOf: nameOrPath)
            } catch {
                throw .scene(error)
            }
        }
        guard let text = BuiltInPresets.files[nameOrPath] else {
            let names = presetNames
            let suggestion = closest(nameOrPath, in: names).map { "did you mean \"\($0)\"? " } ?? ""
            throw .usage(
                "--preset: there is no preset \"\(nameOrPath)\"", fix: "\(suggestion)presets: \(names.joined(separator: ", "))")
        }
        do {
            return try Preset.decode(yaml: text, file: "presets/\(nameOrPath).yaml", name: nameOrPath)
        } catch {
            throw .scene(error)
        }
    }

    /// Applies a preset's values to options and scene overrides (the command line then overrides these).
    public static func apply(_ p: Preset, to options: inout RenderOptions, overrides: inout SceneOverrides) {
        if let c = p.codec { options.codec = VideoCodec(rawValue: c) }
        if let c = p.chroma { options.chroma = ChromaSubsampling(rawValue: c) }
        if let b = p.bitDepth { options.bitDepth = b }
        if let c = p.crf { options.crf = c }
        if let e = p.encoderPreset { options.preset = e }
        if let l = p.loop { options.loop = l }
        if let q = p.quality { options.quality = q }
        if let l = p.lossless { options.lossless = l }
        if let m = p.matte { options.matte = m }
        if let f = p.flatten { options.flatten = f }
        if let c = p.colors { options.gif.colors = c }
        if let d = p.dither { options.gif.dither = GIFOptions.Dither(rawValue: d) ?? .bayer }
        if let a = p.alphaThreshold { options.gif.alphaThreshold = a }
        if let f = p.fps { overrides.fps = FrameRate(parsing: f) }
        if let s = p.scale { overrides.scale = s }
        if let w = p.width { overrides.width = w }
        if let s = p.size { overrides.size = (s[0], s[1]) }
    }
}

extension Scene {
    /// The clip scaled to fit `width × height` pixels and centred on its own background (letterboxed);
    /// what lies outside the original canvas stays hidden: covered by bars of the background colour when
    /// it is opaque (cheap: four fills), clipped when it is not (an offscreen group).
    public func fitted(pixelWidth: Int, pixelHeight: Int) -> Scene {
        let k = min(Double(pixelWidth) / width, Double(pixelHeight) / height)
        var out = self
        out.scale = k
        out.width = Double(pixelWidth) / k
        out.height = Double(pixelHeight) / k
        var frame = Layer(name: "reel.fit")
        frame.bounds = Rect(x: 0, y: 0, width: width, height: height)
        frame.position = Point(x: out.width / 2, y: out.height / 2)
        frame.sublayers = layers
        out.layers = [frame]
        let mx = (out.width - width) / 2, my = (out.height - height) / 2
        if background.alpha >= 1 {
            // Bars over the margins, a point past the canvas edge each way against anti-aliasing seams.
            for (i, r) in [
                Rect(x: -1, y: -1, width: out.width + 2, height: my + 1),
                Rect(x: -1, y: my + height, width: out.width + 2, height: my + 1),
                Rect(x: -1, y: -1, width: mx + 1, height: out.height + 2),
                Rect(x: mx + width, y: -1, width: mx + 1, height: out.height + 2),
            ].enumerated() where r.width > 1 && r.height > 1 {
                var bar = Layer(name: "reel.fit.bar\(i)")
                bar.bounds = Rect(x: 0, y: 0, width: r.width, height: r.height)
                bar.position = Point(x: r.minX + r.width / 2, y: r.minY + r.height / 2)
                bar.backgroundColor = background
                out.layers.append(bar)
            }
        } else {
            out.layers[0].masksToBounds = true
        }
        return out
    }
}
