/// From a clip and options to the encoder's settings: the container an output name asks for, the
/// checks on where it goes, and what is adapted (with the notes that say so).
import Foundation
import ReelGeometry
import ReelMedia
import ReelRaster
import ReelRender
import ReelScene

extension Reel {
    /// The container for an output path: from its extension, or a PNG sequence for a folder (a name
    /// ending in `/`, or an existing folder); `codec` decides when it only fits one.
    public static func container(for output: String, codec: VideoCodec? = nil) throws(ReelError) -> VideoContainer {
        var isDirectory: ObjCBool = false
        if output.hasSuffix("/") || codec == .png
            || (FileManager.default.fileExists(atPath: output, isDirectory: &isDirectory) && isDirectory.boolValue)
        {
            return .png
        }
        let ext = URL(fileURLWithPath: output).pathExtension
        guard let container = VideoContainer(pathExtension: ext) else {
            let supported = VideoContainer.allCases.filter { $0 != .png }.map { ".\($0.rawValue)" }.joined(separator: ", ")
            throw .usage(
                "\(output): unsupported output extension \(ext.isEmpty ? "(none)" : "'.\(ext)'")",
                fix: "name the output with one of \(supported), or end it with / for a PNG sequence"
                    + (ext.lowercased() == "png" ? " (one frame: reel still)" : ""))
        }
        return container
    }

    /// Checks the output path and the codec before any work is done.
    public static func checkOutput(_ output: String, codec: VideoCodec? = nil) throws(ReelError) -> VideoContainer {
        let container = try container(for: output, codec: codec)
        if let codec, !codec.containers.contains(container) {
            throw .usage(
                "\(output): \(codec.rawValue) cannot go in .\(container.rawValue)",
                fix: "name the output \(codec.containers.map { "*.\($0.rawValue)" }.joined(separator: " or "))")
        }
        if container == .png { try checkSequenceDestination(output) } else { try checkWritableDestination(output) }
        return container
    }

    /// The encoder settings for a clip and options, and the notes that explain what was adapted.
    public static func settings(for scene: Scene, container: VideoContainer, options: RenderOptions) throws(ReelError) -> (
        settings: VideoSettings, rate: FrameRate, flatten: Bool, notes: [Message]
    ) {
        var notes: [Message] = []
        let k = container.frameRateDivisor(numerator: scene.fps.numerator, denominator: scene.fps.denominator)
        guard let rate = FrameRate(numerator: scene.fps.numerator, denominator: scene.fps.denominator * k) else {
            throw .usage(
                "\(scene.fps) fps cannot be divided by \(k) for this format within the frame-rate limits",
                fix: "use a frame rate such as 30 or 60")
        }
        if k > 1 {
            notes.append(
                "GIF delays are whole centiseconds and players clamp delays under 2 cs, so \(scene.fps) fps is written as \(rate) fps (every \(k)th frame)"
            )
        }
        var settings = VideoSettings(
            width: scene.pixelWidth, height: scene.pixelHeight, frameRateNumerator: rate.numerator,
            frameRateDenominator: rate.denominator, container: container, codec: options.codec)
        settings.chroma = options.chroma
        if let depth = options.bitDepth { settings.bitDepth = depth }
        settings.crf = options.crf
        settings.preset = options.preset
        settings.loop = options.loop
        settings.quality = options.quality
        settings.lossless = options.lossless
        settings.gif = options.gif
        let transparent = scene.background.alpha < 1
        var flatten = false
        if transparent {
            if options.flatten || !settings.codec.carriesAlpha {
                flatten = true
                let matte = options.matte.map { colour($0) } ?? "white"
                notes.append(
                    options.flatten
                        ? "the transparent background is composited over \(matte) (\(Setting.matte))"
                        : "\(settings.codec.rawValue) has no alpha channel: the transparent background is composited over \(matte) (\(Setting.matte) to choose)"
                            + (settings.codec == .prores ? "; --codec prores-4444 keeps it" : "")
                )
            } else {
                settings.alpha = true
                if settings.codec == .gif {
                    notes.append("GIF alpha is one bit: pixels under alpha \(options.gif.alphaThreshold) are transparent")
                }
            }
        }
        if let problem = settings.problem { throw .usage(Message(problem), fix: nil) }
        if settings.encodedWidth != settings.width || settings.encodedHeight != settings.height {
            notes.append(
                "\(settings.codec.rawValue) \(settings.effectiveChroma.rawValue) needs even sides: \(settings.width)×\(settings.height) is encoded as \(settings.encodedWidth)×\(settings.encodedHeight), the last row/column repeated"
            )
        }
        return (settings, rate, flatten, notes)
    }

    static func colour(_ c: Color) -> String {
        func h(_ v: Double) -> String { String(format: "%02x", Int((min(max(v, 0), 1) * 255).rounded())) }
        return "#" + h(c.red) + h(c.green) + h(c.blue)
    }
}
