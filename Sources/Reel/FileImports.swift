/// The importer Reel gives the scene decoder for the files layers name, confined by `--sandbox`: for
/// `type: svg` and `type: lottie`, read by ReelLottie when it is a Lottie animation (told by its content)
/// and by ReelSVG otherwise, its root named `layer/svg` so that each element id becomes `layer/id`; for
/// `type: video` and the `audio` list, probed by ReelMedia; `type: terminal`, read by ReelTerminal; subtitle
/// files read as they are.
import Foundation
import ReelDocument
import ReelGeometry
import ReelLottie
import ReelMedia
import ReelSVG
import ReelScene

extension Reel {
    /// An SVG file as layers, for a scene made in Swift (what `type: svg` is in a scene file): a layer
    /// named `name` of `bounds` (the SVG's own size when nil) holding the drawing, fitted by `gravity`;
    /// each element with an id is the layer `name/id`. The notes say what the import left out.
    public static func svgLayer(
        contentsOf path: String, name: String, bounds: Rect? = nil, gravity: ContentsGravity = .resize
    ) throws(ReelError) -> (layer: Layer, notes: [String]) {
        let imported: ImportedLayers
        do {
            imported = try fileImporter(SceneFiles(document: "/(scene)", sandboxed: false))
                .importFile(ResolvedFile(name: path, path: path), name, ImportChoices())
        } catch {
            throw .scene(error)
        }
        var layer = Layer(name: name)
        layer.bounds = bounds ?? Rect(origin: .zero, size: imported.size)
        layer.contentsGravity = gravity
        layer.sublayers = [layer.fitted(imported)]
        return (layer, imported.notes)
    }

    /// Imports the files a scene names, each checked by `files`' rule first (confined with `--sandbox`,
    /// a regular file that can be read).
    static func fileImporter(_ files: SceneFiles) -> LayerImporter {
        LayerImporter { (file: ResolvedFile, name: String, choices: ImportChoices) throws(DocumentError) -> ImportedLayers in
            try files.checked(file, what: "SVG or Lottie file")
            let path = file.path
            if let document = try lottieContainer(path, animation: choices.animation, theme: choices.theme) {
                // A dotLottie archive's animation, or a Telegram sticker's.
                let (scene, notes) = try LottieImport.scene(document, file: path, prefix: name, slots: choices.slots)
                guard let canvas = scene.layers.first else { throw DocumentError(file: path, message: "has no layers") }
                return ImportedLayers(
                    layer: canvas, size: Size(width: scene.width, height: scene.height), notes: notes, duration: scene.duration)
            }
            if let (key, choice) = choices.animation.map({ ("animation", $0) }) ?? choices.theme.map({ ("theme", $0) }) {
                throw DocumentError(
                    file: path, message: "is not a dotLottie archive: there is no \(key) \"\(choice)\" to choose",
                    fix: "leave \"\(key)\" out, or name a .lottie file")
            }
            if let root = jsonRoot(path), LottieImport.looksLikeLottie(root) {
                // A Lottie animation (told by its content): its canvas, its layers named `name/…`.
                let (scene, notes) = try LottieImport.scene(
                    root: root, file: path, prefix: name, slots: choices.slots,
                    pictures: lottiePictures(root, file: path, files: files))
                guard let canvas = scene.layers.first else { throw DocumentError(file: path, message: "has no layers") }
                return ImportedLayers(
                    layer: canvas, size: Size(width: scene.width, height: scene.height), notes: notes, duration: scene.duration)
            }
            if !choices.slots.isEmpty {
                throw DocumentError(
                    file: path, message: "is not a Lottie animation: it has no slots to fill", fix: "leave \"slots\" out")
            }
            let svg = try SVGImport.load(contentsOf: path, name: name, rootName: "\(name)/svg")
            return ImportedLayers(
                layer: svg.layer, size: Size(width: svg.width, height: svg.height), notes: svg.warnings,
                pictureLocations: svg.pictureLocations)
        } probeVideo: { (file: ResolvedFile) throws(DocumentError) -> VideoFileFacts in
            try files.checked(file, what: "video")
            return try probeVideo(file.path)
        } probeAudio: { (file: ResolvedFile) throws(DocumentError) -> Double in
            try files.checked(file, what: "sound file")
            return try probeAudio(file.path)
        } readFile: { (file: ResolvedFile, maximumBytes: Int) throws(DocumentError) -> [UInt8] in
            try files.checked(file, what: "file")
            return try InputFiles.read(file.path, maximumBytes: maximumBytes, what: "a file")
        } probeTerminal: { (file: ResolvedFile, idleTimeLimit: Double?) throws(DocumentError) -> TerminalFileFacts in
            try files.checked(file, what: "terminal recording")
            return try probeTerminal(file.path, idleTimeLimit: idleTimeLimit)
        }
    }

    /// The pictures a Lottie file's image assets name beside it (`u` + `p`, from its folder: Bodymovin
    /// exports them to `images/`), as `data:` URIs, each file checked by the scene's rule (confined to its
    /// folder with `--sandbox`); one that cannot be read is left out, which the import notes.
    static func lottiePictures(_ root: JSONNode, file: String, files: SceneFiles) -> [String: String] {
        var pictures: [String: String] = [:]
        for (name, folder, p) in LottieContainer.externalPictures(in: root) {
            let picture = ResolvedFile(folder + p, in: file)
            guard (try? files.check(picture, what: "image")) != nil,
                let bytes = try? InputFiles.read(picture.path, maximumBytes: DocumentLimits.maximumBytes, what: "an image")
            else { continue }
            pictures[name] = LottieContainer.dataURI(bytes)
        }
        return pictures
    }

    /// The length of the sound in a file the scene's `audio` list names, once its first samples have
    /// decoded.
    static func probeAudio(_ path: String) throws(DocumentError) -> Double {
        do throws(MediaError) {
            let source = try AudioSource(path: path)
            _ = try source.read(from: 0, count: 1024)
            guard source.facts.duration > 0, source.facts.duration.isFinite else {
                throw MediaError(call: "avformat_find_stream_info(\(path))", message: "the sound has no length")
            }
            return source.facts.duration
        } catch {
            throw DocumentError(file: path, message: error.message)
        }
    }

    /// What a `type: video` layer's file says about its picture, once its first frame has decoded (so
    /// that a file FFmpeg opens but cannot decode fails before anything renders).
    static func probeVideo(_ path: String) throws(DocumentError) -> VideoFileFacts {
        do throws(MediaError) {
            let source = try VideoSource(path: path, width: 16, height: 16, maximumPixels: Scene.maximumPixelArea)
            _ = try source.picture(at: 0)
            let facts = source.facts
            guard facts.duration > 0, facts.duration.isFinite else {
                throw MediaError(call: "avformat_find_stream_info(\(path))", message: "the video has no length")
            }
            return VideoFileFacts(
                size: Size(width: Double(facts.width), height: Double(facts.height)), duration: facts.duration,
                hasAudio: facts.hasAudio)
        } catch {
            throw DocumentError(file: path, message: error.message)
        }
    }
}
