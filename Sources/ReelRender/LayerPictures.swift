/// A frame's media, prepared ahead of it and handed to the renderer with its snapshot: video layers'
/// pictures and terminal layers' screens.
import ReelRaster
import ReelTerminal

/// One frame's media: the picture each video layer shows, by layer name and file time, decoded before
/// the frame's display list is made, and the screen each terminal layer shows, by layer name and
/// recording time, played before it. A replicated layer shows several times in one frame. A layer with
/// nothing here is drawn without it (its background, border and sublayers still are).
public struct LayerPictures: Sendable, Equatable {
    public struct Key: Hashable, Sendable {
        public var layer: String
        public var fileTime: Double
    }

    private var pictures: [Key: RasterImage] = [:]
    private var screens: [Key: TerminalScreen] = [:]

    public init() {}

    public var isEmpty: Bool { pictures.isEmpty && screens.isEmpty }

    /// The screen a terminal layer shows at a time of its recording.
    public subscript(screenOf layer: String, at recordingTime: Double) -> TerminalScreen? {
        get { screens[Key(layer: layer, fileTime: recordingTime)] }
        set { screens[Key(layer: layer, fileTime: recordingTime)] = newValue }
    }

    /// The layer's screen at the recording time nearest `recordingTime` (the earlier of two as near):
    /// what a motion-blur sample between the frame's own times shows (screens are played for the frame's
    /// time; a terminal's text does not smear, the layer's motion does).
    public func nearestScreen(of layer: String, at recordingTime: Double) -> TerminalScreen? {
        if let exact = screens[Key(layer: layer, fileTime: recordingTime)] { return exact }
        var best: (distance: Double, time: Double, screen: TerminalScreen)?
        for (key, screen) in screens where key.layer == layer {
            let d = abs(key.fileTime - recordingTime)
            if best == nil || (d, key.fileTime) < (best!.distance, best!.time) { best = (d, key.fileTime, screen) }
        }
        return best?.screen
    }

    public subscript(layer layer: String, at fileTime: Double) -> RasterImage? {
        get { pictures[Key(layer: layer, fileTime: fileTime)] }
        set { pictures[Key(layer: layer, fileTime: fileTime)] = newValue }
    }
}
