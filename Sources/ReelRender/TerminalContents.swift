/// Terminal layers for the renderer: which screens a snapshot shows, each played ahead of the frame
/// into its `LayerPictures`.
import ReelScene

/// A screen a snapshot shows: the terminal layer, its recording and the second of it on screen.
public struct TerminalScreenRequest: Sendable, Equatable {
    public var layer: String
    public var terminal: TerminalProperties
    public var recordingTime: Double
}

extension SceneRenderer {
    /// The screens `snapshot` shows, each once, in the walk of the layers `emit` draws
    /// (`forEachDrawnLayer`): the times are the ones `terminalCommands` looks up, computed by the same
    /// function from the same presentation layers.
    public static func terminalScreens(in snapshot: Snapshot) -> [TerminalScreenRequest] {
        var out: [TerminalScreenRequest] = []
        var seen: Set<LayerPictures.Key> = []
        forEachDrawnLayer(in: snapshot) { layer in
            if layer.type == .terminal, let t = layer.properties.terminal, !layer.properties.bounds.isEmpty {
                let time = t.recordingTime(atLayerTime: layer.time)
                if seen.insert(LayerPictures.Key(layer: layer.name, fileTime: time)).inserted {
                    out.append(TerminalScreenRequest(layer: layer.name, terminal: t, recordingTime: time))
                }
            }
        }
        return out
    }
}
