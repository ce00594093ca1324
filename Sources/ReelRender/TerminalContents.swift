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
    /// The screens `snapshot` shows, each once, in a walk of the tree `emit` draws (sublayers, every
    /// replicator instance, masks; hidden and transparent subtrees skipped): the times are the ones
    /// `terminalCommands` looks up, computed by the same function from the same presentation layers.
    public static func terminalScreens(in snapshot: Snapshot) -> [TerminalScreenRequest] {
        var out: [TerminalScreenRequest] = []
        var seen: Set<LayerPictures.Key> = []
        func visit(_ layer: PresentationLayer) {
            guard !layer.properties.hidden, layer.properties.opacity > 0 else { return }
            if layer.type == .terminal, let t = layer.properties.terminal, !layer.properties.bounds.isEmpty {
                let time = t.recordingTime(atLayerTime: layer.time)
                if seen.insert(LayerPictures.Key(layer: layer.name, fileTime: time)).inserted {
                    out.append(TerminalScreenRequest(layer: layer.name, terminal: t, recordingTime: time))
                }
            }
            for s in layer.sublayers { visit(s) }
            for instance in layer.instances.dropFirst() { for s in instance { visit(s) } }
            if let mask = layer.mask { visit(mask) }
        }
        for i in snapshot.top.indices { snapshot.top.withLayer(at: i) { visit($0) } }
        return out
    }
}
