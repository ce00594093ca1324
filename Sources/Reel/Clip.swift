/// A scene ready to render and how one is loaded: the scene file decoded, overrides applied, images
/// decoded (confined with `--sandbox`), each failure located in the scene file.
import Foundation
import ReelDocument
import ReelGeometry
import ReelLottie
import ReelMedia
import ReelRaster
import ReelRender
import ReelSVG
import ReelScene
import ReelTerminal
import ReelText

/// A scene ready to render: the model, the images its layers show and the fonts its text is set in.
public struct Clip: Sendable {
    public var scene: Scene
    /// Decoded `contents` images, by the name the scene gives them.
    public var images: [String: RasterImage]
    /// The fonts text layers name, opened, and the typesetter.
    public var text: TextResources
    /// What loading noticed and a render says once (a fallback font used, text overflowing its bounds).
    public var notes: [Message]
    /// SVG files shown as `contents`, imported, by the name the scene gives them.
    public var vectors: [String: VectorContents] = [:]
    /// Each video layer's picture size in pixels: the most it is drawn at, at most the file's own.
    public var videoSizes: [String: (width: Int, height: Int)] = [:]
    /// The recordings terminal layers play, by file path, read once when the clip is loaded (and checked
    /// by `--sandbox` then): a render plays them from memory, never from a file that may have changed.
    public var recordings: [String: TerminalRecording] = [:]

    public init(scene: Scene, images: [String: RasterImage] = [:], text: TextResources = TextResources(), notes: [Message] = []) {
        self.scene = scene
        self.images = images
        self.text = text
        self.notes = notes
    }

    /// A renderer for this clip (its images, fonts and vector contents) drawing with `threads` threads.
    /// Video pictures are an input of each frame (see `videoDecoders()`), not part of the renderer.
    public func renderer(threads: Int) -> SceneRenderer {
        SceneRenderer(rasterizer: Rasterizer(threads: threads), images: images, text: text, vectors: vectors)
    }
}
/// The public facade: load a scene, render it to a file.
public enum Reel {
    /// Reads a scene file, applies overrides, and decodes the images its layers name (relative to the
    /// scene file's folder).
    /// With `sandboxed`, every image must lie inside the scene file's folder (see `Sandbox`).
    /// The decoded pictures must fit in `pictures` (see `PictureBudget`): each is refused from its
    /// header, before it is decoded, if it would not.
    public static func load(
        _ path: String, overrides: SceneOverrides = SceneOverrides(), sandboxed: Bool = false,
        pictures: PictureBudget = .standard
    ) throws(ReelError) -> Clip {
        try prepare(
            try loadScene(path, overrides: overrides, sandboxed: sandboxed), file: path, sandboxed: sandboxed,
            pictures: pictures)
    }

    /// A scene made with the Swift API, ready to render: the images its layers show and the fonts its
    /// text names are opened, file names relative to `folder`.
    public static func clip(
        for scene: Scene, folder: String = FileManager.default.currentDirectoryPath, pictures: PictureBudget = .standard
    ) throws(ReelError) -> Clip {
        try prepare(
            scene, file: URL(fileURLWithPath: folder).appendingPathComponent("(scene)").path, sandboxed: false,
            pictures: pictures)
    }

    /// Decodes images and opens fonts; `file` is the scene file (its folder is where names are relative to).
    static func prepare(_ scene: Scene, file path: String, sandboxed: Bool, pictures: PictureBudget) throws(ReelError)
        -> Clip
    {
        let files = SceneFiles(document: path, sandboxed: sandboxed)
        var images: [String: RasterImage] = [:]
        var vectors: [String: VectorContents] = [:]
        var svgNotes: [Message] = []
        // Every picture is held decoded for the whole render: each is counted against the budget from its
        // header before it is decoded, and once more by its decoded size (a header Reel cannot read).
        var held = 0
        // Where a picture is named, for a refusal.
        struct Place {
            var file: String
            var reference: SourceReference?
            var picture: String
        }
        func overBudget(_ width: Int, _ height: Int, _ place: Place) -> ReelError {
            .pictures(
                PictureBudgetError(
                    file: place.file, location: place.reference?.location, path: place.reference?.path,
                    picture: place.picture, width: width, height: height, held: held, budget: pictures))
        }
        /// A picture's size from its header, checked against what is left before it is decoded: one
        /// over the budget is never allocated.
        func admitHeader(_ size: (Int, Int)?, _ place: Place) throws(ReelError) {
            guard let (w, h) = size, w > 0, h > 0, w <= Scene.maximumPixelArea / h else {
                return  // unreadable, or above the size of any picture: the decoder refuses it, saying why
            }
            guard PictureBudget.bytes(width: w, height: h) <= pictures.bytes - held else { throw overBudget(w, h, place) }
        }
        /// The pixels a picture whose header was not read may have, so that FFmpeg refuses a larger one
        /// from its own header (within the size of any picture).
        var pixelsLeft: Int { min(Scene.maximumPixelArea, max(1, (pictures.bytes - held) / 4)) }
        func admit(_ image: RasterImage, _ place: Place) throws(ReelError) -> RasterImage {
            let bytes = PictureBudget.bytes(width: image.width, height: image.height)
            guard bytes <= pictures.bytes - held else { throw overBudget(image.width, image.height, place) }
            held += bytes
            return image
        }
        /// The pictures a layer's SVG filters show (feImage), decoded like contents.
        func filterImages(of layer: Layer, file: String, reference: SourceReference?, failure: (String) -> ReelError)
            throws(ReelError)
        {
            for name in layer.filterEffects.flatMap(\.imageNames) where images[name] == nil && DataURI.isDataURI(name) {
                let shown = "\"\(DataURI.abbreviated(name))\""
                let place = Place(
                    file: file, reference: reference,
                    picture: reference == nil ? "layer \"\(layer.name)\"'s filter shows \(shown), which" : shown)
                images[name] = try decodeDataURI(name, place, failure: failure)
            }
        }
        func visit(_ layer: Layer) throws(ReelError) {
            if !layer.filterEffects.isEmpty {
                let place = scene.contentsReferences[layer.name]
                try filterImages(of: layer, file: path, reference: place) { message in
                    .scene(
                        SceneError(
                            file: path, location: place?.location, path: place?.path,
                            message: "layer \"\(layer.name)\" has a filter image that cannot be read: \(message)",
                            fix: "embed a PNG, JPEG, WebP or GIF"))
                }
            }
            if let name = layer.contents, images[name] == nil, vectors[name] == nil {
                let resolved = files.resolve(name)
                let file = resolved.path
                let place = scene.contentsReferences[layer.name]
                func failure(_ message: String, fix: String? = nil) -> ReelError {
                    .scene(SceneError(file: path, location: place?.location, path: place?.path, message: message, fix: fix))
                }
                // Without a place in the file (a Lottie asset, a `type: svg` layer's <image>), the layer says which.
                let shown = "\"\(DataURI.abbreviated(name))\""
                let picture = Place(
                    file: path, reference: place, picture: place == nil ? "layer \"\(layer.name)\" shows \(shown), which" : shown)
                if DataURI.isDataURI(name) {
                    // The picture is in the string: no file to find, so nothing for the sandbox to confine.
                    images[name] = try decodeDataURI(name, picture) { message in
                        failure(
                            "\"\(DataURI.abbreviated(name))\" cannot be read as an image: \(message)",
                            fix: "give a base64 PNG, JPEG, WebP or GIF: data:image/png;base64,…")
                    }
                    return try visitSublayers(of: layer)
                }
                do throws(SceneFiles.Refusal) {
                    try files.check(resolved, what: "image")
                } catch {
                    throw failure("\"\(name)\": \(error.message)", fix: error.fix)
                }
                if ["svg", "svgz"].contains(URL(fileURLWithPath: file).pathExtension.lowercased()) {
                    var embedded = Layer(name: "")
                    var locations: [String: SourceLocation] = [:]
                    // Drawn as vectors, fitted by contentsGravity at whatever size the bounds have: imported by
                    // the importer `type: svg` layers use, presented once (contents are still).
                    do {
                        let svg = try fileImporter(files).importFile(resolved, layer.name + "/contents", ImportChoices())
                        vectors[name] = VectorContents(layer: Scene.present(svg.layer, at: 0), size: svg.size)
                        svgNotes += svg.notes.map { Message("\(name): \($0)") }
                        embedded = svg.layer
                        locations = svg.pictureLocations
                    } catch {
                        throw failure("\"\(name)\" cannot be read as SVG: \(error.description)", fix: "give a valid SVG file")
                    }
                    // Its <image> elements' pictures are drawn from the same table as the scene's.
                    try embeddedImages(of: embedded, file: file, locations: locations) { message in
                        failure("\"\(name)\" has an image that cannot be read: \(message)", fix: "embed a PNG, JPEG, WebP or GIF")
                    }
                } else {
                    let decoded: RasterImage?
                    try admitHeader(headerSize(ofFile: file), picture)
                    do {
                        let still = try ImageFile.read(path: file, maximumPixels: pixelsLeft)
                        decoded = RasterImage(width: still.width, height: still.height, premultipliedRGBA: still.rgba)
                    } catch {
                        throw failure(
                            "\"\(name)\" cannot be read as an image: \(error.message)", fix: "give a PNG, JPEG or WebP file")
                    }
                    if let decoded { images[name] = try admit(decoded, picture) }
                }
            }
            try visitSublayers(of: layer)
        }
        func visitSublayers(of layer: Layer) throws(ReelError) {
            for sublayer in layer.sublayers { try visit(sublayer) }
            if let mask = layer.mask { try visit(mask) }
        }
        func decodeDataURI(_ uri: String, _ place: Place, failure: (String) -> ReelError) throws(ReelError) -> RasterImage {
            let data: DataURI
            do {
                data = try DataURI(uri)
            } catch {
                throw failure(error.message)
            }
            try admitHeader(PictureHeader.pixelSize(of: data.bytes), place)
            let still: StillImage
            do {
                still = try ImageFile.read(dataURI: data, maximumPixels: pixelsLeft)
            } catch {
                throw failure(error.message)
            }
            if let image = RasterImage(width: still.width, height: still.height, premultipliedRGBA: still.rgba) {
                return try admit(image, place)
            }
            throw failure("the decoded picture's size and pixel count disagree")
        }
        func embeddedImages(
            of layer: Layer, file: String, locations: [String: SourceLocation], failure: (String) -> ReelError
        ) throws(ReelError) {
            if let uri = layer.contents, images[uri] == nil, DataURI.isDataURI(uri) {
                let reference = locations[layer.name].map(SVGImport.pictureReference)
                let place = Place(file: file, reference: reference, picture: "\"\(DataURI.abbreviated(uri))\"")
                images[uri] = try decodeDataURI(uri, place, failure: failure)
            }
            if !layer.filterEffects.isEmpty {
                try filterImages(
                    of: layer, file: file, reference: locations[layer.name].map(SVGImport.pictureReference), failure: failure)
            }
            for sublayer in layer.sublayers {
                try embeddedImages(of: sublayer, file: file, locations: locations, failure: failure)
            }
            if let mask = layer.mask { try embeddedImages(of: mask, file: file, locations: locations, failure: failure) }
        }
        for layer in scene.layers { try visit(layer) }
        // Text in SVG files shown as contents names its fonts as lists, which never fail to open.
        var vectorFonts: [String] = []
        func collect(_ layer: PresentationLayer) {
            if layer.type == .text {
                for name in layer.text.fontNames where !vectorFonts.contains(name) { vectorFonts.append(name) }
            }
            layer.sublayers.forEach(collect)
            if let mask = layer.mask { collect(mask) }
        }
        for name in vectors.keys.sorted() { collect(vectors[name]!.layer) }
        let captionFonts = scene.captions.map { [$0.font] } ?? []
        var recordings: [String: TerminalRecording] = [:]
        for (name, t) in scene.terminalLayers where recordings[t.file] == nil {
            let place = scene.contentsReferences[name]
            do {
                try files.checked(ResolvedFile(name: t.name, path: t.file), what: "terminal recording")
                recordings[t.file] = try TerminalRecording.read(contentsOf: t.file)
            } catch {
                throw .scene(
                    SceneError(
                        file: path, location: place?.location, path: place?.path,
                        message: "terminal layer \"\(name)\": \(error.description)", fix: error.fix))
            }
        }
        var text = try loadFonts(for: scene, file: path, sandboxed: sandboxed, also: vectorFonts + captionFonts)
        // Captions become text layers over everything, sized as the typesetter lays their text out.
        var scene = scene
        text.terminalFaces = try prepareTerminals(&scene, file: path)
        // A scene whose only text is a terminal's still falls back (CJK, emoji) from the installed fonts.
        if !text.terminalFaces.isEmpty && text.fonts.isEmpty { text.typesetter = FontLibrary.shared.typesetter() }
        if let captions = scene.captions {
            scene.layers.append(captionsLayer(captions, scene: scene, text: text))
        }
        let notes = scene.importNotes.map { Message($0) } + svgNotes + textNotes(for: scene, text: text)
        var clip = Clip(scene: scene, images: images, text: text, notes: notes)
        clip.vectors = vectors
        clip.videoSizes = videoSizes(for: scene)
        clip.recordings = recordings
        return clip
    }

    /// A JSON file's parsed root (read and parsed once, to tell a Lottie animation from a scene), or
    /// nil for what is not readable JSON within the size limit (the decoder then says why).
    static func jsonRoot(_ path: String) -> JSONNode? {
        guard let data = try? InputFiles.read(path, maximumBytes: DocumentLimits.maximumBytes, what: "a scene"),
            data.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) == UInt8(ascii: "{")
        else { return nil }
        return try? JSONParser.parse([UInt8](data))
    }

    /// The animation a Lottie container holds (a dotLottie archive's `animation`, its first by default,
    /// or a Telegram sticker's), nil when the file is no container.
    static func lottieContainer(_ path: String, animation: String?, theme: String? = nil) throws(DocumentError)
        -> LottieDocument?
    {
        guard let prefix = InputFiles.prefix(of: path, count: 64) else { return nil }
        guard let kind = LottieContainer.kind(path: path, prefix: prefix) else {
            if let error = LottieContainer.misnamed(path: path, prefix: prefix) { throw error }
            return nil
        }
        return try LottieContainer.read(path: path, kind: kind, animation: animation, theme: theme)
    }

    /// Whether the file is a terminal recording: named `.cast`, or starting as an asciicast does.
    static func isRecording(_ path: String) -> Bool {
        URL(fileURLWithPath: path).pathExtension.lowercased() == "cast"
            || (InputFiles.prefix(of: path, count: 4096).map(TerminalRecording.looksLikeAsciicast) ?? false)
    }

    /// Whether the file starts with gzip's magic number: read as SVG, which inflates it (a scene file
    /// compressed would otherwise be "invalid JSON: unexpected byte 0x1f").
    static func isGzip(_ path: String) -> Bool {
        InputFiles.prefix(of: path, count: 2).map(Gzip.isCompressed) ?? false
    }

    /// A picture file's size from its header (PNG, JPEG, WebP, GIF), read from its first 256 KiB (a
    /// JPEG's metadata can push its frame header that far); nil for other formats or a header further in.
    static func headerSize(ofFile path: String) -> (Int, Int)? {
        InputFiles.prefix(of: path, count: 256 << 10).flatMap { PictureHeader.pixelSize(of: $0) }
    }

    /// The scene a file describes, overrides applied; `type: svg` layers imported (with `sandboxed`,
    /// only from inside the scene's folder).
    public static func loadScene(_ path: String, overrides: SceneOverrides = SceneOverrides(), sandboxed: Bool = false)
        throws(ReelError) -> Scene
    {
        var scene: Scene
        // An SVG or Lottie file alone: its size comes from the file, not from keys a user wrote.
        var imported: String?
        let importer = fileImporter(SceneFiles(document: path, sandboxed: sandboxed))
        let recording = isRecording(path)
        if !recording, let setting = overrides.terminalSetting {
            throw .usage("\(setting) applies to a terminal recording rendered alone", fix: "set it on the scene's terminal layer")
        }
        var container: LottieDocument?
        do {
            container = try lottieContainer(path, animation: overrides.animation, theme: overrides.lottieTheme)
        } catch {
            throw .scene(error)
        }
        if container == nil,
            let setting = overrides.animation != nil ? Setting.animation : overrides.lottieTheme != nil ? .lottieTheme : nil
        {
            throw .usage(
                "\(setting) chooses one of a dotLottie archive's \(setting == .animation ? "animations" : "themes"), and \(path) is not one",
                fix: "leave it out, or render a .lottie file")
        }
        if recording {
            scene = try terminalScene(path, overrides: overrides)
            imported = "recording"
        } else {
            do {
                if let container {
                    // A dotLottie archive's animation, or a Telegram sticker's.
                    let (lottie, warnings) = try LottieImport.scene(container, file: path, slots: overrides.variables)
                    scene = lottie
                    scene.importNotes = warnings.map { "\(path): \($0)" }
                    imported = "animation"
                } else if ["svg", "svgz"].contains(URL(fileURLWithPath: path).pathExtension.lowercased()) || Self.isGzip(path) {
                    // An SVG file alone is a one-layer scene the size of its viewport.
                    let (svg, warnings) = try SVGImport.scene(contentsOf: path)
                    scene = svg
                    scene.importNotes = warnings.map { "\(path): \($0)" }
                    imported = "SVG"
                } else if let root = jsonRoot(path) {
                    if LottieImport.looksLikeLottie(root) {
                        // A Lottie animation, told by its content whatever the file's name.
                        let (lottie, warnings) = try LottieImport.scene(
                            root: root, file: path, slots: overrides.variables,
                            pictures: lottiePictures(root, file: path, files: SceneFiles(document: path, sandboxed: sandboxed)))
                        scene = lottie
                        scene.importNotes = warnings.map { "\(path): \($0)" }
                        imported = "animation"
                    } else {
                        scene = try SceneDecoder.decode(
                            root: root, file: path, variables: overrides.variables, importer: importer)
                    }
                } else {
                    scene = try SceneDecoder.load(contentsOf: path, variables: overrides.variables, importer: importer)
                }
            } catch {
                throw .scene(error)
            }
        }
        if let fps = overrides.fps { scene.fps = fps }
        // A recording is laid out at the output's scale and size already (`terminalScene`).
        if let scale = overrides.scale, !recording { scene.scale = scale }
        if let speed = overrides.speed {
            let speed = try Speed(speed).factor
            scene.speed = speed
            scene.duration /= speed
        }
        if let duration = overrides.duration { scene.duration = duration }
        if let blur = overrides.motionBlur { scene.motionBlur = blur }
        if let w = overrides.width, !recording { scene.scale = Double(try OutputWidth(w).pixels) / scene.width }
        if let size = overrides.size, !recording {
            let size = try OutputSettings.PixelSize(checking: size.width, size.height)
            scene = scene.fitted(pixelWidth: size.width, pixelHeight: size.height)
        }
        // The decoder validated the scene as written, so a problem now comes from an override, or from an
        // SVG's or animation's size (whose fix is to render it at a size that fits).
        if let (_, message, _) = scene.validationProblem(), let imported {
            throw .usage("\(path): \(message)", fix: "render the \(imported) at a size that fits, e.g. \(Setting.width, "1024")")
        }
        if let (key, message, fix) = scene.validationProblem() {
            let setting: Setting = ["fps": .fps, "duration": overrides.duration == nil ? .speed : .duration][key] ?? .scale
            throw .usage("\(setting): \(message)", fix: Message(fix))
        }
        return scene
    }
}
