/// Files a scene imports as layer trees (`type: svg` with a `file`): the hook through which the modules
/// that read other formats, which depend on this one, feed the scene decoder.
import ReelDocument
import ReelGeometry

/// A file imported as layers: the tree's root (its viewport, `size` user units, origin at the top left,
/// clipped), and what the import left out.
public struct ImportedLayers: Sendable {
    public var layer: Layer
    public var size: Size
    public var notes: [String]
    /// An animation's length in seconds (a Lottie's), nil for a still picture: the importing layer's
    /// timing `duration` when it gives none, so that `repeatCount` repeats the whole animation.
    public var duration: Double?
    /// Where each layer that shows an embedded picture (an SVG `<image>`) is in the file, by layer name:
    /// a picture that cannot be decoded is named by its line.
    public var pictureLocations: [String: SourceLocation] = [:]

    public init(
        layer: Layer, size: Size, notes: [String] = [], duration: Double? = nil,
        pictureLocations: [String: SourceLocation] = [:]
    ) {
        self.layer = layer
        self.size = size
        self.notes = notes
        self.duration = duration
        self.pictureLocations = pictureLocations
    }
}

extension Layer {
    /// An imported file's root placed in this layer's bounds by its `contentsGravity` (the root keeps
    /// its own size and viewport; a transform scales it into the frame the gravity gives).
    public func fitted(_ imported: ImportedLayers) -> Layer {
        var root = imported.layer
        let size = imported.size
        guard size.width > 0, size.height > 0 else { return root }
        let place = self.contentsGravity.frame(for: size, in: self.bounds)
        root.anchorPoint = .zero
        root.position = place.origin
        root.transform = Transform3D.scale(place.width / size.width, place.height / size.height, 1)
        return root
    }
}

/// Imports the file a scene names (the name as written and the path it means, which the importer
/// checks by `SceneFiles`' rule) as layers named under `name` (`name/id` for an element with an id).
/// A failure is a `DocumentError` about that file; the decoder places it at the `file` key that named it.
/// What a scene's layer asks of the Lottie file it imports beyond its name: which of a dotLottie
/// archive's animations (nil: its manifest's first) and themes (nil: the animation's initial one), and
/// values for the animation's slots by id.
public struct ImportChoices: Sendable {
    public var animation: String?
    public var theme: String?
    public var slots: [String: JSONNode]

    public init(animation: String? = nil, theme: String? = nil, slots: [String: JSONNode] = [:]) {
        self.animation = animation
        self.theme = theme
        self.slots = slots
    }
}

public struct LayerImporter: Sendable {
    public var importFile:
        @Sendable (_ file: ResolvedFile, _ name: String, _ choices: ImportChoices) throws(DocumentError) -> ImportedLayers
    /// What a `type: video` layer's file says about its picture (a failure: it cannot be played); nil
    /// when the reader opens no video.
    public var probeVideo: (@Sendable (_ file: ResolvedFile) throws(DocumentError) -> VideoFileFacts)?
    /// What a `type: terminal` layer's recording says: its size and its length once pauses past the idle
    /// limit are cut (nil: the recording's own limit); a failure: it cannot be read. Nil when the reader
    /// opens no recordings.
    public var probeTerminal:
        (@Sendable (_ file: ResolvedFile, _ idleTimeLimit: Double?) throws(DocumentError) -> TerminalFileFacts)?
    /// The length in seconds of the sound in a file the scene's `audio` list names (a failure: it
    /// cannot be played); nil when the reader opens no sound.
    public var probeAudio: (@Sendable (_ file: ResolvedFile) throws(DocumentError) -> Double)?
    /// The bytes of a file the scene reads as it is decoded (subtitles), confined as the other files
    /// are; nil when the reader opens none.
    public var readFile: (@Sendable (_ file: ResolvedFile, _ maximumBytes: Int) throws(DocumentError) -> [UInt8])?

    public init(
        _ importFile:
            @escaping @Sendable (_ file: ResolvedFile, _ name: String, _ choices: ImportChoices) throws(DocumentError) ->
            ImportedLayers,
        probeVideo: (@Sendable (_ file: ResolvedFile) throws(DocumentError) -> VideoFileFacts)? = nil,
        probeAudio: (@Sendable (_ file: ResolvedFile) throws(DocumentError) -> Double)? = nil,
        readFile: (@Sendable (_ file: ResolvedFile, _ maximumBytes: Int) throws(DocumentError) -> [UInt8])? = nil,
        probeTerminal: (@Sendable (_ file: ResolvedFile, _ idleTimeLimit: Double?) throws(DocumentError) -> TerminalFileFacts)? =
            nil
    ) {
        self.probeTerminal = probeTerminal
        self.importFile = importFile
        self.probeVideo = probeVideo
        self.probeAudio = probeAudio
        self.readFile = readFile
    }
}
